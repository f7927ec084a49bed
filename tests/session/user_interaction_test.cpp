// The userInteraction dialect (user_interaction.hpp; user-interaction-draft.md) served by a Server
// over the in-memory transport, against a hand-driven client: which dialect a session gets, the
// interaction/create shapes, how answers and errors read, -32003, cancellation, interaction/notify.
#include <catch2/catch.hpp>

#include <set>

#include <elicit/server.hpp>
#include <elicit/user_interaction.hpp>

#include "contact_information.hpp"
#include "fake_client.hpp"

using namespace elicit;
using nlohmann::json;

namespace {

const json kPrompt = {{"userInteraction", {{"types", {"ua", "prompt"}}, {"progress", true}}}};

struct Fixture {
  explicit Fixture(bool enabled = true, bool progress = true)
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerOptions o;
    o.worker_threads = 2;
    o.session.log = [](std::string_view) {};
    o.user_interaction.enabled = enabled;
    o.user_interaction.progress = progress;
    server = std::make_unique<Server>(*ends.first, ServerInfo{"ui-server", "1"}, o);
    server->add_tool(Tool{"ask",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](ToolCall& call) {
                            auto o = call.elicit<samples::ContactInformation>("Who are you?");
                            if (!o)
                              return ToolResult::text("no: " + std::string(to_string(o.status)) + " " + o.problem);
                            return ToolResult::text("hello " + o.value->name);
                          },
                          nullptr});
    server->add_tool(Tool{"open",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](ToolCall& call) {
                            auto o = call.elicit_url("Sign in", "https://auth.example.com/start?x=1");
                            return ToolResult::text(std::string(to_string(o.status)) + " " + o.elicitation_id);
                          },
                          nullptr});
    server->add_tool(Tool{"needs_auth",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](ToolCall& call) -> ToolResult {
                            throw UrlElicitationRequired({create_url_elicitation(
                                call.session(), "Authorization is required", "https://mcp.example.com/connect")});
                          },
                          nullptr});
    server->start();
  }
  ~Fixture() { server.reset(); }

  // Calls tool `name` as request `id` and returns the interaction/create it makes.
  json call_and_take_request(int id, const std::string& name) {
    client.request(id, "tools/call", {{"name", name}});
    return client.next().value_or(json());
  }
  // The tools/call result's text.
  std::string result_text() {
    const auto r = client.next().value_or(json());
    return r.contains("result") ? r["result"]["content"][0]["text"].get<std::string>() : r.dump();
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<Server> server;
};

}  // namespace

TEST_CASE("which dialect a session gets", "[user_interaction]") {
  SECTION("userInteraction only: the dialect, and progress declared") {
    Fixture f;
    const auto r = f.client.initialize(kPrompt);
    CHECK(f.server->session().dialect() == ElicitDialect::user_interaction);
    CHECK(r["capabilities"].contains("progress"));
  }
  SECTION("both declared: standard elicitation") {
    Fixture f;
    auto caps = kPrompt;
    caps["elicitation"] = json::object();
    const auto r = f.client.initialize(caps);
    CHECK(f.server->session().dialect() == ElicitDialect::elicitation);
    CHECK_FALSE(r["capabilities"].contains("progress"));
    const auto request = f.call_and_take_request(1, "ask");
    CHECK(request["method"] == "elicitation/create");
  }
  SECTION("the dialect off: a userInteraction-only client cannot be asked") {
    Fixture f(false);
    f.client.initialize(kPrompt);
    CHECK(f.server->session().dialect() == ElicitDialect::elicitation);
    f.client.request(1, "tools/call", {{"name", "ask"}});
    CHECK(f.result_text().rfind("no: unsupported", 0) == 0);
  }
  SECTION("a types list that is empty or not strings declares nothing") {
    for (const auto& types : {json::array(), json{1, "prompt"}, json("prompt")}) {
      const auto c = ClientCapabilities::from_json({{"userInteraction", {{"types", types}}}});
      CHECK_FALSE(c.user_interaction);
      CHECK_FALSE(c.interaction_prompt);
    }
  }
}

