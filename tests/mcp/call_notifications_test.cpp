// A tool's own notifications: progress (MCP Basic, Utilities, "Progress") and log messages
// (Server, Utilities, "Logging") in both eras: logging/setLevel in a 2025-11-25 session, the
// per-request `io.modelcontextprotocol/logLevel` in 2026-07-28; a tool's content blocks.
#include <catch2/catch.hpp>

#include <optional>

#include <elicit/content_blocks.hpp>
#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"

namespace call_notifications_test {

using namespace elicit;
using nlohmann::json;

namespace {

// Logs at every level, reports progress 1, 1 (dropped: not increasing), 2 of 2, and says what the
// calls returned.
Tool chatty() {
  return Tool{"chatty", "Logs and reports progress", {{"type", "object"}}, std::nullopt, [](RequestContext& call) {
                std::string sent;
                for (const auto level :
                     {LoggingLevel::debug, LoggingLevel::info, LoggingLevel::warning, LoggingLevel::emergency}) {
                  sent += call.log(level, {{"n", static_cast<int>(level)}}, "test") ? "L" : "-";
                }
                sent += call.progress(1, 2, "half") ? "P" : "-";
                sent += call.progress(1, 2) ? "P" : "-";
                sent += call.progress(2) ? "P" : "-";
                return ToolResult::text(sent);
              }};
}

Tool rich() {
  return Tool{"rich", "Every content kind", {{"type", "object"}}, std::nullopt, [](RequestContext&) {
                return ToolResult::of({content::text("t"), content::image(base64_encode("png"), "image/png"),
                                       content::audio(base64_encode("wav"), "audio/wav"),
                                       content::embedded_text("test://x", "text/plain", "x"),
                                       content::resource_link("test://y", "y")});
              }};
}

struct Fixture {
  explicit Fixture(std::optional<LogRateLimit> log_rate = LogRateLimit{})
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 1;
    o.log_rate = log_rate;
    o.session.log = [](std::string_view) {};
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"notify-test", "1"}, o);
    server->add_tool(chatty());
    server->add_tool(rich());
    server->start();
  }
  ~Fixture() { server.reset(); }

  // Calls a tool and returns every message up to and including its response.
  std::vector<json> call(const json& id, const std::string& name, const json& meta = nullptr) {
    json params{{"name", name}, {"arguments", json::object()}};
    if (!meta.is_null()) params["_meta"] = meta;
    client.request(id, "tools/call", params);
    std::vector<json> seen;
    for (int i = 0; i < 32; ++i) {
      auto m = client.next();
      REQUIRE(m);
      seen.push_back(*m);
      if (m->contains("id") && (*m)["id"] == id) break;
    }
    return seen;
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
};

std::vector<json> of_method(const std::vector<json>& messages, const std::string& method) {
  std::vector<json> out;
  for (const auto& m : messages) {
    if (m.value("method", "") == method) out.push_back(m["params"]);
  }
  return out;
}

json stateless_meta(const json& extra = json::object()) {
  json meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  meta.update(extra);
  return meta;
}

}  // namespace

TEST_CASE("2025-11-25: every level until logging/setLevel, then only at or above it", "[logging][legacy]") {
  Fixture f;
  const auto init = f.client.initialize(json::object());
  CHECK(init["capabilities"].contains("logging"));

  auto seen = f.call(1, "chatty");
  CHECK(of_method(seen, "notifications/message").size() == 4);
  CHECK(seen.back()["result"]["content"][0]["text"] == "LLLL---");  // no progressToken: no progress

  f.client.request(2, "logging/setLevel", {{"level", "warning"}});
  auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["result"] == json::object());
  seen = f.call(3, "chatty");
  const auto logs = of_method(seen, "notifications/message");
  REQUIRE(logs.size() == 2);
  CHECK(logs[0] == json{{"level", "warning"}, {"logger", "test"}, {"data", {{"n", 3}}}});
  CHECK(logs[1]["level"] == "emergency");
  CHECK(seen.back()["result"]["content"][0]["text"] == "--LL---");

  for (const json& bad : {json{{"level", "loud"}}, json{{"level", 3}}, json::object()}) {
    f.client.request(4, "logging/setLevel", bad);
    r = f.client.next();
    REQUIRE(r);
    CHECK((*r)["error"]["code"] == -32602);
  }
}

