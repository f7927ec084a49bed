#include "elicit/jsonrpc/connection.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "elicit/jsonrpc/event_thread.hpp"
#include "json_fast.hpp"

namespace elicit::jsonrpc {

using Clock = std::chrono::steady_clock;

namespace {

// Once the handlers are done with a peer's request or notification, its params are taken apart the
// cheap way (detail::dispose: nlohmann's destructor moves every descendant onto a heap stack first).
void dispose_params(Message& m) noexcept {
  if (auto* request = std::get_if<Request>(&m)) {
    detail::dispose(request->params);
  } else if (auto* notification = std::get_if<Notification>(&m)) {
    detail::dispose(notification->params);
  }
}

}  // namespace

struct Responder::State {
  std::weak_ptr<Connection::Impl> session;
  RequestId id;
  std::atomic<bool> answered{false};
  std::atomic<bool> cancelled{false};  // the peer cancelled it
  std::mutex mutex;
  bool ended = false;  // cancelled, or the session ended: the callbacks have run
  std::vector<std::function<void()>> cancel_callbacks;
  // Responder::on_answered: taken by the first end it sees.
  std::function<void(const Answered&)> observer;
  bool observed = false;
  Answered how;  // once observed (its `error` not kept)

  // Runs the cancel callbacks once (peer cancel or session end).
  void fire() {
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (ended) return;
      ended = true;
      callbacks.swap(cancel_callbacks);
    }
    for (auto& f : callbacks) f();
    // Not answered by now: it never will be (a handler's later answer is ignored or dropped).
    if (!answered) observe(Answered{Answered::Kind::cancelled, nullptr, false});
  }

  // Reports how the request ended to the observer, once.
  void observe(const Answered& a) {
    std::function<void(const Answered&)> f;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (observed) return;
      observed = true;
      how = Answered{a.kind, nullptr, a.input_required};
      f.swap(observer);
    }
    if (f) f(a);
  }
};

namespace {

bool names_input_required(const nlohmann::json& result) {
  if (!result.is_object()) return false;
  const auto it = result.find("resultType");
  return it != result.end() && it->is_string() && it->get_ref<const std::string&>() == "input_required";
}

bool names_input_required(const nlohmann::ordered_json& result) {
  if (!result.is_object()) return false;
  const auto it = result.find("resultType");
  return it != result.end() && it->is_string() && it->get_ref<const std::string&>() == "input_required";
}

}  // namespace

struct Connection::Impl : std::enable_shared_from_this<Connection::Impl> {
  struct Pending {
    ResponseHandler handler;
    std::optional<TimerService::TimerId> timer;
    // The request's place among the peer's (a Streamable HTTP session: the stream of the request it
    // was sent for): its notifications/cancelled goes there too, where the peer is listening.
    std::optional<RequestId> related_request;
  };

  Impl(Transport& t, ConnectionOptions o) : transport(t), options(std::move(o)) {
    timers = options.timers ? options.timers : TimerService::shared();
    if (!options.log) {
      options.log = [](std::string_view line) {
        std::fprintf(stderr, "elicit: %.*s\n", static_cast<int>(line.size()), line.data());
      };
    }
  }

  Transport& transport;
  ConnectionOptions options;
  std::shared_ptr<TimerService> timers;
  mutable std::mutex mutex;
  std::condition_variable closed_cv;
  std::unordered_map<std::string, RequestHandler> request_handlers;
  std::unordered_map<std::string, NotificationHandler> notification_handlers;
  RequestHandler other_requests;  // for methods without a handler of their own; may be empty
  std::unordered_map<std::int64_t, Pending> pending;
  std::unordered_map<std::string, std::weak_ptr<Responder::State>> incoming;  // by to_string(id)
  std::int64_t next_id = 1;
  bool started = false;
  bool closed = false;
  bool transport_done = false;
  int timeouts_running = 0;  // timer callbacks between taking a request and completing it

  void log(const std::string& line) const { options.log(line); }

