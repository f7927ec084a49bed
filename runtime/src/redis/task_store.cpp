// Tasks in Redis (elicit/redis/task_store.hpp): sealed records, a compare-and-set per change, the
// bounds kept by one script over an index, changes published for other processes, and run leases.
#include "elicit/redis/task_store.hpp"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

#include "answer_subscriber.hpp"
#include "connection_pool.hpp"
#include "elicit/redis/key_hash.hpp"
#include "elicit/request_state.hpp"

namespace elicit {

namespace {

using redis_detail::ConnectionPool;
using redis_detail::Reply;

// KEYS task, expiry index, bytes index, the five status indexes (TaskStatus order); ARGV sealed
// record, px, now (ms), expires (ms), <h>, bytes, max_tasks, max_bytes, status (0..4), status score
// (ms). Drops the index entries of expired tasks, then admits the task within the bounds. 1: made;
// 0: the store is full; 2: the id is in use.
constexpr const char* kCreateScript = R"lua(
for i = 4, 8 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[3]) end
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
for _, h in ipairs(gone) do
  local b = redis.call('HGET', KEYS[3], h)
  if b then
    redis.call('HINCRBY', KEYS[3], '#total', -tonumber(b))
    redis.call('HDEL', KEYS[3], h)
  end
end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3]) end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return 0 end
local total = tonumber(redis.call('HGET', KEYS[3], '#total') or '0')
if total + tonumber(ARGV[6]) > tonumber(ARGV[8]) then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 2 end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('HSET', KEYS[3], ARGV[5], ARGV[6])
redis.call('HINCRBY', KEYS[3], '#total', ARGV[6])
redis.call('ZADD', KEYS[4 + tonumber(ARGV[9])], ARGV[10], ARGV[5])
return 1
)lua";

// KEYS task, bytes index, the five status indexes; ARGV the sealed record as read, the new one,
// <h>, its bytes, channel, message ("" publishes nothing), status (0..4), status score (ms). Writes
// only if the record is still the one read (a seal is never repeated: each has a fresh nonce),
// keeping its expiry, and moves <h> to its status's index. 1: written; 0: changed meanwhile or gone.
constexpr const char* kUpdateScript = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
local status = tonumber(ARGV[7])
for i = 0, 4 do
  if i == status then
    redis.call('ZADD', KEYS[3 + i], ARGV[8], ARGV[3])
  else
    redis.call('ZREM', KEYS[3 + i], ARGV[3])
  end
end
local old = redis.call('HGET', KEYS[2], ARGV[3])
if old then
  redis.call('HINCRBY', KEYS[2], '#total', tonumber(ARGV[4]) - tonumber(old))
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return 1
)lua";

// KEYS the five status indexes; ARGV now (ms). How many tasks of each status have not expired
// (nor, working, lapsed), each counted in O(log n).
constexpr const char* kCountScript = R"lua(
local counts = {}
for i = 1, 5 do counts[i] = redis.call('ZCOUNT', KEYS[i], '(' .. ARGV[1], '+inf') end
return counts
)lua";

// A task's score in its status index: until when it counts. Its expiry; for a working task with a
// lease, the lease's end if sooner (a run whose process stopped no longer counts as working; a
// released run holds no lease and counts until it is taken up).
std::string status_score(const TaskRecord& t) {
  auto until = t.expires_ms;
  if (t.status == TaskStatus::working && t.lease_expires_ms != 0) until = std::min(until, t.lease_expires_ms);
  return std::to_string(until);
}

constexpr int kUpdateTries = 64;
constexpr const char* kLapsed = "the process running the task stopped (its lease lapsed)";

RedisTaskStoreOptions checked(RedisTaskStoreOptions o) {
  redis_detail::check_options(o.redis, "RedisTaskStore");
  if (o.tasks.ttl.count() <= 0 || o.tasks.poll_interval.count() <= 0) {
    throw std::invalid_argument("RedisTaskStore: ttl and poll_interval must be positive");
  }
  if (o.lease < std::chrono::milliseconds(3)) throw std::invalid_argument("RedisTaskStore: lease must be >= 3 ms");
  if (o.tasks.max_tasks == 0 || o.tasks.max_bytes == 0) {
    throw std::invalid_argument("RedisTaskStore: max_tasks and max_bytes must be at least 1");
  }
  return o;
}