TEST_CASE("a form question is interaction/create type prompt with the type's schema", "[user_interaction]") {
  Fixture f;
  f.client.initialize(kPrompt);
  const auto request = f.call_and_take_request(1, "ask");
  REQUIRE(request["method"] == "interaction/create");
  const auto& p = request["params"];
  CHECK(p["type"] == "prompt");
  CHECK(p["id"].get<std::string>().size() == 32);
  CHECK(p["interaction"]["message"] == json{{"type", "text"}, {"text", "Who are you?"}});
  CHECK(p["interaction"]["schema"] == json(requested_schema<samples::ContactInformation>()));
  CHECK_FALSE(p.contains("mode"));

  SECTION("content is decoded into T") {
    f.client.respond(request["id"], {{"content", {{"name", "Monalisa"}, {"email", "m@example.com"}, {"age", 30}}}});
    CHECK(f.result_text() == "hello Monalisa");
  }
  SECTION("content that fails validation is invalid_response") {
    f.client.respond(request["id"], {{"content", {{"name", "Monalisa"}, {"email", "not an email"}}}});
    CHECK(f.result_text().rfind("no: invalid_response", 0) == 0);
  }
  SECTION("content that is not an object is invalid_response") {
    f.client.respond(request["id"], {{"content", "Monalisa"}});
    CHECK(f.result_text().rfind("no: invalid_response", 0) == 0);
  }
  SECTION("a result that is not an object is invalid_response") {
    f.client.respond(request["id"], json::array());
    CHECK(f.result_text().rfind("no: invalid_response", 0) == 0);
  }
  SECTION("the draft's error -1 is declined") {
    f.client.send({{"jsonrpc", "2.0"},
                   {"id", request["id"]},
                   {"error", {{"code", -1}, {"message", "User did not consent to the interaction"}}}});
    CHECK(f.result_text().rfind("no: declined", 0) == 0);
  }
  SECTION("another application error code is cancelled") {
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -2}, {"message", "dismissed"}}}});
    CHECK(f.result_text().rfind("no: cancelled", 0) == 0);
  }
  SECTION("a JSON-RPC reserved code is rpc_error") {
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -32601}, {"message", "no"}}}});
    CHECK(f.result_text().rfind("no: rpc_error", 0) == 0);
  }
}

TEST_CASE("interaction ids are 128-bit hex and unique across concurrent interactions", "[user_interaction]") {
  Fixture f;
  f.client.initialize(kPrompt);
  std::set<std::string> ids;
  for (int i = 1; i <= 2; ++i) {
    const auto request = f.call_and_take_request(i, "ask");
    REQUIRE(request["method"] == "interaction/create");
    const auto id = request["params"]["id"].get<std::string>();
    CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    ids.insert(id);
  }
  CHECK(ids.size() == 2);  // both are open at once (two workers)
}

TEST_CASE("URL mode is interaction/create type ua, and the answer {} is consent", "[user_interaction]") {
  Fixture f;
  f.client.initialize(kPrompt);
  const auto request = f.call_and_take_request(1, "open");
  REQUIRE(request["method"] == "interaction/create");
  const auto& p = request["params"];
  CHECK(p["type"] == "ua");
  CHECK(p["interaction"]["url"] == "https://auth.example.com/start?x=1");
  CHECK(p["interaction"]["message"] == json{{"type", "text"}, {"text", "Sign in"}});
  SECTION("accepted, with the interaction id as elicitationId") {
    f.client.respond(request["id"], json::object());
    CHECK(f.result_text() == "accepted " + p["id"].get<std::string>());
    // No notifications/elicitation/complete in the dialect: the client never heard of it.
    CHECK(complete_url_elicitation(f.server->session(), p["id"].get<std::string>()));
    f.client.request(9, "ping");
    CHECK(f.client.next().value_or(json())["id"] == 9);
  }
  SECTION("declined") {
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -1}, {"message", "no"}}}});
    CHECK(f.result_text().rfind("declined", 0) == 0);
  }
}

