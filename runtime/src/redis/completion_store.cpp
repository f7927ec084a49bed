#include "elicit/redis/completion_store.hpp"

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <sys/time.h>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"

namespace elicit {
namespace {

struct ContextFree {
  void operator()(redisContext* c) const noexcept { redisFree(c); }
};
struct ReplyFree {
  void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};
using Connection = std::unique_ptr<redisContext, ContextFree>;
using Reply = std::unique_ptr<redisReply, ReplyFree>;

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>(ms.count() % 1000 * 1000);
  return tv;
}

// Blocks SIGPIPE on this thread while alive, so that writing to a connection Redis has closed fails
// with EPIPE instead of killing the process, and discards a SIGPIPE raised meanwhile. Leaves the
// process's signal dispositions alone (the application may rely on them).
class SigpipeBlock {
 public:
  SigpipeBlock() noexcept {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    sigset_t pending;
    sigemptyset(&pending);
    if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const timespec zero{0, 0};
      sigtimedwait(&pipe_, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
  bool was_pending_ = false;
};

}  // namespace

struct RedisCompletionStore::Shared {
  RedisOptions options;
  std::size_t max_idle = 0;  // the pool's threads, plus a few for complete() callers
  std::mutex mutex;
  std::vector<Connection> idle;  // connections not in use, at most max_idle

  // A new connection, authenticated when a password is set; null when Redis cannot be reached.
  Connection connect() const {
    Connection c(redisConnectWithTimeout(options.host.c_str(), options.port, to_timeval(options.connect_timeout)));
    if (!c || c->err != 0) return nullptr;
    if (redisSetTimeout(c.get(), to_timeval(options.command_timeout)) != REDIS_OK) return nullptr;
    if (options.password) {
      const std::string& password = *options.password;
      Reply reply(static_cast<redisReply*>(redisCommand(c.get(), "AUTH %b", password.data(), password.size())));
      if (!reply || reply->type == REDIS_REPLY_ERROR) return nullptr;
    }
    return c;
  }

  // Runs `command` (with its %b arguments) on an idle connection or a new one. A failure on an idle
  // connection, which Redis may have closed since (restart, failover), closes every idle one and is
  // retried once on a new one. Null when Redis could not be reached; otherwise the reply, which may
  // be an error reply.
  template <typename... Args>
  Reply run(const char* command, Args... args) {
    const SigpipeBlock block;
    Connection c;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!idle.empty()) {
        c = std::move(idle.back());
        idle.pop_back();
      }
    }
    if (c) {
      if (Reply reply = command_on(std::move(c), command, args...)) return reply;
      std::vector<Connection> stale;
      {
        std::lock_guard<std::mutex> lock(mutex);
        stale.swap(idle);
      }
    }  // `stale` closed here, outside the lock
    c = connect();
    if (!c) return nullptr;
    return command_on(std::move(c), command, args...);
  }

  // The reply, and `c` back among the idle connections; null (and `c` closed) on an I/O error.
  template <typename... Args>
  Reply command_on(Connection c, const char* command, Args... args) {
    Reply reply(static_cast<redisReply*>(redisCommand(c.get(), command, args...)));
    if (!reply || c->err != 0) return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.size() < max_idle) idle.push_back(std::move(c));
    return reply;  // (`c`, when not kept, is closed after the lock is released)
  }

  CompletionState exists(const std::string& key) {
    const Reply reply = run("EXISTS %b", key.data(), key.size());
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return CompletionState::unavailable;
    return reply->integer > 0 ? CompletionState::complete : CompletionState::pending;
  }
};

RedisCompletionStore::RedisCompletionStore(RedisOptions options) : shared_(std::make_shared<Shared>()) {
  if (options.port < 1 || options.port > 65535) throw std::invalid_argument("RedisCompletionStore: port out of range");
  if (options.connect_timeout <= std::chrono::milliseconds::zero() ||
      options.command_timeout <= std::chrono::milliseconds::zero()) {
    throw std::invalid_argument("RedisCompletionStore: timeouts must be positive");
  }
  shared_->max_idle = std::max<std::size_t>(options.threads, 1) + 2;
  shared_->options = std::move(options);
  pool_ = std::make_unique<WorkerPool>(shared_->options.threads);
}

RedisCompletionStore::~RedisCompletionStore() { pool_.reset(); }

bool RedisCompletionStore::complete(std::string_view id, std::chrono::milliseconds ttl) {
  if (ttl <= std::chrono::milliseconds::zero()) throw std::invalid_argument("CompletionStore: ttl must be positive");
  const std::string key = shared_->options.key_prefix + std::string(id);
  const Reply reply = shared_->run("SET %b %b PX %lld", key.data(), key.size(), "1", std::size_t{1},
                                   static_cast<long long>(ttl.count()));
  return reply && reply->type == REDIS_REPLY_STATUS;
}

void RedisCompletionStore::lookup(std::string_view id, std::function<void(CompletionState)> done) {
  // Shared with the job so that `done` still runs (unavailable) if the pool refuses the job.
  auto callback = std::make_shared<std::function<void(CompletionState)>>(std::move(done));
  auto job = [shared = shared_, key = shared_->options.key_prefix + std::string(id), callback] {
    const jsonrpc::EventThreadScope event_thread;  // `done` must not block: the runtime's blocking calls throw here
    CompletionState state = CompletionState::unavailable;
    try {
      state = shared->exists(key);
    } catch (...) {
      // bad_alloc: reported as unavailable below
    }
    try {
      (*callback)(state);
    } catch (...) {
      // documented: an exception from `done` is swallowed
    }
  };
  if (!pool_->post(std::move(job))) (*callback)(CompletionState::unavailable);
}

}  // namespace elicit
