// The userInteraction dialect over Streamable HTTP (user_interaction.hpp): interaction/create on the
// tools/call stream answered by a separate POST, and interaction/notify bound to its HTTP session.
// Loopback only; every wait is bounded by test_support::kPatience.
#include <catch2/catch.hpp>

#include <elicit/http/server.hpp>
#include <elicit/protocol/user_interaction.hpp>

#include "../support/http_client.hpp"
#include "../support/interaction_tools.hpp"
#include "../support/patience.hpp"
#include "github_username.hpp"

namespace user_interaction_http_test {

using http_test::bhttp::verb;
using nlohmann::json;

namespace {

json request(const json& id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

struct Fixture {
  Fixture() {
    elicit::http::HttpServerOptions o;
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    o.server.user_interaction.enabled = true;
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"ui-http", "1"},
        [](elicit::Server& s) {
          s.add_tool({"ask", "asks a username", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext& call) {
                        auto o = call.elicit<samples::GithubUsername>();
                        return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
                      }});
          interaction_test::add_tools(s);
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

  // Calls tool `name` on its own connection; the head must be 200 (the answer, or a stream).
  std::unique_ptr<http_test::Connection> call(const std::string& session, const json& id, const std::string& name,
                                              const json& arguments = json::object()) const {
    auto c = std::make_unique<http_test::Connection>(server->port());
    c->send(verb::post, "/mcp", with_session(session),
            request(id, "tools/call", {{"name", name}, {"arguments", arguments}}).dump());
    head = c->read_head();
    return c;
  }
  // The first message of a response whose head was read: the body when it is JSON, else the
  // stream's first event.
  std::optional<json> first_message(http_test::Connection& c) const {
    if (head.header("content-type").rfind("application/json", 0) == 0) return json::parse(c.read_body());
    return c.next_message();
  }
  // Opens an interaction/notify for `interaction` in `session` and returns its connection once
  // the first progress arrived on it.
  std::unique_ptr<http_test::Connection> watch(const std::string& session, const std::string& interaction,
                                               const json& id) const {
    auto c = std::make_unique<http_test::Connection>(server->port());
    c->send(verb::post, "/mcp", with_session(session),
            request(id, "interaction/notify", {{"id", interaction}, {"_meta", {{"progressToken", id}}}}).dump());
    CHECK(c->read_head().status == 200);
    const auto first = c->next_message();
    CHECK((first && (*first)["method"] == "notifications/progress"));
    return c;
  }
  // Answers server request `id` in `session` with a result or an error.
  void answer(const std::string& session, const json& id, const json& result) const {
    CHECK(post({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}, session).status == 202);
  }
  void refuse(const std::string& session, const json& id, int code) const {
    CHECK(post({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", "no"}}}}, session).status ==
          202);
  }

  std::unique_ptr<elicit::http::StreamableHttpServer> server;
  mutable http_test::Response head;
};

// The next message on a watcher's stream is the answer `{}` to interaction/notify `id`: the
// interaction has ended.
void check_ended(http_test::Connection& watch, const json& id) {
  const auto ended = watch.next_message();
  REQUIRE(ended);
  CHECK((*ended)["id"] == id);
  CHECK((*ended)["result"] == json::object());
}

std::string text_of(const std::optional<json>& m) {
  if (!m || !m->contains("result")) return m ? m->dump() : "(nothing)";
  return (*m)["result"]["content"][0]["text"].get<std::string>();
}

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
  check_ended(watch, "n-a");
  const auto done = call.next_message();
  REQUIRE(done);
  CHECK((*done)["id"] == "call-1");
  CHECK((*done)["result"]["content"][0]["text"] == "octocat");
}

TEST_CASE("HTTP: a ua interaction, consent on its own POST, then the application completes it",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  const auto b = f.initialize();
  auto call = f.call(a, "c1", "open");
  REQUIRE(f.head.status == 200);
  const auto ask = call->next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "interaction/create");
  CHECK((*ask)["params"]["type"] == "ua");
  CHECK((*ask)["params"]["interaction"]["url"] == "https://auth.example.com/start?x=1");
  const auto interaction = (*ask)["params"]["id"].get<std::string>();
  f.answer(a, (*ask)["id"], json::object());
  CHECK(text_of(call->next_message()) == "accepted " + interaction);

  auto watch = f.watch(a, interaction, "w1");
  // Another session cannot complete A's interaction: the id is not its own.
  auto other = f.call(b, "c2", "finish", {{"id", interaction}});
  CHECK(text_of(f.first_message(*other)) == "0 unknown");
  // A can: progress, then the end, on the notify's stream.
  auto finish = f.call(a, "c3", "finish", {{"id", interaction}});
  CHECK(text_of(f.first_message(*finish)) == "1 ended");
  const auto progress = watch->next_message();
  REQUIRE(progress);
  CHECK((*progress)["params"] ==
        json{{"progressToken", "w1"}, {"progress", 50}, {"total", 100}, {"message", "half way"}});
  check_ended(*watch, "w1");
}

TEST_CASE("HTTP: UrlElicitationRequired is -32003 with an interaction of this session only",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  const auto b = f.initialize();
  auto call = f.call(a, "c1", "needs_auth");
  REQUIRE(f.head.status == 200);
  const auto r = f.first_message(*call);
  REQUIRE(r);
  REQUIRE(r->contains("error"));
  CHECK((*r)["id"] == "c1");
  CHECK((*r)["error"]["code"] == -32003);
  CHECK((*r)["error"]["message"] == "interaction_required");
  const auto& d = (*r)["error"]["data"];
  CHECK(d["type"] == "ua");
  CHECK(d["url"] == "https://mcp.example.com/connect");
  CHECK(d["message"] == json{{"type", "text"}, {"text", "Authorization is required"}});
  const auto interaction = d["id"].get<std::string>();
  // B naming it gets no answer; A watches it until the application completes it.
  {
    auto other = f.connect();
    other.send(verb::post, "/mcp", Fixture::with_session(b),
               request("n-b", "interaction/notify", {{"id", interaction}, {"_meta", {{"progressToken", 1}}}}).dump());
    const auto head = other.read_head();
    if (head.status != 0) CHECK_FALSE(other.next_message());
  }
  auto watch = f.watch(a, interaction, "w1");
  auto finish = f.call(a, "c2", "finish", {{"id", interaction}});
  CHECK(text_of(f.first_message(*finish)) == "1 ended");
  CHECK(watch->next_message().value_or(json())["method"] == "notifications/progress");
  check_ended(*watch, "w1");
}

TEST_CASE("HTTP: the client's error response to interaction/create is declined, cancelled or rpc_error",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  const std::vector<std::pair<int, std::string>> cases{{-1, "declined"}, {-2, "cancelled"}, {-32601, "rpc_error"}};
  for (const auto& [code, status] : cases) {
    auto call = f.call(a, "c" + std::to_string(-code), "ask");
    REQUIRE(f.head.status == 200);
    const auto ask = call->next_message();
    REQUIRE(ask);
    REQUIRE((*ask)["method"] == "interaction/create");
    f.refuse(a, (*ask)["id"], code);
    CHECK(text_of(call->next_message()) == status);
  }
}

TEST_CASE("HTTP: a cancelled tools/call withdraws its interaction, and the interaction's watcher is answered",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  auto get = f.connect();
  get.send(verb::get, "/mcp", Fixture::with_session(a));
  REQUIRE(get.read_head().status == 200);
  auto call = f.call(a, 7, "ask");
  REQUIRE(f.head.status == 200);
  const auto ask = call->next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "interaction/create");
  auto watch = f.watch(a, (*ask)["params"]["id"].get<std::string>(), "w1");
  CHECK(f.post({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}}, a).status ==
        202);
  // The server's cancellation: notifications/cancelled for the interaction/create, on the
  // session's stream; the call's stream ends without a response; the interaction has ended.
  const auto withdrawn = get.next_message();
  REQUIRE(withdrawn);
  CHECK((*withdrawn)["method"] == "notifications/cancelled");
  CHECK((*withdrawn)["params"]["requestId"] == (*ask)["id"]);
  CHECK_FALSE(call->next_message());
  check_ended(*watch, "w1");
}

TEST_CASE("HTTP: an untyped elicitation/create from request_inputs is a prompt on the call's stream",
          "[http][user_interaction]") {
  Fixture f;
  const auto a = f.initialize();
  const json schema{{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}};
  auto call = f.call(a, "c1", "raw", {{"params", {{"message", "How many?"}, {"requestedSchema", schema}}}});
  REQUIRE(f.head.status == 200);
  const auto ask = call->next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "interaction/create");
  CHECK((*ask)["params"]["type"] == "prompt");
  CHECK((*ask)["params"]["interaction"]["schema"] == schema);
  f.answer(a, (*ask)["id"], {{"content", {{"n", 3}}}});
  CHECK(json::parse(text_of(call->next_message())) == json{{"action", "accept"}, {"content", {{"n", 3}}}});
}

}  // namespace user_interaction_http_test