TEST_CASE("a client that lists only ua cannot be asked a form, and the reverse", "[user_interaction]") {
  Fixture f;
  f.client.initialize({{"userInteraction", {{"types", {"prompt"}}}}});
  f.client.request(1, "tools/call", {{"name", "open"}});
  CHECK(f.result_text().rfind("unsupported", 0) == 0);
  Fixture g;
  g.client.initialize({{"userInteraction", {{"types", {"ua"}}}}});
  g.client.request(1, "tools/call", {{"name", "ask"}});
  CHECK(g.result_text().rfind("no: unsupported", 0) == 0);
}

TEST_CASE("UrlElicitationRequired is -32003 interaction_required with one ua interaction", "[user_interaction]") {
  Fixture f;
  f.client.initialize(kPrompt);
  f.client.request(1, "tools/call", {{"name", "needs_auth"}});
  const auto r = f.client.next().value_or(json());
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["code"] == -32003);
  CHECK(r["error"]["message"] == "interaction_required");
  const auto& d = r["error"]["data"];
  CHECK(d["type"] == "ua");
  CHECK(d["url"] == "https://mcp.example.com/connect");
  CHECK(d["message"] == json{{"type", "text"}, {"text", "Authorization is required"}});
  CHECK(d["id"].get<std::string>().size() == 32);
  const auto parsed = parse_interaction_required(RpcError{r["error"]["code"], "interaction_required", d});
  REQUIRE(parsed);
  CHECK(parsed->id == d["id"]);
  CHECK(parsed->url == "https://mcp.example.com/connect");
}

TEST_CASE("the server's cancellation of an interaction is notifications/cancelled", "[user_interaction]") {
  Fixture f;
  f.client.initialize(kPrompt);
  const auto request = f.call_and_take_request(1, "ask");
  REQUIRE(request["method"] == "interaction/create");
  // The client cancels the tools/call: the interaction made for it is cancelled in turn.
  f.client.notify("notifications/cancelled", {{"requestId", 1}});
  const auto n = f.client.next().value_or(json());
  CHECK(n["method"] == "notifications/cancelled");
  CHECK(n["params"]["requestId"] == request["id"]);
}

TEST_CASE("parse_interaction reads the draft's shapes and refuses others", "[user_interaction]") {
  using oj = nlohmann::ordered_json;
  const auto ua = parse_interaction(oj{{"id", "a"}, {"type", "ua"}, {"interaction", {{"url", "https://x.example"}}}});
  REQUIRE(ua);
  CHECK(ua->url == "https://x.example");
  CHECK(ua->message.empty());
  std::string why;
  CHECK_FALSE(parse_interaction(oj{{"id", "a"}, {"type", "ua"}, {"interaction", oj::object()}}, &why));
  CHECK(why == "interaction.url must be a string");
  CHECK_FALSE(parse_interaction(
      oj{{"id", "a"}, {"type", "prompt"}, {"interaction", {{"schema", {{"type", "object"}}}}}}, &why));
  CHECK_FALSE(parse_interaction(oj{{"id", "a"},
                                   {"type", "prompt"},
                                   {"interaction", {{"message", "plain string"}, {"schema", {{"type", "object"}}}}}},
                                &why));
  CHECK(why == "interaction.message must be a TextContent");
  CHECK_FALSE(parse_interaction(oj{{"id", 1}, {"type", "ua"}, {"interaction", {{"url", "u"}}}}, &why));
  CHECK_FALSE(parse_interaction(oj{{"id", "a"}, {"type", "video"}, {"interaction", oj::object()}}, &why));
  CHECK_FALSE(parse_interaction(oj::array(), &why));
}
