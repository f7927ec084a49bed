// The 2026-07-28 era (MCP 2026-07-28) on the Server: per-request era and metadata, server/discover,
// and tools that elicit answering input-required results, replayed on each retry, with the
// answers carried in a sealed requestState. The same tools serve the 2025-11-25 era (server_test.cpp).
#include <catch2/catch.hpp>

#include <elicit/completion_store.hpp>
#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "contact_information.hpp"
#include "github_username.hpp"

namespace modern_server_test {

using namespace elicit;
using nlohmann::json;

namespace {

json stateless_meta(const json& caps = {{"elicitation", {{"form", json::object()}}}}) {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", caps},
          {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1"}}}};
}

Tool blocking_contact() {
  return Tool{"contact",
              "Asks for contact details",
              {{"type", "object"}},
              std::nullopt,
              [](RequestContext& call) {
                auto o = call.elicit<samples::ContactInformation>();
                if (!o) return ToolResult::text(std::string("no: ") + std::string(to_string(o.status)));
                return ToolResult::text("hello " + o.value->name + " <" + o.value->email + ">");
              },
              nullptr};
}

Tool async_contact() {
  return Tool{"contact_async",
              "Asks for contact details",
              {{"type", "object"}},
              std::nullopt,
              nullptr,
              [](std::shared_ptr<RequestContext> call) {
                call->elicit_async<samples::ContactInformation>([call](Outcome<samples::ContactInformation> o) {
                  if (!o) {
                    call->reply(ToolResult::text(std::string("no: ") + std::string(to_string(o.status))));
                    return;
                  }
                  call->reply(ToolResult::text("hello " + o.value->name + " <" + o.value->email + ">"));
                });
              }};
}

// Two rounds: a GitHub name first, then contact details that mention it.
Tool two_rounds() {
  return Tool{"two_rounds",
              "Asks twice",
              {{"type", "object"}},
              std::nullopt,
              [](RequestContext& call) {
                auto g = call.elicit_keyed<samples::GithubUsername>("github", "Your GitHub name?");
                if (!g) return ToolResult::text("no github");
                auto c = call.elicit<samples::ContactInformation>("Contact for " + g.value->name + "?");
                if (!c) return ToolResult::text("no contact");
                return ToolResult::text(g.value->name + "/" + c.value->name);
              },
              nullptr};
}

// Both questions in one round.
Tool both_at_once() {
  return Tool{"both",
              "Asks two things at once",
              {{"type", "object"}},
              std::nullopt,
              [](RequestContext& call) {
                auto [g, c] = call.elicit_all(ask<samples::GithubUsername>("GitHub?", "gh"),
                                              ask<samples::ContactInformation>("Contact?", "contact"));
                return ToolResult::text(std::string(to_string(g.status)) + "," + std::string(to_string(c.status)) +
                                        (g && c ? ":" + g.value->name + "/" + c.value->name : ""));
              },
              nullptr};
}

struct Stateless {
  explicit Stateless(std::shared_ptr<Server> core = nullptr)
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 2;
    o.session.log = [](std::string_view) {};
    if (!core) {
      core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0", std::nullopt, "Ask away."});
      core->add_tool(blocking_contact());
      core->add_tool(async_contact());
      core->add_tool(two_rounds());
      core->add_tool(both_at_once());
    }
    server = std::make_unique<ServerSession>(*ends.first, std::move(core), o);
    server->start();
  }
  ~Stateless() { server.reset(); }

  // Sends a request and returns the response message.
  json call(const std::string& method, json params) {
    const auto id = next_id++;
    client.request(id, method, params);
    auto m = client.next();
    REQUIRE(m);
    CHECK((*m)["id"] == id);
    return *m;
  }
  json call_tool(const std::string& name, json extra = json::object(), const json& meta = stateless_meta()) {
    json params{{"name", name}, {"arguments", json::object()}, {"_meta", meta}};
    params.update(extra);
    return call("tools/call", params);
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  int next_id = 1;
};

json accept(json content) { return {{"action", "accept"}, {"content", std::move(content)}}; }
std::string text_of(const json& m) { return m["result"]["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("2026-07-28: server/discover names both eras, the capabilities and the server", "[modern]") {
  Stateless m;
  const auto r = m.call("server/discover", {{"_meta", stateless_meta()}})["result"];
  CHECK(r["resultType"] == "complete");
  CHECK(r["supportedVersions"] == json::array({"2026-07-28", "2025-11-25", "2025-06-18"}));
  CHECK(r["capabilities"].contains("tools"));
  CHECK(r["instructions"] == "Ask away.");
  CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"] == json{{"name", "modern-server"}, {"version", "2.0.0"}});
  CHECK(r["ttlMs"].is_number_integer());
  CHECK(r["cacheScope"] == "private");
}

TEST_CASE("2026-07-28: an unknown version is -32022 with the supported ones, no capabilities is -32602", "[modern]") {
  Stateless m;
  auto meta = stateless_meta();
  meta["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
  auto e = m.call("tools/list", {{"_meta", meta}})["error"];
  CHECK(e["code"] == -32022);
  CHECK(e["data"]["requested"] == "1900-01-01");
  CHECK(e["data"]["supported"][0] == "2026-07-28");

  meta["io.modelcontextprotocol/protocolVersion"] = 2026;
  e = m.call("tools/list", {{"_meta", meta}})["error"];
  CHECK(e["code"] == -32022);
  CHECK(e["data"]["requested"] == 2026);

  meta = stateless_meta();
  meta.erase("io.modelcontextprotocol/clientCapabilities");
  e = m.call("tools/list", {{"_meta", meta}})["error"];
  CHECK(e["code"] == -32602);
}

TEST_CASE("the method table: a method of the other era is -32601 with its note, and the connection goes on",
          "[modern][table]") {
  Stateless m;
  // 2026-07-28 has no initialize: a request that names 2026-07-28 opens no session.
  auto e = m.call("initialize", {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "c"}, {"version", "1"}}},
                                 {"_meta", stateless_meta()}})["error"];
  CHECK(e["code"] == -32601);
  CHECK(e["message"] == "Method not found: initialize");
  e = m.call("logging/setLevel", {{"level", "info"}, {"_meta", stateless_meta()}})["error"];
  CHECK(e["code"] == -32601);
  CHECK(e["message"].get<std::string>().find("set _meta io.modelcontextprotocol/logLevel per request") !=
        std::string::npos);
  e = m.call("no/such/method", {{"_meta", stateless_meta()}})["error"];
  CHECK(e["code"] == -32601);
  CHECK(e["message"] == "Method not found: no/such/method");
  // Still no session: a 2026-07-28 request is served.
  CHECK(m.call("tools/list", {{"_meta", stateless_meta()}})["result"]["resultType"] == "complete");
  // Once initialized, 2026-07-28-only methods are not there, whatever _meta says.
  m.client.initialize({{"elicitation", json::object()}});
  e = m.call("subscriptions/listen", {{"_meta", stateless_meta()}})["error"];
  CHECK(e["code"] == -32601);
  CHECK(e["message"] == "Method not found: subscriptions/listen (MCP 2026-07-28 only)");
  e = m.call("server/discover", {{"_meta", stateless_meta()}})["error"];
  CHECK(e["code"] == -32601);
}

TEST_CASE("2026-07-28: tools/list carries resultType, serverInfo and caching hints", "[modern]") {
  Stateless m;
  const auto r = m.call("tools/list", {{"_meta", stateless_meta()}})["result"];
  CHECK(r["resultType"] == "complete");
  CHECK(r["tools"].size() == 4);
  CHECK(r["tools"][0]["name"] == "contact");
  CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "modern-server");
  CHECK(r.contains("ttlMs"));
  CHECK(r.contains("cacheScope"));
}

TEST_CASE("2026-07-28: a form tool answers input_required, then completes on the retry", "[modern]") {
  Stateless m;
  for (const std::string tool : {"contact", "contact_async"}) {
    INFO(tool);
    const auto first = m.call_tool(tool)["result"];
    REQUIRE(first["resultType"] == "input_required");
    CHECK(first["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "modern-server");
    const auto& requests = first["inputRequests"];
    REQUIRE(requests.size() == 1);
    const auto& q = requests["elicitation-1"];
    CHECK(q["method"] == "elicitation/create");
    CHECK(q["params"]["mode"] == "form");
    CHECK(q["params"]["message"] == "Please provide your contact information");
    CHECK(q["params"]["requestedSchema"]["properties"].contains("email"));
    REQUIRE(first["requestState"].is_string());

    const auto done = m.call_tool(
        tool, {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}}},
               {"requestState", first["requestState"]}});
    REQUIRE(done.contains("result"));
    CHECK(done["result"]["resultType"] == "complete");
    CHECK(text_of(done) == "hello Ada <ada@example.com>");
    CHECK(done["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["version"] == "2.0.0");
  }
}

TEST_CASE("2026-07-28: the requestedSchema keeps its property order on the wire", "[modern]") {
  Stateless m;
  m.client.request(1, "tools/call", {{"name", "contact"}, {"arguments", json::object()}, {"_meta", stateless_meta()}});
  const auto text = m.client.next_text();
  REQUIRE(text);
  const auto name = text->find("\"name\":{");
  const auto email = text->find("\"email\":{");
  const auto age = text->find("\"age\":{");
  REQUIRE(name != std::string::npos);
  CHECK(name < email);
  CHECK(email < age);
}

TEST_CASE("2026-07-28: an invalid answer is asked again with the reason, then a corrected one completes", "[modern]") {
  Stateless m;
  for (const std::string tool : {"contact", "contact_async"}) {
    INFO(tool);
    const auto first = m.call_tool(tool)["result"];
    const auto again = m.call_tool(
        tool,
        {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "not an email"}, {"age", 12}})}}},
         {"requestState", first["requestState"]}})["result"];
    REQUIRE(again["resultType"] == "input_required");
    const auto message = again["inputRequests"]["elicitation-1"]["params"]["message"].get<std::string>();
    CHECK(message.find("Please provide your contact information") == 0);
    CHECK(message.find("email") != std::string::npos);
    CHECK(message.find("age") != std::string::npos);

    const auto done = m.call_tool(
        tool,
        {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}, {"age", 36}})}}},
         {"requestState", again["requestState"]}});
    CHECK(text_of(done) == "hello Ada <ada@example.com>");
  }
}