  // Removes a pending request (and its timer) under the lock; returns it if it was there.
  std::optional<Pending> take_locked(std::int64_t id) {
    const auto it = pending.find(id);
    if (it == pending.end()) return std::nullopt;
    Pending p = std::move(it->second);
    pending.erase(it);
    if (p.timer) timers->cancel(*p.timer);  // lock order: session, then timers (never the reverse)
    return p;
  }

  // Runs a response handler; what it throws is logged, never let through to a transport or timer thread.
  void complete(Pending& p, RequestOutcome outcome) {
    try {
      p.handler(std::move(outcome));
    } catch (const std::exception& e) {
      log(std::string("a response handler threw: ") + e.what());
    } catch (...) {
      log("a response handler threw");
    }
  }

  void send_cancelled(std::int64_t id, const std::string& reason, std::optional<RequestId> related) {
    nlohmann::json params{{"requestId", id}};
    if (!reason.empty()) params["reason"] = reason;
    if (related) {
      // A request the peer cancelled is over for it (it may have stopped reading its stream): the
      // notification goes where messages of no request go.
      std::lock_guard<std::mutex> lock(mutex);
      const auto it = incoming.find(to_string(*related));
      const auto state = it == incoming.end() ? nullptr : it->second.lock();
      if (state && state->cancelled) related.reset();
    }
    transport.send(serialize(Notification{"notifications/cancelled", std::move(params)}), SendContext{related});
  }

  // On the timer thread (holding a strong reference taken from a weak one).
  void on_timeout(std::int64_t id) {
    std::optional<Pending> p;
    {
      std::lock_guard<std::mutex> lock(mutex);
      p = take_locked(id);
      if (!p) return;
      ++timeouts_running;  // ~Connection waits for this before the transport may go away
    }
    send_cancelled(id, "timed out", p->related_request);
    complete(*p, RequestOutcome{std::nullopt, std::nullopt, RequestFailure::timed_out});
    std::lock_guard<std::mutex> lock(mutex);
    --timeouts_running;
    closed_cv.notify_all();
  }

  void transport_closed() {
    EventThreadScope event_thread;
    std::unordered_map<std::int64_t, Pending> failed;
    std::vector<std::shared_ptr<Responder::State>> open;
    {
      std::lock_guard<std::mutex> lock(mutex);
      closed = true;
      transport_done = true;
      failed.swap(pending);
      for (auto& [id, p] : failed) {
        if (p.timer) timers->cancel(*p.timer);
      }
      for (auto& [key, weak] : incoming) {
        if (auto state = weak.lock()) open.push_back(std::move(state));
      }
    }
    // The peer's open requests learn that the session is over first (their on_cancel callbacks run
    // while their handlers are still blocked, so none has answered and forgotten them yet); what they
    // made is no longer pending, so nothing is sent. Then every pending request ends transport_closed.
    for (auto& state : open) state->fire();
    for (auto& [id, p] : failed)
      complete(p, RequestOutcome{std::nullopt, std::nullopt, RequestFailure::transport_closed});
    std::lock_guard<std::mutex> lock(mutex);
    closed_cv.notify_all();
  }

  void reply_error(const std::optional<RequestId>& id, RpcError error) {
    if (id) {
      transport.send(serialize(Response{*id, std::nullopt, std::move(error)}), SendContext{*id, true});
    } else {
      transport.send(serialize_error_without_id(error), {});
    }
  }

  void receive(std::string text) {
    EventThreadScope event_thread;
    auto parsed = parse_message(text);
    if (parsed.ignore) {
      log("ignoring a response without a usable id");
      return;
    }
    if (parsed.error) {
      log(parsed.error->message);
      reply_error(parsed.error_id, std::move(*parsed.error));
      return;
    }
    if (options.keep_message_text && !std::holds_alternative<Notification>(*parsed.message)) {
      // The text is ours (moved in by the transport) and parsed already: kept without a copy.
      auto kept = std::make_shared<const std::string>(std::move(text));
      if (auto* request = std::get_if<Request>(&*parsed.message)) {
        request->text = std::move(kept);
      } else {
        handle(std::get<Response>(*parsed.message), std::move(kept));
        return;
      }
    }
    std::visit([this](auto& m) { handle(m); }, *parsed.message);
    dispose_params(*parsed.message);
  }

