// The shared jsonrpc::TimerService and WorkerPool: semantics, and threads that do not grow with sessions.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <thread>

#include <elicit/jsonrpc/connection.hpp>
#include <elicit/jsonrpc/timer_service.hpp>
#include <elicit/jsonrpc/worker_pool.hpp>

#include "../support/fake_client.hpp"
#include "../support/recorder.hpp"
#include "../support/threads.hpp"

namespace timer_pool_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;
using test_support::kPatience;
using test_support::Recorder;

using test_support::thread_count;

TEST_CASE("timers fire in deadline order, cancel is true only before firing", "[timer]") {
  jsonrpc::TimerService timers;
  Recorder<int> fired;
  const auto now = jsonrpc::TimerService::Clock::now();
  const auto never = timers.schedule(now + std::chrono::hours(1), [&] { fired.add(-1); });
  timers.schedule(now + 2ms, [&] { fired.add(2); });
  const auto first = timers.schedule(now, [&] { fired.add(1); });
  REQUIRE(fired.wait(2));
  CHECK(fired.values() == std::vector<int>{1, 2});
  CHECK_FALSE(timers.cancel(first));  // already fired
  CHECK(timers.pending() == 1);
  CHECK(timers.cancel(never));
  CHECK_FALSE(timers.cancel(never));  // already cancelled
  CHECK(timers.pending() == 0);
  CHECK(jsonrpc::TimerService::shared() == jsonrpc::TimerService::shared());
}

TEST_CASE("a jsonrpc::TimerService may be destroyed from its own callback", "[timer]") {
  auto timers = std::make_shared<jsonrpc::TimerService>();
  std::weak_ptr<jsonrpc::TimerService> weak = timers;
  std::promise<void> go;
  std::shared_future<void> going = go.get_future().share();
  // The callback holds the last reference once the test drops its own: the service is destroyed
  // on its own thread when the callback is released after running.
  timers->schedule(jsonrpc::TimerService::Clock::now(), [keep = timers, going] { going.wait(); });
  timers.reset();
  go.set_value();
  const auto give_up = std::chrono::steady_clock::now() + kPatience;
  while (!weak.expired() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(1ms);
  CHECK(weak.expired());
}

TEST_CASE("many sessions share one timer thread: timeouts fire and the thread count does not grow",
          "[timer][session]") {
  auto timers = std::make_shared<jsonrpc::TimerService>();
  const auto before = thread_count();
  constexpr int kSessions = 64;
  std::vector<std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>>> ends;
  std::vector<std::unique_ptr<jsonrpc::Connection>> sessions;
  Recorder<RequestFailure> failures;
  for (int i = 0; i < kSessions; ++i) {
    ends.push_back(MemoryTransport::pair());
    jsonrpc::ConnectionOptions o;
    o.log = [](std::string_view) {};
    o.timers = timers;
    // Not started: a started MemoryTransport has a delivery thread of its own, which is not what is counted.
    sessions.push_back(std::make_unique<jsonrpc::Connection>(*ends.back().first, o));
    CallOptions c;
    c.timeout = 1ms;
    sessions.back()->send_request(
        "test/slow", json::object(),
        [&](RequestOutcome r) { failures.add(r.failure.value_or(RequestFailure::cancelled)); }, c);
  }
  CHECK(thread_count() <= before);
  REQUIRE(failures.wait(kSessions));
  for (const auto f : failures.values()) CHECK(f == RequestFailure::timed_out);
  for (auto& s : sessions) CHECK(s->pending_requests() == 0);
  CHECK(timers->pending() == 0);
  sessions.clear();
  CHECK(thread_count() <= before);
}

TEST_CASE("a session destroyed with a timeout pending leaves no timer behind", "[timer][session]") {
  auto timers = std::make_shared<jsonrpc::TimerService>();
  {
    auto ends = MemoryTransport::pair();
    FakeClient client(std::move(ends.second));
    jsonrpc::ConnectionOptions o;
    o.log = [](std::string_view) {};
    o.timers = timers;
    jsonrpc::Connection session(*ends.first, o);
    session.start();
    CallOptions c;
    c.timeout = std::chrono::hours(1);
    session.send_request(
        "test/x", json::object(), [](RequestOutcome) {}, c);
    REQUIRE(client.next());
    CHECK(timers->pending() == 1);
  }
  CHECK(timers->pending() == 0);
}

TEST_CASE("WorkerPool: FIFO on one thread, drains on destruction", "[pool]") {
  Recorder<int> order;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  {
    WorkerPool pool(0);  // 0 means 1
    CHECK(pool.size() == 1);
    REQUIRE(pool.post([released] { released.wait(); }));
    for (int i = 0; i < 5; ++i) REQUIRE(pool.post([&order, i] { order.add(i); }));
    REQUIRE(pool.post([] { throw std::runtime_error("a job that throws does not kill the thread"); }));
    REQUIRE(pool.post([&order] { order.add(5); }));
    release.set_value();
  }  // the destructor runs everything queued
  CHECK(order.values() == std::vector<int>{0, 1, 2, 3, 4, 5});
  WorkerPool four(4);
  CHECK(four.size() == 4);
}

}  // namespace timer_pool_test
