// Tasks of the io.modelcontextprotocol/tasks extension: creation, runs, and the tasks/* methods
// (task_runs.hpp).
#include "task_runs.hpp"

#include <atomic>
#include <optional>
#include <stdexcept>
#include <vector>

#include "elicit/jsonrpc/worker_pool.hpp"

namespace elicit::detail {

bool declares_tasks(const ClientCapabilities& capabilities) {
  const auto& raw = capabilities.raw;
  if (!raw.is_object()) return false;
  const auto ext = raw.find("extensions");
  if (ext == raw.end() || !ext->is_object()) return false;
  const auto t = ext->find(tasks_extension);
  return t != ext->end() && t->is_object();
}

RpcError tasks_required_error() {
  return missing_required_client_capability(
      nlohmann::json{{"extensions", {{tasks_extension, nlohmann::json::object()}}}});
}

namespace {

// Several processes share the store: a run one of them lets go, another can take.
bool shared_store(const TaskServing& serving) {
  const auto store = serving.server->task_store();
  return store && store->run_lease().count() > 0;
}

void reply(const TaskServing& serving, const Responder& out, nlohmann::json result) {
  stamp_stateless_result(result, serving.server->info_json());
  out.result(std::move(result));
}

// Ordered: a question's requestedSchema keeps the order its properties were written in (a client
// shows the fields in that order).
void reply_ordered(const TaskServing& serving, const Responder& out, nlohmann::ordered_json result) {
  stamp_stateless_result(result, serving.server->info_json());
  out.result_ordered(std::move(result));
}

// The members of a Task (tasks.md, "Task"): what CreateTaskResult and DetailedTask share.
nlohmann::json task_members(const TaskRecord& t) {
  nlohmann::json j{{"taskId", t.id},
                   {"status", std::string(to_string(t.status))},
                   {"createdAt", iso8601_utc(t.created_ms)},
                   {"lastUpdatedAt", iso8601_utc(t.updated_ms)},
                   {"ttlMs", t.ttl_ms},
                   {"pollIntervalMs", t.poll_interval_ms}};
  if (!t.status_message.empty()) j["statusMessage"] = t.status_message;
  return j;
}

// The task id of a tasks/* request, or nullopt after answering -32602.
std::optional<std::string> task_id_of(const Request& r, const Responder& out) {
  if (r.params.is_object()) {
    if (const auto id = r.params.find("taskId"); id != r.params.end() && id->is_string()) return id->get<std::string>();
  }
  out.error(
      {error_code::invalid_params, "Invalid params: " + r.method + " needs a string params.taskId", std::nullopt});
  return std::nullopt;
}

// The task, when it exists and belongs to `caller`; else answers -32602 (another principal's task
// is answered like an unknown one: ext-tasks, "Security Considerations").
std::optional<TaskRecord> owned_task(const TaskServing& serving, const std::string& id, const Responder& out) {
  std::optional<TaskRecord> task;
  try {
    task = find_owned_task(serving, id);
  } catch (const std::exception&) {
    out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
    return std::nullopt;
  }
  if (!task) {
    out.error({error_code::invalid_params, "Task not found: " + id, nlohmann::json{{"taskId", id}}});
    return std::nullopt;
  }
  return task;
}

// The gate every tasks/* request passes first (tasks.md: -32021 for a client that does not declare
// the extension, before the task is looked up).
bool declared(const Responder& out, const StatelessFields& fields) {
  if (declares_tasks(fields.capabilities)) return true;
  out.error(tasks_required_error());
  return false;
}

// Runs `job` where the store may be called: at once for a store in memory, on the serving's workers
// for a blocking one (a network store never holds an I/O thread). -32603 when no worker takes it.
void with_store(const TaskServing& serving, const Responder& out, std::function<void()> job) {
  const auto store = serving.server->task_store();
  if (!store || !store->blocking()) {
    job();
    return;
  }
  if (!serving.options->workers->post(std::move(job))) {
    out.error({error_code::internal_error, "The server is stopping", std::nullopt});
  }
}

}  // namespace

std::optional<TaskRecord> find_owned_task(const TaskServing& serving, const std::string& id) {
  const auto store = serving.server->task_store();
  if (!store) return std::nullopt;
  auto task = store->get(id);
  if (!task || task->owner != serving.caller.principal) return std::nullopt;
  return task;
}

nlohmann::ordered_json detailed_task(const TaskRecord& t) {
  nlohmann::ordered_json j = task_members(t);
  switch (t.status) {
    case TaskStatus::input_required:
      j["inputRequests"] = t.input_requests;
      break;
    case TaskStatus::completed:
      j["result"] = t.result;
      break;
    case TaskStatus::failed:
      j["error"] = t.error;
      break;
    default:
      break;
  }
  return j;
}

// --- One run of a task ---------------------------------------------------------------------------

// The transport of one run: takes the response of the replayed tools/call (nothing else: tasks
// send no progress or log messages, tasks.md) and records it in the task once.
class TaskRuns::Run final : public Transport, public std::enable_shared_from_this<Run> {
 public:
  Run(std::weak_ptr<TaskRuns> owner, TaskServing serving, TaskRecord task)
      : owner_(std::move(owner)), serving_(std::move(serving)), task_(std::move(task)) {}
  ~Run() override {
    destroying_ = true;    // close() from the connection's end must not settle: no shared_from_this now
    rpc_serving_.reset();  // waits for the handler before the members go
  }