TEST_CASE("2026-07-28: decline and cancel reach the handler as outcomes", "[modern]") {
  Stateless m;
  for (const std::string tool : {"contact", "contact_async"}) {
    for (const auto& [action, expected] :
         std::vector<std::pair<std::string, std::string>>{{"decline", "no: declined"}, {"cancel", "no: cancelled"}}) {
      const auto first = m.call_tool(tool)["result"];
      const auto done = m.call_tool(tool, {{"inputResponses", {{"elicitation-1", {{"action", action}}}}},
                                           {"requestState", first["requestState"]}});
      CHECK(text_of(done) == expected);
    }
  }
}

TEST_CASE("2026-07-28: a multi-round tool carries the first answer in requestState", "[modern]") {
  Stateless m;
  const auto r1 = m.call_tool("two_rounds")["result"];
  REQUIRE(r1["inputRequests"].size() == 1);
  REQUIRE(r1["inputRequests"].contains("github"));

  const auto r2 = m.call_tool("two_rounds", {{"inputResponses", {{"github", accept({{"name", "octocat"}})}}},
                                             {"requestState", r1["requestState"]}})["result"];
  REQUIRE(r2["resultType"] == "input_required");
  REQUIRE(r2["inputRequests"].size() == 1);
  CHECK(r2["inputRequests"]["elicitation-1"]["params"]["message"] == "Contact for octocat?");

  // The retry answers only the second question; the first answer rides in the state.
  const auto done = m.call_tool(
      "two_rounds", {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}}},
                     {"requestState", r2["requestState"]}});
  CHECK(text_of(done) == "octocat/Ada");
}

