// The server side of the io.modelcontextprotocol/tasks extension (tasks.hpp; ext-tasks/tasks.md):
// making a task from a tools/call, running it, and the tasks/get, tasks/update and tasks/cancel
// methods. Internal to elicit::runtime.
//
// A run of a task is its tools/call replayed as a 2026-07-28 request through the Server's own method
// table (a StatelessServing over TaskRunTransport, which takes the response): the requestState and
// the inputResponses gathered so far go with it, so the handler finds its earlier answers as in any
// multi round-trip request. The response decides the task: a complete result completes it, an
// input-required result makes it input_required (its questions under keys unique over the task's
// life), a JSON-RPC error fails it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "elicit/access_token.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/server.hpp"
#include "elicit/server_session.hpp"
#include "elicit/tasks.hpp"

namespace elicit::detail {

/// Whether a 2026-07-28 request's client capabilities declare the extension
/// (`extensions["io.modelcontextprotocol/tasks"]` an object).
bool declares_tasks(const ClientCapabilities& capabilities);
/// -32021 MissingRequiredClientCapability naming the extension (tasks.md, "Capability Negotiation").
RpcError tasks_required_error();

/// What a task's runs are served with: the Server, the options of the connection that made the task
/// (copied: a run may outlive that connection; `workers` set to its pool), and who made it.
struct TaskServing {
  std::shared_ptr<Server> server;
  std::shared_ptr<const ServerSessionOptions> options;
  Caller caller;
};

/// The runs of tasks going on in this process, by task id, and the runs waiting to begin. One per
/// Server. Thread-safe.
///
/// A burst of tasks must not build a burst of runs: each begun run holds its connection, its
/// request and its handler's context until a worker takes it. So each worker pool begins at most
/// `batch` runs between two passes of its queue (a drain job posted behind them: when a worker takes
/// it, the handlers queued before it have been taken). The runs past that wait as a task id and a
/// run number (and a lease, for a shared store) and read their task from the store when they begin.
/// An asynchronous handler's run leaves its slot at the next drain, so a long wait never holds one.
// No destructor of its own: every run holds the Server that owns its TaskRuns, so none is left when
// it goes (Server::stop_task_runs is the stop).
class TaskRuns : public std::enable_shared_from_this<TaskRuns> {
 public:
  /// Starts run `task.run` of `task` (already in the store with that run number), now or, when its
  /// pool has `batch` runs begun since its last drain, once a worker comes to it.
  void start(const TaskServing& serving, const TaskRecord& task);
  /// Cancels the run of task `id` in this process, if one is going on or waiting to begin: its
  /// handler sees RequestContext::cancelled(), its elicitations end aborted.
  void cancel(const std::string& id);
  /// Cancels every run served on `pool` (null: every run) and waits until each has ended: called
  /// when what owns the pool stops (a ServerSession with its own pool, a StreamableHttpServer, which
  /// does it as soon as it drains when its store is shared), so no task handler runs after it. A
  /// cancelled run's task, and the task of a run that was waiting to begin, unless it had ended
  /// already: with a shared store (run_lease() > 0), released (TaskRecord::run_released), so the next
  /// process that reads it runs it again at once; else `failed` (its run ended without an answer).
  /// Waits as long as a handler takes to look at cancelled().
  void stop(const std::shared_ptr<WorkerPool>& pool);
  /// `task` as read for `serving`'s caller; when another process released its run (still working,
  /// TaskRecord::run_released), takes it: run + 1 begins here, and the task as it is then is
  /// returned (unchanged when another reader took it first). Throws std::runtime_error when the store
  /// cannot be reached. Blocks on a blocking store.
  TaskRecord resume_released(const TaskServing& serving, TaskRecord task);

  /// How many runs are going on (begun, not yet ended) and how many wait to begin.
  struct Counts {
    std::size_t running = 0;
    std::size_t waiting = 0;
  };
  Counts counts() const;
  /// How many runs a pool of `threads` workers begins between two drains.
  static std::size_t batch(std::size_t threads) noexcept { return std::max<std::size_t>(16, 4 * threads); }

  class Run;

 private:
  friend class Run;
  // A run waiting to begin: what it is served with, its task and run number, and its lease (a
  // shared store: other processes must not take the task for lost while it waits).
  struct Waiting {
    TaskServing serving;
    std::string id;
    std::uint64_t run = 0;
    std::shared_ptr<void> lease;
  };
  // One worker pool's runs-to-begin.
  struct Lane {
    std::deque<Waiting> waiting;
    std::size_t begun = 0;      // runs begun since the last drain
    bool drain_posted = false;  // a drain job is queued on the pool
    bool stopping = false;      // stop() runs for this pool: nothing more begins
    std::size_t draining = 0;   // drains beginning runs they took from `waiting`
    bool idle() const noexcept { return waiting.empty() && !drain_posted && !stopping && draining == 0; }
  };

  // Begins a run (`queued`: it waited, so it goes ahead of those still waiting). Under no lock.
  void begin(const TaskServing& serving, const TaskRecord& task, bool queued);
  void drain(WorkerPool* pool);
  void finished(const std::string& id, const Run* run);
  static void fail(const TaskServing& serving, const std::string& id, std::uint64_t run, const std::string& why);
  // A run that cannot go on here: released for another process with a shared store, else failed.
  static void let_go(const TaskServing& serving, const std::string& id, std::uint64_t run, const std::string& why);

  mutable std::mutex mutex_;
  std::condition_variable ended_;  // a run left runs_
  std::map<std::string, std::shared_ptr<Run>> runs_;
  std::map<WorkerPool*, Lane> lanes_;  // by pool; a lane goes when it has nothing left
};

/// The task `id` when it exists and belongs to `serving.caller` (another principal's task is as
/// unknown: nullopt). Throws std::runtime_error when the store cannot be reached. Blocks on a
/// blocking store.
std::optional<TaskRecord> find_owned_task(const TaskServing& serving, const std::string& id);
/// The DetailedTask of `t` (tasks.md, "Task"): the task and what its status carries (inputRequests,
/// result or error), never its requestState; as tasks/get answers it and notifications/tasks carries
/// it (without `resultType`, which tasks/get adds).
nlohmann::ordered_json detailed_task(const TaskRecord& t);

/// tools/call of a tool whose calls run as tasks, from a client declaring the extension: makes the
/// task (durably), answers the CreateTaskResult on `out`, and starts its first run. -32603 when the
/// store is full or cannot be reached.
void create_task(const TaskServing& serving, const nlohmann::json& params, const Responder& out);

/// tasks/get, tasks/update and tasks/cancel of a 2026-07-28 request (`fields`) from `caller`
/// (tasks.md, "Protocol Messages"): -32021 when the request does not declare the extension, -32602
/// for a task that is unknown, expired or another principal's.
void tasks_get(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields);
void tasks_update(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields);
void tasks_cancel(const TaskServing& serving, const Request& r, const Responder& out, const StatelessFields& fields);

}  // namespace elicit::detail
