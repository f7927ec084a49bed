// elicit::Client (client.hpp): the host side of elicitation in both eras.
#include "elicit/client.hpp"

#include <algorithm>
#include <condition_variable>
#include <future>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "elicit/content/form_defaults.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/stdio_transport.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/param_headers.hpp"
#include "elicit/protocol_era.hpp"
#include "elicit/tasks.hpp"
#include "elicit/user_interaction.hpp"

namespace elicit {

Answer Answer::accept(nlohmann::json content) { return {ElicitAction::accept, std::move(content)}; }
Answer Answer::accept_with_defaults(const Form& form, nlohmann::json partial) {
  return accept(apply_defaults(form, std::move(partial)));
}
Answer Answer::decline() { return {ElicitAction::decline, nullptr}; }
Answer Answer::cancel() { return {ElicitAction::cancel, nullptr}; }

std::string_view to_string(ElicitAction action) noexcept {
  switch (action) {
    case ElicitAction::accept:
      return "accept";
    case ElicitAction::decline:
      return "decline";
    case ElicitAction::cancel:
      break;
  }
  return "cancel";
}

nlohmann::json Answer::to_json(bool form) const {
  nlohmann::json out{{"action", to_string(action)}};
  // URL mode has no content; a form's accept always has an object.
  if (action == ElicitAction::accept && form) out["content"] = content.is_object() ? content : nlohmann::json::object();
  return out;
}

namespace {

// The params as the server wrote them, from the text of the message that carried them: `path`
// leads from the message to them. Null when there is no text or it does not lead to an object.
nlohmann::ordered_json ordered_at(const std::shared_ptr<const std::string>& text,
                                  std::initializer_list<const char*> path) {
  if (!text) return nullptr;
  auto j = nlohmann::ordered_json::parse(*text, nullptr, false);
  for (const char* key : path) {
    if (j.is_discarded() || !j.is_object()) return nullptr;
    const auto it = j.find(key);
    if (it == j.end()) return nullptr;
    auto next = std::move(*it);
    j = std::move(next);
  }
  if (!j.is_object()) return nullptr;
  return j;
}

// read_elicitation_request, with the requestedSchema taken in the server's order from `ordered`
// (the same params with their member order) when it agrees with `params`.
ElicitationRequest read_request(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                                const UrlSafetyOptions& url_safety) {
  ElicitationRequest r;
  r.params = params;
  if (!params.is_object()) {
    r.schema_problems.push_back({Diagnostic::Severity::error, "", "elicitation/create params must be an object"});
    return r;
  }
  if (const auto m = params.find("message"); m != params.end() && m->is_string()) r.message = m->get<std::string>();
  r.url_mode = params.value("mode", nlohmann::json()) == "url";  // a non-string mode is not URL mode, and no throw
  if (r.url_mode) {
    if (const auto u = params.find("url"); u != params.end() && u->is_string()) r.url = u->get<std::string>();
    if (const auto e = params.find("elicitationId"); e != params.end() && e->is_string())
      r.elicitation_id = e->get<std::string>();
    r.url_review = review_url(r.url, url_safety);
    return r;
  }
  const auto s = params.find("requestedSchema");
  if (s == params.end()) {
    r.schema_problems.push_back({Diagnostic::Severity::error, "/requestedSchema", "missing"});
    return r;
  }
  // The parsed params have their members sorted; the text of the message has the server's order,
  // which is the order a form shows its fields in. It is used when it says the same thing (it
  // always should: both come from one text), else the sorted schema is.
  const auto os = ordered.is_object() ? ordered.find("requestedSchema") : ordered.end();
  if (ordered.is_object() && os != ordered.end() && nlohmann::json(*os) == *s) {
    r.requested_schema = *os;
  } else {
    r.requested_schema = nlohmann::ordered_json::parse(s->dump());
  }
  auto parsed = parse_requested_schema(r.requested_schema, "/requestedSchema");
  if (parsed.ok()) r.form = std::move(parsed.form);
  r.schema_problems = std::move(parsed.diagnostics);
  return r;
}

}  // namespace

ElicitationRequest read_elicitation_request(const nlohmann::json& params, const UrlSafetyOptions& url_safety) {
  return read_request(params, nullptr, url_safety);
}

namespace {

bool is_stateless(const std::string& version) {
  const auto& v = stateless_protocol_versions();
  return std::find(v.begin(), v.end(), version) != v.end();
}

[[noreturn]] void throw_outcome(const RequestOutcome& o, const std::string& method) {
  if (o.error) throw ClientError(o.error->code, o.error->message, o.error->data.value_or(nullptr));
  std::string why = "no answer";
  if (o.failure) {
    switch (*o.failure) {
      case RequestFailure::timed_out:
        why = "timed out";
        break;
      case RequestFailure::cancelled:
        why = "cancelled";
        break;
      case RequestFailure::transport_closed:
        why = "the connection closed";
        break;
      case RequestFailure::too_many_pending:
        why = "too many requests pending";
        break;
    }
  }
  throw ClientError(0, method + ": " + why);
}

// The servers found to speak an initialize-based revision, by ClientOptions::server_key, for this
// process (MCP 2026-07-28, Versioning: the era cached per server). Bounded: past 1,024 servers it
// starts afresh (a probe more, never a wrong answer: a cached server that fails initialize is
// forgotten).
class EraCache {
 public:
  static EraCache& instance() {
    static EraCache cache;
    return cache;
  }
  std::optional<std::string> session_version(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = versions_.find(key);
    if (it == versions_.end()) return std::nullopt;
    return it->second;
  }
  void remember(const std::string& key, const std::string& version) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (versions_.size() >= 1024) versions_.clear();
    versions_[key] = version;
  }
  void forget(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    versions_.erase(key);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> versions_;
};

}  // namespace

struct Client::Impl {
  Impl(Transport& transport, ClientOptions o)
      : options(std::move(o)),
        session(transport, keep_text(options.session)),
        carries_headers(transport.carries_headers()),
        server_key(options.server_key.empty() ? transport.peer() : options.server_key),
        version(options.protocol_version) {}

