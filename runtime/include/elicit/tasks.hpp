// The server side of the io.modelcontextprotocol/tasks extension (SEP-2663; ../shared/spec/ext-tasks/
// tasks.md): a 2026-07-28 tools/call that answers with a task handle, and where tasks are kept.
//
// How elicitgen runs a task: a task is a 2026-07-28 multi round-trip request whose client is the
// server itself. Each run of the task replays the tools/call through the Server's own method table
// with the requestState and inputResponses gathered so far, so the tool's handler is the same one
// that serves a 2025-11-25 session and a 2026-07-28 input-required round: its questions become the
// task's `inputRequests`, and a run that ends with questions holds no thread while the user answers.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace elicit {

/// The extension's identifier, in `capabilities.extensions` (server/discover) and in a request's
/// `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` (tasks.md, "Capability
/// Negotiation").
inline constexpr const char* tasks_extension = "io.modelcontextprotocol/tasks";

/// A task's status (tasks.md, "Task Status"): `working`, `input_required`, then one of the terminal
/// ones, which never change.
enum class TaskStatus { working, input_required, completed, failed, cancelled };

/// "working", "input_required", "completed", "failed", "cancelled".
std::string_view to_string(TaskStatus status) noexcept;
/// completed, failed or cancelled.
inline bool is_terminal(TaskStatus s) noexcept {
  return s == TaskStatus::completed || s == TaskStatus::failed || s == TaskStatus::cancelled;
}

/// How tasks are made and kept (Server::set_task_store).
struct TaskOptions {
  /// `ttlMs` of every task: how long after its creation it stays readable (tasks.md, "TTL"). Then it
  /// is deleted, whatever its status, and answers like an unknown task (-32602). Milliseconds, > 0.
  std::chrono::milliseconds ttl = std::chrono::minutes(30);
  /// `pollIntervalMs` suggested to clients. Milliseconds, > 0.
  std::chrono::milliseconds poll_interval = std::chrono::milliseconds(500);
  /// At most this many tasks are kept at once; a tools/call that would make one more is answered
  /// -32603 "too many tasks" (the store is full).
  std::size_t max_tasks = 100000;
  /// At most this many bytes of task records (their requests, questions, answers and results, as
  /// JSON text) are kept at once; past it, as for max_tasks.
  std::size_t max_bytes = std::size_t(256) << 20;
};

/// One task as a TaskStore keeps it. Plain data: a store may serialise it (to_json / from_json).
struct TaskRecord {
  std::string id;     ///< unguessable: 32 random bytes, base64url (43 characters)
  std::string owner;  ///< Caller::principal of the request that made it; every tasks/* request must match
  TaskStatus status = TaskStatus::working;
  std::string status_message;  ///< `statusMessage`; "" when none
  /// Milliseconds since the Unix epoch (system clock): `createdAt`, `lastUpdatedAt`, and when the
  /// task is deleted (created + ttl).
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  std::int64_t expires_ms = 0;
  std::int64_t ttl_ms = 0;
  std::int64_t poll_interval_ms = 0;
  /// The params of the tools/call that made it (name, arguments, _meta), replayed by each run.
  nlohmann::json request;
  /// The requestState the next run carries (sealed; never shown to the client), "" for none.
  std::string request_state;
  /// The answers the next run carries, by the keys the handler asked under.
  nlohmann::json answers = nlohmann::json::object();
  /// While input_required: the outstanding questions, by the keys shown to the client.
  nlohmann::ordered_json input_requests = nlohmann::ordered_json::object();
  /// Key shown to the client -> key the handler asked under (they differ when a question was asked
  /// again: keys are unique over a task's life).
  nlohmann::json key_map = nlohmann::json::object();
  /// Every key ever shown to the client.
  nlohmann::json used_keys = nlohmann::json::array();
  nlohmann::json result;  ///< completed: the CallToolResult
  nlohmann::json error;   ///< failed: {code, message[, data]}
  /// Increases with every run started; a run's outcome counts only for the run it belongs to.
  std::uint64_t run = 0;
  /// A store shared by several processes (TaskStore::run_lease() > 0): while the task is working,
  /// until when its run's process has promised to report (milliseconds since the Unix epoch). The
  /// store sets and renews it; 0 in a store without leases.
  std::int64_t lease_expires_ms = 0;
  /// A store shared by several processes: the process running run `run` stopped (a drain, or its
  /// ServerSession ended) before the run ended, and let the task go while it was still working. The
  /// next process to serve a tasks/get of the task, or to tell a subscriptions/listen stream of it,
  /// begins run `run + 1` at once (the same tools/call, requestState and answers), instead
  /// of the task failing when the lease lapses. A released task holds no lease.
  bool run_released = false;