  void handle(Response& r, std::shared_ptr<const std::string> text = nullptr) {
    const auto* id = std::get_if<std::int64_t>(&r.id);
    std::optional<Pending> p;
    if (id) {
      std::lock_guard<std::mutex> lock(mutex);
      p = take_locked(*id);
    }
    if (!p) {
      log("ignoring a response for unknown, finished or timed-out request " + to_string(r.id));
      return;
    }
    complete(*p, RequestOutcome{std::move(r.result), std::move(r.error), std::nullopt, std::move(text)});
  }

  void handle(Request& r) {
    RequestHandler handler;
    bool duplicate = false;
    auto state = std::make_shared<Responder::State>();
    state->session = weak_from_this();
    state->id = r.id;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (const auto it = request_handlers.find(r.method); it != request_handlers.end()) {
        handler = it->second;
      } else {
        handler = other_requests;
      }
      const auto key = to_string(r.id);
      if (const auto it = incoming.find(key); it != incoming.end()) {
        const auto earlier = it->second.lock();
        duplicate = earlier && !earlier->answered;
      }
      if (handler && !duplicate) incoming[key] = state;
    }
    if (duplicate) {
      // The id of a request of the peer's that is still being handled: refusing it leaves the first
      // one alone (MCP 2025-11-25, Base Protocol, Requests: ids are unique within a session).
      log("refusing a request whose id " + to_string(r.id) + " is already in use");
      reply_error(r.id, RpcError{error_code::invalid_request,
                                 "Invalid Request: id " + to_string(r.id) + " is already in use by a pending request",
                                 std::nullopt});
      return;
    }
    if (!handler) {
      reply_error(r.id, RpcError{error_code::method_not_found, "Method not found: " + r.method, std::nullopt});
      return;
    }
    Responder responder(state);
    try {
      handler(r, responder);
    } catch (const std::exception& e) {
      responder.error(RpcError{error_code::internal_error, std::string("Internal error: ") + e.what(), std::nullopt});
    } catch (...) {
      responder.error(RpcError{error_code::internal_error, "Internal error", std::nullopt});
    }
  }

  void handle(Notification& n) {
    if (n.method == "notifications/cancelled" && n.params.is_object()) {
      std::shared_ptr<Responder::State> state;
      if (const auto id = n.params.find("requestId");
          id != n.params.end() && (id->is_string() || id->is_number_integer())) {
        const RequestId rid = id->is_string() ? RequestId{id->get<std::string>()} : RequestId{id->get<std::int64_t>()};
        std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = incoming.find(to_string(rid)); it != incoming.end()) state = it->second.lock();
      }
      if (state && !state->cancelled.exchange(true)) state->fire();
    }
    NotificationHandler handler;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (const auto it = notification_handlers.find(n.method); it != notification_handlers.end()) handler = it->second;
    }
    if (!handler) return;
    try {
      handler(n);
    } catch (const std::exception& e) {
      log("notification handler for " + n.method + " threw: " + e.what());
    }
  }

  // Sends the request `text(id)` (serialised outside the lock) and registers `on_done` for its answer.
  template <class Text>
  RequestId send_request(const Text& text, ResponseHandler on_done, const CallOptions& call) {
    std::int64_t id = 0;
    bool accepted = false;
    bool full = false;
    const auto deadline = call.timeout ? std::optional<Clock::time_point>(Clock::now() + *call.timeout) : std::nullopt;
    {
      std::lock_guard<std::mutex> lock(mutex);
      id = next_id++;
      full = !closed && pending.size() >= options.max_pending_requests;
      if (!closed && !full) {
        accepted = true;
        pending.emplace(id, Pending{std::move(on_done), std::nullopt, call.context.related_request});
      }
    }
    if (!accepted) {
      Pending p{std::move(on_done), std::nullopt, std::nullopt};
      complete(p, RequestOutcome{std::nullopt, std::nullopt,
                                 full ? RequestFailure::too_many_pending : RequestFailure::transport_closed});
      return id;
    }
    if (!transport.send(text(id), call.context)) {
      std::optional<Pending> p;
      {
        std::lock_guard<std::mutex> lock(mutex);
        p = take_locked(id);
      }
      if (p) complete(*p, RequestOutcome{std::nullopt, std::nullopt, RequestFailure::transport_closed});
      return id;
    }
    if (deadline) {
      // Armed after the send, so the peer never sees the cancellation before the request.
      std::lock_guard<std::mutex> lock(mutex);
      if (const auto it = pending.find(id); it != pending.end()) {
        it->second.timer = timers->schedule(*deadline, [weak = weak_from_this(), id] {
          if (auto impl = weak.lock()) impl->on_timeout(id);
        });
      }
    }
    return id;
  }

  void answer(Responder::State& s, std::string text) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      incoming.erase(to_string(s.id));
    }
    if (s.cancelled) {  // the peer asked us not to answer: nothing more will come for this request
      transport.abandon(s.id);
      return;
    }
    transport.send(std::move(text), SendContext{s.id, true});
  }

  void drop(Responder::State& s) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      incoming.erase(to_string(s.id));
    }
    transport.abandon(s.id);
  }
};

