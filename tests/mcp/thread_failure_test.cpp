// When no thread can be created (issue 11, item 9): the constructors that start threads throw
// std::system_error rather than terminating, a session whose transport cannot start its thread ends
// instead of hanging, and a server whose threads already run keeps serving, since it needs no new
// thread per request or per elicitation. The work runs in a fresh process of this program whose
// RLIMIT_NPROC is lowered to 0 (see tests/support/thread_limit.hpp).
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <system_error>

#include <elicit/jsonrpc/connection.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/jsonrpc/timer_service.hpp>
#include <elicit/jsonrpc/worker_pool.hpp>
#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "../support/thread_limit.hpp"
#include "github_username.hpp"

namespace thread_failure_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;

// (No commas or semicolons in test names: CTest and Catch would split the name there.)
TEST_CASE(
    "without threads: constructors throw std::system_error and a session that cannot start ends "
    "while a running server keeps serving",
    "[thread_limit][process]") {
  const auto child = test_support::run_self("[.thread_limit_child]", test_support::kPatience);
  if (child.status == test_support::kSkipStatus) {
    WARN("skipped: " << child.output);
    return;
  }
  INFO(child.output);
  CHECK(child.status == 0);  // -1: killed by a signal (e.g. std::terminate), -2: hung
}

// Run by the test above in a process of its own.
TEST_CASE("thread limit child", "[.thread_limit_child]") {
  if (!test_support::in_child()) return;
  jsonrpc::ConnectionOptions quiet;
  quiet.log = [](std::string_view) {};
  // Made while threads can still be created: the services a running server already has.
  quiet.timers = std::make_shared<jsonrpc::TimerService>();
  auto pool = std::make_shared<WorkerPool>(1);
  ServerSessionOptions shared;
  shared.workers = pool;
  shared.session = quiet;
  shared.default_elicitation_timeout = std::chrono::minutes(10);  // each elicitation holds a timer
  auto ends = MemoryTransport::pair();
  ServerSession server(*ends.first, {"t", "1"}, shared);
  server.add_tool({"ask", "asks on a worker", {{"type", "object"}}, std::nullopt, [](RequestContext& call) {
                     const auto o = call.elicit<samples::GithubUsername>();
                     return ToolResult::text(o ? o.value->name : std::string(to_string(o.status)));
                   }});
  server.start();
  FakeClient client(std::move(ends.second));

  std::string why;
  if (!test_support::block_threads(why)) {
    std::printf("%s\n", why.c_str());
    std::fflush(stdout);
    std::_Exit(test_support::kSkipStatus);
  }

  // Constructors that start threads throw std::system_error, as documented.
  CHECK_THROWS_AS(WorkerPool(4), std::system_error);
  CHECK_THROWS_AS(jsonrpc::TimerService(), std::system_error);
  {
    auto other = MemoryTransport::pair();
    ServerSessionOptions own;  // its own pool of worker_threads
    own.session = quiet;
    CHECK_THROWS_AS(ServerSession(*other.first, {"t", "1"}, own), std::system_error);
  }

  // A session whose transport cannot start its delivery thread: start() throws, what was pending
  // fails with transport_closed, and close() and the destructor return (they used to wait forever
  // for a transport end that never comes).
  {
    auto other = MemoryTransport::pair();
    jsonrpc::Connection session(*other.first, quiet);
    std::optional<RequestFailure> failure;
    session.send_request("test/pending", json::object(), [&](RequestOutcome o) { failure = o.failure; });
    CHECK(session.pending_requests() == 1);
    CHECK_THROWS_AS(session.start(), std::system_error);
    CHECK(failure == RequestFailure::transport_closed);
    CHECK(session.closed());
    CHECK(session.pending_requests() == 0);
    session.close();
    session.wait_closed();
  }
  {
    auto other = MemoryTransport::pair();
    ServerSession failing(*other.first, {"t", "1"}, shared);
    CHECK_THROWS_AS(failing.start(), std::system_error);
  }  // ~Server returns

  // The running server serves on: initialize, a tools/call on a pool worker that elicits with a
  // timeout, the answer, the result: no new thread anywhere.
  const auto init = client.initialize({{"elicitation", json::object()}});
  CHECK(init["protocolVersion"] == "2025-11-25");
  client.request(2, "tools/call", {{"name", "ask"}, {"arguments", json::object()}});
  const auto ask = client.next();
  REQUIRE(ask);
  CHECK((*ask)["method"] == "elicitation/create");
  client.respond((*ask)["id"], {{"action", "accept"}, {"content", {{"name", "octocat"}}}});
  const auto result = client.next();
  REQUIRE(result);
  CHECK((*result)["id"] == 2);
  CHECK((*result)["result"]["content"][0]["text"] == "octocat");
  CHECK_FALSE(test_support::can_create_thread());

  // With the limit lifted, threads come back.
  REQUIRE(test_support::set_thread_limit(0, false));
  CHECK_NOTHROW(WorkerPool(2));
  CHECK_NOTHROW(jsonrpc::TimerService());
}

}  // namespace thread_failure_test
