// Client::Impl: a request answered with a task (the io.modelcontextprotocol/tasks extension)
// followed to its end: tasks/get polls, its questions answered with tasks/update, the caller's
// cancellation sent as tasks/cancel, and with ClientOptions::task_notifications a subscriptions/listen
// stream that says when to read (client_impl.hpp).
#include "client_impl.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "elicit/protocol/protocol_era.hpp"
#include "elicit/tasks.hpp"

namespace elicit {

using client_detail::ordered_at;
using client_detail::throw_outcome;

// ClientOptions::task_notifications: a subscriptions/listen request naming one task while the
// client follows it; cancelled (notifications/cancelled; over HTTP its stream closes) when the
// following ends. Nothing when the option is off.
class Client::Impl::Listen {
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

// Tells the waits following task `id` (a notification came for it), on the transport's thread.
void Client::Impl::tell_listeners(const std::string& id, bool TaskWake::*flag) {
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
void Client::Impl::listen_for_tasks() {
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

// A request the server answered with a task (the io.modelcontextprotocol/tasks extension):
// tasks/get every pollIntervalMs until the task ends, its questions answered with tasks/update;
// the result of a completed task, ClientError for a failed (its JSON-RPC error) or cancelled one.
// `scope` (may be null): cancelling it sends tasks/cancel and throws "cancelled by the caller"
// (tasks.md, "tasks/cancel": the client stops the task it no longer wants).
nlohmann::json Client::Impl::follow_task(const std::string& method, nlohmann::json task,
                                         const std::shared_ptr<CancelScope>& scope, Step* step,
                                         std::set<std::string> answered) {
  const auto id = task.value("taskId", std::string());
  if (id.empty()) throw ClientError(0, method + ": the server answered a task without a taskId");
  const auto ask = [&](const char* m, nlohmann::ordered_json params, const std::shared_ptr<CancelScope>& in) {
    return task_request(m, id, std::move(params), in);
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
      // A key answered before is not a question again (keys are unique over the task's life:
      // tasks.md, "Input Requests"), only a read made before the server took the answer.
      const auto it = task.find("inputRequests");
      bool asks = false;
      if (it != task.end() && it->is_object()) {
        for (const auto& e : it->items()) asks = asks || answered.count(e.key()) == 0;
      }
      if (asks) {
        if (++rounds > options.max_rounds)
          throw ClientError(0, method + ": the task asked for input more than " + std::to_string(options.max_rounds) +
                                   " times (ClientOptions::max_rounds)");
        auto answers = answer_inputs(method, *it, ordered_requests, step, answered);
        if (!answers) {  // a step call stops here; the task keeps waiting for tasks/update
          PendingInput pending;
          pending.input_requests = ordered_requests.is_object() ? ordered_requests : nlohmann::ordered_json(*it);
          for (const auto& key : answered) pending.input_requests.erase(key);
          pending.task_id = id;
          pending.task = task;
          step->pending = std::move(pending);
          return nullptr;
        }
        for (const auto& [key, value] : answers->items()) answered.insert(key);
        stop_if_cancelled();
        ask("tasks/update", {{"inputResponses", std::move(*answers)}}, nullptr);
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

RequestOutcome Client::Impl::task_request(const char* method, const std::string& id, nlohmann::ordered_json params,
                                          const std::shared_ptr<CancelScope>& scope) {
  params["taskId"] = id;
  params["_meta"] = meta();
  auto o = call(method, std::move(params), {}, scope);
  if (!o.result) throw_outcome(o, method);
  return o;
}

// resume_tool_step of a task: its answers as tasks/update, then the task followed from a fresh
// read, the answered keys never asked again.
nlohmann::json Client::Impl::resume_task(const std::string& method, const PendingInput& pending,
                                         nlohmann::ordered_json responses, const std::shared_ptr<CancelScope>& scope,
                                         Step& step) {
  std::set<std::string> answered;
  for (const auto& [key, value] : responses.items()) answered.insert(key);
  task_request("tasks/update", pending.task_id, {{"inputResponses", std::move(responses)}}, scope);
  auto task = std::move(*task_request("tasks/get", pending.task_id, nlohmann::ordered_json::object(), scope).result);
  if (!task.is_object() || task.value("taskId", std::string()) != pending.task_id)
    throw ClientError(0, "tasks/get: the server answered for another task than " + pending.task_id);
  return follow_task(method, std::move(task), scope, &step, std::move(answered));
}

}  // namespace elicit