  // The session keeps the text of what it receives: the only place where a requestedSchema's
  // property order survives (its parsed form sorts them).
  static jsonrpc::ConnectionOptions keep_text(jsonrpc::ConnectionOptions o) {
    o.keep_message_text = true;
    return o;
  }

  ClientOptions options;
  jsonrpc::Connection session;

  // ClientOptions::task_notifications: what a followed task's wait hears from the listen stream.
  struct TaskWake {
    std::mutex mutex;
    std::condition_variable cv;
    bool cancelled = false;     // the caller's scope
    bool changed = false;       // a notifications/tasks since the last read
    bool acknowledged = false;  // the server agreed to send the task's notifications
    bool listen_ended = false;  // the listen request ended (refused, or its stream closed)
    void set(bool TaskWake::*flag) {
      std::lock_guard<std::mutex> lock(mutex);
      this->*flag = true;
      cv.notify_all();
    }
  };
  std::mutex listeners_mutex;
  std::multimap<std::string, std::weak_ptr<TaskWake>> task_listeners;  // by task id

  // Tells the waits following task `id` (a notification came for it), on the transport's thread.
  void tell_listeners(const std::string& id, bool TaskWake::*flag) {
    std::vector<std::shared_ptr<TaskWake>> wakes;
    {
      std::lock_guard<std::mutex> lock(listeners_mutex);
      const auto [from, to] = task_listeners.equal_range(id);
      for (auto it = from; it != to; ++it)
        if (auto w = it->second.lock()) wakes.push_back(std::move(w));
    }
    for (const auto& w : wakes) w->set(flag);
  }

  // The notifications a listen stream brings: notifications/tasks (a DetailedTask) and the
  // acknowledgement naming the tasks the server will report on.
  void listen_for_tasks() {
    session.on_notification("notifications/tasks", [this](const Notification& n) {
      if (n.params.is_object() && n.params.contains("taskId") && n.params["taskId"].is_string())
        tell_listeners(n.params["taskId"].get<std::string>(), &TaskWake::changed);
    });
    session.on_notification("notifications/subscriptions/acknowledged", [this](const Notification& n) {
      const auto& p = n.params;
      if (!p.is_object() || !p.contains("notifications") || !p["notifications"].is_object()) return;
      const auto ids = p["notifications"].find("taskIds");
      if (ids == p["notifications"].end() || !ids->is_array()) return;
      for (const auto& id : *ids) {
        if (!id.is_string()) continue;
        session.log("task " + id.get<std::string>() + ": the server sends its notifications/tasks");
        tell_listeners(id.get<std::string>(), &TaskWake::acknowledged);
      }
    });
  }
  const bool carries_headers;  // the transport sends SendContext::headers (Streamable HTTP)
  std::string server_key;      // for EraCache; "" when the server has no name
  std::vector<std::pair<nlohmann::json, ElicitationHandler>> form_handlers;
  ElicitationHandler fallback;
  // 2025-11-25: the server's elicitation/create arrives on the transport's thread, which must not
  // block; its handler, which may wait for a person, runs here.
  std::unique_ptr<WorkerPool> workers;
  bool stateless = false;
  nlohmann::json server_info;
  nlohmann::json server_capabilities;
  // The version 2026-07-28 requests carry: ClientOptions::protocol_version until a server answers one
  // with -32022 naming another 2026-07-28 version this client speaks (requests run in parallel, so it
  // is guarded).
  mutable std::mutex version_mutex;
  std::string version;

  std::string current_version() const {
    std::lock_guard<std::mutex> lock(version_mutex);
    return version;
  }

  // After -32022 (Versioning, "Protocol Version Negotiation": the client SHOULD select a mutually
  // supported version from `supported` and retry): the version to retry with, the newest 2026-07-28
  // one both speak; none when the server lists none (only 2025-11-25 versions, or no list).
  std::optional<std::string> mutual_version(const std::optional<nlohmann::json>& data) const {
    if (!data || !data->is_object()) return std::nullopt;
    const auto supported = data->find("supported");
    if (supported == data->end() || !supported->is_array()) return std::nullopt;
    for (const auto& mine : stateless_protocol_versions()) {
      for (const auto& theirs : *supported) {
        if (theirs.is_string() && theirs.get<std::string>() == mine) return mine;
      }
    }
    return std::nullopt;
  }

