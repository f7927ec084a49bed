// No silent deadlock: blocking calls refuse to run on event threads (the connection's delivery thread,
// timer callbacks). The MCP layer's part (blocking elicitation, exceptions from asynchronous
// elicitation callbacks) is tests/mcp/event_thread_test.cpp.
#include <catch2/catch.hpp>

#include <future>

#include <elicit/jsonrpc/connection.hpp>
#include <elicit/jsonrpc/event_thread.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/jsonrpc/timer_service.hpp>

#include "../support/fake_client.hpp"
#include "../support/patience.hpp"

namespace event_thread_test {

using namespace elicit;
using nlohmann::json;
using test_support::kPatience;

TEST_CASE("jsonrpc::EventThreadScope marks the thread while alive, nested", "[event_thread]") {
  CHECK_FALSE(jsonrpc::on_event_thread());
  {
    jsonrpc::EventThreadScope outer;
    CHECK(jsonrpc::on_event_thread());
    {
      jsonrpc::EventThreadScope inner;
      CHECK(jsonrpc::on_event_thread());
    }
    CHECK(jsonrpc::on_event_thread());
    CHECK_THROWS_AS(jsonrpc::detail::require_blocking_allowed("x()", "y()"), std::logic_error);
    CHECK(std::async(std::launch::async, [] { return jsonrpc::on_event_thread(); }).get() == false);  // per thread
  }
  CHECK_FALSE(jsonrpc::on_event_thread());
  CHECK_NOTHROW(jsonrpc::detail::require_blocking_allowed("x()", "y()"));
}

TEST_CASE("Session::call in a request handler is a logic_error (-32603), not a deadlock", "[event_thread][session]") {
  auto ends = MemoryTransport::pair();
  FakeClient client(std::move(ends.second));
  jsonrpc::Connection session(*ends.first, jsonrpc::ConnectionOptions{[](std::string_view) {}});
  session.on_request("test/nested", [&session](const Request&, Responder out) {
    out.result(*session.call("test/inner", json::object()).result);
  });
  session.start();
  client.request(1, "test/nested");
  const auto r = client.next();
  REQUIRE(r);
  CHECK((*r)["error"]["code"] == error_code::internal_error);
  CHECK((*r)["error"]["message"].get<std::string>().find("send_request") != std::string::npos);
}

TEST_CASE("timer callbacks run on an event thread", "[event_thread][timer]") {
  jsonrpc::TimerService timers;
  std::promise<bool> marked;
  timers.schedule(jsonrpc::TimerService::Clock::now(), [&] { marked.set_value(jsonrpc::on_event_thread()); });
  auto future = marked.get_future();
  REQUIRE(future.wait_for(kPatience) == std::future_status::ready);
  CHECK(future.get());
}

}  // namespace event_thread_test
