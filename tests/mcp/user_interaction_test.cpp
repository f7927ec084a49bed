// The userInteraction dialect (user_interaction.hpp; user-interaction-draft.md) served by a ServerSession
// over the in-memory transport, against a hand-driven client: which dialect a session gets, the
// interaction/create shapes, how answers and errors read, -32003, cancellation, interaction/notify.
#include <catch2/catch.hpp>

#include <set>

#include "../support/interaction_fixture.hpp"

namespace user_interaction_test {

using namespace elicit;
using nlohmann::json;

using interaction_test::Fixture;
using interaction_test::Wire;
const json kPrompt = interaction_test::kBothTypes;

TEST_CASE("which dialect a session gets", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  SECTION("userInteraction only: the dialect, and progress declared") {
    Fixture f(wire);
    const auto r = f.client.initialize(kPrompt);
    CHECK(f.server->state().dialect() == ElicitDialect::user_interaction);
    CHECK(r["capabilities"].contains("progress"));
  }
  SECTION("both declared: standard elicitation") {
    Fixture f(wire);
    auto caps = kPrompt;
    caps["elicitation"] = json::object();
    const auto r = f.client.initialize(caps);
    CHECK(f.server->state().dialect() == ElicitDialect::elicitation);
    CHECK_FALSE(r["capabilities"].contains("progress"));
    const auto request = f.call_and_take_request(1, "ask");
    CHECK(request["method"] == "elicitation/create");
  }
  SECTION("the dialect off: a userInteraction-only client cannot be asked") {
    Fixture f(wire, false);
    f.client.initialize(kPrompt);
    CHECK(f.server->state().dialect() == ElicitDialect::elicitation);
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
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
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
  // Content T refuses is asked again with the reason, as in every revision (issue 26, item 3); the
  // second answer counts.
  const auto asked_again = [&](const json& answer, const std::string& reason) {
    f.client.respond(request["id"], answer);
    const auto again = f.client.next();
    REQUIRE(again);
    REQUIRE((*again)["method"] == "interaction/create");
    const std::string text = (*again)["params"]["interaction"]["message"]["text"];
    CHECK(text.rfind("Who are you?\n\nThe previous answer was not accepted: ", 0) == 0);
    CHECK_THAT(text, Catch::Contains(reason));
    f.client.respond((*again)["id"], {{"content", {{"name", "Ann"}, {"email", "ann@example.com"}}}});
    CHECK(f.result_text() == "hello Ann");
  };
  SECTION("content that fails validation is asked again") {
    asked_again({{"content", {{"name", "Monalisa"}, {"email", "not an email"}}}}, "email: ");
  }
  SECTION("content that is not an object is asked again") { asked_again({{"content", "Monalisa"}}, "content"); }
  SECTION("a result that is not an object is asked again") { asked_again(json::array(), "result"); }
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
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
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
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
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
    CHECK(complete_url_elicitation(f.server->state(), p["id"].get<std::string>()));
    f.client.request(9, "ping");
    CHECK(f.client.next().value_or(json())["id"] == 9);
  }
  SECTION("declined") {
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -1}, {"message", "no"}}}});
    CHECK(f.result_text().rfind("declined", 0) == 0);
  }
}

TEST_CASE("a client that lists only ua cannot be asked a form, and the reverse", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  f.client.initialize({{"userInteraction", {{"types", {"prompt"}}}}});
  f.client.request(1, "tools/call", {{"name", "open"}});
  CHECK(f.result_text().rfind("unsupported", 0) == 0);
  Fixture g(wire);
  g.client.initialize({{"userInteraction", {{"types", {"ua"}}}}});
  g.client.request(1, "tools/call", {{"name", "ask"}});
  CHECK(g.result_text().rfind("no: unsupported", 0) == 0);
}