  // connect()'s server/discover (MCP 2026-07-28, Versioning, "Backward Compatibility"): its result,
  // or nullopt when the server is of the initialize-based era and a fallback version is set.
  std::optional<nlohmann::json> probe() {
    const auto& fallback = options.fallback_protocol_version;
    const auto discover = [&] {
      nlohmann::ordered_json params = nlohmann::ordered_json::object();
      params["_meta"] = meta();
      CallOptions o;
      o.timeout = fallback ? std::optional<std::chrono::milliseconds>(options.probe_timeout) : options.request_timeout;
      return session.call("server/discover", std::move(params), o);
    };
    auto o = discover();
    if (!o.result && o.error && o.error->code == error_code::unsupported_protocol_version) {
      if (auto v = mutual_version(o.error->data)) {
        {
          std::lock_guard<std::mutex> lock(version_mutex);
          version = *v;
        }
        session.log("server/discover: the server refused the protocol version (-32022); retrying with " + *v);
        o = discover();
      }
      // Otherwise the server is of the 2026-07-28 era all the same (the versioning page: "Do not fall
      // back to initialize"): its -32022 is the answer.
    }
    if (o.result) return std::move(*o.result);
    if (!fallback || !legacy_answer(o)) throw_outcome(o, "server/discover");
    session.log("server/discover: " + std::string(o.error ? o.error->message : "no answer") +
                ": the server speaks an initialize-based revision; trying " + *fallback);
    return std::nullopt;
  }

  static bool modern_error(int code) {
    return code == error_code::header_mismatch || code == error_code::missing_required_client_capability ||
           code == error_code::unsupported_protocol_version;
  }

  // Whether server/discover's failure says the server is of the initialize-based era (MCP
  // 2026-07-28, Versioning, "Backward Compatibility", and its transport pages): an answer from the
  // server that is not a recognized modern error; silence until the probe's timeout (stdio); over
  // Streamable HTTP, a 400 whose body is no modern error. Not: a failure of the transport itself (a
  // closed port, TLS, a wrong path's 404, a broken connection), which says nothing of the era and is
  // reported as itself instead of being followed by an initialize that fails the same way.
  static bool legacy_answer(const RequestOutcome& o) {
    if (!o.error) return o.failure == RequestFailure::timed_out;
    if (modern_error(o.error->code)) return false;
    const auto& data = o.error->data;
    if (!data || !data->is_object() || !data->contains(jsonrpc::kTransportFailure)) return true;
    // Compared as JSON values, which never throws whatever a server put there.
    if ((*data)[jsonrpc::kTransportFailure] != "http_status" || !data->contains("httpStatus") ||
        (*data)["httpStatus"] != 400)
      return false;
    const auto server = data->find("serverError");
    if (server == data->end() || !server->is_object()) return true;
    const auto code = server->find("code");
    return !(code != server->end() && code->is_number_integer() && modern_error(code->get<int>()));
  }

  // Keeps what connect()'s result says of the server.
  nlohmann::json remember(nlohmann::json result) {
    server_capabilities = result.value("capabilities", nlohmann::json::object());
    if (stateless) {
      const auto meta = result.find("_meta");
      if (meta != result.end() && meta->is_object())
        server_info = meta->value(std::string(meta_key::server_info), nlohmann::json());
    } else {
      server_info = result.value("serverInfo", nlohmann::json());
    }
    return result;
  }

  bool has_handler() const { return fallback || !form_handlers.empty(); }
  // URL requests are declared and answered only with url_elicitation on and a handler that sees
  // them (form handlers never do).
  bool handles_url() const { return options.url_elicitation && fallback; }

  nlohmann::json capabilities() const {
    nlohmann::json caps = nlohmann::json::object();
    if (!has_handler()) return caps;
    if (options.user_interaction) {
      // The draft's capability; progress is not declared: this client sends no interaction/notify.
      nlohmann::json types{"prompt"};
      if (handles_url()) types.push_back("ua");
      caps["userInteraction"] = {{"types", types}};
      return caps;
    }
    nlohmann::json elicitation{{"form", nlohmann::json::object()}};
    if (handles_url()) elicitation["url"] = nlohmann::json::object();
    caps["elicitation"] = elicitation;
    return caps;
  }

  // 2026-07-28 requests also declare the tasks extension (the client follows a task to its end).
  nlohmann::json request_capabilities() const {
    auto caps = capabilities();
    if (options.tasks) caps["extensions"] = {{tasks_extension, nlohmann::json::object()}};
    return caps;
  }

  nlohmann::ordered_json meta() const {
    return {{std::string(meta_key::protocol_version), current_version()},
            {std::string(meta_key::client_capabilities), request_capabilities()},
            {std::string(meta_key::client_info), options.client_info}};
  }