  // Starts the replay. Throws when the stored request no longer reads as a 2026-07-28 request.
  void begin() {
    // A shared store: renew this run's lease while it goes on, and hear of a tasks/cancel that
    // another process takes.
    if (const auto store = serving_.server->task_store()) {
      auto lease = store->hold_lease(task_);
      std::weak_ptr<TaskRuns> owner = owner_;
      // Cancelled on a worker, never on the store's thread: ending the run may let go of the last
      // reference to the Server, and so to the store, whose destructor joins that thread.
      auto watch = store->watch(task_.id, [owner, workers = pool(), id = task_.id](TaskStatus status) {
        if (status != TaskStatus::cancelled) return;
        workers->post([owner, id] {
          if (const auto runs = owner.lock()) runs->cancel(id);
        });
      });
      std::lock_guard<std::mutex> lock(handles_mutex_);
      lease_ = std::move(lease);
      watch_ = std::move(watch);
    }
    auto params = task_.request;
    if (!task_.request_state.empty()) params["requestState"] = task_.request_state;
    if (!task_.answers.empty()) params["inputResponses"] = task_.answers;
    auto era = read_request_era(params);
    if (!era.stateless) throw std::runtime_error("the task's request is not a 2026-07-28 request");
    era.stateless->task_id = task_.id;
    // The connection takes one message at a time: the request and a cancellation are delivered
    // under one lock, and a cancellation that came first follows the request at once.
    std::lock_guard<std::mutex> lock(deliver_mutex_);
    request_id_ = RequestId{"task-run-" + std::to_string(task_.run)};
    rpc_serving_ = std::make_unique<StatelessServing>(*this, serving_.server, *serving_.options, serving_.caller,
                                                      std::move(*era.stateless));
    rpc_serving_->serve(Request{request_id_, "tools/call", std::move(params)});
    if (cancel_asked_) deliver_cancel();
  }

  const std::shared_ptr<WorkerPool>& pool() const noexcept { return serving_.options->workers; }

  // Cancels the run for stop(): with a shared store, its task is released rather than failed.
  void let_go() {
    releasing_ = shared_store(serving_);
    cancel();
  }

  void cancel() {
    {
      std::lock_guard<std::mutex> lock(deliver_mutex_);
      cancel_asked_ = true;
      if (rpc_serving_) deliver_cancel();
    }
    // A cancelled request gets no response (the connection drops it): the run ends here. Its
    // handler, told, returns while the run is destroyed on a worker (which waits for it).
    settle(std::nullopt);
  }

