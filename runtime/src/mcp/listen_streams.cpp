// subscriptions/listen (MCP 2026-07-28, Basic, Patterns, "Subscriptions"): a 2026-07-28 request that
// stays open as a stream of the notifications its filter names.
#include "listen_streams.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace elicit::detail {

namespace {

RpcError invalid(std::string message) { return {error_code::invalid_params, std::move(message), std::nullopt}; }

// The filter's flag `name`: absent is false; anything but a boolean is an error.
std::optional<RpcError> read_flag(const nlohmann::json& filter, const char* name, bool& out) {
  const auto it = filter.find(name);
  if (it == filter.end()) return std::nullopt;
  if (!it->is_boolean()) return invalid(std::string("Invalid params: notifications.") + name + " must be a boolean");
  out = it->get<bool>();
  return std::nullopt;
}

}  // namespace

struct ListenStreams::Stream {
  explicit Stream(Responder o) : out(std::move(o)) {}
  Responder out;
  nlohmann::json id_json;
  std::shared_ptr<Subscriptions::Subscriber> subscriber;
  // notifications/tasks: what the tasks are read with, the store's watches, and what was sent last
  // per task (lastUpdatedAt, status), so a change heard twice goes out once. Sent one at a time
  // (task_mutex): a later read is never older than one sent before it.
  TaskServing tasks;
  std::vector<std::shared_ptr<void>> watches;
  std::mutex task_mutex;
  std::map<std::string, std::pair<std::int64_t, TaskStatus>> last_sent;  // guarded by task_mutex
};

namespace {

// notifications.taskIds: nullopt when absent; an error for a malformed one.
std::optional<RpcError> read_task_ids(const nlohmann::json& filter, std::optional<std::vector<std::string>>& out) {
  const auto it = filter.find("taskIds");
  if (it == filter.end()) return std::nullopt;
  if (!it->is_array() || it->size() > Subscriptions::max_uris_per_subscriber) {
    return invalid("Invalid params: notifications.taskIds must be an array of at most " +
                   std::to_string(Subscriptions::max_uris_per_subscriber) + " task ids");
  }
  out.emplace();
  for (const auto& id : *it) {
    if (!id.is_string()) return invalid("Invalid params: notifications.taskIds must hold strings");
    out->push_back(id.get<std::string>());
  }
  return std::nullopt;
}

}  // namespace

void ListenStreams::open(const Request& request, const Responder& out, const TaskServing& tasks, bool declares_tasks) {
  const auto& params = request.params;
  std::optional<std::vector<std::string>> task_ids;
  if (params.is_object()) {
    if (const auto f = params.find("notifications"); f != params.end() && f->is_object()) {
      if (auto e = read_task_ids(*f, task_ids)) {
        out.error(std::move(*e));
        return;
      }
    }
  }
  if (!task_ids) {
    open_now(request, out, tasks, {});
    return;
  }
  if (!declares_tasks) {
    out.error(tasks_required_error());  // tasks.md: -32021 for a non-declaring client asking for task notifications
    return;
  }
  const auto store = tasks.server->task_store();
  if (!store || !store->blocking()) {
    open_now(request, out, tasks, std::move(*task_ids));
    return;
  }
  // A network store: the tasks are looked up on a worker, never on this (I/O) thread.
  auto job = [weak = weak_from_this(), request, out, tasks, ids = std::move(*task_ids)]() mutable {
    if (const auto self = weak.lock()) self->open_now(request, out, tasks, std::move(ids));
  };
  if (!tasks.options->workers->post(std::move(job))) {
    out.error({error_code::internal_error, "the server is shutting down", std::nullopt});
  }
}