// --- Responder ----------------------------------------------------------------------------------

const RequestId& Responder::id() const noexcept { return state_->id; }
bool Responder::cancelled() const noexcept { return state_->cancelled; }

bool Responder::answered() const noexcept { return state_->answered; }

void Responder::result(nlohmann::json result) const {
  if (state_->answered.exchange(true)) return;
  const bool input_required = names_input_required(result);
  if (auto s = state_->session.lock()) {
    Response response{state_->id, std::move(result), std::nullopt};
    s->answer(*state_, serialize(response));
    detail::dispose(*response.result);  // after the send: the peer need not wait for it
  }
  state_->observe(Answered{Answered::Kind::result, nullptr, input_required});
}

void Responder::result_ordered(nlohmann::ordered_json result) const {
  if (state_->answered.exchange(true)) return;
  if (auto s = state_->session.lock()) s->answer(*state_, serialize_response(state_->id, result));
  state_->observe(Answered{Answered::Kind::result, nullptr, names_input_required(result)});
}

void Responder::result_text(std::string_view result_json, bool sorted, bool input_required) const {
  if (state_->answered.exchange(true)) return;
  if (auto s = state_->session.lock()) s->answer(*state_, serialize_response_text(state_->id, result_json, sorted));
  state_->observe(Answered{Answered::Kind::result, nullptr, input_required});
}

void Responder::error(RpcError error) const {
  if (state_->answered.exchange(true)) return;
  if (auto s = state_->session.lock()) s->answer(*state_, serialize(Response{state_->id, std::nullopt, error}));
  state_->observe(Answered{Answered::Kind::error, &error, false});
}

void Responder::abandon() const {
  if (state_->answered.exchange(true)) return;
  if (auto s = state_->session.lock()) s->drop(*state_);
  state_->observe(Answered{Answered::Kind::abandoned, nullptr, false});
}

void Responder::on_cancel(std::function<void()> f) const {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (!state_->ended) {
      state_->cancel_callbacks.push_back(std::move(f));
      return;
    }
  }
  f();
}

void Responder::on_answered(std::function<void(const Answered&)> f) const {
  Answered how;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (!state_->observed) {
      state_->observer = std::move(f);
      return;
    }
    how = state_->how;
  }
  f(how);  // over already (an error's text is no longer kept)
}

// --- Connection ------------------------------------------------------------------------------------