TEST_CASE("2026-07-28: elicit_all asks every unanswered question in one round", "[modern]") {
  Stateless m;
  const auto r1 = m.call_tool("both")["result"];
  REQUIRE(r1["resultType"] == "input_required");
  CHECK(r1["inputRequests"].size() == 2);
  CHECK(r1["inputRequests"].contains("gh"));
  CHECK(r1["inputRequests"].contains("contact"));

  // Only one answered: the other is asked again, the answer kept.
  const auto r2 = m.call_tool("both", {{"inputResponses", {{"gh", accept({{"name", "octocat"}})}}},
                                       {"requestState", r1["requestState"]}})["result"];
  REQUIRE(r2["resultType"] == "input_required");
  CHECK(r2["inputRequests"].size() == 1);
  CHECK(r2["inputRequests"].contains("contact"));

  const auto done = m.call_tool(
      "both",
      {{"inputResponses",
        {{"contact", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}, {"unexpected", {{"action", "accept"}}}}},
       {"requestState", r2["requestState"]}});
  CHECK(text_of(done) == "accepted,accepted:octocat/Ada");
}

TEST_CASE("2026-07-28: answers count only for the question asked under their key", "[modern]") {
  Stateless m;
  // No requestState: an answer under the key the handler asks is used (the client answered unasked).
  auto r = m.call_tool(
      "contact", {{"inputResponses", {{"elicitation-1", accept({{"name", "Eve"}, {"email", "eve@example.com"}})}}}});
  CHECK(text_of(r) == "hello Eve <eve@example.com>");
  // ...and one under another key is not: the question is asked.
  r = m.call_tool("contact", {{"inputResponses", {{"wrong_key", accept({{"name", "Eve"}})}}}});
  CHECK(r["result"]["resultType"] == "input_required");
  CHECK(r["result"]["inputRequests"].contains("elicitation-1"));

  // With a state from a round that asked "github", an answer under "elicitation-1" answers nothing
  // that round asked: the handler's question under "github" is asked again.
  const auto other = m.call_tool("two_rounds")["result"];
  r = m.call_tool("two_rounds",
                  {{"inputResponses", {{"elicitation-1", accept({{"name", "Eve"}, {"email", "eve@example.com"}})}}},
                   {"requestState", other["requestState"]}});
  CHECK(r["result"]["resultType"] == "input_required");
  CHECK(r["result"]["inputRequests"].contains("github"));

  // A retry that answers under the right key a question other than the one the state records
  // (here: the round asked "github", the client claims to answer it with a state from a round that
  // asked something else under that key) is asked anew; simulated by answering round 2's question
  // with round 1's state.
  const auto r1 = m.call_tool("two_rounds")["result"];
  const auto r2 = m.call_tool("two_rounds", {{"inputResponses", {{"github", accept({{"name", "octocat"}})}}},
                                             {"requestState", r1["requestState"]}})["result"];
  REQUIRE(r2["inputRequests"].contains("elicitation-1"));
  r = m.call_tool("two_rounds",
                  {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}}},
                   {"requestState", r1["requestState"]}});
  CHECK(r["result"]["resultType"] == "input_required");
  CHECK(r["result"]["inputRequests"].contains("github"));
}