void ListenStreams::open_now(const Request& request, const Responder& out, const TaskServing& tasks,
                             std::vector<std::string> task_ids) {
  const auto& params = request.params;
  const auto filter_it = params.is_object() ? params.find("notifications") : params.end();
  if (!params.is_object() || filter_it == params.end() || !filter_it->is_object()) {
    out.error(invalid("Invalid params: subscriptions/listen needs params.notifications (an object)"));
    return;
  }
  const auto& filter = *filter_it;
  ListFilter asked;
  for (auto [name, flag] : {std::pair<const char*, bool*>{"toolsListChanged", &asked.tools},
                            {"promptsListChanged", &asked.prompts},
                            {"resourcesListChanged", &asked.resources}}) {
    if (auto e = read_flag(filter, name, *flag)) {
      out.error(std::move(*e));
      return;
    }
  }
  std::vector<std::string> uris;
  if (const auto it = filter.find("resourceSubscriptions"); it != filter.end()) {
    if (!it->is_array() || it->size() > Subscriptions::max_uris_per_subscriber) {
      out.error(invalid("Invalid params: notifications.resourceSubscriptions must be an array of at most " +
                        std::to_string(Subscriptions::max_uris_per_subscriber) + " URIs"));
      return;
    }
    for (const auto& u : *it) {
      if (!u.is_string()) {
        out.error(invalid("Invalid params: notifications.resourceSubscriptions must hold strings"));
        return;
      }
      uris.push_back(u.get<std::string>());
    }
  }

  // What is honoured: changes of the lists this server offers, and URIs it can read. The rest is
  // left out of the acknowledgment ("Notification types the server does not support are omitted").
  ListFilter lists{asked.tools, asked.prompts && core_.offers("prompts"), asked.resources && core_.offers("resources")};
  nlohmann::ordered_json honoured = nlohmann::ordered_json::object();
  if (lists.tools) honoured["toolsListChanged"] = true;
  if (lists.prompts) honoured["promptsListChanged"] = true;
  if (lists.resources) honoured["resourcesListChanged"] = true;
  std::vector<std::string> known;
  for (auto& uri : uris) {
    std::map<std::string, std::string> unused;
    if (core_.find_resource(uri) || core_.match_resource_template(uri, unused)) known.push_back(std::move(uri));
  }
  if (!uris.empty()) honoured["resourceSubscriptions"] = known;
  // Task ids: the caller's own tasks that exist (another principal's is as unknown). A server that
  // keeps no tasks leaves them out of the acknowledgment.
  const auto store = tasks.server->task_store();
  std::vector<std::string> watched;
  if (store && filter.contains("taskIds")) {
    for (auto& id : task_ids) {
      try {
        if (find_owned_task(tasks, id)) watched.push_back(std::move(id));
      } catch (const std::exception&) {
        out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
        return;
      }
    }
    honoured["taskIds"] = watched;
  }

  auto stream = std::make_shared<Stream>(out);
  stream->id_json = id_to_json(request.id);
  stream->tasks = tasks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) {
      out.error({error_code::internal_error, "the server is shutting down", std::nullopt});
      return;
    }
    if (streams_.size() >= max_streams) {
      out.error({error_code::invalid_request,
                 "Invalid Request: at most " + std::to_string(max_streams) +
                     " subscriptions/listen streams may be open on one connection",
                 std::nullopt});
      return;
    }
    streams_.emplace(request.id, stream);
  }

  // Every message of the stream goes out related to the listen request (Streamable HTTP: on its
  // SSE reply) and names it in _meta.
  const auto id = request.id;
  auto sink = [rpc = &rpc_, id, id_json = stream->id_json](const char* method, nlohmann::ordered_json p) {
    p["_meta"] = {{std::string(meta_key::subscription_id), id_json}};
    SendContext context;
    context.related_request = id;
    return rpc->notify(method, std::move(p), context);
  };
  // The acknowledgment goes first ("MUST NOT send any notification on the subscription before
  // it"); a change made meanwhile follows it.
  auto subscriber = core_.subscriptions().attach_with_first(
      std::move(sink), lists, known, "notifications/subscriptions/acknowledged", {{"notifications", honoured}});
  if (!subscriber) {
    end(id, false);
    out.error({error_code::invalid_request,
               "Invalid Request: subscriptions/listen needs a stream to the client (over HTTP, Accept: "
               "text/event-stream)",
               std::nullopt});
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stream->subscriber = subscriber;
    if (!streams_.count(id)) subscriber = nullptr;  // ended meanwhile (close_all): let go below
  }
  if (!subscriber) {
    core_.subscriptions().detach(stream->subscriber);
    return;
  }
  // Each watched task: its state now (the client may have read an older one), then each change;
  // read and sent on a worker.
  if (!watched.empty()) {
    const auto post_send = [weak = weak_from_this(), workers = tasks.options->workers, id](const std::string& task) {
      workers->post([weak, id, task] {
        if (const auto self = weak.lock()) self->send_task(id, task);
      });
    };
    std::vector<std::shared_ptr<void>> watches;
    for (const auto& task : watched) {
      watches.push_back(store->watch(task, [post_send, task](TaskStatus) { post_send(task); }));
      post_send(task);
    }
    std::lock_guard<std::mutex> lock(stream->task_mutex);
    stream->watches = std::move(watches);
  }
  // The client's notifications/cancelled (stdio) or leaving the SSE reply (HTTP) ends it; the
  // cancelled request gets no answer.
  out.on_cancel([weak = weak_from_this(), id] {
    if (const auto self = weak.lock()) self->end(id, false);
  });
}