Connection::Connection(Transport& transport, ConnectionOptions options)
    : impl_(std::make_shared<Impl>(transport, std::move(options))) {}

Connection::~Connection() {
  close();
  wait_closed();
  // A timeout that took its request before the close may still be sending on the transport.
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->closed_cv.wait(lock, [&] { return impl_->timeouts_running == 0; });
}

void Connection::on_request(std::string method, RequestHandler handler) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->request_handlers[std::move(method)] = std::move(handler);
}

void Connection::on_notification(std::string method, NotificationHandler handler) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->notification_handlers[std::move(method)] = std::move(handler);
}

void Connection::on_other_requests(RequestHandler handler) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->other_requests = std::move(handler);
}

void Connection::start() {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (impl_->started) return;
    impl_->started = true;
  }
  auto impl = impl_;
  try {
    impl_->transport.start([impl](std::string text) { impl->receive(std::move(text)); },
                           [impl] { impl->transport_closed(); });
  } catch (...) {
    // The transport did not start (e.g. no thread could be created for it), so it will never report
    // its end: the session ends here, or close() and the destructor would wait for it forever.
    impl_->transport_closed();
    throw;
  }
}

void Connection::deliver(Message message) {
  EventThreadScope event_thread;
  std::visit([this](auto& m) { impl_->handle(m); }, message);
  dispose_params(message);
}

RequestId Connection::send_request(std::string method, nlohmann::ordered_json params, ResponseHandler on_done,
                                   CallOptions options) {
  return impl_->send_request([&](std::int64_t id) { return serialize_request(id, method, params); }, std::move(on_done),
                             options);
}

RequestId Connection::send_request_serialized(std::string method, std::string params_json, ResponseHandler on_done,
                                              CallOptions options) {
  return impl_->send_request(
      [&](std::int64_t id) { return serialize_request_text(id, method, std::move(params_json)); }, std::move(on_done),
      options);
}

RequestOutcome Connection::call(std::string method, nlohmann::ordered_json params, CallOptions options) {
  detail::require_blocking_allowed("Session::call()", "Session::send_request() with a callback");
  auto promise = std::make_shared<std::promise<RequestOutcome>>();
  auto future = promise->get_future();
  send_request(
      std::move(method), std::move(params), [promise](RequestOutcome o) { promise->set_value(std::move(o)); },
      std::move(options));
  return future.get();
}

bool Connection::cancel(const RequestId& id, std::string reason) {
  const auto* n = std::get_if<std::int64_t>(&id);
  if (!n) return false;
  std::optional<Impl::Pending> p;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    p = impl_->take_locked(*n);
  }
  if (!p) return false;
  impl_->send_cancelled(*n, reason, p->related_request);
  impl_->complete(*p, RequestOutcome{std::nullopt, std::nullopt, RequestFailure::cancelled});
  return true;
}

std::size_t Connection::cancel_pending(const std::string& reason) {
  std::vector<std::int64_t> ids;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (const auto& [id, p] : impl_->pending) ids.push_back(id);
  }
  std::size_t cancelled = 0;
  for (const auto id : ids) cancelled += cancel(RequestId{id}, reason) ? 1 : 0;  // answered meanwhile: not
  return cancelled;
}

void Connection::disconnect_stream(const RequestId& id) { impl_->transport.disconnect(id); }

bool Connection::notify(std::string method, nlohmann::ordered_json params, const SendContext& context) {
  return impl_->transport.send(serialize_notification(method, params), context);
}

void Connection::log(std::string_view line) const { impl_->options.log(line); }

std::size_t Connection::pending_requests() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->pending.size();
}

void Connection::close() {
  bool was_started = false;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->closed = true;
    was_started = impl_->started;
  }
  impl_->transport.close();
  if (!was_started) impl_->transport_closed();
}

bool Connection::closed() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->closed;
}

void Connection::wait_closed() {
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->closed_cv.wait(lock, [&] { return impl_->transport_done || !impl_->started; });
}

}  // namespace elicit::jsonrpc