  // The answer to one elicitation/create: a typed handler whose schema it is, else the fallback,
  // else cancel (nobody here can show it).
  // `ordered`: the same params in the server's member order (null when unknown).
  nlohmann::json answer(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                        const std::string& key = "") {
    auto request = read_request(params, ordered, options.url_safety);
    request.key = key;
    if (request.url_mode && !request.url_review.allowed) {
      // Never offered to the user (Safe URL Handling): declined, and said in the log.
      session.log("declined a URL-mode elicitation: " + request.url_review.refusal);
      return Answer::decline().to_json(false);
    }
    if (!request.url_mode) {
      const auto schema = params.is_object() ? params.find("requestedSchema") : params.end();
      if (schema != params.end()) {
        for (const auto& [wanted, handler] : form_handlers) {
          if (wanted == *schema) return handler(request).to_json(true);
        }
      }
    }
    if (fallback && (!request.url_mode || options.url_elicitation)) return fallback(request).to_json(!request.url_mode);
    return Answer::cancel().to_json(false);
  }

  // The answer to one interaction/create (the userInteraction dialect): the interaction is read
  // as the elicitation it stands for and answered by the same handlers; the ElicitResult is then
  // put in the draft's shape. `text`: the request's text, for the schema's member order.
  void answer_interaction(const nlohmann::json& params, const std::shared_ptr<const std::string>& text,
                          const Responder& out) {
    std::string why;
    const auto interaction = parse_interaction(nlohmann::ordered_json(params), &why);
    if (!interaction || (interaction->type == "ua" && !handles_url())) {
      // A type this client did not list, or params without the draft's shape.
      out.error({error_code::invalid_params,
                 "Invalid params: " + (interaction ? std::string("interaction type not supported") : why),
                 std::nullopt});
      return;
    }
    nlohmann::json as_elicitation;
    nlohmann::ordered_json ordered;
    const bool prompt = interaction->type == "prompt";
    if (prompt) {
      as_elicitation = {{"mode", "form"}, {"message", interaction->message}, {"requestedSchema", interaction->schema}};
      const auto schema = ordered_at(text, {"params", "interaction", "schema"});
      if (!schema.is_null()) ordered = {{"requestedSchema", schema}};
    } else {
      as_elicitation = {{"mode", "url"},
                        {"message", interaction->message},
                        {"url", interaction->url},
                        {"elicitationId", interaction->id}};
    }
    const auto result = answer(as_elicitation, ordered);
    const auto action = result.value("action", std::string("cancel"));
    if (action == "accept") {
      nlohmann::json r = nlohmann::json::object();
      if (prompt) r["content"] = result.value("content", nlohmann::json::object());
      out.result(std::move(r));
    } else if (action == "decline") {
      out.error({error_code::interaction_declined, "User did not consent to the interaction", std::nullopt});
    } else {
      out.error({error_code::interaction_cancelled, "User cancelled the interaction", std::nullopt});
    }
  }

  // `scope` (may be null): cancelling it cancels the request (notifications/cancelled; over HTTP the
  // request's connection ends), which then throws ClientError "cancelled by the caller".
  RequestOutcome call(const std::string& method, nlohmann::ordered_json params, const SendContext& context = {},
                      const std::shared_ptr<CancelScope>& scope = nullptr) {
    CallOptions o;
    o.timeout = options.request_timeout;
    o.context = context;
    if (!scope) return session.call(method, std::move(params), o);
    jsonrpc::detail::require_blocking_allowed("Client::call_tool()", "a call from another thread");
    auto promise = std::make_shared<std::promise<RequestOutcome>>();
    auto future = promise->get_future();
    jsonrpc::send_request_in_scope(
        session, method.c_str(), params.dump(), [promise](RequestOutcome r) { promise->set_value(std::move(r)); }, o,
        scope, "cancelled by the caller");
    auto outcome = future.get();
    if (scope->cancelled() && !outcome.result && !outcome.error) throw cancelled_by_caller(method);
    return outcome;
  }

  static ClientError cancelled_by_caller(const std::string& method) {
    return ClientError(0, method + ": cancelled by the caller");
  }

  // One request of the era: 2025-11-25 as is; 2026-07-28 with _meta, retried while the server answers
  // input_required, each retry a new request (a new id) with the answers and the state it gave.
  // `context`: what goes to the transport with each of the requests (a tools/call's Mcp-Param-*
  // fields: the arguments, and so the fields, are the same in every round).
  nlohmann::json request(const std::string& method, nlohmann::ordered_json params, const SendContext& context = {},
                         const std::shared_ptr<CancelScope>& scope = nullptr) {
    if (!stateless) {
      auto o = call(method, std::move(params), context, scope);
      if (!o.result) throw_outcome(o, method);
      return std::move(*o.result);
    }
    params["_meta"] = meta();
    bool renegotiated = false;
    // Each round's request, retried once (per request, so a server that refuses every version
    // cannot loop) with a mutually supported version when the server refuses the one it carried.
    const auto send = [&] {
      auto o = call(method, params, context, scope);
      if (!o.result && !renegotiated && o.error && o.error->code == error_code::unsupported_protocol_version) {
        if (auto v = mutual_version(o.error->data)) {
          renegotiated = true;
          {
            std::lock_guard<std::mutex> lock(version_mutex);
            version = *v;
          }
          session.log(method + ": the server refused the protocol version (-32022); retrying with " + *v);
          params["_meta"][std::string(meta_key::protocol_version)] = *v;
          o = call(method, params, context, scope);
        }
      }
      return o;
    };
    for (std::size_t round = 0; round <= options.max_rounds; ++round) {
      auto o = send();
      if (!o.result) throw_outcome(o, method);
      auto& result = *o.result;
      if (result.is_object() && result.value("resultType", std::string()) == "task")
        return follow_task(method, std::move(result), scope);
      if (!result.is_object() || result.value("resultType", std::string("complete")) != "input_required")
        return std::move(result);
      if (round == options.max_rounds) break;
      // The retry carries exactly what this result asked for: its answers, and its state only
      // when it gave one (never another request's).
      params.erase("inputResponses");
      params.erase("requestState");
      if (const auto it = result.find("inputRequests"); it != result.end() && it->is_object())
        params["inputResponses"] = answer_inputs(method, *it, ordered_at(o.text, {"result", "inputRequests"}));
      if (const auto s = result.find("requestState"); s != result.end()) params["requestState"] = *s;
    }
    throw ClientError(0, method + ": the server asked for input more than " + std::to_string(options.max_rounds) +
                             " times (ClientOptions::max_rounds)");
  }

