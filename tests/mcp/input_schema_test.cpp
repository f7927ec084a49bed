// Tool arguments checked against inputSchema before the handler runs, in both eras (MCP Tools:
// servers MUST validate tool inputs; an invalid call is a tool execution error the model can
// correct): the error names each pointer, the handler does not run, a valid call does.
#include <catch2/catch.hpp>

#include <atomic>

#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "../support/stateless_meta.hpp"

namespace input_schema_test {

using namespace elicit;
using nlohmann::json;
using test_support::stateless_meta;

namespace {

struct Fixture {
  Fixture() : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 1;
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"input-schema-test", "1"}, o);
    server->add_tool(Tool{"order", "Orders n items of a kind", json::parse(R"({
                            "type": "object",
                            "properties": {
                              "n": {"type": "integer", "minimum": 1},
                              "kind": {"enum": ["a", "b"]}
                            },
                            "required": ["n"],
                            "additionalProperties": false
                          })"),
                          std::nullopt,
                          [this](RequestContext& call) {
                            ++runs;
                            return ToolResult::text("ordered " + call.arguments()["n"].dump());
                          },
                          nullptr});
    server->start();
  }
  ~Fixture() { server.reset(); }

  json call(const json& arguments, bool stateless) {
    json params{{"name", "order"}, {"arguments", arguments}};
    if (stateless) params["_meta"] = stateless_meta();
    client.request(++id, "tools/call", params);
    auto m = client.next();
    REQUIRE(m);
    return (*m)["result"];
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  std::atomic<int> runs{0};
  int id = 0;
};

}  // namespace

TEST_CASE("invalid tool arguments are a tool error naming each pointer, the handler does not run", "[input_schema]") {
  for (const bool stateless : {false, true}) {
    INFO((stateless ? "2026-07-28" : "2025-11-25"));
    Fixture f;
    if (!stateless) f.client.initialize(json::object());
    const auto bad = f.call(json{{"n", 0}, {"kind", "c"}, {"extra", true}}, stateless);
    CHECK(bad["isError"] == true);
    CHECK(bad["content"][0]["text"] ==
          "Invalid arguments for tool order:\n/extra: is not allowed (additionalProperties: false)\n/kind: must be one "
          "of "
          "[\"a\",\"b\"]\n/n: must be at least 1");
    if (stateless) CHECK(bad["resultType"] == "complete");
    CHECK(f.call(json::object(), stateless)["content"][0]["text"] ==
          "Invalid arguments for tool order:\n/: missing required property \"n\"");
    CHECK(f.runs == 0);
    const auto good = f.call(json{{"n", 2}, {"kind", "a"}}, stateless);
    CHECK_FALSE(good.contains("isError"));
    CHECK(good["content"][0]["text"] == "ordered 2");
    CHECK(f.runs == 1);
  }
}

TEST_CASE("a tool whose inputSchema cannot be compiled is refused when added, saying where", "[input_schema]") {
  Server core(ServerInfo{"t", "1"});
  try {
    core.add_tool(Tool{"bad", "", json::parse(R"({"type": "object", "properties": {"n": {"minimum": "1"}}})"),
                       std::nullopt, [](RequestContext&) { return ToolResult::text(""); }, nullptr});
    FAIL("a malformed inputSchema was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "tool bad: inputSchema /properties/n/minimum: must be a number");
  }
  // Opting out keeps the schema as written and unchecked.
  Tool lenient{"lenient",
               "",
               json::parse(R"({"type": "object", "properties": {"n": {"minimum": "1"}}})"),
               std::nullopt,
               [](RequestContext&) { return ToolResult::text(""); },
               nullptr};
  lenient.validate_arguments = false;
  core.add_tool(lenient);
  CHECK(core.check_arguments("lenient", json{{"n", "anything"}}).empty());
  CHECK(core.check_arguments("no such tool", json::object()).empty());
}

TEST_CASE("a prompt named like a tool is not checked against the tool's inputSchema", "[input_schema]") {
  Fixture f;
  f.server->add_prompt(Prompt{"order", "A prompt with the tool's name", {}, std::nullopt, [](RequestContext&) {
                                return json{{"messages", json::array()}};
                              }});
  f.client.initialize(json::object());
  f.client.request("p", "prompts/get", {{"name", "order"}, {"arguments", {{"anything", "goes"}}}});
  const auto m = f.client.next();
  REQUIRE(m);
  CHECK((*m)["result"]["messages"] == json::array());
}

}  // namespace input_schema_test
