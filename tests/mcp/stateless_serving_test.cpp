// detail::StatelessServing: one 2026-07-28 request on a connection of its own (what Streamable HTTP
// builds per POST). Its checked fields go to that request (the client capabilities reach the
// handler), and a second request on the same connection is refused: the fields were the first's.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/jsonrpc/worker_pool.hpp>
#include <elicit/server_session.hpp>

#include "../support/patience.hpp"

namespace stateless_serving_test {

using namespace elicit;
using nlohmann::json;

namespace {

// The client end: every message the serving side sends, as parsed JSON.
struct Received {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<json> messages;

  void add(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    messages.push_back(json::parse(text));
    cv.notify_all();
  }
  // The message answering `id`, waiting (bounded) for it.
  json answer(int id) {
    std::unique_lock<std::mutex> lock(mutex);
    json found;
    cv.wait_for(lock, test_support::kPatience, [&] {
      for (const auto& m : messages) {
        if (m.value("id", json()) == id) {
          found = m;
          return true;
        }
      }
      return false;
    });
    return found;
  }
};

json call_params(json capabilities) {
  return {{"name", "capabilities"},
          {"arguments", json::object()},
          {"_meta",
           {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientCapabilities", std::move(capabilities)},
            {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1"}}}}}};
}

}  // namespace

TEST_CASE("a 2026-07-28 exchange gives its request the client's capabilities and refuses a second request",
          "[modern][stateless_serving]") {
  auto server = std::make_shared<Server>(ServerInfo{"stateless-serving-test", "1"});
  server->add_tool(Tool::blocking("capabilities", [](RequestContext& ctx) {
    const auto c = ctx.client_capabilities();
    return ToolResult::text(std::string(c.elicitation_form ? "form" : "no form") + " " + c.raw.dump());
  }));
  ServerSessionOptions options;
  options.workers = std::make_shared<WorkerPool>(1);

  auto ends = MemoryTransport::pair();
  Received received;
  ends.second->start([&](std::string m) { received.add(m); }, [] {});

  const auto params = call_params({{"elicitation", {{"form", json::object()}}}});
  auto era = read_request_era(params);
  REQUIRE(era.stateless);
  {
    detail::StatelessServing serving(*ends.first, server, options, Caller{}, std::move(*era.stateless));
    serving.serve(Request{RequestId{std::int64_t{1}}, "tools/call", params});
    const auto first = received.answer(1);
    INFO(first.dump());
    REQUIRE(first.contains("result"));
    CHECK(first["result"]["resultType"] == "complete");
    CHECK(first["result"]["content"][0]["text"] == R"(form {"elicitation":{"form":{}}})");

    // Nothing arrives this way over HTTP (the connection is one exchange), but were it to: refused.
    ends.second->send(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", params}}.dump(), {});
    const auto second = received.answer(2);
    INFO(second.dump());
    REQUIRE(second.contains("error"));
    CHECK(second["error"]["code"] == -32600);
    CHECK(second["error"]["message"] == "Invalid Request: one request per 2026-07-28 exchange");
  }
}

}  // namespace stateless_serving_test