  // The answers to an input-required result's or a task's inputRequests, by the same handlers as
  // any elicitation. `ordered`: the same requests in the server's member order (null when unknown).
  nlohmann::ordered_json answer_inputs(const std::string& method, const nlohmann::json& requests,
                                       const nlohmann::ordered_json& ordered_requests) {
    nlohmann::ordered_json responses = nlohmann::ordered_json::object();
    for (const auto& [key, input] : requests.items()) {
      const auto m = input.is_object() ? input.value("method", std::string()) : std::string();
      if (m != "elicitation/create")
        throw ClientError(0, method + ": the server asked for " + (m.empty() ? std::string("an unknown request") : m) +
                                 ", which this client did not declare");
      nlohmann::ordered_json ordered;
      if (const auto in = ordered_requests.is_object() ? ordered_requests.find(key) : ordered_requests.end();
          in != ordered_requests.end() && in->is_object()) {
        if (const auto p = in->find("params"); p != in->end()) ordered = *p;
      }
      responses[key] = answer(input.value("params", nlohmann::json::object()), ordered, key);
    }
    return responses;
  }

  // ClientOptions::task_notifications: a subscriptions/listen request naming one task while the
  // client follows it; cancelled (notifications/cancelled; over HTTP its stream closes) when the
  // following ends. Nothing when the option is off.
  class Listen {
   public:
    Listen(Impl& impl, const std::string& id, const std::shared_ptr<TaskWake>& wake) : impl_(impl) {
      if (!impl.options.task_notifications) return;
      {
        std::lock_guard<std::mutex> lock(impl.listeners_mutex);
        entry_ = impl.task_listeners.emplace(id, wake);
      }
      nlohmann::ordered_json params;
      params["notifications"] = {{"taskIds", {id}}};
      params["_meta"] = impl.meta();
      std::weak_ptr<TaskWake> weak = wake;
      request_ = impl.session.send_request(
          "subscriptions/listen", std::move(params), [weak, &impl, id](const RequestOutcome& o) {
            // Refused (e.g. -32601 from a server without listen): the client goes on polling.
            if (o.error) impl.session.log("task " + id + ": subscriptions/listen refused: " + o.error->message);
            if (const auto w = weak.lock()) w->set(&TaskWake::listen_ended);
          });
    }
    ~Listen() {
      if (!entry_) return;
      {
        std::lock_guard<std::mutex> lock(impl_.listeners_mutex);
        impl_.task_listeners.erase(*entry_);
      }
      if (request_) impl_.session.cancel(*request_, "the task ended");
    }
    Listen(const Listen&) = delete;
    Listen& operator=(const Listen&) = delete;

   private:
    Impl& impl_;
    std::optional<std::multimap<std::string, std::weak_ptr<TaskWake>>::iterator> entry_;
    std::optional<RequestId> request_;
  };