  /// The record as JSON text (what stores keep) and back; from_json throws nlohmann::json's
  /// exceptions for a text that is not a record.
  nlohmann::json to_json() const;
  static TaskRecord from_json(const nlohmann::json& j);
  /// The bytes the record counts for against TaskOptions::max_bytes (its JSON text, about).
  std::size_t bytes() const;
};

/// Where tasks are kept: a seam, so one server process or several (a shared store) can serve a
/// task's requests. Implementations are thread-safe. Records past their expires_ms are gone: get and
/// update answer nullopt for them.
class TaskStore {
 public:
  virtual ~TaskStore() = default;
  /// The options tasks made on this store get.
  virtual const TaskOptions& options() const noexcept = 0;
  /// Adds a new task, durably before it returns (a tasks/get right after the CreateTaskResult finds
  /// it: tasks.md, "Task Creation"). False when the store is full (max_tasks, max_bytes). Throws
  /// std::runtime_error when the store cannot be reached.
  virtual bool create(const TaskRecord& task) = 0;
  /// The task, or nullopt when there is none of that id (never made, deleted, expired).
  virtual std::optional<TaskRecord> get(const std::string& id) = 0;
  /// Applies `change` to the task atomically (no other update interleaves) and returns the task as
  /// it is afterwards; `change` returns false to leave it unchanged. Nullopt when there is no such
  /// task (`change` is not called). `change` may run more than once (a shared store retries on a
  /// conflict), so it must only modify the record.
  virtual std::optional<TaskRecord> update(const std::string& id, const std::function<bool(TaskRecord&)>& change) = 0;

  /// Calls `changed(status)` after each change of task `id` that any process sharing the store
  /// commits (create() excepted), with the task's new status, until the returned handle is
  /// destroyed. `changed` runs on a thread of the store's or on the thread that made the change,
  /// never under the store's locks; it must not block nor let go of the last reference to the store
  /// (post such work elsewhere), and may still run once while the handle is being destroyed. A shared store that
  /// (re)connects reports each watched task's status once, so a change made while it could not hear is not lost:
  /// `changed` may hear a status more than once. The default hears nothing (returns null).
  virtual std::shared_ptr<void> watch(const std::string& id, std::function<void(TaskStatus)> changed);
  /// Keeps the lease of run `task.run` of `task` renewed while the returned handle lives, so that
  /// other processes do not take the task for lost (run_lease()). Null when the store has no leases.
  /// A store with leases never fails a task whose run was released (TaskRecord::run_released).
  virtual std::shared_ptr<void> hold_lease(const TaskRecord& task);
  /// 0 for a store that lives and dies with the one process running its tasks. Otherwise, how long
  /// a run's lease lasts: a working task whose lease has passed (the process running it stopped,
  /// or lost the store for that long) reads as failed, whichever process reads it. Milliseconds.
  virtual std::chrono::milliseconds run_lease() const noexcept { return std::chrono::milliseconds(0); }
  /// Whether create, get and update wait on I/O (a network store): the server then calls them on
  /// its worker threads, never on an I/O thread.
  virtual bool blocking() const noexcept { return false; }