void ListenStreams::send_task(const RequestId& id, const std::string& task_id) {
  std::shared_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = streams_.find(id);
    if (it == streams_.end()) return;
    stream = it->second;
  }
  std::lock_guard<std::mutex> lock(stream->task_mutex);
  std::optional<TaskRecord> task;
  try {
    task = find_owned_task(stream->tasks, task_id);
    // A task another process let go of runs again here (the client may never poll tasks/get).
    if (task) task = stream->tasks.server->task_runs().resume_released(stream->tasks, std::move(*task));
  } catch (const std::exception&) {
    return;  // the store cannot be reached: the next change (or the client's poll) tells
  }
  if (!task) return;  // expired
  const auto seen = std::make_pair(task->updated_ms, task->status);
  if (const auto last = stream->last_sent.find(task_id); last != stream->last_sent.end() && last->second == seen)
    return;
  stream->last_sent[task_id] = seen;
  auto p = detailed_task(*task);
  p["_meta"] = {{std::string(meta_key::subscription_id), stream->id_json}};
  SendContext context;
  context.related_request = id;
  rpc_.notify("notifications/tasks", std::move(p), context);
}

void ListenStreams::end(const RequestId& id, bool answer) {
  std::shared_ptr<Stream> stream;
  std::shared_ptr<Subscriptions::Subscriber> subscriber;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = streams_.find(id);
    if (it == streams_.end()) return;
    stream = std::move(it->second);
    streams_.erase(it);
    // Read under the lock that open() sets it under (a race TSan found): either open() set it
    // before this (detached here), or it finds the stream gone and detaches it itself.
    subscriber = stream->subscriber;
  }
  if (subscriber) core_.subscriptions().detach(subscriber);
  {
    std::vector<std::shared_ptr<void>> watches;
    std::lock_guard<std::mutex> lock(stream->task_mutex);
    watches.swap(stream->watches);
  }
  if (answer && !stream->out.answered() && !stream->out.cancelled()) {
    // Graceful closure: the empty result, naming the subscription.
    nlohmann::json result{{"_meta", {{std::string(meta_key::subscription_id), stream->id_json}}}};
    stamp_stateless_result(result, core_.info_json());
    stream->out.result(std::move(result));
  }
}

void ListenStreams::close_all() {
  std::vector<RequestId> ids;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    for (const auto& entry : streams_) ids.push_back(entry.first);
  }
  for (const auto& id : ids) end(id, true);
}

std::size_t ListenStreams::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return streams_.size();
}

}  // namespace elicit::detail