  void start(MessageHandler, CloseHandler on_close) override {
    std::lock_guard<std::mutex> lock(close_mutex_);
    on_close_ = std::move(on_close);
  }
  bool send(std::string message, const SendContext& context) override {
    if (!context.response) return false;
    settle(std::move(message));
    return true;
  }
  // The connection ends (the run is being destroyed): it waits for this on_close.
  void close() override {
    if (!destroying_) settle(std::nullopt);
    CloseHandler on_close;
    {
      std::lock_guard<std::mutex> lock(close_mutex_);
      on_close = std::move(on_close_);
      on_close_ = nullptr;
    }
    if (on_close) on_close();
  }
  void abandon(const RequestId&) override { settle(std::nullopt); }

 private:
  void deliver_cancel() {  // under deliver_mutex_
    if (rpc_serving_->rpc().closed()) return;
    rpc_serving_->rpc().deliver(Notification{
        "notifications/cancelled",
        nlohmann::json{{"requestId", id_to_json(request_id_)}, {"reason", "the task was cancelled (tasks/cancel)"}}});
  }

  // Records the outcome on a worker: never inside a callback of the run's own connection, which
  // the run's end destroys.
  void settle(std::optional<std::string> response) {
    if (settled_.exchange(true)) return;
    // No reference to the run stays on this thread once the job is queued: settle() is often called
    // inside the run's own handler job (its reply), and the run's destructor waits for that job to
    // end. Were the last reference to go here, after the job below had already run on another
    // worker, this worker would wait for itself for ever (seen: three of four workers stuck so).
    const bool posted = serving_.options->workers->post([self = shared_from_this(), response]() mutable {
      self->record(response);
      self->release_handles();  // after the outcome is in: until then the run answers for the task
      const auto owner = self->owner_.lock();
      const auto id = self->task_.id;
      const Run* key = self.get();
      // This job's reference goes first: the run (and the pool reference its options hold) is
      // destroyed inside finished(), before TaskRuns::stop() hears that it ended. Otherwise the
      // last reference to a pool could go inside the pool's own job, which leaves its thread
      // unjoined.
      self.reset();
      if (owner) owner->finished(id, key);
    });
    if (!posted) record(response);  // the pool stops: record at least
  }

  void release_handles() {
    std::shared_ptr<void> lease;
    std::shared_ptr<void> watch;
    std::lock_guard<std::mutex> lock(handles_mutex_);
    lease.swap(lease_);
    watch.swap(watch_);
  }

  void record(const std::optional<std::string>& response) {
    const auto store = serving_.server->task_store();
    if (!store) return;
    nlohmann::ordered_json message = nullptr;
    if (response) message = nlohmann::ordered_json::parse(*response, nullptr, false);
    const auto run = task_.run;
    try {
      store->update(task_.id, [&](TaskRecord& t) {
        if (t.run != run || is_terminal(t.status)) return false;  // cancelled, expired, or another run's
        t.updated_ms = unix_time_ms();
        if (!message.is_object() && releasing_) {
          t.run_released = true;  // still working: the next process to read it runs it again
          t.updated_ms = unix_time_ms();
          return true;
        }
        if (!message.is_object()) {
          t.status = TaskStatus::failed;
          t.error = {{"code", error_code::internal_error}, {"message", "the task's run ended without an answer"}};
          t.status_message = "the task's run ended without an answer";
          return true;
        }
        if (const auto e = message.find("error"); e != message.end()) {
          t.status = TaskStatus::failed;
          t.error = nlohmann::json::parse(e->dump());
          t.status_message = e->value("message", std::string("failed"));
          return true;
        }
        auto result = message.value("result", nlohmann::ordered_json::object());
        if (result.value("resultType", std::string()) == "input_required") {
          ask(t, result);
          return true;
        }
        // The CallToolResult as the call would have returned it (tasks.md: "the result field MUST
        // contain that result"): a 2026-07-28 CallToolResult, so with its resultType "complete" (a
        // Result's resultType is required at 2026-07-28; ext-tasks' client rejects a result without
        // it), but without the server's _meta envelope.
        result["resultType"] = "complete";
        if (const auto meta = result.find("_meta"); meta != result.end() && meta->is_object()) {
          meta->erase(std::string(meta_key::server_info));
          if (meta->empty()) result.erase("_meta");
        }
        t.status = TaskStatus::completed;
        t.status_message.clear();
        t.result = nlohmann::json::parse(result.dump());
        return true;
      });
    } catch (const std::exception&) {
      // The store cannot be reached: the task stays as it was; its lease (a shared store) or its
      // ttl ends it.
    }
  }