TEST_CASE("2026-07-28: a requestState that is tampered with, or moved to other arguments or tools, is refused",
          "[modern]") {
  Stateless m;
  const auto first = m.call_tool("contact")["result"];
  const auto state = first["requestState"].get<std::string>();
  const json answer{{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}};

  auto tampered = state;
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
  for (const auto& [label, params] : std::vector<std::pair<std::string, json>>{
           {"tampered", {{"name", "contact"}, {"requestState", tampered}}},
           {"other tool", {{"name", "contact_async"}, {"requestState", state}}},
           {"other arguments", {{"name", "contact"}, {"arguments", {{"x", 1}}}, {"requestState", state}}},
           {"garbage", {{"name", "contact"}, {"requestState", "not a state"}}},
       }) {
    INFO(label);
    json p{{"arguments", json::object()}, {"_meta", stateless_meta()}, {"inputResponses", answer}};
    p.update(params);
    const auto e = m.call("tools/call", p);
    REQUIRE(e.contains("error"));
    CHECK(e["error"]["code"] == -32602);
    CHECK(e["error"]["message"] == "Invalid or expired requestState");
  }
}

TEST_CASE("2026-07-28: another server with the same keys continues the flow (several processes)", "[modern]") {
  RequestStateOptions keys;
  keys.keys = {RequestStateSealer::generate_key()};
  auto make_core = [&] {
    auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"}, keys);
    core->add_tool(two_rounds());
    return core;
  };
  Stateless a(make_core());
  Stateless b(make_core());
  const auto r1 = a.call_tool("two_rounds")["result"];
  const auto r2 = b.call_tool("two_rounds", {{"inputResponses", {{"github", accept({{"name", "octocat"}})}}},
                                             {"requestState", r1["requestState"]}})["result"];
  REQUIRE(r2["resultType"] == "input_required");
  const auto done = a.call_tool(
      "two_rounds", {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.com"}})}}},
                     {"requestState", r2["requestState"]}});
  CHECK(text_of(done) == "octocat/Ada");

  // A server with a key of its own cannot open it.
  Stateless c;
  const auto e = c.call_tool("two_rounds", {{"requestState", r2["requestState"]}});
  CHECK(e["error"]["code"] == -32602);
}

TEST_CASE("2026-07-28: a malformed inputResponses or requestState is -32602", "[modern]") {
  Stateless m;
  for (const auto& extra : std::vector<json>{{{"inputResponses", json::array()}},
                                             {{"inputResponses", nullptr}},
                                             {{"inputResponses", {{"elicitation-1", "accept"}}}},
                                             {{"requestState", 42}}}) {
    INFO(extra.dump());
    const auto e = m.call_tool("contact", extra);
    REQUIRE(e.contains("error"));
    CHECK(e["error"]["code"] == -32602);
  }
}

TEST_CASE("2026-07-28: a client without the elicitation capability is never asked: -32021", "[modern]") {
  Stateless m;
  const auto e = m.call_tool("contact", json::object(), stateless_meta(json::object()));
  REQUIRE(e.contains("error"));
  CHECK(e["error"]["code"] == -32021);
  CHECK(e["error"]["data"]["requiredCapabilities"]["elicitation"]["form"].is_object());
}

