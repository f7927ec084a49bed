// RedisTaskStore against a real redis-server each test starts on a free loopback port: two stores on
// one Redis stand for two server processes (a task made through one is read, changed and cancelled
// through the other), and two Servers over them for the tasks/* methods across processes. Without
// redis-server the tests fail, saying so: CI installs it.
#include <catch2/catch.hpp>

#include <hiredis/hiredis.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <elicit/redis/task_store.hpp>
#include <elicit/request_state.hpp>

#include "../support/patience.hpp"
#include "../support/task_session.hpp"
#include "redis_server.hpp"
#include "task_records.hpp"
#include "user_name.hpp"

namespace redis_task_store_test {

using elicit::RedisTaskStore;
using elicit::RedisTaskStoreOptions;
using elicit::TaskRecord;
using elicit::TaskStatus;
using nlohmann::json;
using test_support::eventually;
using test_support::kPatience;
using test_support::RedisServer;
using namespace std::chrono_literals;

namespace {

constexpr auto kTaskPrefix = "test:task:";

RedisTaskStoreOptions task_options(const RedisServer& server, std::string key = test_support::shared_key()) {
  RedisTaskStoreOptions o;
  o.redis.port = server.port();
  o.redis.key_prefix = kTaskPrefix;
  o.keys = {std::move(key)};
  return o;
}

TaskRecord new_task(std::int64_t ttl_ms = 60'000) {
  auto t = test_support::task_record(TaskStatus::input_required, ttl_ms);
  t.request_state = "sealed-state";
  t.input_requests = nlohmann::ordered_json::parse(R"({"confirm":{"method":"elicitation/create"}})");
  return t;
}

// Every key and value under the prefix, as Redis holds them.
std::vector<std::string> everything_in(const RedisServer& server) {
  std::vector<std::string> out;
  redisContext* c = redisConnect("127.0.0.1", server.port());
  REQUIRE(c);
  auto* keys = static_cast<redisReply*>(redisCommand(c, "KEYS %s*", kTaskPrefix));
  REQUIRE(keys);
  for (std::size_t i = 0; i < keys->elements; ++i) {
    const std::string key(keys->element[i]->str, keys->element[i]->len);
    out.push_back(key);
    auto* type = static_cast<redisReply*>(redisCommand(c, "TYPE %b", key.data(), key.size()));
    if (std::string(type->str) == "string") {
      auto* v = static_cast<redisReply*>(redisCommand(c, "GET %b", key.data(), key.size()));
      out.emplace_back(v->str, v->len);
      freeReplyObject(v);
    } else if (std::string(type->str) == "hash") {
      auto* v = static_cast<redisReply*>(redisCommand(c, "HGETALL %b", key.data(), key.size()));
      for (std::size_t j = 0; j < v->elements; ++j) out.emplace_back(v->element[j]->str, v->element[j]->len);
      freeReplyObject(v);
    } else if (std::string(type->str) == "zset") {
      auto* v = static_cast<redisReply*>(redisCommand(c, "ZRANGE %b 0 -1", key.data(), key.size()));
      for (std::size_t j = 0; j < v->elements; ++j) out.emplace_back(v->element[j]->str, v->element[j]->len);
      freeReplyObject(v);
    }
    freeReplyObject(type);
  }
  freeReplyObject(keys);
  redisFree(c);
  return out;
}

}  // namespace

TEST_CASE("redis tasks: a task made by one store is read and changed by another with the same keys, sealed",
          "[redis][tasks]") {
  RedisServer server;
  RedisTaskStore a(task_options(server));
  RedisTaskStore b(task_options(server));
  auto t = new_task();
  t.result = {{"content", json::array({{{"type", "text"}, {"text", "SECRET-RESULT-42"}}})}};
  REQUIRE(a.create(t));

  const auto read = b.get(t.id);
  REQUIRE(read);
  CHECK(read->to_json() == t.to_json());
  CHECK(b.get(elicit::new_task_id()) == std::nullopt);

  const auto after = b.update(t.id, [](TaskRecord& r) {
    r.status = TaskStatus::completed;
    r.updated_ms += 1;
    r.id = "moved";    // the store keeps the id
    r.expires_ms = 1;  // and the expiry
    return true;
  });
  REQUIRE(after);
  CHECK(after->status == TaskStatus::completed);
  CHECK(after->id == t.id);
  CHECK(after->expires_ms == t.expires_ms);
  CHECK(a.get(t.id)->status == TaskStatus::completed);
  // A change that returns false writes nothing and answers the task as it is.
  CHECK(a.update(t.id, [](TaskRecord&) { return false; })->to_json() == after->to_json());
  CHECK(a.update(elicit::new_task_id(), [](TaskRecord&) { return true; }) == std::nullopt);

  // Another key: the task is unknown there.
  RedisTaskStore other(task_options(server, elicit::RequestStateSealer::generate_key()));
  CHECK(other.get(t.id) == std::nullopt);

  // Redis holds neither the id nor anything of the record in plain text.
  for (const auto& s : everything_in(server)) {
    CHECK(s.find(t.id) == std::string::npos);
    CHECK(s.find("SECRET-RESULT") == std::string::npos);
    CHECK(s.find("octocat") == std::string::npos);
    CHECK(s.find("confirm_delete") == std::string::npos);
  }
}

TEST_CASE("redis tasks: updates from two stores at once are compare-and-set, none lost", "[redis][tasks]") {
  RedisServer server;
  RedisTaskStore a(task_options(server));
  RedisTaskStore b(task_options(server));
  auto t = new_task();
  t.run = 0;
  REQUIRE(a.create(t));
  constexpr int kEach = 100;
  std::atomic<int> calls{0};
  std::mutex mutex;
  std::string failure;
  auto bump = [&](RedisTaskStore& store) {
    try {
      for (int i = 0; i < kEach; ++i) {
        store.update(t.id, [&](TaskRecord& r) {
          ++calls;
          ++r.run;
          return true;
        });
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex);
      failure = e.what();
    }
  };
  std::thread ta([&] { bump(a); });
  std::thread tb([&] { bump(b); });
  ta.join();
  tb.join();
  CHECK(failure == "");
  CHECK(a.get(t.id)->run == 2 * kEach);
  CHECK(calls.load() >= 2 * kEach);  // a change lost to the other store ran again
}

TEST_CASE("redis tasks: max_tasks and max_bytes hold across stores, expired tasks free their place", "[redis][tasks]") {
  RedisServer server;
  auto o = task_options(server);
  o.tasks.max_tasks = 2;
  RedisTaskStore a(o);
  RedisTaskStore b(o);
  REQUIRE(a.create(new_task()));
  auto short_lived = new_task(150);
  REQUIRE(b.create(short_lived));
  CHECK_FALSE(a.create(new_task()));
  CHECK_FALSE(b.create(new_task()));
  // Once the short one expired (Redis drops it; the index follows at the next create), there is room.
  REQUIRE(eventually([&] { return !a.get(short_lived.id); }));
  CHECK(eventually([&] { return b.create(new_task()); }));
  CHECK_FALSE(a.create(new_task()));

  RedisServer server2;
  auto small = task_options(server2);
  small.tasks.max_bytes = 3 * new_task().to_json().dump().size() / 2;
  RedisTaskStore c(small);
  REQUIRE(c.create(new_task()));
  CHECK_FALSE(c.create(new_task()));  // a second record would pass max_bytes
}

TEST_CASE("redis tasks: watch hears a change made by another store, and stops when its handle goes", "[redis][tasks]") {
  RedisServer server;
  RedisTaskStore a(task_options(server));
  RedisTaskStore b(task_options(server));
  auto t = new_task();
  REQUIRE(a.create(t));
  std::mutex mutex;
  std::vector<TaskStatus> heard;
  auto handle = b.watch(t.id, [&](TaskStatus s) {
    std::lock_guard<std::mutex> lock(mutex);
    heard.push_back(s);
  });
  // The subscriber connects on its own thread: change until it has heard (bounded).
  REQUIRE(eventually([&] {
    a.update(t.id, [](TaskRecord& r) {
      r.updated_ms += 1;
      return true;
    });
    std::lock_guard<std::mutex> lock(mutex);
    return !heard.empty();
  }));
  a.update(t.id, [](TaskRecord& r) {
    r.status = TaskStatus::cancelled;
    r.updated_ms += 1;
    return true;
  });
  REQUIRE(eventually([&] {
    std::lock_guard<std::mutex> lock(mutex);
    return heard.back() == TaskStatus::cancelled;
  }));
  handle.reset();
  std::size_t count = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    count = heard.size();
  }
  // Another task's changes are not this watcher's; after the handle went, none are.
  auto u = new_task();
  REQUIRE(a.create(u));
  a.update(u.id, [](TaskRecord& r) {
    r.updated_ms += 1;
    return true;
  });
  a.update(t.id, [](TaskRecord& r) {
    r.updated_ms += 1;
    return true;
  });
  std::this_thread::sleep_for(50ms);  // not a synchronisation: nothing may arrive, whatever the wait
  std::lock_guard<std::mutex> lock(mutex);
  CHECK(heard.size() == count);
}