  // The run ended with questions: they become the task's inputRequests, each under a key never shown
  // before in this task (a question asked again after an invalid answer gets `<key>.2`, ...).
  static void ask(TaskRecord& t, const nlohmann::ordered_json& result) {
    t.status = TaskStatus::input_required;
    t.status_message = "waiting for input";
    t.request_state = result.value("requestState", std::string());
    t.answers = nlohmann::json::object();
    t.input_requests = nlohmann::ordered_json::object();
    t.key_map = nlohmann::json::object();
    const auto used = [&](const std::string& k) {
      for (const auto& u : t.used_keys)
        if (u == k) return true;
      return false;
    };
    const auto questions = result.find("inputRequests");
    if (questions == result.end() || !questions->is_object()) return;
    for (auto it = questions->begin(); it != questions->end(); ++it) {
      auto shown = it.key();
      for (int n = 2; used(shown); ++n) shown = it.key() + "." + std::to_string(n);
      t.used_keys.push_back(shown);
      t.key_map[shown] = it.key();
      t.input_requests[shown] = it.value();
    }
  }

  std::weak_ptr<TaskRuns> owner_;
  TaskServing serving_;
  TaskRecord task_;
  RequestId request_id_;
  std::atomic<bool> settled_{false};
  std::mutex deliver_mutex_;
  bool cancel_asked_ = false;  // guarded by deliver_mutex_
  std::mutex close_mutex_;
  CloseHandler on_close_;
  std::unique_ptr<StatelessServing> rpc_serving_;
  std::mutex handles_mutex_;
  std::shared_ptr<void> lease_;  // TaskStore::hold_lease; guarded by handles_mutex_
  std::shared_ptr<void> watch_;  // TaskStore::watch; guarded by handles_mutex_
  std::atomic<bool> destroying_{false};
  std::atomic<bool> releasing_{false};  // let_go(): the run ends without an answer, for another process
};

void TaskRuns::start(const TaskServing& serving, const TaskRecord& task) { begin(serving, task, false); }

void TaskRuns::begin(const TaskServing& serving, const TaskRecord& task, bool queued) {
  const auto& pool = serving.options->workers;
  const auto store = serving.server->task_store();
  std::shared_ptr<Run> run;
  bool post_drain = false;
  bool stopping = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& lane = lanes_[pool.get()];
    stopping = lane.stopping;
    if (!stopping && !queued && (!lane.waiting.empty() || lane.begun >= batch(pool->size()))) {
      lane.waiting.push_back(Waiting{serving, task.id, task.run, store ? store->hold_lease(task) : nullptr});
      return;  // a drain is queued: runs are begun since the last one
    }
    if (!stopping) {
      ++lane.begun;
      post_drain = !lane.drain_posted;
      lane.drain_posted = true;
      run = std::make_shared<Run>(weak_from_this(), serving, task);
      runs_[task.id] = run;
    }
  }
  if (stopping) {
    let_go(serving, task.id, task.run, "the server stopped before the task's run began");
    return;
  }
  try {
    run->begin();
  } catch (const std::exception& e) {
    finished(task.id, run.get());
    fail(serving, task.id, task.run, std::string("the task could not run: ") + e.what());
  }
  // Behind the handler the run just queued (if it has a blocking one): when a worker takes the
  // drain, the handlers begun before it have been taken.
  if (post_drain && !pool->post([weak = weak_from_this(), key = pool.get()] {
        if (const auto runs = weak.lock()) runs->drain(key);
      })) {
    std::lock_guard<std::mutex> lock(mutex_);  // the pool stops: stop() ends what waits
    if (const auto it = lanes_.find(pool.get()); it != lanes_.end()) {
      it->second.drain_posted = false;
      if (it->second.idle()) lanes_.erase(it);
    }
  }
}