  /// How many tasks of each status the store keeps now, indexed by static_cast<std::size_t>(TaskStatus)
  /// (working, input_required, completed, failed, cancelled); expired tasks are not counted. A store
  /// shared by several processes counts every process's tasks. Nullopt (the default) for a store that
  /// cannot count. May block like get() when blocking() (RedisTaskStore: one round trip to Redis): call
  /// it from a thread that may wait, never from an I/O thread. Throws std::runtime_error when the store
  /// cannot be reached. Thread-safe.
  virtual std::optional<std::array<std::size_t, 5>> count_by_status() { return std::nullopt; }
};

/// Callbacks by key for TaskStore::watch implementations: add() registers one until its handle
/// goes, notify() calls those of a key outside the lock. Thread-safe.
class TaskWatchers {
 public:
  TaskWatchers();
  std::shared_ptr<void> add(const std::string& key, std::function<void(TaskStatus)> changed);
  void notify(const std::string& key, TaskStatus status) const;
  /// How many callbacks are registered (all keys).
  std::size_t size() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// Tasks in this process's memory, bounded by TaskOptions; expired ones are dropped as the store is
/// used (nothing runs in the background). Thread-safe.
class InMemoryTaskStore final : public TaskStore {
 public:
  /// Throws std::invalid_argument for a ttl or poll_interval that is not positive.
  explicit InMemoryTaskStore(TaskOptions options = {});
  /// A clock (milliseconds since the Unix epoch) for tests; default: the system clock.
  InMemoryTaskStore(TaskOptions options, std::function<std::int64_t()> now_ms);

  const TaskOptions& options() const noexcept override { return options_; }
  bool create(const TaskRecord& task) override;
  std::optional<TaskRecord> get(const std::string& id) override;
  std::optional<TaskRecord> update(const std::string& id, const std::function<bool(TaskRecord&)>& change) override;
  /// Called on the thread of the update, after it.
  std::shared_ptr<void> watch(const std::string& id, std::function<void(TaskStatus)> changed) override;
  /// Counts the unexpired tasks (dropping the expired ones first) under the store's lock: O(tasks).
  std::optional<std::array<std::size_t, 5>> count_by_status() override;
  /// Tasks kept now (expired ones not yet dropped included) and their bytes.
  std::size_t size() const;
  std::size_t bytes() const;

 private:
  // A record as kept: its JSON members as compact JSON text, parsed again by every get and update.
  // Parsed, a waiting task's request and question take about 3.6 KB of small allocations (a node per
  // JSON value); as text, about 0.7 KB (bench/task_store_memory.cpp, scripts/bench.sh section 9).
  struct Entry {
    TaskRecord head;             // the record without its id (the key) and with null JSON members
    std::string members;         // [request, answers, key_map, used_keys, result, error], compact
    std::string input_requests;  // compact, in its order
    std::size_t bytes = 0;       // TaskRecord::bytes() of the record
  };
  static Entry pack(TaskRecord record);
  static TaskRecord unpack(const std::string& id, Entry entry);
  void drop_expired(std::int64_t now);  // under mutex_

  TaskOptions options_;
  std::function<std::int64_t()> now_ms_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> tasks_;
  std::multimap<std::int64_t, std::string> by_expiry_;
  std::size_t bytes_ = 0;
  TaskWatchers watchers_;
};

/// A new task id: 32 random bytes (libsodium), unpadded base64url (43 characters, safe in the
/// `Mcp-Name` header).
std::string new_task_id();
/// Milliseconds since the Unix epoch, by the system clock.
std::int64_t unix_time_ms();
/// `2026-07-28T12:34:56.789Z`: an ISO 8601 UTC timestamp of `ms` (milliseconds since the Unix epoch).
std::string iso8601_utc(std::int64_t ms);

}  // namespace elicit