RequestStateOptions sealer_options(const RedisTaskStoreOptions& o) {
  RequestStateOptions s;
  s.keys = o.keys;
  // Redis expires the record; the seal only needs to outlive it.
  s.ttl = o.tasks.ttl + std::chrono::hours(24);
  // Base64 of the record's text plus the key id, nonce, expiry and tag.
  s.max_bytes = o.tasks.max_bytes / 3 * 4 + 256;
  return s;
}

RequestStateBinding binding(const std::string& id) { return {"elicitgen task record", id, nullptr, ""}; }

// A working task whose lease passed is failed: its process stopped, or lost Redis for that long. (A
// released run holds no lease: the next process to read the task begins the next run.)
bool lapsed(const TaskRecord& t, std::int64_t now) {
  return t.status == TaskStatus::working && !t.run_released && t.lease_expires_ms != 0 && t.lease_expires_ms < now;
}

bool fail_if_lapsed(TaskRecord& t, std::int64_t now) {
  if (!lapsed(t, now)) return false;
  t.status = TaskStatus::failed;
  t.status_message = kLapsed;
  t.error = {{"code", -32603}, {"message", kLapsed}};
  t.updated_ms = now;
  t.lease_expires_ms = 0;
  return true;
}

}  // namespace

struct RedisTaskStore::Shared {
  explicit Shared(RedisTaskStoreOptions o)
      : options(checked(std::move(o))),
        sealer(sealer_options(options)),
        redis(options.redis, 8),
        prefix(options.redis.key_prefix + "{tasks}:"),
        expiry_key(prefix + "expiry"),
        bytes_key(prefix + "bytes"),
        status_keys{prefix + "status:0", prefix + "status:1", prefix + "status:2", prefix + "status:3",
                    prefix + "status:4"},
        channel(options.redis.key_prefix + "changed") {
    for (auto& key : options.keys) std::fill(key.begin(), key.end(), '\0');  // the sealer has its copies
  }

  RedisTaskStoreOptions options;
  const RequestStateSealer sealer;
  ConnectionPool redis;
  const std::string prefix;
  const std::string expiry_key;
  const std::string bytes_key;
  const std::array<std::string, 5> status_keys;  // by TaskStatus
  const std::string channel;
  TaskWatchers watchers;  // by <h>
  // The ids watched here, by <h>, with how many watch()es hold each: what a fresh subscription
  // checks again (Redis does not keep what was published while no one listened).
  std::mutex watched_mutex;
  std::map<std::string, std::pair<std::string, int>> watched;  // guarded by watched_mutex

  std::unique_ptr<redis_detail::AnswerSubscriber> subscriber;  // started by the first watch()

  // Leases held by runs in this process: registration -> (id, run).
  std::mutex lease_mutex;
  std::condition_variable lease_wake;
  std::map<std::uint64_t, std::pair<std::string, std::uint64_t>> leases;  // guarded by lease_mutex
  std::uint64_t next_lease = 0;                                           // guarded by lease_mutex
  bool stopping = false;                                                  // guarded by lease_mutex
  std::thread lease_thread;                                               // started by the first hold

  std::string task_key(const std::string& h) const { return prefix + "task:" + h; }

  Reply run(const std::vector<std::string_view>& argv) {
    auto reply = redis.run(argv);
    if (!reply) throw std::runtime_error("RedisTaskStore: Redis cannot be reached");
    if (reply->type == REDIS_REPLY_ERROR) {
      throw std::runtime_error("RedisTaskStore: Redis answered " + std::string(reply->str, reply->len));
    }
    return reply;
  }