void TaskRuns::drain(WorkerPool* pool) {
  std::vector<Waiting> next;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = lanes_.find(pool);
    if (it == lanes_.end()) return;
    auto& lane = it->second;
    lane.begun = 0;
    lane.drain_posted = false;
    if (lane.stopping) return;
    const auto n = batch(pool->size());
    while (!lane.waiting.empty() && next.size() < n) {
      next.push_back(std::move(lane.waiting.front()));
      lane.waiting.pop_front();
    }
    if (next.empty()) {
      if (lane.idle()) lanes_.erase(it);
      return;
    }
    ++lane.draining;
  }
  for (auto& w : next) {
    // The task as it is now: a run waiting to begin replays what the store holds, not what the task
    // was when the run was asked for; one cancelled, expired or moved on meanwhile is let go.
    std::optional<TaskRecord> task;
    try {
      if (const auto store = w.serving.server->task_store()) task = store->get(w.id);
    } catch (const std::exception&) {
      continue;  // the store cannot be reached: the lease (a shared store) or the ttl ends the task
    }
    if (!task || task->run != w.run || task->status != TaskStatus::working) continue;
    begin(w.serving, *task, true);
  }
  next.clear();  // the leases go: each begun run holds its own
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto it = lanes_.find(pool); it != lanes_.end()) {
    --it->second.draining;
    if (it->second.idle()) lanes_.erase(it);
  }
  ended_.notify_all();  // stop() waits for drains under way
}

void TaskRuns::fail(const TaskServing& serving, const std::string& id, std::uint64_t run, const std::string& why) {
  const auto store = serving.server->task_store();
  if (!store) return;
  try {
    store->update(id, [&](TaskRecord& t) {
      if (t.run != run || is_terminal(t.status)) return false;
      t.status = TaskStatus::failed;
      t.updated_ms = unix_time_ms();
      t.error = {{"code", error_code::internal_error}, {"message", why}};
      t.status_message = why;
      return true;
    });
  } catch (const std::exception&) {
  }
}

void TaskRuns::let_go(const TaskServing& serving, const std::string& id, std::uint64_t run, const std::string& why) {
  if (!shared_store(serving)) {
    fail(serving, id, run, why);
    return;
  }
  try {
    serving.server->task_store()->update(id, [&](TaskRecord& t) {
      if (t.run != run || t.status != TaskStatus::working || t.run_released) return false;
      t.run_released = true;
      t.updated_ms = unix_time_ms();
      return true;
    });
  } catch (const std::exception&) {
    // The store cannot be reached: the lease lapses, and the task fails then.
  }
}

TaskRecord TaskRuns::resume_released(const TaskServing& serving, TaskRecord task) {
  if (task.status != TaskStatus::working || !task.run_released) return task;
  const auto run = task.run;
  bool taken = false;
  auto after = serving.server->task_store()->update(task.id, [&](TaskRecord& t) {
    taken = false;  // the change may be tried again
    if (t.run != run || t.status != TaskStatus::working || !t.run_released) return false;
    t.run_released = false;
    ++t.run;
    t.updated_ms = unix_time_ms();
    taken = true;
    return true;
  });
  if (!after) return task;  // expired meanwhile: the caller answers from what it read
  if (taken) start(serving, *after);
  return *after;
}

void TaskRuns::cancel(const std::string& id) {
  std::shared_ptr<Run> run;
  std::optional<Waiting> waiting;  // its lease goes after the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = runs_.find(id); it != runs_.end()) run = it->second;
    for (auto& [pool, lane] : lanes_) {
      const auto w =
          std::find_if(lane.waiting.begin(), lane.waiting.end(), [&](const Waiting& x) { return x.id == id; });
      if (w != lane.waiting.end()) {
        waiting = std::move(*w);
        lane.waiting.erase(w);
        break;
      }
    }
  }
  if (run) run->cancel();
}

