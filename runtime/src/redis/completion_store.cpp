#include "elicit/redis/completion_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "connection_pool.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"

namespace elicit {

using redis_detail::ConnectionPool;

struct RedisCompletionStore::Shared {
  explicit Shared(RedisOptions options)
      // The pool's threads, plus a few for complete() callers.
      : redis(options, std::max<std::size_t>(options.threads, 1) + 2) {}

  ConnectionPool redis;

  CompletionState exists(const std::string& key) {
    const auto reply = redis.run({"EXISTS", key});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return CompletionState::unavailable;
    return reply->integer > 0 ? CompletionState::complete : CompletionState::pending;
  }
};

RedisCompletionStore::RedisCompletionStore(RedisOptions options) {
  redis_detail::check_options(options, "RedisCompletionStore");
  shared_ = std::make_shared<Shared>(std::move(options));
  pool_ = std::make_unique<WorkerPool>(shared_->redis.options().threads);
}

RedisCompletionStore::~RedisCompletionStore() { pool_.reset(); }

bool RedisCompletionStore::complete(std::string_view id, std::chrono::milliseconds ttl) {
  if (ttl <= std::chrono::milliseconds::zero()) throw std::invalid_argument("CompletionStore: ttl must be positive");
  const std::string key = shared_->redis.options().key_prefix + std::string(id);
  const auto px = std::to_string(ttl.count());
  const auto reply = shared_->redis.run({"SET", key, "1", "PX", px});
  return reply && reply->type == REDIS_REPLY_STATUS;
}

void RedisCompletionStore::lookup(std::string_view id, std::function<void(CompletionState)> done) {
  // Shared with the job so that `done` still runs (unavailable) if the pool refuses the job.
  auto callback = std::make_shared<std::function<void(CompletionState)>>(std::move(done));
  auto job = [shared = shared_, key = shared_->redis.options().key_prefix + std::string(id), callback] {
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
