// Tasks of the io.modelcontextprotocol/tasks extension in Redis, shared by every server process that
// points at the same Redis with the same keys: a task made by process A is read, answered and
// cancelled through process B behind a load balancer (ext-tasks/tasks.md). Library elicit::redis
// (hiredis, libsodium).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "elicit/redis/completion_store.hpp"
#include "elicit/tasks.hpp"

namespace elicit {

struct RedisTaskStoreOptions {
  /// Where Redis is, and the prefix of every key and channel (`key_prefix`, here "elicitgen:task:"
  /// by default). `threads` is not used: the store talks to Redis on its callers' threads (it is a
  /// blocking store: the server calls it on its workers).
  RedisOptions redis = default_redis();
  /// ttl, poll interval and bounds of the tasks; max_tasks and max_bytes hold across every process
  /// sharing the Redis.
  TaskOptions tasks{};
  /// Raw keys of exactly 32 bytes each, the same in every process: the first seals, every one
  /// opens (rotation: put the new key first, keep the old one until its tasks have expired).
  /// Empty: one random key of the store's own, so only this store can read its tasks (one process).
  std::vector<std::string> keys;
  /// How long a run's lease lasts (TaskStore::run_lease): the process running a task renews it
  /// every third of this; a working task whose lease passed reads as failed in every process.
  /// Milliseconds, at least 3.
  std::chrono::milliseconds lease = std::chrono::seconds(10);

  static RedisOptions default_redis() {
    RedisOptions o;
    o.key_prefix = "elicitgen:task:";
    return o;
  }
};

/// A TaskStore in Redis. Thread-safe; blocking (create, get and update wait for Redis on the
/// calling thread, up to about twice connect_timeout + command_timeout).
///
/// What is kept, under `key_prefix` and, for each task, the hex BLAKE2b-128 `<h>` of its id (Redis
/// never holds a task id, which is what lets a principal reach its task), all in the Redis Cluster
/// hash slot `{tasks}` (the scripts touch a task and the index together):
///
///   `{tasks}:task:<h>`  the record (TaskRecord::to_json), sealed; PX until the task's expiry
///   `{tasks}:expiry`    sorted set of `<h>` by expiry (ms): the tasks kept, for max_tasks
///   `{tasks}:bytes`     hash `<h>` -> record bytes, and "#total": for max_bytes
///   `{tasks}:status:<n>` sorted set of `<h>` by the ms until which the task counts, one per status
///                       (`<n>` = 0 working, 1 input_required, 2 completed, 3 failed, 4 cancelled):
///                       its expiry, or for a working task its lease's end if sooner. Plain (a
///                       status is no secret; `<h>` reveals no id), moved by the create and update
///                       scripts, pruned where `{tasks}:expiry` is: for count_by_status() (a
///                       task made by a version without it is counted from its next change)
///
/// Records are sealed with XChaCha20-Poly1305-IETF under `keys` (RequestStateSealer), the
/// associated data binding the task id: a record moved to another key does not open, and a store
/// with other keys sees the tasks as unknown. Results, answers and questions are never in Redis in
/// plain text.
///
/// update() is a compare-and-set: the record is read, changed, sealed again and written by a Lua
/// script only if the stored one is still the one read (every seal differs: a fresh nonce), and
/// retried otherwise, at most 64 times. Each committed change publishes `<h>`, a space and the
/// status's number on channel
/// `<key_prefix>changed`; one subscriber connection per store calls the watch() callbacks of this
/// process (so a tasks/cancel through process B reaches the run in process A).
///
/// Leases: a task that becomes working (created, or answered) gets `lease_expires_ms` = now +
/// lease; hold_lease() renews it from one thread of the store's every lease / 3 while the run goes
/// on. get() and update() of a working task whose lease has passed make it failed ("the process
/// running the task stopped"), so a task never stays working after its process died. A process that
/// stops in order (a drain) does not leave its runs to lapse: it releases them
/// (TaskRecord::run_released, no lease), and the next process to read such a task runs it again at once.
///
/// Redis unreachable: create, get and update throw std::runtime_error (the server answers -32603);
/// the subscriber and the lease thread reconnect by themselves.
class RedisTaskStore final : public TaskStore {
 public:
  /// Connects lazily: constructing never fails for an unreachable Redis. Throws
  /// std::invalid_argument for a port outside 1..65535, a timeout, ttl or poll interval that is
  /// not positive, a lease under 3 ms, a key that is not 32 bytes, max_tasks or max_bytes 0;
  /// std::system_error when a thread cannot be started.
  explicit RedisTaskStore(RedisTaskStoreOptions options = {});
  /// Stops the subscriber and the lease thread (leases held are no longer renewed).
  ~RedisTaskStore() override;
  RedisTaskStore(const RedisTaskStore&) = delete;
  RedisTaskStore& operator=(const RedisTaskStore&) = delete;

  const TaskOptions& options() const noexcept override;
  /// Also false for an id already in use (never, with new_task_id()).
  bool create(const TaskRecord& task) override;
  std::optional<TaskRecord> get(const std::string& id) override;
  /// Throws std::runtime_error also when 64 tries in a row lost to other writers.
  std::optional<TaskRecord> update(const std::string& id, const std::function<bool(TaskRecord&)>& change) override;
  /// Called on the store's subscriber thread, for changes made in any process (this one included);
  /// after each (re)subscription, once with each watched task's status as read then.
  std::shared_ptr<void> watch(const std::string& id, std::function<void(TaskStatus)> changed) override;
  std::shared_ptr<void> hold_lease(const TaskRecord& task) override;
  std::chrono::milliseconds run_lease() const noexcept override;
  bool blocking() const noexcept override { return true; }
  /// The tasks of every process sharing the Redis, by status: one script, a ZCOUNT of each
  /// `{tasks}:status:<n>` from now on (O(log tasks) each, never a scan). A working task whose lease
  /// lapsed is counted nowhere until a get() or update() of it, in any process, makes it failed.
  /// Blocks on Redis like get(); throws std::runtime_error when Redis cannot be reached.
  std::optional<std::array<std::size_t, 5>> count_by_status() override;

  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace elicit