TaskRuns::Counts TaskRuns::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Counts c;
  c.running = runs_.size();
  for (const auto& [pool, lane] : lanes_) c.waiting += lane.waiting.size();
  return c;
}

void TaskRuns::finished(const std::string& id, const Run* run) {
  std::shared_ptr<Run> gone;  // destroyed after the lock, before waiters hear of it
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = runs_.find(id); it != runs_.end() && it->second.get() == run) {
      gone = std::move(it->second);
      runs_.erase(it);
    }
  }
  gone.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  ended_.notify_all();
}

void TaskRuns::stop(const std::shared_ptr<WorkerPool>& pool) {
  const auto mine = [&](const std::shared_ptr<Run>& run) { return !pool || run->pool() == pool; };
  std::vector<std::shared_ptr<Run>> runs;
  std::vector<Waiting> waiting;
  {
    // One critical section: a run begun after it sees its lane stopping; one begun before it is in
    // runs_ and is cancelled here.
    std::lock_guard<std::mutex> lock(mutex_);
    if (pool) lanes_[pool.get()];
    for (auto& [key, lane] : lanes_) {
      if (pool && key != pool.get()) continue;
      lane.stopping = true;
      for (auto& w : lane.waiting) waiting.push_back(std::move(w));
      lane.waiting.clear();
    }
    for (auto& [id, run] : runs_)
      if (mine(run)) runs.push_back(run);
  }
  for (auto& run : runs) run->let_go();
  runs.clear();
  for (auto& w : waiting) let_go(w.serving, w.id, w.run, "the server stopped before the task's run began");
  waiting.clear();
  // Until the runs have ended and no drain is still beginning runs it took before the lanes stopped
  // (each of those fails now).
  std::unique_lock<std::mutex> lock(mutex_);
  ended_.wait(lock, [&] {
    for (auto& [id, run] : runs_)
      if (mine(run)) return false;
    for (auto& [key, lane] : lanes_)
      if (lane.stopping && lane.draining) return false;
    return true;
  });
  for (auto it = lanes_.begin(); it != lanes_.end();) {
    if (it->second.stopping && (!pool || it->first == pool.get())) {
      it = lanes_.erase(it);
    } else {
      ++it;
    }
  }
}

// --- Creation and the tasks/* methods ------------------------------------------------------------

