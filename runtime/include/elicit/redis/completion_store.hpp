// A CompletionStore in Redis, shared by every server process (and the web page) that points at the
// same Redis: URL-mode completions (MCP 2026-07-28, Client, "Elicitation", "URL Mode Elicitation
// Requests") seen by whichever process serves the client's retry. Library elicit::redis (hiredis).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "elicit/completion_store.hpp"

namespace elicit {

namespace jsonrpc {
class WorkerPool;
}  // namespace jsonrpc
using jsonrpc::WorkerPool;

struct RedisOptions {
  std::string host = "127.0.0.1";  ///< host name or address of the Redis server (TCP)
  int port = 6379;                 ///< 1..65535
  /// Prepended to every id to make its key: `<key_prefix><id>`.
  std::string key_prefix = "elicitgen:completion:";
  std::chrono::milliseconds connect_timeout{1000};  ///< per connection attempt; positive
  std::chrono::milliseconds command_timeout{1000};  ///< per command (send + reply); positive
  /// Threads (and so at most this many connections) for lookup(); 0 means 1.
  std::size_t threads = 2;
  /// Sent with AUTH after each connect, when set (Redis `requirepass`).
  std::optional<std::string> password;
  /// Called once for each failure talking to Redis: a command that could not be run (no connection
  /// could be made, or it broke and the one retry on a fresh connection failed too), a command
  /// Redis answered with an error, and each time a store's subscriber connection cannot connect or
  /// subscribe, or breaks. A failed attempt that the retry recovers is not one. Called on the thread
  /// that met the failure (a caller's, or a thread of the store's), never under a lock of the
  /// store's; it must be quick and must not block (Metrics::redis_errors() counts). An exception
  /// from it is swallowed. Null: nothing is called. check_redis() does not call it (it says why).
  std::function<void()> on_error;
};

/// A CompletionStore on a Redis server (hiredis, synchronous API). Thread-safe.
///
/// complete(id, ttl) is `SET <key_prefix><id> 1 PX <ttl>`, run on the calling thread: it blocks up
/// to about twice connect_timeout + command_timeout (one retry on a fresh connection), so call it
/// from the web application's threads, not from an event thread. lookup(id, done) is `EXISTS
/// <key_prefix><id>`, run on the store's own pool of `threads` threads (elicit::WorkerPool) and
/// never on the caller's thread; `done` is called there, exactly once: `complete` or `pending`, or
/// `unavailable` when Redis cannot be reached, times out or answers with an error. Those threads
/// are event threads (event_thread.hpp): a blocking runtime call in `done` throws std::logic_error
/// rather than stall other lookups. An exception from `done` is swallowed. Ids are sent as
/// binary-safe arguments, never as command text.
///
/// Connections are made on first use and pooled (one per thread in use; at most threads + 2 kept
/// idle). One that fails is closed, and a command that failed on a reused connection is retried
/// once on a new one, so the store recovers by itself once Redis is back (restarted, failed over).
/// Lookups queue in FIFO order while the threads wait on a slow Redis. SIGPIPE from a connection
/// Redis closed is blocked and discarded on the thread that caused it, without touching the
/// process's signal dispositions. A host name is resolved at each connect, outside the timeouts.
class RedisCompletionStore final : public CompletionStore {
 public:
  /// Connects lazily: constructing never fails for an unreachable Redis. Throws
  /// std::invalid_argument for a port outside 1..65535 or a timeout that is not positive, and
  /// std::system_error when a thread cannot be started.
  explicit RedisCompletionStore(RedisOptions options = {});
  /// Runs the lookups already queued (each calling its `done`), then closes the connections.
  ~RedisCompletionStore() override;
  RedisCompletionStore(const RedisCompletionStore&) = delete;
  RedisCompletionStore& operator=(const RedisCompletionStore&) = delete;

  bool complete(std::string_view id, std::chrono::milliseconds ttl) override;
  void lookup(std::string_view id, std::function<void(CompletionState)> done) override;

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;    // connections; kept alive by queued lookups
  std::unique_ptr<WorkerPool> pool_;  // destroyed first: runs and joins the queued lookups
};

}  // namespace elicit
