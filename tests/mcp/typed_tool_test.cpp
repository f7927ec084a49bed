// typed_tool: arguments read and checked through a generated type before the handler runs, and a
// typed result sent as structuredContent under the type's outputSchema (MCP 2025-11-25, Server,
// Tools, "Structured Content", "Output Schema").
#include <catch2/catch.hpp>

#include <elicit/typed_tool.hpp>

#include "../support/fake_client.hpp"
#include "contact_information.hpp"
#include "shipping.hpp"
#include "user_name.hpp"

namespace typed_tool_test {

using namespace elicit;
using nlohmann::json;

namespace {

struct Fixture {
  Fixture() : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 1;
    o.session.log = [](std::string_view) {};
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"typed-tool-test", "1"}, o);
    // Typed arguments, a plain ToolResult.
    server->add_tool(typed_tool<samples::ContactInformation>(
        "greet", "Greets a contact", [this](RequestContext&, samples::ContactInformation c) {
          ++runs;
          return ToolResult::text("Hello " + c.name + " <" + c.email + ">" +
                                  (c.age ? " aged " + std::to_string(int(*c.age)) : ""));
        }));
    // Typed arguments and a typed result: structuredContent.
    server->add_tool(typed_tool<samples::ContactInformation>(
        "name_of", "The contact's name",
        [](RequestContext&, samples::ContactInformation c) { return samples::UserName{c.name}; }));
    // A result that breaks its own outputSchema (recipient must not be empty).
    server->add_tool(
        typed_tool<samples::UserName>("address_for", "An address", [](RequestContext&, samples::UserName n) {
          samples::ShippingAddress a;
          a.recipient = n.name == "nobody" ? "" : n.name;
          a.street = "1 Main St";
          a.postal_code = "12345";
          return a;
        }));
    server->start();
  }
  ~Fixture() { server.reset(); }

  json call(const std::string& method, const json& params) {
    const json id = ++next_id;
    client.request(id, method, params);
    auto m = client.next();
    REQUIRE(m);
    return *m;
  }
  json call_tool(const std::string& name, const json& arguments) {
    return call("tools/call", {{"name", name}, {"arguments", arguments}})["result"];
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  int next_id = 0;
  std::atomic<int> runs{0};
};

}  // namespace

TEST_CASE("A typed tool lists its type's schema as inputSchema, and its result type's as outputSchema",
          "[typed_tool]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto tools = f.call("tools/list", json::object())["result"]["tools"];
  REQUIRE(tools.size() == 3);
  CHECK(tools[0]["inputSchema"] == json::parse(elicit::requested_schema<samples::ContactInformation>().dump()));
  CHECK_FALSE(tools[0].contains("outputSchema"));
  CHECK(tools[1]["outputSchema"] == json::parse(elicit::requested_schema<samples::UserName>().dump()));
}

TEST_CASE("Valid arguments reach the handler as the type", "[typed_tool]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto r = f.call_tool("greet", {{"name", "Ada"}, {"email", "ada@example.com"}, {"age", 36}});
  CHECK(r == json{{"content", {{{"type", "text"}, {"text", "Hello Ada <ada@example.com> aged 36"}}}}});
  CHECK(f.runs == 1);
}

TEST_CASE("Invalid arguments are a tool error naming every pointer, and the handler does not run", "[typed_tool]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto r = f.call_tool("greet", {{"email", "not an email"}, {"age", 3}});
  CHECK(r["isError"] == true);
  const auto text = r["content"][0]["text"].get<std::string>();
  CHECK_THAT(text, Catch::StartsWith("Invalid arguments for tool greet:"));
  CHECK_THAT(text, Catch::Contains("/name: is required"));
  CHECK_THAT(text, Catch::Contains("/email: "));
  CHECK_THAT(text, Catch::Contains("/age: "));
  const auto wrong_type = f.call_tool("greet", {{"name", 5}, {"email", "a@b.co"}});
  CHECK(wrong_type["isError"] == true);
  CHECK_THAT(wrong_type["content"][0]["text"].get<std::string>(), Catch::Contains("/name: "));
  CHECK(f.runs == 0);
}

TEST_CASE("A typed result is structuredContent and its JSON text", "[typed_tool]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto r = f.call_tool("name_of", {{"name", "Ada"}, {"email", "ada@example.com"}});
  CHECK(r["structuredContent"] == json{{"name", "Ada"}});
  REQUIRE(r["content"].size() == 1);
  CHECK(json::parse(r["content"][0]["text"].get<std::string>()) == json{{"name", "Ada"}});
  CHECK_FALSE(r.contains("isError"));
}

TEST_CASE("A typed result that breaks its outputSchema is a tool error, not a broken promise", "[typed_tool]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto good = f.call_tool("address_for", {{"name", "Ada"}});
  CHECK(good["structuredContent"]["recipient"] == "Ada");
  CHECK(good["structuredContent"]["postalCode"] == "12345");
  const auto bad = f.call_tool("address_for", {{"name", "nobody"}});
  CHECK(bad["isError"] == true);
  CHECK_FALSE(bad.contains("structuredContent"));
  CHECK_THAT(bad["content"][0]["text"].get<std::string>(),
             Catch::Contains("does not match its outputSchema") && Catch::Contains("/recipient: "));
}

}  // namespace typed_tool_test