TEST_CASE("2026-07-28: sampling and roots requests go out in one round with a form, URL mode asks consent",
          "[modern]") {
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  core->add_tool(
      Tool{"mixed",
           "Asks three things",
           {{"type", "object"}},
           std::nullopt,
           [](RequestContext& call) {
             auto out = call.request_inputs(
                 {InputRequest{
                      "elicitation/create",
                      {{"message", "Name?"}, {"requestedSchema", {{"type", "object"}, {"properties", json::object()}}}},
                      "user_name"},
                  InputRequest{"sampling/createMessage", {{"messages", json::array()}, {"maxTokens", 10}}, "greeting"},
                  InputRequest{"roots/list", json::object(), ""}});
             return ToolResult::text(out[0].result->at("action").get<std::string>() + "," +
                                     out[1].result->at("model").get<std::string>() + "," +
                                     std::to_string(out[2].result->at("roots").size()));
           },
           nullptr});
  core->add_tool(Tool{"url",
                      "Asks to open a page",
                      {{"type", "object"}},
                      std::nullopt,
                      [](RequestContext& call) {
                        const auto o = call.elicit_url("Connect", "https://example.com/connect");
                        return ToolResult::text(std::string(to_string(o.status)) + "/" + o.elicitation_id);
                      },
                      nullptr});
  core->add_tool(Tool{"needs_sampling",
                      "Needs sampling",
                      {{"type", "object"}},
                      std::nullopt,
                      [](RequestContext& call) {
                        call.require_client_capabilities({{"sampling", json::object()}});
                        return ToolResult::text("ok");
                      },
                      nullptr});
  Stateless m(core);
  const json all{{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                 {"sampling", json::object()},
                 {"roots", json::object()}};
  const auto r1 = m.call_tool("mixed", json::object(), stateless_meta(all))["result"];
  REQUIRE(r1["resultType"] == "input_required");
  REQUIRE(r1["inputRequests"].size() == 3);
  CHECK(r1["inputRequests"]["user_name"]["method"] == "elicitation/create");
  CHECK(r1["inputRequests"]["greeting"]["method"] == "sampling/createMessage");
  CHECK(r1["inputRequests"]["roots-1"]["method"] == "roots/list");
  const auto done = m.call_tool(
      "mixed",
      {{"inputResponses",
        {{"user_name", accept({{"name", "Ada"}})},
         {"greeting", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "Hi"}}}, {"model", "m1"}}},
         {"roots-1", {{"roots", json::array({{{"uri", "file:///a"}}})}}}}},
       {"requestState", r1["requestState"]}},
      stateless_meta(all));
  CHECK(text_of(done) == "accept,m1,1");

  // Without sampling declared, nothing is asked: -32021 names it.
  auto e = m.call_tool("mixed", json::object(), stateless_meta({{"elicitation", json::object()}}));
  CHECK(e["error"]["code"] == -32021);
  CHECK(e["error"]["data"]["requiredCapabilities"]["sampling"].is_object());
  e = m.call_tool("needs_sampling", json::object(), stateless_meta(json::object()));
  CHECK(e["error"]["code"] == -32021);
  CHECK(text_of(m.call_tool("needs_sampling", json::object(), stateless_meta(all))) == "ok");

  const auto u1 = m.call_tool("url", json::object(), stateless_meta(all))["result"];
  REQUIRE(u1["resultType"] == "input_required");
  const auto& q = u1["inputRequests"]["elicitation-1"];
  CHECK(q["params"]["mode"] == "url");
  CHECK(q["params"]["url"] == "https://example.com/connect");
  CHECK_FALSE(q["params"].contains("elicitationId"));
  const auto u2 = m.call_tool(
      "url", {{"inputResponses", {{"elicitation-1", {{"action", "accept"}}}}}, {"requestState", u1["requestState"]}},
      stateless_meta(all));
  CHECK(text_of(u2) == "accepted/");
  e = m.call_tool("url", json::object(), stateless_meta({{"elicitation", json::object()}}));
  CHECK(e["error"]["data"]["requiredCapabilities"]["elicitation"]["url"].is_object());
}

