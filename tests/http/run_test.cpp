// StreamableHttpServer::run() and wait(): they block until stop() on another thread, or until
// SIGINT/SIGTERM. Bounded: every wait by test_support::kPatience, the signal loop by a count.
#include <catch2/catch.hpp>

#include <atomic>
#include <csignal>
#include <future>
#include <thread>

#include <elicit/http/server.hpp>

#include "../support/patience.hpp"

namespace run_test {

using namespace std::chrono_literals;

namespace {

std::shared_ptr<elicit::Server> one_tool_server() {
  auto server = std::make_shared<elicit::Server>(elicit::ServerInfo{"run-test", "1"});
  server->add_tool(
      elicit::Tool::blocking("hello", [](elicit::RequestContext&) { return elicit::ToolResult::text("hi"); }));
  return server;
}

elicit::http::HttpServerOptions quiet() {
  elicit::http::HttpServerOptions o;
  o.server.session.log = [](std::string_view) {};
  return o;
}

std::atomic<int> early_signals{0};
extern "C" void count_signal(int) { ++early_signals; }

}  // namespace

TEST_CASE("wait() returns once stop() on another thread has finished", "[http][run]") {
  elicit::http::StreamableHttpServer http(one_tool_server(), quiet());
  CHECK_THROWS_AS(http.wait(), std::logic_error);  // before start()
  http.start();
  auto waited = std::async(std::launch::async, [&] { http.wait(); });
  CHECK(waited.wait_for(50ms) == std::future_status::timeout);  // it blocks while serving
  std::thread stopper([&] { http.stop(); });
  REQUIRE(waited.wait_for(test_support::kPatience) == std::future_status::ready);
  stopper.join();
  CHECK(http.session_count() == 0);
}

TEST_CASE("run() serves until SIGINT, then stops and returns", "[http][run]") {
  // Until run() has its signal_set, a SIGINT goes to this handler instead of ending the process.
  const auto previous = std::signal(SIGINT, count_signal);
  elicit::http::StreamableHttpServer http(one_tool_server(), quiet());
  std::atomic<bool> returned{false};
  std::thread runner([&] {
    http.run();
    returned = true;
  });
  // raise() delivers the signal before it returns, so none is left in flight when the loop ends.
  for (int i = 0; i < 3000 && !returned; ++i) {
    std::raise(SIGINT);
    std::this_thread::sleep_for(10ms);
  }
  runner.join();  // a hang here is the failure (CTest's timeout)
  std::signal(SIGINT, previous);
  CHECK(returned);
  CHECK(http.port() > 0);
  CHECK(http.session_count() == 0);
}

}  // namespace run_test
