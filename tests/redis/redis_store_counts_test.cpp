// What the operations wing reads of the Redis stores, against a real redis-server each test starts:
// RedisTaskStore::count_by_status() over its status indexes (two stores on one Redis stand for two
// processes), and RedisOptions::on_error, called for each failure talking to Redis.
#include <catch2/catch.hpp>

#include <hiredis/hiredis.h>

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <elicit/redis/completion_store.hpp>
#include <elicit/redis/task_store.hpp>

#include "../support/free_port.hpp"
#include "../support/patience.hpp"
#include "redis_server.hpp"
#include "task_records.hpp"

namespace redis_store_counts_test {

using elicit::RedisTaskStore;
using elicit::RedisTaskStoreOptions;
using elicit::TaskRecord;
using elicit::TaskStatus;
using test_support::eventually;
using test_support::RedisServer;
using namespace std::chrono_literals;
using Counts = std::array<std::size_t, 5>;  // working, input_required, completed, failed, cancelled

namespace {

constexpr auto kTaskPrefix = "test:task:";

RedisTaskStoreOptions task_options(const RedisServer& server) {
  RedisTaskStoreOptions o;
  o.redis.port = server.port();
  o.redis.key_prefix = kTaskPrefix;
  o.keys = {test_support::shared_key()};
  // Long enough that a busy machine never lets a held lease lapse between renewals (lease / 3).
  o.lease = 5s;
  return o;
}

TaskRecord new_task(TaskStatus status = TaskStatus::input_required, std::int64_t ttl_ms = 60'000) {
  return test_support::task_record(status, ttl_ms);
}

Counts counts(RedisTaskStore& store) {
  const auto c = store.count_by_status();
  REQUIRE(c);
  return *c;
}

std::function<bool(TaskRecord&)> set_status(TaskStatus status) {
  return [status](TaskRecord& r) {
    if (status == TaskStatus::working) ++r.run;
    r.status = status;
    r.updated_ms = elicit::unix_time_ms();
    return true;
  };
}

// The keys whose name starts with `prefix`.
std::vector<std::string> keys_like(const RedisServer& server, const std::string& prefix) {
  std::vector<std::string> out;
  redisContext* c = server.connect();
  REQUIRE(c != nullptr);
  const auto pattern = prefix + "*";
  auto* keys = static_cast<redisReply*>(redisCommand(c, "KEYS %b", pattern.data(), pattern.size()));
  REQUIRE(keys != nullptr);
  for (std::size_t i = 0; i < keys->elements; ++i) out.emplace_back(keys->element[i]->str, keys->element[i]->len);
  freeReplyObject(keys);
  redisFree(c);
  return out;
}

}  // namespace

TEST_CASE("redis tasks: counted by status across stores, after expiry and after a lapse", "[redis][tasks]") {
  RedisServer server;
  const auto o = task_options(server);
  RedisTaskStore a(o);  // stands for the process that makes the tasks
  RedisTaskStore b(o);  // and the one that answers them
  CHECK(counts(b) == Counts{0, 0, 0, 0, 0});

  const auto t1 = new_task();
  REQUIRE(a.create(t1));
  CHECK(counts(b) == Counts{0, 1, 0, 0, 0});
  // Answered through B: its next run is working; then it completes.
  REQUIRE(b.update(t1.id, set_status(TaskStatus::working)));
  CHECK(counts(a) == Counts{1, 0, 0, 0, 0});
  REQUIRE(a.update(t1.id, set_status(TaskStatus::completed)));
  CHECK(counts(b) == Counts{0, 0, 1, 0, 0});
  const auto t2 = new_task();
  REQUIRE(a.create(t2));
  REQUIRE(b.update(t2.id, set_status(TaskStatus::cancelled)));
  CHECK(counts(a) == Counts{0, 0, 1, 0, 1});
  // A change that changes nothing moves nothing.
  REQUIRE(b.update(t2.id, [](TaskRecord&) { return false; }));
  CHECK(counts(a) == Counts{0, 0, 1, 0, 1});

  // The indexes live beside the records, in the same hash slot, and hold no id.
  const auto status_keys = keys_like(server, std::string(kTaskPrefix) + "{tasks}:status:");
  CHECK(status_keys.size() == 2);  // completed and cancelled; the emptied ones are gone

  SECTION("a task stops counting when it expires, and the next create prunes it") {
    const auto short_lived = new_task(TaskStatus::input_required, 300);
    REQUIRE(b.create(short_lived));
    CHECK(counts(a)[1] <= 1);
    CHECK(eventually([&] { return counts(a)[1] == 0; }));
    REQUIRE(a.create(new_task(TaskStatus::completed)));
    CHECK(counts(b) == Counts{0, 0, 2, 0, 1});
    CHECK(keys_like(server, std::string(kTaskPrefix) + "{tasks}:status:1").empty());  // pruned
  }
  SECTION(
      "a working task whose process stopped stops counting as working, and counts as failed once read; a released "
      "one counts as working") {
    const auto lapsing = new_task(TaskStatus::working);
    REQUIRE(a.create(lapsing));  // no hold_lease(): as if A died at once
    // A's drain released this one's run: no lease, working until another process takes it up.
    const auto released = new_task(TaskStatus::working);
    REQUIRE(a.create(released));
    REQUIRE(a.update(released.id, [](TaskRecord& r) {
      r.run_released = true;
      return true;
    }));
    CHECK(counts(b)[0] <= 2);
    REQUIRE(eventually([&] { return counts(b)[0] == 1; }));    // the lapsing one's lease passed
    CHECK(counts(b) == Counts{1, 0, 1, 0, 1});                 // the lapsed one counted nowhere until read
    REQUIRE(b.get(lapsing.id)->status == TaskStatus::failed);  // any process's read fails it
    CHECK(counts(a) == Counts{1, 0, 1, 1, 1});
  }
  SECTION("a working task whose lease is held keeps counting as working across renewals") {
    const auto running = new_task(TaskStatus::working);
    REQUIRE(a.create(running));
    const auto first = a.get(running.id);
    REQUIRE(first);
    auto held = a.hold_lease(*first);
    REQUIRE(held);
    // Renewed twice: by then the first lease would have lapsed without the renewals moving the
    // task's place in the working index.
    REQUIRE(eventually([&] { return b.get(running.id)->lease_expires_ms > first->lease_expires_ms; }));
    const auto renewed = b.get(running.id)->lease_expires_ms;
    REQUIRE(eventually([&] {
      return b.get(running.id)->lease_expires_ms > renewed && elicit::unix_time_ms() > first->lease_expires_ms;
    }));
    CHECK(counts(b) == Counts{1, 0, 1, 0, 1});
  }
}

TEST_CASE("redis: on_error is called for each failure talking to Redis, never for a success", "[redis]") {
  RedisServer server;
  std::atomic<int> completion_errors{0};
  std::atomic<int> task_errors{0};
  elicit::RedisOptions redis;
  redis.port = server.port();
  redis.key_prefix = "test:completion:";
  redis.connect_timeout = 500ms;
  redis.command_timeout = 500ms;
  redis.on_error = [&completion_errors] { ++completion_errors; };
  elicit::RedisCompletionStore completions(redis);
  RedisTaskStoreOptions o = task_options(server);
  o.redis.connect_timeout = redis.connect_timeout;
  o.redis.command_timeout = redis.command_timeout;
  o.redis.on_error = [&task_errors] { ++task_errors; };
  RedisTaskStore tasks(o);

  REQUIRE(completions.complete("done", 60s));
  const auto t = new_task();
  REQUIRE(tasks.create(t));
  REQUIRE(tasks.count_by_status());
  // The subscriber connection too: a watch starts it.
  std::atomic<int> heard{0};
  auto watching = tasks.watch(t.id, [&heard](TaskStatus) { ++heard; });
  REQUIRE(eventually([&] { return heard > 0; }));  // subscribed: it reports the watched status once
  CHECK(completion_errors == 0);
  CHECK(task_errors == 0);

  server.stop();
  // The pooled connection breaks, the one retry cannot connect: one failure per command.
  CHECK_FALSE(completions.complete("later", 60s));
  CHECK(completion_errors == 1);
  CHECK(completions.complete("again", 60s) == false);
  CHECK(completion_errors == 2);
  // The task store's commands, and its subscriber (its connection broke, its reconnections fail,
  // reported from its own thread).
  CHECK_THROWS_AS(tasks.count_by_status(), std::runtime_error);
  CHECK(task_errors >= 1);
  CHECK(eventually([&] { return task_errors >= 4; }));

  // A callback that throws is swallowed: the store answers as without it.
  auto throwing = redis;
  throwing.port = test_support::free_loopback_port();
  throwing.on_error = [] { throw std::runtime_error("metrics broke"); };
  elicit::RedisCompletionStore unreachable(throwing);
  CHECK_FALSE(unreachable.complete("x", 60s));
}

TEST_CASE("redis: an error reply is reported to on_error", "[redis]") {
  RedisServer server("s3cret");  // commands without AUTH answer NOAUTH
  std::atomic<int> errors{0};
  RedisTaskStoreOptions o = task_options(server);
  o.redis.on_error = [&errors] { ++errors; };
  RedisTaskStore tasks(o);
  CHECK_THROWS_AS(tasks.count_by_status(), std::runtime_error);
  CHECK(errors == 1);
  o.redis.password = "s3cret";
  RedisTaskStore authenticated(o);
  CHECK(authenticated.count_by_status() == Counts{0, 0, 0, 0, 0});
  CHECK(errors == 1);
}

}  // namespace redis_store_counts_test
