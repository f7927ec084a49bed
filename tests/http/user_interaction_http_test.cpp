// The userInteraction dialect over Streamable HTTP (user_interaction.hpp): interaction/create on the
// tools/call stream answered by a separate POST, and interaction/notify bound to its HTTP session.
// Loopback only; every wait is bounded by test_support::kPatience.
#include <catch2/catch.hpp>

#include <elicit/http_server.hpp>
#include <elicit/user_interaction.hpp>

#include "../common/patience.hpp"
#include "github_username.hpp"
#include "http_client.hpp"

using http_test::bhttp::verb;
using nlohmann::json;

namespace {

json request(const json& id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

struct Fixture {
  Fixture() {
    elicit::HttpServerOptions o;
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    o.server.user_interaction.enabled = true;
    server = std::make_unique<elicit::StreamableHttpServer>(
        elicit::ServerInfo{"ui-http", "1"},
        [](elicit::Server& s) {
          s.add_tool({"ask", "asks a username", {{"type", "object"}}, std::nullopt, [](elicit::ToolCall& call) {
                        auto o = call.elicit<samples::GithubUsername>();
                        return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
                      }});
        },
        std::move(o));
    server->start();
  }

  http_test::Connection connect() const { return http_test::Connection(server->port()); }
  static http_test::Headers with_session(const std::string& id) {
    auto h = http_test::kAccept;
    h.emplace_back("Mcp-Session-Id", id);
    return h;
  }
  http_test::Response post(const json& body, const std::string& session) const {
    auto c = connect();
    return c.request(verb::post, "/mcp", with_session(session), body.dump());
  }

  // A session of a client declaring userInteraction only.
  std::string initialize() const {
    auto c = connect();
    c.send(verb::post, "/mcp", http_test::kAccept,
           request(1, "initialize",
                   {{"protocolVersion", "2025-11-25"},
                    {"capabilities", {{"userInteraction", {{"types", {"ua", "prompt"}}, {"progress", true}}}}},
                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
               .dump());
    const auto head = c.read_head();
    REQUIRE(head.status == 200);
    REQUIRE(c.next_message());
    const auto id = head.header("mcp-session-id");
    CHECK(post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, id).status == 202);
    return id;
  }

  std::unique_ptr<elicit::StreamableHttpServer> server;
};

}  // namespace

TEST_CASE("HTTP: a prompt interaction rides the tools/call stream, and notify is bound to its session",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  const auto b = f.initialize();
  auto call = f.connect();
  call.send(verb::post, "/mcp", Fixture::with_session(a), request("call-1", "tools/call", {{"name", "ask"}}).dump());
  REQUIRE(call.read_head().status == 200);
  const auto ask = call.next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "interaction/create");
  CHECK((*ask)["params"]["type"] == "prompt");
  CHECK((*ask)["params"]["interaction"]["schema"]["properties"].contains("name"));
  const auto interaction = (*ask)["params"]["id"].get<std::string>();
  const json notify_params{{"id", interaction}, {"_meta", {{"progressToken", "tok"}}}};

  // Another session naming A's interaction: the request is never answered; its stream just ends.
  {
    auto other = f.connect();
    other.send(verb::post, "/mcp", Fixture::with_session(b),
               request("n-b", "interaction/notify", notify_params).dump());
    const auto head = other.read_head();
    if (head.status != 0) {
      CHECK(head.status == 200);
      CHECK_FALSE(other.next_message());
    }
  }

  // The session that owns it: progress on the notify's stream now, the answer when it ends.
  auto watch = f.connect();
  watch.send(verb::post, "/mcp", Fixture::with_session(a), request("n-a", "interaction/notify", notify_params).dump());
  REQUIRE(watch.read_head().status == 200);
  const auto progress = watch.next_message();
  REQUIRE(progress);
  CHECK((*progress)["method"] == "notifications/progress");
  CHECK((*progress)["params"]["progressToken"] == "tok");

  const json answer{{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"result", {{"content", {{"name", "octocat"}}}}}};
  CHECK(f.post(answer, a).status == 202);
  const auto ended = watch.next_message();
  REQUIRE(ended);
  CHECK((*ended)["id"] == "n-a");
  CHECK((*ended)["result"] == json::object());
  const auto done = call.next_message();
  REQUIRE(done);
  CHECK((*done)["id"] == "call-1");
  CHECK((*done)["result"]["content"][0]["text"] == "octocat");
}