TEST_CASE("redis tasks: a working task's lease is renewed while held, and a lapsed one reads as failed everywhere",
          "[redis][tasks]") {
  RedisServer server;
  auto o = task_options(server);
  // Long enough that a busy machine (sanitizers, CI) never lets a held lease lapse between two
  // renewals (every lease / 3), short enough to see a released one lapse.
  o.lease = 5s;
  RedisTaskStore a(o);
  RedisTaskStore b(o);

  auto t = new_task();
  t.status = TaskStatus::working;
  REQUIRE(a.create(t));
  const auto first = b.get(t.id);
  REQUIRE(first);
  REQUIRE(first->lease_expires_ms > 0);

  {
    auto held = a.hold_lease(*first);
    REQUIRE(held);
    // Renewed at least once: the lease moves on (however slow the machine, the renewal comes).
    CHECK(eventually([&] {
      const auto now = b.get(t.id);
      return now && now->status == TaskStatus::working && now->lease_expires_ms > first->lease_expires_ms;
    }));
  }
  // Released (its process stopped): it lapses, and the next reader, in any process, fails it.
  REQUIRE(eventually([&] { return b.get(t.id)->status == TaskStatus::failed; }));
  const auto failed = a.get(t.id);
  CHECK(failed->status == TaskStatus::failed);
  CHECK(failed->error["code"] == -32603);
  CHECK(failed->status_message == "the process running the task stopped (its lease lapsed)");
  CHECK(failed->lease_expires_ms == 0);

  // A task waiting for input holds no lease and never lapses; answering it (working, next run)
  // gives it a fresh one.
  auto waiting = new_task();
  REQUIRE(a.create(waiting));
  CHECK(a.get(waiting.id)->lease_expires_ms == 0);
  const auto running = a.update(waiting.id, [](TaskRecord& r) {
    r.status = TaskStatus::working;
    ++r.run;
    return true;
  });
  CHECK(running->lease_expires_ms > 0);
}