  // A request the server answered with a task (the io.modelcontextprotocol/tasks extension):
  // tasks/get every pollIntervalMs until the task ends, its questions answered with tasks/update;
  // the result of a completed task, ClientError for a failed (its JSON-RPC error) or cancelled one.
  // `scope` (may be null): cancelling it sends tasks/cancel and throws "cancelled by the caller"
  // (tasks.md, "tasks/cancel": the client stops the task it no longer wants).
  nlohmann::json follow_task(const std::string& method, nlohmann::json task,
                             const std::shared_ptr<CancelScope>& scope = nullptr) {
    const auto id = task.value("taskId", std::string());
    if (id.empty()) throw ClientError(0, method + ": the server answered a task without a taskId");
    const auto ask = [&](const char* m, nlohmann::ordered_json params, const std::shared_ptr<CancelScope>& in) {
      params["taskId"] = id;
      params["_meta"] = meta();
      auto o = call(m, std::move(params), {}, in);
      if (!o.result) throw_outcome(o, m);
      return o;
    };
    // The caller's cancel wakes the poll's wait, and so does a notification about the task.
    const auto wake = std::make_shared<TaskWake>();
    std::optional<CancelScope::Token> token;
    if (scope) {
      token = scope->add([wake] { wake->set(&TaskWake::cancelled); });
      if (!token) wake->cancelled = true;
    }
    const Listen listen(*this, id, wake);
    struct Unregister {
      const std::shared_ptr<CancelScope>& scope;
      std::optional<CancelScope::Token> token;
      ~Unregister() {
        if (scope && token) scope->remove(*token);
      }
    } unregister{scope, token};
    const auto stop_if_cancelled = [&] {
      if (!scope || !scope->cancelled()) return;
      try {
        ask("tasks/cancel", nlohmann::ordered_json::object(), nullptr);
      } catch (const ClientError& e) {
        session.log(method + ": tasks/cancel of task " + id + " failed: " + e.what());
      }
      if (options.on_task_status) {
        auto cancelled = task;
        cancelled["status"] = "cancelled";
        options.on_task_status(cancelled);
      }
      throw cancelled_by_caller(method);
    };
    std::size_t rounds = 0;
    std::string last_status;
    nlohmann::ordered_json ordered_requests;  // the last tasks/get's inputRequests in the server's order
    for (;;) {
      const auto status = task.value("status", std::string());
      if (status != last_status && options.on_task_status) options.on_task_status(task);
      last_status = status;
      if (status == "completed") return task.value("result", nlohmann::json::object());
      if (status == "failed") {
        const auto e = task.value("error", nlohmann::json::object());
        throw ClientError(e.value("code", error_code::internal_error),
                          method + ": the task failed: " + e.value("message", std::string("no message")),
                          e.value("data", nlohmann::json()));
      }
      if (status == "cancelled") throw ClientError(0, method + ": the task " + id + " was cancelled");
      auto poll = std::chrono::milliseconds(task.value("pollIntervalMs", std::int64_t(500)));
      poll = std::min(std::max(poll, std::chrono::milliseconds(10)), std::chrono::milliseconds(60000));
      if (status == "input_required") {
        if (const auto it = task.find("inputRequests"); it != task.end() && it->is_object() && !it->empty()) {
          if (++rounds > options.max_rounds)
            throw ClientError(0, method + ": the task asked for input more than " + std::to_string(options.max_rounds) +
                                     " times (ClientOptions::max_rounds)");
          auto answers = answer_inputs(method, *it, ordered_requests);
          stop_if_cancelled();
          ask("tasks/update", {{"inputResponses", std::move(answers)}}, nullptr);
          poll = std::chrono::milliseconds(0);  // the answers were the wait
        }
      }
      if (poll.count() > 0) {
        std::unique_lock<std::mutex> lock(wake->mutex);
        // Listening: a notification says when to read; the read after 60 s covers a lost stream.
        if (wake->acknowledged && !wake->listen_ended) poll = std::chrono::milliseconds(60000);
        wake->cv.wait_for(lock, poll, [&] { return wake->cancelled || wake->changed; });
      }
      {
        std::lock_guard<std::mutex> lock(wake->mutex);
        wake->changed = false;  // the read below sees the change (one after it wakes the next wait)
      }
      stop_if_cancelled();
      std::optional<RequestOutcome> got;
      try {
        got = ask("tasks/get", nlohmann::ordered_json::object(), scope);
      } catch (const ClientError&) {
        stop_if_cancelled();  // the poll was cut short by the caller
        throw;
      }
      auto& o = *got;
      ordered_requests = ordered_at(o.text, {"result", "inputRequests"});
      task = std::move(*o.result);
    }
  }

  // x-mcp-header (MCP 2026-07-28, server/tools, "x-mcp-header"; Streamable HTTP, "Custom Headers
  // from Tool Parameters"): over a transport with headers, each tool's annotations as the last
  // complete tools/list gave them, by tool name, and the tools refused for invalid ones, with why.
  std::mutex tools_mutex;  // guards what follows: calls and listings run in parallel
  std::map<std::string, std::vector<ParamHeader>> tool_headers;
  std::map<std::string, std::string> rejected_tools;
  bool tools_listed = false;

  bool mirrors_params() const { return stateless && carries_headers; }

  // The listing with every tool whose x-mcp-header annotations are invalid left out (the client
  // "MUST exclude the invalid tool" and "SHOULD log a warning" naming it and why); the annotations of
  // the others are kept for their calls. Replaces what an earlier listing kept.
  nlohmann::json screen_tools(nlohmann::json tools) {
    nlohmann::json kept = nlohmann::json::array();
    std::map<std::string, std::vector<ParamHeader>> headers;
    std::map<std::string, std::string> rejected;
    for (auto& tool : tools) {
      const auto name = tool.is_object() ? tool.value("name", nlohmann::json()) : nlohmann::json();
      const auto schema = tool.is_object() ? tool.find("inputSchema") : tool.end();
      if (!name.is_string() || schema == tool.end()) {  // nothing to mirror, or nothing to call it by
        kept.push_back(std::move(tool));
        continue;
      }
      try {
        headers[name.get<std::string>()] = param_headers_of(*schema);
        kept.push_back(std::move(tool));
      } catch (const std::invalid_argument& e) {
        rejected[name.get<std::string>()] = e.what();
        session.log("warning: tools/list: tool \"" + name.get<std::string>() +
                    "\" left out, its x-mcp-header annotation is invalid: /inputSchema" + e.what());
      }
    }
    std::lock_guard<std::mutex> lock(tools_mutex);
    tool_headers = std::move(headers);
    rejected_tools = std::move(rejected);
    tools_listed = true;
    return kept;
  }