TEST_CASE("prompts/get and resources/read can elicit in both eras", "[modern]") {
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  core->add_prompt(Prompt{
      "greet", "Greets", {{"style", "How to greet", false}}, std::nullopt, [](RequestContext& call) {
        auto o = call.elicit_keyed<samples::GithubUsername>("who", "Whom to greet?");
        const auto name = o ? o.value->name : std::string("nobody");
        return json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Greet " + name}}}}}}};
      }});
  core->add_resource(
      Resource{"test://secret", "secret", "A secret", std::string("text/plain"), [](RequestContext& call) {
                 auto o = call.elicit<samples::GithubUsername>("Who is asking?");
                 return json{{"contents",
                              {{{"uri", "test://secret"},
                                {"mimeType", "text/plain"},
                                {"text", o ? "for " + o.value->name : std::string("no")}}}}};
               }});
  Stateless m(core);
  const auto list = m.call("prompts/list", {{"_meta", stateless_meta()}})["result"];
  CHECK(list["prompts"][0]["name"] == "greet");
  CHECK(list["prompts"][0]["arguments"][0]["name"] == "style");
  CHECK(list.contains("ttlMs"));
  const auto discover = m.call("server/discover", {{"_meta", stateless_meta()}})["result"];
  CHECK(discover["capabilities"].contains("prompts"));
  CHECK(discover["capabilities"].contains("resources"));

  auto r1 = m.call("prompts/get", {{"name", "greet"}, {"_meta", stateless_meta()}})["result"];
  REQUIRE(r1["resultType"] == "input_required");
  auto done = m.call("prompts/get", {{"name", "greet"},
                                     {"_meta", stateless_meta()},
                                     {"inputResponses", {{"who", accept({{"name", "Ada"}})}}},
                                     {"requestState", r1["requestState"]}})["result"];
  CHECK(done["resultType"] == "complete");
  CHECK(done["messages"][0]["content"]["text"] == "Greet Ada");
  // The state is bound to the prompt: it does not open on the resource.
  const auto e = m.call("resources/read",
                        {{"uri", "test://secret"}, {"_meta", stateless_meta()}, {"requestState", r1["requestState"]}});
  CHECK(e["error"]["code"] == -32602);

  r1 = m.call("resources/read", {{"uri", "test://secret"}, {"_meta", stateless_meta()}})["result"];
  REQUIRE(r1["resultType"] == "input_required");
  done = m.call("resources/read", {{"uri", "test://secret"},
                                   {"_meta", stateless_meta()},
                                   {"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}})}}},
                                   {"requestState", r1["requestState"]}})["result"];
  CHECK(done["contents"][0]["text"] == "for Ada");
  CHECK(done.contains("ttlMs"));
  CHECK(done.contains("cacheScope"));
  CHECK(m.call("resources/read", {{"uri", "test://none"}, {"_meta", stateless_meta()}})["error"]["code"] == -32602);

  // 2025-11-25: the prompt's question goes out as elicitation/create on the session.
  Stateless session_era(core);
  session_era.client.initialize({{"elicitation", json::object()}});
  session_era.client.request(7, "prompts/get", {{"name", "greet"}});
  const auto ask = session_era.client.next();
  REQUIRE(ask);
  CHECK((*ask)["method"] == "elicitation/create");
  session_era.client.respond((*ask)["id"], accept({{"name", "Bob"}}));
  const auto answer = session_era.client.next();
  REQUIRE(answer);
  CHECK((*answer)["result"]["messages"][0]["content"]["text"] == "Greet Bob");
  CHECK_FALSE((*answer)["result"].contains("resultType"));
}

TEST_CASE("2026-07-28 and 2025-11-25: initialize selects the 2025-11-25 era for the rest of the connection",
          "[modern]") {
  Stateless m;
  m.client.initialize({{"elicitation", json::object()}});
  // A 2025-11-25 session sends elicitation/create and waits, whatever a request's _meta says.
  m.client.request(50, "tools/call", {{"name", "contact"}, {"arguments", json::object()}, {"_meta", stateless_meta()}});
  const auto ask = m.client.next();
  REQUIRE(ask);
  CHECK((*ask)["method"] == "elicitation/create");
  m.client.respond((*ask)["id"], accept({{"name", "Ada"}, {"email", "ada@example.com"}}));
  const auto done = m.client.next();
  REQUIRE(done);
  CHECK((*done)["id"] == 50);
  CHECK_FALSE((*done)["result"].contains("resultType"));
  CHECK(text_of(*done) == "hello Ada <ada@example.com>");
}

TEST_CASE("2026-07-28: URL mode completed out of band: pending is asked again, complete goes on", "[modern]") {
  auto store = std::make_shared<InMemoryCompletionStore>();
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  core->add_tool(Tool{"sign_in",
                      "Signs in out of band",
                      {{"type", "object"}},
                      std::nullopt,
                      [store](RequestContext& call) {
                        const auto id = call.interaction_id();
                        const auto o = call.elicit_url_completed("Sign in to Example Co",
                                                                 "https://example.com/sign-in?state=" + id, id, *store);
                        return ToolResult::text(std::string(to_string(o.status)) + ":" + o.elicitation_id);
                      },
                      nullptr});
  Stateless m(core);
  const auto meta = stateless_meta({{"elicitation", {{"url", json::object()}}}});
  const auto r1 = m.call_tool("sign_in", json::object(), meta)["result"];
  REQUIRE(r1["resultType"] == "input_required");
  const auto url = r1["inputRequests"]["elicitation-1"]["params"]["url"].get<std::string>();
  const auto id = url.substr(url.find("state=") + 6);
  REQUIRE(id.size() == 32);

  // Consent, but the page was not finished: asked again, with the same URL (the id is stable).
  const json consent{{"elicitation-1", {{"action", "accept"}}}};
  const auto r2 =
      m.call_tool("sign_in", {{"inputResponses", consent}, {"requestState", r1["requestState"]}}, meta)["result"];
  REQUIRE(r2["resultType"] == "input_required");
  CHECK(r2["inputRequests"]["elicitation-1"]["params"]["url"] == url);
  CHECK(r2["inputRequests"]["elicitation-1"]["params"]["message"].get<std::string>().find("not been completed") !=
        std::string::npos);

  REQUIRE(store->complete(id, std::chrono::minutes(1)));
  const auto done = m.call_tool("sign_in", {{"inputResponses", consent}, {"requestState", r2["requestState"]}}, meta);
  CHECK(text_of(done) == "accepted:" + id);

  // Declined: no lookup, the outcome as is.
  const auto declined = m.call_tool(
      "sign_in",
      {{"inputResponses", {{"elicitation-1", {{"action", "decline"}}}}}, {"requestState", r1["requestState"]}}, meta);
  CHECK(text_of(declined) == "declined:");
}

TEST_CASE("asynchronous prompts/get and resources/read handlers elicit in both eras", "[modern][async]") {
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  Prompt prompt{"greet_async", "Greets, holding no thread", {}, std::nullopt, nullptr};
  prompt.async_handler = [](std::shared_ptr<RequestContext> call) {
    call->elicit_async<samples::GithubUsername>("Whom to greet?", [call](Outcome<samples::GithubUsername> o) {
      const auto name = o ? o.value->name : std::string(to_string(o.status));
      call->reply_json(
          json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Greet " + name}}}}}}});
    });
  };
  core->add_prompt(std::move(prompt));
  Resource resource{"test://async", "async", "A resource read asynchronously", std::string("text/plain"), nullptr};
  resource.async_handler = [](std::shared_ptr<RequestContext> call) {
    call->elicit_async<samples::GithubUsername>("Who is asking?", [call](Outcome<samples::GithubUsername> o) {
      call->reply_json(json{{"contents",
                             {{{"uri", "test://async"},
                               {"mimeType", "text/plain"},
                               {"text", o ? "for " + o.value->name : std::string("no")}}}}});
    });
  };
  core->add_resource(std::move(resource));
  CHECK_THROWS_AS(core->add_prompt(Prompt{"none", "no handler", {}, std::nullopt, nullptr}), std::invalid_argument);

  Stateless m(core);
  auto r1 = m.call("prompts/get", {{"name", "greet_async"}, {"_meta", stateless_meta()}})["result"];
  REQUIRE(r1["resultType"] == "input_required");
  REQUIRE(r1["inputRequests"].contains("elicitation-1"));
  auto done = m.call("prompts/get", {{"name", "greet_async"},
                                     {"_meta", stateless_meta()},
                                     {"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}})}}},
                                     {"requestState", r1["requestState"]}})["result"];
  CHECK(done["resultType"] == "complete");
  CHECK(done["messages"][0]["content"]["text"] == "Greet Ada");
  CHECK_FALSE(done.contains("ttlMs"));  // caching hints belong to resources/read

  r1 = m.call("resources/read", {{"uri", "test://async"}, {"_meta", stateless_meta()}})["result"];
  REQUIRE(r1["resultType"] == "input_required");
  done = m.call("resources/read", {{"uri", "test://async"},
                                   {"_meta", stateless_meta()},
                                   {"inputResponses", {{"elicitation-1", accept({{"name", "Bo"}})}}},
                                   {"requestState", r1["requestState"]}})["result"];
  CHECK(done["resultType"] == "complete");
  CHECK(done["contents"][0]["text"] == "for Bo");
  CHECK(done["ttlMs"] == 0);
  CHECK(done["cacheScope"] == "private");

  // 2025-11-25: elicitation/create goes out on the session; no thread waits for the answer.
  Stateless session_era(core);
  session_era.client.initialize({{"elicitation", json::object()}});
  session_era.client.request(7, "resources/read", {{"uri", "test://async"}});
  const auto ask = session_era.client.next();
  REQUIRE(ask);
  CHECK((*ask)["method"] == "elicitation/create");
  session_era.client.respond((*ask)["id"], {{"action", "decline"}});
  const auto answer = session_era.client.next();
  REQUIRE(answer);
  CHECK((*answer)["id"] == 7);
  CHECK((*answer)["result"]["contents"][0]["text"] == "no");
  CHECK_FALSE((*answer)["result"].contains("resultType"));
  CHECK_FALSE((*answer)["result"].contains("ttlMs"));
}

TEST_CASE(
    "2026-07-28: the free elicitation functions send nothing in a 2026-07-28 request (its session knows no "
    "capabilities)",
    "[modern]") {
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  core->add_tool(Tool{"free_function",
                      "Asks through the free function",
                      {{"type", "object"}},
                      std::nullopt,
                      nullptr,
                      [](std::shared_ptr<RequestContext> call) {
                        // 2026-07-28 has no server-to-client requests: RequestContext::elicit_async is the way.
                        elicit::elicit_async<samples::GithubUsername>(
                            call->state(), "Your GitHub name?", [call](Outcome<samples::GithubUsername> o) {
                              call->reply(ToolResult::text(std::string(to_string(o.status))));
                            });
                      }});
  Stateless m(core);
  const auto r = m.call_tool("free_function");
  CHECK(r["result"]["resultType"] == "complete");
  CHECK(text_of(r) == "unsupported");
  CHECK(m.server->state().rpc().pending_requests() == 0);
}

TEST_CASE("2026-07-28: a prefilled form asked again keeps its defaults, and the retry answers it",
          "[modern][prefill]") {
  auto core = std::make_shared<Server>(ServerInfo{"modern-server", "2.0.0"});
  core->add_tool(Tool::blocking("prefilled", [](RequestContext& call) {
    samples::ContactInformation prefill;
    prefill.name = "Ada";
    prefill.email = "ada@example.com";
    auto o = call.elicit<samples::ContactInformation>("Confirm", prefill);
    if (!o) return ToolResult::text(std::string("no: ") + std::string(to_string(o.status)));
    return ToolResult::text("hello " + o.value->name + " <" + o.value->email + ">");
  }));
  Stateless m(core);
  const auto first = m.call_tool("prefilled")["result"];
  REQUIRE(first["resultType"] == "input_required");
  const auto schema = first["inputRequests"]["elicitation-1"]["params"]["requestedSchema"];
  CHECK(schema["properties"]["name"]["default"] == "Ada");
  CHECK(schema["properties"]["email"]["default"] == "ada@example.com");

  const auto again = m.call_tool(
      "prefilled", {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "not an email"}})}}},
                    {"requestState", first["requestState"]}})["result"];
  REQUIRE(again["resultType"] == "input_required");
  const auto& q = again["inputRequests"]["elicitation-1"]["params"];
  CHECK(q["requestedSchema"] == schema);
  CHECK(q["message"].get<std::string>().rfind("Confirm\n\nThe previous answer was not accepted: email: ", 0) == 0);

  const auto done = m.call_tool(
      "prefilled", {{"inputResponses", {{"elicitation-1", accept({{"name", "Ada"}, {"email", "ada@example.org"}})}}},
                    {"requestState", again["requestState"]}});
  CHECK(text_of(done) == "hello Ada <ada@example.org>");
}

