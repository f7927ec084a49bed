// elicit::Client finding the server's era (MCP 2026-07-28, Versioning, "Backward Compatibility"):
// server/discover first; any error that is not a recognized 2026-07-28 one, or no answer within
// probe_timeout, falls back to initialize with ClientOptions::fallback_protocol_version; -32020,
// -32021 and -32022 mean a 2026-07-28 server and are thrown; no fallback when it is turned off. The
// server is scripted on the other end of an in-memory transport.
#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>

#include "../support/patience.hpp"

namespace era_detection_test {

using namespace elicit;
using nlohmann::json;

namespace {

// A server of the initialize era whose answer to server/discover is given: nothing (the probe times
// out), or an error. It records the methods it saw and initialize's protocolVersion.
struct ScriptedServer {
  explicit ScriptedServer(std::optional<RpcError> discover_error) : ends(MemoryTransport::pair()), rpc(*ends.first) {
    rpc.on_request("server/discover", [this, discover_error](const Request&, Responder out) {
      seen("server/discover");
      if (discover_error) {
        out.error(*discover_error);
      } else {
        std::lock_guard<std::mutex> lock(mutex);
        unanswered.push_back(out);  // never answered
      }
    });
    rpc.on_request("initialize", [this](const Request& r, Responder out) {
      seen("initialize");
      {
        std::lock_guard<std::mutex> lock(mutex);
        initialize_version = r.params.value("protocolVersion", std::string());
      }
      out.result({{"protocolVersion", "2025-11-25"},
                  {"capabilities", {{"tools", json::object()}}},
                  {"serverInfo", {{"name", "legacy"}, {"version", "1"}}}});
    });
    rpc.on_notification("notifications/initialized", [this](const Notification&) { seen("initialized"); });
    rpc.start();
  }

  void seen(const std::string& m) {
    std::lock_guard<std::mutex> lock(mutex);
    methods.push_back(m);
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  // What the handlers write: declared before rpc, so that they outlive its delivery thread (a
  // notification may still arrive while the test ends).
  std::mutex mutex;
  std::vector<std::string> methods;
  std::string initialize_version;
  std::vector<Responder> unanswered;
  jsonrpc::Connection rpc;
};

ClientOptions quiet() {
  ClientOptions o;
  o.session.log = [](std::string_view) {};
  return o;
}

}  // namespace

TEST_CASE("era detection: a server that does not answer server/discover is taken for an initialize-era one",
          "[client][era]") {
  ScriptedServer server(std::nullopt);
  auto o = quiet();
  o.probe_timeout = std::chrono::milliseconds(200);  // the server never answers: the wait always ends here
  Client client(*server.ends.second, o);
  const auto init = client.connect();
  CHECK(init["serverInfo"]["name"] == "legacy");
  CHECK(client.protocol_version() == "2025-11-25");
  CHECK(client.server_info()["name"] == "legacy");
  // notifications/initialized goes out after initialize's result: wait (bounded) for it to arrive.
  const auto until = std::chrono::steady_clock::now() + test_support::kPatience;
  for (int i = 0; i < 60000 && std::chrono::steady_clock::now() < until; ++i) {
    {
      std::lock_guard<std::mutex> lock(server.mutex);
      if (server.methods.size() >= 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> lock(server.mutex);
  CHECK(server.methods == std::vector<std::string>{"server/discover", "initialize", "initialized"});
  CHECK(server.initialize_version == "2025-11-25");
}

TEST_CASE("era detection: any error that is not a 2026-07-28 one falls back, whatever its code", "[client][era]") {
  for (const int code : {-32601, -32602, -32600, -32000, 1}) {
    INFO(code);
    ScriptedServer server(RpcError{code, "not initialized", std::nullopt});
    Client client(*server.ends.second, quiet());
    client.connect();
    CHECK(client.protocol_version() == "2025-11-25");
  }
}

TEST_CASE("era detection: a recognized 2026-07-28 error is thrown, never a fallback", "[client][era]") {
  for (const int code : {-32020, -32021, -32022}) {
    INFO(code);
    ScriptedServer server(RpcError{code, "modern", json{{"supported", {"2099-01-01"}}}});
    Client client(*server.ends.second, quiet());
    try {
      client.connect();
      FAIL("connect succeeded");
    } catch (const ClientError& e) {
      CHECK(e.code() == code);
    }
    std::lock_guard<std::mutex> lock(server.mutex);
    CHECK(server.methods == std::vector<std::string>{"server/discover"});
  }
}

TEST_CASE("era detection: with no fallback version the probe's error is thrown", "[client][era]") {
  ScriptedServer server(RpcError{-32601, "Method not found", std::nullopt});
  auto o = quiet();
  o.fallback_protocol_version = std::nullopt;
  Client client(*server.ends.second, o);
  CHECK_THROWS_AS(client.connect(), ClientError);
  std::lock_guard<std::mutex> lock(server.mutex);
  CHECK(server.methods == std::vector<std::string>{"server/discover"});
}

TEST_CASE("era detection: a fallback version of the 2026-07-28 era is refused", "[client][era]") {
  auto ends = MemoryTransport::pair();
  auto o = quiet();
  o.fallback_protocol_version = "2026-07-28";
  CHECK_THROWS_AS(Client(*ends.second, o), std::invalid_argument);
}

TEST_CASE("era detection: the era found is cached per server, so the next client initializes at once",
          "[client][era]") {
  // A key of this test's own: the cache is per process, shared with every other test.
  const std::string key =
      "era-cache-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int i = 0; i < 2; ++i) {
    INFO("client " << i);
    ScriptedServer server(std::nullopt);  // never answers server/discover
    auto o = quiet();
    o.probe_timeout = std::chrono::milliseconds(200);
    o.server_key = key;
    Client client(*server.ends.second, o);
    CHECK(client.connect()["serverInfo"]["name"] == "legacy");
    CHECK(client.protocol_version() == "2025-11-25");
    std::lock_guard<std::mutex> lock(server.mutex);
    REQUIRE_FALSE(server.methods.empty());
    // The first client probes; the second skips the probe and initializes.
    CHECK(server.methods.front() == (i == 0 ? "server/discover" : "initialize"));
  }
  // Another server (another key) is probed as before.
  ScriptedServer other(std::nullopt);
  auto o = quiet();
  o.probe_timeout = std::chrono::milliseconds(200);
  o.server_key = key + "-other";
  Client client(*other.ends.second, o);
  client.connect();
  std::lock_guard<std::mutex> lock(other.mutex);
  CHECK(other.methods.front() == "server/discover");
}

}  // namespace era_detection_test