  // The Mcp-Param-* fields of a call of tool `name` with `arguments`, from its listed annotations.
  // Throws ClientError for a tool that was refused (its headers cannot be made right).
  SendContext param_context(const std::string& name, const nlohmann::json& arguments) {
    SendContext context;
    std::lock_guard<std::mutex> lock(tools_mutex);
    if (const auto r = rejected_tools.find(name); r != rejected_tools.end())
      throw ClientError(0, "tools/call " + name +
                               ": the tool was left out of tools/list: its x-mcp-header annotation is "
                               "invalid: /inputSchema" +
                               r->second);
    if (const auto h = tool_headers.find(name); h != tool_headers.end())
      context.headers = param_header_fields(h->second, arguments);
    return context;
  }

  nlohmann::json call_tool(const std::string& name, nlohmann::json arguments,
                           const std::shared_ptr<CancelScope>& scope = nullptr) {
    if (!mirrors_params())
      return request("tools/call", {{"name", name}, {"arguments", std::move(arguments)}}, {}, scope);
    bool listed = false;
    {
      std::lock_guard<std::mutex> lock(tools_mutex);
      listed = tools_listed;
    }
    // A host may call a tool it knows by name without listing: the annotations are read first.
    if (!listed) {
      try {
        screen_tools(list_all("tools/list", "tools"));
      } catch (const ClientError& e) {  // the call goes without; the server says if it needed them
        session.log(std::string("tools/list for x-mcp-header annotations failed: ") + e.what());
      }
    }
    auto context = param_context(name, arguments);
    const nlohmann::ordered_json params{{"name", name}, {"arguments", arguments}};
    try {
      return request("tools/call", params, context, scope);
    } catch (const ClientError& e) {
      if (e.code() != error_code::header_mismatch) throw;
      // Streamable HTTP, "Client Behavior": after HeaderMismatch the client SHOULD list the tools
      // again (the inputSchema may have changed) and retry the call with the headers it then gives.
      // Once: a second mismatch is the answer.
      session.log("tools/call " + name + ": " + e.what() + ": listing the tools again and retrying once");
      screen_tools(list_all("tools/list", "tools"));
      context = param_context(name, arguments);
      return request("tools/call", params, context);
    }
  }

