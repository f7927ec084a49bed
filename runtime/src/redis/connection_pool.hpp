// Pooled hiredis connections for the elicit::redis stores (RedisCompletionStore,
// forms::RedisPageStore): made on first use, one retry on a fresh connection after a failure (Redis
// restarted or failed over), SIGPIPE kept from killing the process. Internal to elicit::redis.
#pragma once

#include <hiredis/hiredis.h>
#include <signal.h>
#include <sys/time.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/redis/completion_store.hpp"

namespace elicit::redis_detail {

struct ContextFree {
  void operator()(redisContext* c) const noexcept { redisFree(c); }
};
struct ReplyFree {
  void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};
using Connection = std::unique_ptr<redisContext, ContextFree>;
using Reply = std::unique_ptr<redisReply, ReplyFree>;

timeval to_timeval(std::chrono::milliseconds ms);

/// Blocks SIGPIPE on this thread while alive, so that writing to a connection Redis has closed
/// fails with EPIPE instead of killing the process, and discards a SIGPIPE raised meanwhile.
/// Leaves the process's signal dispositions alone (the application may rely on them).
class SigpipeBlock {
 public:
  SigpipeBlock() noexcept;
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
  bool was_pending_ = false;
};

/// Throws std::invalid_argument, naming `who`, for a port outside 1..65535 or a connect or command
/// timeout that is not positive.
void check_options(const RedisOptions& options, const char* who);

/// A new connection to options' Redis with its command timeout set, authenticated when a password
/// is set; null when Redis cannot be reached (then `why`, when given, says why). Blocks up to
/// connect_timeout (+ command_timeout).
Connection connect(const RedisOptions& options, std::string* why = nullptr);

/// Calls options.on_error, when set, swallowing what it throws.
void report_error(const RedisOptions& options) noexcept;

/// Connections not in use, at most `max_idle`, shared by the threads running commands. Thread-safe.
class ConnectionPool {
 public:
  ConnectionPool(RedisOptions options, std::size_t max_idle);

  const RedisOptions& options() const noexcept { return options_; }

  /// Runs the command `argv` (binary-safe arguments, never command text) on an idle connection or
  /// a new one. A failure on an idle connection, which Redis may have closed since (restart,
  /// failover), closes every idle one and is retried once on a new one. Null when Redis could not
  /// be reached; otherwise the reply, which may be an error reply. Either failure (null, an error
  /// reply) is reported to options.on_error, outside the pool's lock. Blocks the calling thread up
  /// to about twice connect_timeout + command_timeout.
  Reply run(const std::vector<std::string_view>& argv);

 private:
  Reply attempt(const std::vector<std::string_view>& argv);
  Reply command_on(Connection c, const std::vector<std::string_view>& argv);

  const RedisOptions options_;
  const std::size_t max_idle_;
  std::mutex mutex_;
  std::vector<Connection> idle_;  // guarded by mutex_
};

}  // namespace elicit::redis_detail