namespace {

nlohmann::ordered_json form_question(const std::string& message) {
  return {{"method", "elicitation/create"},
          {"params",
           {{"mode", "form"},
            {"message", message},
            {"requestedSchema",
             {{"type", "object"},
              {"properties", {{"z", {{"type", "string"}}}, {"a", {{"type", "number"}, {"minimum", 1.5}}}}}}}}}};
}

// What InputRound writes as text is what its documents dump to.
void check_texts(const InputRound& round) {
  std::string requests;
  round.append_input_requests(requests);
  CHECK(requests == round.input_requests().dump());
  std::string state;
  round.append_state(state);
  CHECK(state == round.state().dump());
}

}  // namespace

TEST_CASE("InputRound: the questions and the state it writes as text are its documents' dumps", "[modern][round]") {
  // A first round: nothing carried. A question asked again keeps its place.
  InputRound first(nullptr, nullptr);
  CHECK_FALSE(first.answer("k\"1", form_question("Q1 \xc3\xa9\n")));
  CHECK_FALSE(first.answer_text("b", form_question("Q2").dump()));
  CHECK_FALSE(first.answer_text("b", form_question("Q2 changed").dump()));  // the first question under a key stays
  first.ask_again("k\"1", form_question("Q1 again"), form_question("Q1 \xc3\xa9\n"));
  CHECK(first.input_required());
  const auto requests = first.input_requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests.begin().key() == "k\"1");
  CHECK(requests["k\"1"] == form_question("Q1 again"));
  CHECK(requests["b"] == form_question("Q2"));
  check_texts(first);

  // The retry: each answer counts for the question the last round asked under its key (the
  // original, for the one asked again), and is the round's own.
  InputRound second(first.state(), json{{"b", accept({{"a", 2}})}, {"k\"1", {{"action", "decline"}}}});
  const auto* b = second.answer_text("b", form_question("Q2").dump());
  REQUIRE(b);
  CHECK(*b == accept({{"a", 2}}));
  CHECK(second.answer_text("b", form_question("Q2").dump()) == b);
  const auto k = second.answer("k\"1", form_question("Q1 \xc3\xa9\n"));
  REQUIRE(k);
  CHECK((*k)["action"] == "decline");
  CHECK_FALSE(second.input_required());
  check_texts(second);

  // A carried answer is carried on as it came, whatever else it holds; another question under a
  // key is asked anew.
  auto carried = second.state();
  carried["answers"]["b"]["extra"] = {1, 2};
  InputRound third(carried, nullptr);
  CHECK(third.answer_text("b", form_question("Q2").dump()));
  CHECK_FALSE(third.answer("k\"1", form_question("Q1 changed")));
  third.interaction_id("x");  // a seed, carried in the state
  CHECK(third.state()["answers"]["b"]["extra"] == json{1, 2});
  CHECK(third.state().contains("seed"));
  check_texts(third);
}

TEST_CASE("InputRound: text that is not UTF-8 fails as the documents' dumps do", "[modern][round]") {
  InputRound round(nullptr, nullptr);
  CHECK_THROWS_AS(round.answer("k", form_question("bad \xff")), nlohmann::json::type_error);
  CHECK_FALSE(round.input_required());
  CHECK_FALSE(round.answer_text("bad \xfe", form_question("Q").dump()));
  std::string requests;
  round.append_input_requests(requests);
  CHECK(requests == round.input_requests().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  std::string expected;
  try {
    (void)round.state().dump();
  } catch (const nlohmann::json::type_error& e) {
    expected = e.what();
  }
  REQUIRE_FALSE(expected.empty());
  std::string state;
  try {
    round.append_state(state);
    FAIL("append_state wrote a key that is not UTF-8");
  } catch (const nlohmann::json::type_error& e) {
    CHECK(std::string(e.what()) == expected);
  }
}

}  // namespace modern_server_test