  nlohmann::json list_all(const std::string& method, const char* member) {
    nlohmann::json all = nlohmann::json::array();
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (int page = 0; page < 10000; ++page) {  // bounded: a server that pages forever is refused
      auto result = request(method, params);
      if (const auto it = result.find(member); it != result.end() && it->is_array()) {
        for (auto& e : *it) all.push_back(std::move(e));
      }
      const auto next = result.find("nextCursor");
      if (next == result.end() || !next->is_string()) return all;
      params = {{"cursor", *next}};
    }
    throw ClientError(0, method + ": more than 10,000 pages");
  }
};

Client::Client(Transport& transport, ClientOptions options)
    : impl_(std::make_unique<Impl>(transport, std::move(options))) {
  const auto& version = impl_->options.protocol_version;
  impl_->stateless = is_stateless(version);
  const auto& session_era = session_protocol_versions();
  if (!impl_->stateless && std::find(session_era.begin(), session_era.end(), version) == session_era.end())
    throw std::invalid_argument("ClientOptions::protocol_version: \"" + version +
                                "\" is not a version this client speaks");
  const auto& fallback = impl_->options.fallback_protocol_version;
  if (fallback && std::find(session_era.begin(), session_era.end(), *fallback) == session_era.end())
    throw std::invalid_argument("ClientOptions::fallback_protocol_version: \"" + *fallback +
                                "\" is not an initialize-based version this client speaks");
}

Client::Client(std::unique_ptr<Transport> transport, ClientOptions options) : Client(*transport, std::move(options)) {
  owned_transport_ = std::move(transport);
}

std::unique_ptr<Client> Client::spawn(const std::vector<std::string>& argv, ClientOptions options,
                                      ChildProcessOptions child) {
  auto process = ChildProcess::spawn(argv, child);
  StdioOptions stdio;
  stdio.in_fd = process->stdout_fd();
  stdio.out_fd = process->stdin_fd();
  auto transport = std::make_unique<StdioTransport>(stdio);
  if (options.server_key.empty()) {
    // The command line names a stdio server (its era does not change between runs of one build).
    std::string key = "stdio:";
    for (const auto& word : argv) key += " " + word;
    options.server_key = std::move(key);
  }
  auto client = std::unique_ptr<Client>(new Client(*transport, std::move(options)));
  client->owned_transport_ = std::move(transport);
  client->child_ = std::move(process);
  return client;
}

Client::~Client() {
  impl_->session.close();
  impl_.reset();  // the session and the workers, before the transport they use
  owned_transport_.reset();
}

void Client::on_elicitation(ElicitationHandler handler) { impl_->fallback = std::move(handler); }

void Client::add_form_handler(nlohmann::json schema, ElicitationHandler handler) {
  impl_->form_handlers.emplace_back(std::move(schema), std::move(handler));
}

nlohmann::json Client::connect() {
  auto* impl = impl_.get();
  if (impl->options.user_interaction && impl->stateless)
    throw ClientError(0,
                      "ClientOptions::user_interaction: the userInteraction dialect is for protocol versions "
                      "2025-11-25 and 2025-06-18 only");
  impl->session.on_request("ping", [](const Request&, Responder out) { out.result(nlohmann::json::object()); });
  std::string initialize_version = impl->options.protocol_version;
  bool from_cache = false;
  if (impl->stateless) {
    if (impl->options.tasks && impl->options.task_notifications) impl->listen_for_tasks();
    impl->session.start();
    const auto& fallback = impl->options.fallback_protocol_version;
    const auto cached =
        fallback && !impl->server_key.empty() ? EraCache::instance().session_version(impl->server_key) : std::nullopt;
    if (cached && *cached == *fallback) {
      impl->session.log("server/discover skipped: " + impl->server_key + " spoke " + *cached +
                        " earlier in this process");
      from_cache = true;
    } else {
      if (auto discovered = impl->probe()) {
        if (!impl->server_key.empty()) EraCache::instance().forget(impl->server_key);
        return impl->remember(std::move(*discovered));
      }
      if (!impl->server_key.empty()) EraCache::instance().remember(impl->server_key, *fallback);
    }
    impl->stateless = false;
    initialize_version = *fallback;
  }
  // The initialize era: the server's requests (elicitation/create, interaction/create) may come
  // from initialize's result on.
  impl->workers = std::make_unique<WorkerPool>(2);
  impl->session.on_request("elicitation/create", [impl](const Request& r, Responder out) {
    impl->workers->post([impl, params = r.params, text = r.text, out] {
      try {
        out.result(impl->answer(params, ordered_at(text, {"params"})));
      } catch (const std::exception& e) {
        impl->session.log(std::string("elicitation handler threw: ") + e.what());
        out.error({error_code::internal_error, "the client could not answer the elicitation", std::nullopt});
      }
    });
  });
  if (impl->options.user_interaction) {
    impl->session.on_request("interaction/create", [impl](const Request& r, Responder out) {
      impl->workers->post([impl, params = r.params, text = r.text, out] {
        try {
          impl->answer_interaction(params, text, out);
        } catch (const std::exception& e) {
          impl->session.log(std::string("interaction handler threw: ") + e.what());
          out.error({error_code::internal_error, "the client could not answer the interaction", std::nullopt});
        }
      });
    });
  }
  impl->session.start();  // a second start() (after the probe) does nothing
  nlohmann::ordered_json params{{"protocolVersion", initialize_version},
                                {"capabilities", impl->capabilities()},
                                {"clientInfo", impl->options.client_info}};
  nlohmann::json result;
  try {
    result = impl->request("initialize", std::move(params));
  } catch (const ClientError&) {
    // The server may have changed era since it was cached: the next client probes again.
    if (from_cache) EraCache::instance().forget(impl->server_key);
    throw;
  }
  const auto version = result.value("protocolVersion", std::string());
  const auto& session_era = session_protocol_versions();
  // A server may answer an older revision (Lifecycle, "Version Negotiation"); 2025-03-26 has the
  // same initialize, Streamable HTTP and resumption, and no elicitation (its servers never ask), so
  // this client speaks it too, as a client only.
  if (std::find(session_era.begin(), session_era.end(), version) == session_era.end() && version != "2025-03-26")
    throw ClientError(
        0, "initialize: the server answered protocol version \"" + version + "\", which this client does not speak");
  {
    std::lock_guard<std::mutex> lock(impl->version_mutex);
    impl->version = version;
  }
  impl->session.notify("notifications/initialized", nlohmann::ordered_json::object());
  return impl->remember(std::move(result));
}

std::string Client::protocol_version() const { return impl_->current_version(); }

const nlohmann::json& Client::server_info() const noexcept { return impl_->server_info; }
const nlohmann::json& Client::server_capabilities() const noexcept { return impl_->server_capabilities; }

nlohmann::json Client::call_tool(const std::string& name, nlohmann::json arguments) {
  return impl_->call_tool(name, std::move(arguments));
}

nlohmann::json Client::call_tool(const std::string& name, nlohmann::json arguments,
                                 const std::shared_ptr<CancelScope>& scope) {
  if (!scope) throw std::invalid_argument("Client::call_tool: the cancel scope is null");
  if (scope->cancelled()) throw ClientError(0, "tools/call: cancelled by the caller");
  return impl_->call_tool(name, std::move(arguments), scope);
}

nlohmann::json Client::get_prompt(const std::string& name, nlohmann::json arguments) {
  return impl_->request("prompts/get", {{"name", name}, {"arguments", std::move(arguments)}});
}

nlohmann::json Client::read_resource(const std::string& uri) {
  return impl_->request("resources/read", {{"uri", uri}});
}

nlohmann::json Client::list_tools() {
  auto tools = impl_->list_all("tools/list", "tools");
  return impl_->mirrors_params() ? impl_->screen_tools(std::move(tools)) : tools;
}
nlohmann::json Client::list_prompts() { return impl_->list_all("prompts/list", "prompts"); }
nlohmann::json Client::list_resources() { return impl_->list_all("resources/list", "resources"); }

jsonrpc::Connection& Client::rpc() noexcept { return impl_->session; }
void Client::close() { impl_->session.close(); }

}  // namespace elicit