TEST_CASE("redis tasks: an unreachable Redis throws, and bad options are refused", "[redis][tasks]") {
  RedisTaskStoreOptions o;
  o.redis.port = test_support::free_loopback_port();
  o.redis.connect_timeout = 200ms;
  RedisTaskStore store(o);
  CHECK_THROWS_AS(store.create(new_task()), std::runtime_error);
  CHECK_THROWS_AS(store.get("x"), std::runtime_error);
  CHECK_THROWS_AS(store.update("x", [](TaskRecord&) { return true; }), std::runtime_error);

  auto bad = o;
  bad.lease = 2ms;
  CHECK_THROWS_AS(RedisTaskStore(bad), std::invalid_argument);
  bad = o;
  bad.keys = {"short"};
  CHECK_THROWS_AS(RedisTaskStore(bad), std::invalid_argument);
  bad = o;
  bad.tasks.max_tasks = 0;
  CHECK_THROWS_AS(RedisTaskStore(bad), std::invalid_argument);
}

// Two Servers over one Redis stand for two processes behind a load balancer.
TEST_CASE("redis tasks: a task made through server A is read, answered and cancelled through server B",
          "[redis][tasks]") {
  using namespace test_support;
  RedisServer server;
  // Processes behind one balancer share their requestState keys (docs/deploying.md).
  elicit::RequestStateOptions state;
  state.keys = {test_support::shared_key()};
  auto make = [&](std::shared_ptr<Gate> gate) {
    auto s = std::make_shared<elicit::Server>(elicit::ServerInfo{"tasks", "1", std::nullopt, std::nullopt}, state);
    auto o = task_options(server);
    // Far longer than any test waits: a task taken by another process was released, never lapsed.
    o.lease = 10min;
    s->set_task_store(std::make_shared<RedisTaskStore>(o));
    s->add_tool(Tool::blocking("echo", [](RequestContext& call) {
                  const auto n = call.elicit_keyed<samples::UserName>("word", "A name?");
                  if (!n) return ToolResult::text("no name");
                  return ToolResult::text("echo " + n.value->name);
                }).with_task_support(TaskSupport::required));
    s->add_tool(waiting_tool(gate));
    return s;
  };
  auto gate_a = std::make_shared<Gate>();
  auto gate_b = std::make_shared<Gate>();
  Session a(make(gate_a));
  Session b(make(gate_b));

  SECTION("asked on A, answered on B: the next run is B's, and A reads the result") {
    const auto made = a.tool("echo")["result"];
    REQUIRE(made["resultType"] == "task");
    const std::string id = made["taskId"];
    const auto waiting = b.until(id, "input_required");
    REQUIRE(waiting["inputRequests"].contains("word"));
    const auto ack =
        b.call("tasks/update",
               {{"taskId", id}, {"inputResponses", {{"word", accept({{"name", "hello"}})}}}, {"_meta", with_tasks()}});
    REQUIRE(ack.contains("result"));
    const auto done = a.until(id, "completed");
    CHECK(done["result"]["content"][0]["text"] == "echo hello");
  }

  SECTION("running on A, cancelled through B: A's handler sees the cancel") {
    const std::string id = a.tool("wait")["result"]["taskId"];
    {
      std::unique_lock<std::mutex> lock(gate_a->mutex);
      REQUIRE(gate_a->cv.wait_for(lock, kPatience, [&] { return gate_a->runs == 1; }));
    }
    // B's process has no run: only Redis's "changed" message reaches A's. A's watch subscribes on
    // its own thread; cancel once it has (bounded: each tasks/cancel is idempotent).
    CHECK(b.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}}).contains("result"));
    CHECK(a.until(id, "cancelled")["status"] == "cancelled");
    std::unique_lock<std::mutex> lock(gate_a->mutex);
    CHECK(gate_a->cv.wait_for(lock, kPatience, [&] { return gate_a->cancelled_seen; }));
    CHECK(gate_b->runs == 0);
  }

  SECTION("running on A when A stops (a drain): released, and B's next tasks/get runs it again at once") {
    const std::string id = a.tool("wait")["result"]["taskId"];
    {
      std::unique_lock<std::mutex> lock(gate_a->mutex);
      REQUIRE(gate_a->cv.wait_for(lock, kPatience, [&] { return gate_a->runs == 1; }));
    }
    a.session->server()->stop_task_runs(nullptr);  // what StreamableHttpServer::drain() does
    {
      std::unique_lock<std::mutex> lock(gate_a->mutex);
      CHECK(gate_a->cv.wait_for(lock, kPatience, [&] { return gate_a->cancelled_seen; }));
    }
    // As Redis holds it: still working, run 1 let go, no lease (so it never lapses into failed).
    RedisTaskStore reader(task_options(server));
    const auto released = reader.get(id);
    REQUIRE(released);
    CHECK(released->status == TaskStatus::working);
    CHECK(released->run == 1);
    CHECK(released->run_released);
    CHECK(released->lease_expires_ms == 0);

    // B's tasks/get takes it: run 2 begins on B, with a fresh lease.
    const auto seen = b.get(id)["result"];
    CHECK(seen["status"] == "working");
    {
      std::unique_lock<std::mutex> lock(gate_b->mutex);
      REQUIRE(gate_b->cv.wait_for(lock, kPatience, [&] { return gate_b->runs == 1; }));
    }
    const auto taken = reader.get(id);
    REQUIRE(taken);
    CHECK(taken->run == 2);
    CHECK_FALSE(taken->run_released);
    CHECK(taken->lease_expires_ms > 0);
    // Another read takes nothing more: one run, B's.
    CHECK(a.get(id)["result"]["status"] == "working");
    CHECK(reader.get(id)->run == 2);
    CHECK(gate_a->runs == 1);

    // B's run is the task's: its cancel reaches B's handler.
    CHECK(a.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}}).contains("result"));
    std::unique_lock<std::mutex> lock(gate_b->mutex);
    CHECK(gate_b->cv.wait_for(lock, kPatience, [&] { return gate_b->cancelled_seen; }));
  }
}

}  // namespace redis_task_store_test