  // The record and its sealed text as stored, or nullopt when there is none that opens.
  std::optional<std::pair<TaskRecord, std::string>> read(const std::string& id, const std::string& h) {
    const auto reply = run({"GET", task_key(h)});
    if (reply->type != REDIS_REPLY_STRING) return std::nullopt;
    std::string sealed(reply->str, reply->len);
    const auto opened = sealer.open(sealed, binding(id));
    if (!opened || !opened->is_object()) return std::nullopt;
    try {
      auto record = TaskRecord::from_json(*opened);
      if (record.id != id || record.expires_ms <= unix_time_ms()) return std::nullopt;
      return std::make_pair(std::move(record), std::move(sealed));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  std::optional<TaskRecord> update(const std::string& id, const std::function<bool(TaskRecord&)>& change) {
    const auto h = redis::id_hash(id);
    for (int attempt = 0; attempt < kUpdateTries; ++attempt) {
      auto current = read(id, h);
      if (!current) return std::nullopt;
      const auto& [before, sealed_before] = *current;
      const auto now = unix_time_ms();
      TaskRecord after = before;
      const bool lapsed = fail_if_lapsed(after, now);
      const bool changed = change(after);
      if (!lapsed && !changed) return before;
      // The id and expiry belong to the store; the lease follows the status (a task that starts a
      // run gets a fresh one; one that is not working holds none).
      after.id = before.id;
      after.expires_ms = before.expires_ms;
      if (after.status != TaskStatus::working || after.run_released) {
        after.lease_expires_ms = 0;
      } else if (before.status != TaskStatus::working || after.run != before.run) {
        after.lease_expires_ms = now + options.lease.count();
      }
      const auto text = after.to_json().dump();
      const auto sealed = sealer.seal_text(text, binding(id));
      // A lease renewal alone is no change to tell anyone of.
      const bool visible = after.status != before.status || after.updated_ms != before.updated_ms;
      const auto message = visible ? h + " " + std::to_string(static_cast<int>(after.status)) : std::string();
      const auto bytes = std::to_string(text.size());
      const auto reply = run({"EVAL", kUpdateScript, "7", task_key(h), bytes_key, status_keys[0], status_keys[1],
                              status_keys[2], status_keys[3], status_keys[4], sealed_before, sealed, h, bytes, channel,
                              message, std::to_string(static_cast<int>(after.status)), status_score(after)});
      if (reply->type == REDIS_REPLY_INTEGER && reply->integer == 1) return after;
      // Lost to another writer: a short random pause, growing, so that two writers in step part.
      thread_local std::minstd_rand jitter(std::random_device{}());
      std::this_thread::sleep_for(std::chrono::microseconds(jitter() % (100 * (attempt + 1))));
    }
    throw std::runtime_error("RedisTaskStore: the task kept changing under " + std::to_string(kUpdateTries) +
                             " tries to update it");
  }

  void on_message(const std::string& payload) {
    // "<h> <status>"
    const auto space = payload.find(' ');
    if (space == std::string::npos || space + 2 != payload.size()) return;
    const int status = payload[space + 1] - '0';
    if (status < 0 || status > static_cast<int>(TaskStatus::cancelled)) return;
    watchers.notify(payload.substr(0, space), static_cast<TaskStatus>(status));
  }

  // Subscribed (again): what changed meanwhile was not heard, so each watched task's status is
  // read and reported once.
  void on_subscribed() {
    std::vector<std::pair<std::string, std::string>> ids;  // (<h>, id)
    {
      std::lock_guard<std::mutex> lock(watched_mutex);
      for (const auto& [h, entry] : watched) ids.emplace_back(h, entry.first);
    }
    for (const auto& [h, id] : ids) {
      try {
        if (const auto t = read(id, h)) watchers.notify(h, t->first.status);
      } catch (const std::exception&) {
        return;  // Redis went again: the next subscription checks
      }
    }
  }

  // Renews every lease held here each third of the lease, until stopped.
  void renew_leases() {
    const auto every = std::max(options.lease / 3, std::chrono::milliseconds(1));
    std::unique_lock<std::mutex> lock(lease_mutex);
    while (!lease_wake.wait_for(lock, every, [this] { return stopping; })) {
      const auto held = leases;
      lock.unlock();
      for (const auto& [n, lease] : held) {
        const auto& [id, run] = lease;
        try {
          update(id, [&, run = run](TaskRecord& t) {
            if (t.run != run || t.status != TaskStatus::working || t.run_released) return false;
            t.lease_expires_ms = unix_time_ms() + options.lease.count();
            return true;
          });
        } catch (const std::exception&) {
          // Redis cannot be reached: tried again next time; if that lasts a lease, the task fails.
        }
      }
      lock.lock();
    }
  }
};

RedisTaskStore::RedisTaskStore(RedisTaskStoreOptions options) : shared_(std::make_shared<Shared>(std::move(options))) {
  std::weak_ptr<Shared> weak = shared_;
  shared_->subscriber = std::make_unique<redis_detail::AnswerSubscriber>(
      shared_->options.redis, shared_->channel,
      [weak](std::string payload) {
        if (const auto s = weak.lock()) s->on_message(payload);
      },
      [weak] {
        if (const auto s = weak.lock()) s->on_subscribed();
      });
}

RedisTaskStore::~RedisTaskStore() {
  shared_->subscriber->stop();
  {
    std::lock_guard<std::mutex> lock(shared_->lease_mutex);
    shared_->stopping = true;
  }
  shared_->lease_wake.notify_all();
  if (shared_->lease_thread.joinable()) shared_->lease_thread.join();
}

const TaskOptions& RedisTaskStore::options() const noexcept { return shared_->options.tasks; }

std::chrono::milliseconds RedisTaskStore::run_lease() const noexcept { return shared_->options.lease; }

bool RedisTaskStore::create(const TaskRecord& task) {
  auto& s = *shared_;
  const auto now = unix_time_ms();
  TaskRecord record = task;
  record.lease_expires_ms = record.status == TaskStatus::working ? now + s.options.lease.count() : 0;
  const auto text = record.to_json().dump();
  const auto sealed = s.sealer.seal_text(text, binding(record.id));
  const auto h = redis::id_hash(record.id);
  const auto px = std::to_string(std::max<std::int64_t>(record.expires_ms - now, 1));
  const auto reply = s.run({"EVAL",
                            kCreateScript,
                            "8",
                            s.task_key(h),
                            s.expiry_key,
                            s.bytes_key,
                            s.status_keys[0],
                            s.status_keys[1],
                            s.status_keys[2],
                            s.status_keys[3],
                            s.status_keys[4],
                            sealed,
                            px,
                            std::to_string(now),
                            std::to_string(record.expires_ms),
                            h,
                            std::to_string(text.size()),
                            std::to_string(s.options.tasks.max_tasks),
                            std::to_string(s.options.tasks.max_bytes),
                            std::to_string(static_cast<int>(record.status)),
                            status_score(record)});
  return reply->type == REDIS_REPLY_INTEGER && reply->integer == 1;
}

std::optional<TaskRecord> RedisTaskStore::get(const std::string& id) {
  auto current = shared_->read(id, redis::id_hash(id));
  if (!current) return std::nullopt;
  auto& record = current->first;
  if (lapsed(record, unix_time_ms())) {
    return shared_->update(id, [](TaskRecord&) { return false; });  // fails it (fail_if_lapsed)
  }
  return std::move(record);
}

std::optional<TaskRecord> RedisTaskStore::update(const std::string& id,
                                                 const std::function<bool(TaskRecord&)>& change) {
  return shared_->update(id, change);
}

std::optional<std::array<std::size_t, 5>> RedisTaskStore::count_by_status() {
  auto& s = *shared_;
  const auto reply = s.run({"EVAL", kCountScript, "5", s.status_keys[0], s.status_keys[1], s.status_keys[2],
                            s.status_keys[3], s.status_keys[4], std::to_string(unix_time_ms())});
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 5) {
    throw std::runtime_error("RedisTaskStore: Redis answered the count with something else");
  }
  std::array<std::size_t, 5> counts{};
  for (std::size_t i = 0; i < 5; ++i) {
    const auto* e = reply->element[i];
    if (e->type != REDIS_REPLY_INTEGER || e->integer < 0) {
      throw std::runtime_error("RedisTaskStore: Redis answered the count with something else");
    }
    counts[i] = static_cast<std::size_t>(e->integer);
  }
  return counts;
}

std::shared_ptr<void> RedisTaskStore::watch(const std::string& id, std::function<void(TaskStatus)> changed) {
  auto& s = *shared_;
  const auto h = redis::id_hash(id);
  {
    std::lock_guard<std::mutex> lock(s.watched_mutex);
    auto& entry = s.watched[h];
    entry.first = id;
    ++entry.second;
  }
  auto handle = s.watchers.add(h, std::move(changed));
  s.subscriber->start();
  std::weak_ptr<Shared> weak = shared_;
  return std::shared_ptr<void>(new int(0), [weak, h, handle](int* p) mutable {
    delete p;
    handle.reset();
    if (const auto s = weak.lock()) {
      std::lock_guard<std::mutex> lock(s->watched_mutex);
      const auto it = s->watched.find(h);
      if (it != s->watched.end() && --it->second.second == 0) s->watched.erase(it);
    }
  });
}

std::shared_ptr<void> RedisTaskStore::hold_lease(const TaskRecord& task) {
  auto& s = *shared_;
  std::uint64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(s.lease_mutex);
    if (s.stopping) return nullptr;
    if (!s.lease_thread.joinable()) s.lease_thread = std::thread([&s] { s.renew_leases(); });
    n = ++s.next_lease;
    s.leases.emplace(n, std::make_pair(task.id, task.run));
  }
  std::weak_ptr<Shared> weak = shared_;
  return std::shared_ptr<void>(new int(0), [weak, n](int* p) {
    delete p;
    if (const auto s = weak.lock()) {
      std::lock_guard<std::mutex> lock(s->lease_mutex);
      s->leases.erase(n);
    }
  });
}

}  // namespace elicit