TEST_CASE("2025-11-25: progress for the request's progressToken, increasing only", "[progress][legacy]") {
  Fixture f;
  f.client.initialize(json::object());
  for (const json& token : {json("p-1"), json(7)}) {
    const auto seen = f.call(10, "chatty", {{"progressToken", token}});
    const auto progress = of_method(seen, "notifications/progress");
    REQUIRE(progress.size() == 2);
    CHECK(progress[0] == json{{"progressToken", token}, {"progress", 1.0}, {"total", 2.0}, {"message", "half"}});
    CHECK(progress[1] == json{{"progressToken", token}, {"progress", 2.0}});
    CHECK(seen.back()["result"]["content"][0]["text"] == "LLLLP-P");
  }
  // A token that is neither a string nor an integer is no token.
  const auto seen = f.call(11, "chatty", {{"progressToken", json::object()}});
  CHECK(of_method(seen, "notifications/progress").empty());
}

TEST_CASE("2026-07-28: log messages only with _meta logLevel, at or above it, setLevel is not a method",
          "[logging][modern]") {
  Fixture f;
  auto seen = f.call(1, "chatty", stateless_meta());
  CHECK(of_method(seen, "notifications/message").empty());  // "MUST NOT emit" without a level
  CHECK(seen.back()["result"]["content"][0]["text"] == "-------");
  seen = f.call(2, "chatty", stateless_meta({{"io.modelcontextprotocol/logLevel", "info"}, {"progressToken", "t"}}));
  CHECK(of_method(seen, "notifications/message").size() == 3);
  CHECK(of_method(seen, "notifications/progress").size() == 2);
  CHECK(seen.back()["result"]["content"][0]["text"] == "-LLLP-P");
  CHECK(seen.back()["result"]["resultType"] == "complete");

  seen = f.call(3, "chatty", stateless_meta({{"io.modelcontextprotocol/logLevel", "verbose"}}));
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["error"]["code"] == -32602);

  f.client.request(4, "logging/setLevel", {{"level", "info"}, {"_meta", stateless_meta()}});
  const auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["error"]["code"] == -32601);
  f.client.request(5, "server/discover", {{"_meta", stateless_meta()}});
  const auto d = f.client.next();
  REQUIRE(d);
  CHECK((*d)["result"]["capabilities"].contains("logging"));
}

TEST_CASE("a tool result carries every content kind as built", "[content]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto seen = f.call(1, "rich");
  const auto& c = seen.back()["result"]["content"];
  REQUIRE(c.size() == 5);
  CHECK(c[0]["type"] == "text");
  CHECK(c[1] == json{{"type", "image"}, {"data", "cG5n"}, {"mimeType", "image/png"}});
  CHECK(c[2]["type"] == "audio");
  CHECK(c[3]["resource"]["uri"] == "test://x");
  CHECK(c[4]["type"] == "resource_link");
  CHECK_FALSE(seen.back()["result"].contains("isError"));
}

TEST_CASE("log messages are rate limited per connection, in both eras", "[logging]") {
  // 6 at once, no refill: the limit is reached within the test, whatever the machine's speed.
  Fixture f(LogRateLimit{6, 0});
  f.client.initialize(json::object());
  CHECK(f.call(1, "chatty").back()["result"]["content"][0]["text"] == "LLLL---");
  auto seen = f.call(2, "chatty");
  CHECK(of_method(seen, "notifications/message").size() == 2);
  CHECK(seen.back()["result"]["content"][0]["text"] == "LL-----");
  CHECK(f.server->state().logs_dropped() == 2);
  CHECK(f.call(3, "chatty").back()["result"]["content"][0]["text"] == "-------");

  // 2026-07-28 requests on one connection (stdio) share its bucket; over Streamable HTTP each 2026-07-28
  // request is a connection of its own (runtime/src/http/server.cpp).
  Fixture m(LogRateLimit{3, 0});
  const auto debug = stateless_meta({{"io.modelcontextprotocol/logLevel", "debug"}});
  CHECK(m.call(1, "chatty", debug).back()["result"]["content"][0]["text"] == "LLL----");
  CHECK(m.call(2, "chatty", debug).back()["result"]["content"][0]["text"] == "-------");
  // No limit.
  Fixture unlimited(std::nullopt);
  unlimited.client.initialize(json::object());
  for (int id = 1; id <= 3; ++id)
    CHECK(unlimited.call(id, "chatty").back()["result"]["content"][0]["text"] == "LLLL---");
}

}  // namespace call_notifications_test