namespace {

void create_task_now(const TaskServing& serving, const nlohmann::json& params, const Responder& out) {
  const auto store = serving.server->task_store();
  if (!store) {
    out.error({error_code::internal_error, "This server keeps no tasks", std::nullopt});
    return;
  }
  const auto& o = store->options();
  TaskRecord t;
  t.id = new_task_id();
  t.owner = serving.caller.principal;
  t.created_ms = t.updated_ms = unix_time_ms();
  t.ttl_ms = o.ttl.count();
  t.poll_interval_ms = o.poll_interval.count();
  t.expires_ms = t.created_ms + t.ttl_ms;
  t.request = params;
  // The run replays these from the record's own members; a task-era hint is not part of the call
  // (tasks.md: servers ignore the former `task` param).
  for (const char* member : {"requestState", "inputResponses", "task"}) t.request.erase(member);
  if (const auto s = params.find("requestState"); s != params.end() && s->is_string()) t.request_state = *s;
  if (const auto a = params.find("inputResponses"); a != params.end() && a->is_object()) t.answers = *a;
  t.run = 1;
  bool made = false;
  try {
    made = store->create(t);
  } catch (const std::exception&) {
    out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
    return;
  }
  if (!made) {
    out.error({error_code::internal_error, "Too many tasks: the server keeps no more now", std::nullopt});
    return;
  }
  auto result = task_members(t);
  result["resultType"] = "task";  // CreateTaskResult: flat Result & Task (tasks.md, "Task Creation")
  reply(serving, out, std::move(result));
  serving.server->task_runs().start(serving, t);
}

void tasks_get_now(const TaskServing& serving, const Request& r, const Responder& out) {
  const auto id = task_id_of(r, out);
  if (!id) return;
  auto task = owned_task(serving, *id, out);
  if (!task) return;
  try {
    *task = serving.server->task_runs().resume_released(serving, std::move(*task));
  } catch (const std::exception&) {
    out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
    return;
  }
  auto result = detailed_task(*task);
  result["resultType"] = "complete";  // tasks.md, "tasks/get": the result of tasks/get is complete
  reply_ordered(serving, out, std::move(result));
}

void tasks_update_now(const TaskServing& serving, const Request& r, const Responder& out) {
  const auto id = task_id_of(r, out);
  if (!id) return;
  const auto responses = r.params.find("inputResponses");
  if (responses == r.params.end() || !responses->is_object()) {
    out.error({error_code::invalid_params, "Invalid params: tasks/update needs an object params.inputResponses",
               std::nullopt});
    return;
  }
  if (!owned_task(serving, *id, out)) return;
  // Answers to questions outstanding now leave inputRequests before the acknowledgement (a
  // tasks/get right after it sees them gone); others are ignored (tasks.md, "tasks/update"). The
  // last answer starts the next run.
  bool next_run = false;
  std::optional<TaskRecord> after;
  try {
    after = serving.server->task_store()->update(*id, [&](TaskRecord& t) {
      next_run = false;
      if (t.status != TaskStatus::input_required) return false;
      bool changed = false;
      for (auto it = responses->begin(); it != responses->end(); ++it) {
        if (!it->is_object() || !t.input_requests.contains(it.key())) continue;
        const auto asked_as = t.key_map.value(it.key(), it.key());
        t.answers[asked_as] = *it;
        t.input_requests.erase(it.key());
        changed = true;
      }
      if (!changed) return false;
      t.updated_ms = unix_time_ms();
      if (t.input_requests.empty()) {
        t.status = TaskStatus::working;
        t.status_message.clear();
        ++t.run;
        next_run = true;
      }
      return true;
    });
  } catch (const std::exception&) {
    out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
    return;
  }
  reply(serving, out, nlohmann::json::object());
  if (after && next_run) serving.server->task_runs().start(serving, *after);
}

void tasks_cancel_now(const TaskServing& serving, const Request& r, const Responder& out) {
  const auto id = task_id_of(r, out);
  if (!id) return;
  if (!owned_task(serving, *id, out)) return;
  // Cancelled at once (terminal, so a late result never overwrites it); the run is told and its
  // handler stops when it looks. A terminal task is acknowledged unchanged (tasks.md, "tasks/cancel").
  try {
    serving.server->task_store()->update(*id, [&](TaskRecord& t) {
      if (is_terminal(t.status)) return false;
      t.status = TaskStatus::cancelled;
      t.status_message = "cancelled by the client";
      t.updated_ms = unix_time_ms();
      t.input_requests = nlohmann::ordered_json::object();
      return true;
    });
  } catch (const std::exception&) {
    out.error({error_code::internal_error, "The task store cannot be reached", std::nullopt});
    return;
  }
  serving.server->task_runs().cancel(*id);
  reply(serving, out, nlohmann::json::object());
}

}  // namespace

void create_task(const TaskServing& serving, const nlohmann::json& params, const Responder& out) {
  with_store(serving, out, [serving, params, out] { create_task_now(serving, params, out); });
}

void tasks_get(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields) {
  if (declared(out, fields)) with_store(serving, out, [serving, r, out] { tasks_get_now(serving, r, out); });
}

void tasks_update(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields) {
  if (declared(out, fields)) with_store(serving, out, [serving, r, out] { tasks_update_now(serving, r, out); });
}

void tasks_cancel(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields) {
  if (declared(out, fields)) with_store(serving, out, [serving, r, out] { tasks_cancel_now(serving, r, out); });
}

}  // namespace elicit::detail