TEST_CASE("UrlElicitationRequired is -32003 interaction_required with one ua interaction", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
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
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
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

TEST_CASE("an untyped elicitation/create from request_inputs goes as interaction/create", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  f.client.initialize(kPrompt);
  const json schema{{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}, {"required", {"name"}}};
  SECTION("form mode is a prompt with the requestedSchema, and the answer reads as an ElicitResult") {
    const json params{{"message", "Your name?"}, {"requestedSchema", schema}, {"_meta", {{"trace", "t-1"}}}};
    const auto request = f.call_and_take_request(1, "raw", {{"params", params}});
    REQUIRE(request["method"] == "interaction/create");
    const auto& p = request["params"];
    CHECK(p["type"] == "prompt");
    CHECK(p["id"].get<std::string>().size() == 32);
    CHECK(p["interaction"] == json{{"message", {{"type", "text"}, {"text", "Your name?"}}}, {"schema", schema}});
    CHECK(p["_meta"] == json{{"trace", "t-1"}});
    f.client.respond(request["id"], {{"content", {{"name", "Ada"}}}});
    CHECK(json::parse(f.result_text()) == json{{"action", "accept"}, {"content", {{"name", "Ada"}}}});
  }
  SECTION("the client's -1 reads as decline") {
    const auto request =
        f.call_and_take_request(1, "raw", {{"params", {{"message", "Your name?"}, {"requestedSchema", schema}}}});
    REQUIRE(request["method"] == "interaction/create");
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -1}, {"message", "no"}}}});
    CHECK(json::parse(f.result_text()) == json{{"action", "decline"}});
  }
  SECTION("URL mode is ua under the elicitationId, and complete_url_elicitation ends it") {
    const json params{
        {"mode", "url"}, {"message", "Sign in"}, {"url", "https://auth.example.com/x"}, {"elicitationId", "e-1"}};
    const auto request = f.call_and_take_request(1, "raw", {{"params", params}});
    REQUIRE(request["method"] == "interaction/create");
    CHECK(request["params"] ==
          json{{"id", "e-1"},
               {"type", "ua"},
               {"interaction",
                {{"url", "https://auth.example.com/x"}, {"message", {{"type", "text"}, {"text", "Sign in"}}}}}});
    f.client.respond(request["id"], json::object());
    CHECK(json::parse(f.result_text()) == json{{"action", "accept"}});
    f.notify_request("n1", interaction_test::notify_params("e-1"));
    CHECK(f.next()["method"] == "notifications/progress");
    f.client.request(2, "tools/call", {{"name", "finish"}, {"arguments", {{"id", "e-1"}}}});
    CHECK(f.next()["method"] == "notifications/progress");  // the 50 of 100
    CHECK(f.next()["id"] == "n1");                          // the interaction ended
    CHECK(f.result_text() == "1 ended");
  }
  SECTION("params the dialect cannot carry are a tool error, and nothing is sent") {
    f.client.request(1, "tools/call", {{"name", "raw"}, {"arguments", {{"params", {{"message", "Your name?"}}}}}});
    const auto r = f.next();
    REQUIRE(r["id"] == 1);
    CHECK(r["result"]["isError"] == true);
    CHECK(r["result"]["content"][0]["text"].get<std::string>().find("requestedSchema") != std::string::npos);
  }
}

TEST_CASE("request_inputs in the dialect needs the interaction type, and -32021 names it", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  f.client.initialize({{"userInteraction", {{"types", {"ua"}}}}});
  f.client.request(
      1, "tools/call",
      {{"name", "raw"}, {"arguments", {{"params", {{"message", "?"}, {"requestedSchema", json::object()}}}}}});
  const auto r = f.next();
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["code"] == -32021);
  CHECK(r["error"]["data"]["requiredCapabilities"] == json{{"userInteraction", {{"types", {"prompt"}}}}});
}

TEST_CASE("an untyped URL elicitation is the session's in standard elicitation too", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  // request_inputs registers the elicitationId, so complete_url_elicitation announces it.
  Fixture f(wire);
  f.client.initialize({{"elicitation", {{"url", json::object()}}}});
  const json params{
      {"mode", "url"}, {"message", "Sign in"}, {"url", "https://auth.example.com/x"}, {"elicitationId", "e-2"}};
  const auto request = f.call_and_take_request(1, "raw", {{"params", params}});
  REQUIRE(request["method"] == "elicitation/create");
  f.client.respond(request["id"], {{"action", "accept"}});
  CHECK(json::parse(f.result_text()) == json{{"action", "accept"}});
  f.client.request(2, "tools/call", {{"name", "finish"}, {"arguments", {{"id", "e-2"}}}});
  const auto complete = f.next();
  CHECK(complete["method"] == "notifications/elicitation/complete");
  CHECK(complete["params"]["elicitationId"] == "e-2");
  CHECK(f.result_text() == "0 ended");
}

TEST_CASE("an untyped elicitation/create whose mode is not a string", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  const json params{{"mode", 5}, {"message", "?"}, {"requestedSchema", {{"type", "object"}}}};
  SECTION("goes to a standard client as it is: refusing it is the client's part") {
    Fixture f(wire);
    f.client.initialize({{"elicitation", json::object()}});
    const auto request = f.call_and_take_request(1, "raw", {{"params", params}});
    REQUIRE(request["method"] == "elicitation/create");
    CHECK(request["params"]["mode"] == 5);
    f.client.send({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", -32602}, {"message", "bad mode"}}}});
    CHECK(f.result_text() == "error -32602");
  }
  SECTION("cannot go as an interaction: a tool error, and nothing sent") {
    Fixture f(wire);
    f.client.initialize(kPrompt);
    f.client.request(1, "tools/call", {{"name", "raw"}, {"arguments", {{"params", params}}}});
    const auto r = f.next();
    REQUIRE(r["id"] == 1);
    CHECK(r["result"]["isError"] == true);
    CHECK(r["result"]["content"][0]["text"].get<std::string>().find("params.mode") != std::string::npos);
  }
}

}  // namespace user_interaction_test
