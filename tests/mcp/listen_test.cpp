// Lists that change while served, in both eras: pagination with cursors that survive changes
// (MCP, Server, Utilities, "Pagination"), notifications/<kind>/list_changed to initialized 2025-11-25
// sessions (2025-11-25, Tools/Prompts/Resources, "List Changed Notification") and the 2026-07-28
// subscriptions/listen stream (Basic, Patterns, "Subscriptions").
#include <catch2/catch.hpp>

#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "../support/stateless_meta.hpp"

namespace listen_test {

using namespace elicit;
using nlohmann::json;
using test_support::stateless_meta;

namespace {

const char* const kSubscriptionId = "io.modelcontextprotocol/subscriptionId";

Tool named_tool(const std::string& name) {
  return Tool{name,
              "Answers its name",
              {{"type", "object"}},
              std::nullopt,
              [name](RequestContext&) { return ToolResult::text(name); },
              nullptr};
}

Resource text_resource(const std::string& uri) {
  return Resource{uri, uri, "A text", std::string("text/plain"), [uri](RequestContext&) {
                    return json{{"contents", {{{"uri", uri}, {"mimeType", "text/plain"}, {"text", "t"}}}}};
                  }};
}

struct Fixture {
  explicit Fixture(bool with_prompt = true) : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 1;
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"listen-test", "1"}, o);
    for (const char* name : {"a", "b", "c", "d", "e"}) server->add_tool(named_tool(name));
    server->add_resource(text_resource("test://r"));
    server->add_resource_template(
        ResourceTemplate{"test://items/{id}", "items", "Items", std::nullopt, [](RequestContext& call) {
                           return json{{"contents", json::array()}, {"uri", call.arguments()["uri"]}};
                         }});
    if (with_prompt) {
      server->add_prompt(Prompt{"p", "A prompt", {}, std::nullopt, [](RequestContext&) {
                                  return json{{"messages", json::array()}};
                                }});
    }
    server->start();
  }
  ~Fixture() { server.reset(); }

  // Sends a request; returns its response, keeping what came before it in `seen`.
  json call(const std::string& method, json params, bool stateless = false) {
    const json id = "r" + std::to_string(++next_id);
    if (stateless) params["_meta"] = stateless_meta();
    client.request(id, method, params);
    for (int i = 0; i < 64; ++i) {
      auto m = client.next();
      REQUIRE(m);
      if (m->contains("id") && (*m)["id"] == id) return *m;
      seen.push_back(*m);
    }
    FAIL("no response to " << method);
    return nullptr;
  }
  // The notifications that arrived up to now, in order (a ping's response marks "now").
  std::vector<json> drain() {
    call("ping", json::object());
    auto out = std::move(seen);
    seen.clear();
    return out;
  }
  // Opens a listen stream with id `id` and returns its acknowledgment (the first message).
  json listen(const json& id, const json& filter) {
    client.request(id, "subscriptions/listen", {{"notifications", filter}, {"_meta", stateless_meta()}});
    auto m = client.next();
    REQUIRE(m);
    return *m;
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  std::vector<json> seen;
  int next_id = 0;
};

std::vector<std::string> names(const json& list, const char* member, const char* key) {
  std::vector<std::string> out;
  INFO(list.dump());
  REQUIRE(list.contains(member));
  for (const auto& e : list[member]) out.push_back(e[key]);
  return out;
}

json tagged(const std::string& method, const json& subscription, json params = json::object()) {
  params["_meta"] = {{kSubscriptionId, subscription}};
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
}

}  // namespace

TEST_CASE("Lists come in pages, a cursor names a position that survives removals", "[pagination]") {
  for (const bool stateless : {false, true}) {
    Fixture f;
    if (!stateless) f.client.initialize(json::object());
    f.server->server()->set_page_size(2);
    auto first = f.call("tools/list", json::object(), stateless)["result"];
    CHECK(names(first, "tools", "name") == std::vector<std::string>{"a", "b"});
    REQUIRE(first["nextCursor"].is_string());
    auto second = f.call("tools/list", {{"cursor", first["nextCursor"]}}, stateless)["result"];
    CHECK(names(second, "tools", "name") == std::vector<std::string>{"c", "d"});
    REQUIRE(second["nextCursor"].is_string());

    // c (where the second page began) goes away and f comes: the cursor still holds its place.
    REQUIRE(f.server->server()->remove_tool("c"));
    f.server->add_tool(named_tool("f"));
    auto again = f.call("tools/list", {{"cursor", first["nextCursor"]}}, stateless)["result"];
    CHECK(names(again, "tools", "name") == std::vector<std::string>{"d", "e"});
    auto last = f.call("tools/list", {{"cursor", again["nextCursor"]}}, stateless)["result"];
    CHECK(names(last, "tools", "name") == std::vector<std::string>{"f"});
    CHECK_FALSE(last.contains("nextCursor"));

    // Every list pages the same way.
    f.server->server()->set_page_size(1);
    auto resources = f.call("resources/list", json::object(), stateless)["result"];
    CHECK(names(resources, "resources", "uri") == std::vector<std::string>{"test://r"});
    CHECK_FALSE(resources.contains("nextCursor"));
    CHECK(f.call("resources/templates/list", json::object(), stateless)["result"]["resourceTemplates"].size() == 1);
    CHECK(f.call("prompts/list", json::object(), stateless)["result"]["prompts"].size() == 1);

    // Cursors the server did not make, and cursors that are not strings.
    for (const json& bad : {json("c9zz"), json("x"), json(""), json("c"), json(3), json::object()}) {
      auto r = f.call("tools/list", {{"cursor", bad}}, stateless);
      INFO(bad.dump() << " -> " << r.dump());
      CHECK(r["error"]["code"] == -32602);
    }
    // A null cursor is no cursor.
    CHECK(f.call("tools/list", {{"cursor", nullptr}}, stateless)["result"]["tools"].size() == 1);
  }
}

TEST_CASE("A removed tool is unknown to later calls, removing twice is false", "[pagination]") {
  Fixture f;
  f.client.initialize(json::object());
  CHECK(f.call("tools/call", {{"name", "b"}, {"arguments", json::object()}})["result"]["content"][0]["text"] == "b");
  CHECK(f.server->server()->remove_tool("b"));
  CHECK_FALSE(f.server->server()->remove_tool("b"));
  const auto r = f.call("tools/call", {{"name", "b"}, {"arguments", json::object()}});
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("Unknown tool"));
  CHECK(names(f.call("tools/list", json::object())["result"], "tools", "name") ==
        std::vector<std::string>{"a", "c", "d", "e"});
  // The name is free again.
  f.server->add_tool(named_tool("b"));
  CHECK(f.call("tools/call", {{"name", "b"}, {"arguments", json::object()}})["result"]["content"][0]["text"] == "b");
}

TEST_CASE("An initialized 2025-11-25 session hears of every list change, and only once initialized", "[list_changed]") {
  Fixture f;
  f.server->add_tool(named_tool("early"));  // before initialize: nobody to tell
  CHECK(f.drain().empty());
  const auto init = f.client.initialize(json::object());
  CHECK(init["capabilities"]["tools"]["listChanged"] == true);
  CHECK(init["capabilities"]["prompts"]["listChanged"] == true);
  CHECK(init["capabilities"]["resources"]["listChanged"] == true);
  CHECK(init["capabilities"]["resources"]["subscribe"] == true);
  // The session hears of changes from when its initialize handler has returned, which a request
  // after it orders (a change before that is in the lists the client asks for next anyway).
  CHECK(f.drain().empty());

  f.server->add_tool(named_tool("late"));
  CHECK(f.server->server()->remove_prompt("p"));
  CHECK_FALSE(f.server->server()->remove_prompt("p"));  // no change, no notification
  f.server->add_resource(text_resource("test://s"));
  CHECK(f.server->server()->remove_resource_template("test://items/{id}"));
  const auto seen = f.drain();
  REQUIRE(seen.size() == 4);
  CHECK(seen[0] ==
        json{{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}, {"params", json::object()}});
  CHECK(seen[1]["method"] == "notifications/prompts/list_changed");
  CHECK(seen[2]["method"] == "notifications/resources/list_changed");
  CHECK(seen[3]["method"] == "notifications/resources/list_changed");
  // A 2025-11-25 session has no subscriptions/listen.
  CHECK(f.call("subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}})["error"]["code"] == -32601);
}

TEST_CASE("subscriptions/listen: acknowledged first, then only what the filter names, tagged", "[listen]") {
  Fixture f;
  const auto discover = f.call("server/discover", json::object(), true)["result"];
  CHECK(discover["capabilities"]["tools"]["listChanged"] == true);
  CHECK(discover["capabilities"]["resources"]["subscribe"] == true);

  const auto ack = f.listen(
      "L1", {{"toolsListChanged", true}, {"resourceSubscriptions", {"test://r", "test://items/7", "other://unknown"}}});
  CHECK(ack == tagged("notifications/subscriptions/acknowledged", "L1",
                      {{"notifications",
                        {{"toolsListChanged", true}, {"resourceSubscriptions", {"test://r", "test://items/7"}}}}}));

  f.server->add_tool(named_tool("new"));
  f.server->add_prompt(Prompt{"q", "Another", {}, std::nullopt, [](RequestContext&) { return json::object(); }});
  CHECK(f.server->server()->notify_resource_updated("test://items/7") == 1);
  CHECK(f.server->server()->notify_resource_updated("test://items/8") == 0);
  CHECK(f.server->server()->notify_resource_updated("other://unknown") == 0);
  auto seen = f.drain();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == tagged("notifications/tools/list_changed", "L1"));
  CHECK(seen[1] == tagged("notifications/resources/updated", "L1", {{"uri", "test://items/7"}}));

  // A second stream with its own filter and id; each hears its own.
  const auto ack2 = f.listen(7, {{"promptsListChanged", true}, {"toolsListChanged", false}});
  CHECK(ack2 ==
        tagged("notifications/subscriptions/acknowledged", 7, {{"notifications", {{"promptsListChanged", true}}}}));
  f.server->server()->remove_prompt("q");
  f.server->server()->remove_tool("new");
  seen = f.drain();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == tagged("notifications/prompts/list_changed", 7));
  CHECK(seen[1] == tagged("notifications/tools/list_changed", "L1"));

  // The client's cancellation ends a stream, with no answer.
  f.client.notify("notifications/cancelled", {{"requestId", "L1"}, {"_meta", stateless_meta()}});
  f.drain();
  CHECK(f.server->server()->notify_resource_updated("test://r") == 0);
  f.server->add_tool(named_tool("newer"));
  CHECK(f.drain().empty());
  f.server->add_prompt(Prompt{"q", "Again", {}, std::nullopt, [](RequestContext&) { return json::object(); }});
  seen = f.drain();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == tagged("notifications/prompts/list_changed", 7));

  // close() ends the rest gracefully: the empty result, naming the subscription.
  f.server->close();
  const auto end = f.client.next();
  REQUIRE(end);
  CHECK((*end)["id"] == 7);
  CHECK((*end)["result"]["resultType"] == "complete");
  CHECK((*end)["result"]["_meta"][kSubscriptionId] == 7);
}

TEST_CASE("subscriptions/listen leaves out what the server does not offer", "[listen]") {
  Fixture f(false);  // no prompt
  const auto ack = f.listen("L", {{"promptsListChanged", true}, {"resourcesListChanged", true}});
  CHECK(ack["params"]["notifications"] == json{{"resourcesListChanged", true}});
  f.server->add_resource(text_resource("test://new"));
  const auto seen = f.drain();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == tagged("notifications/resources/list_changed", "L"));
}

TEST_CASE("subscriptions/listen refuses malformed filters and too many streams", "[listen]") {
  Fixture f;
  CHECK(f.call("subscriptions/listen", json::object(), true)["error"]["code"] == -32602);
  CHECK(f.call("subscriptions/listen", {{"notifications", true}}, true)["error"]["code"] == -32602);
  CHECK(f.call("subscriptions/listen", {{"notifications", {{"toolsListChanged", "yes"}}}}, true)["error"]["code"] ==
        -32602);
  CHECK(f.call("subscriptions/listen", {{"notifications", {{"resourceSubscriptions", "test://r"}}}},
               true)["error"]["code"] == -32602);
  CHECK(f.call("subscriptions/listen", {{"notifications", {{"resourceSubscriptions", {1}}}}}, true)["error"]["code"] ==
        -32602);
  // Without the 2026-07-28 _meta (and without initialize) the request is 2025-11-25: no such method.
  CHECK(f.call("subscriptions/listen", {{"notifications", json::object()}})["error"]["code"] == -32601);

  for (int i = 0; i < 64; ++i) {
    const auto ack = f.listen("s" + std::to_string(i), json::object());
    REQUIRE(ack["method"] == "notifications/subscriptions/acknowledged");
  }
  const auto over = f.call("subscriptions/listen", {{"notifications", json::object()}}, true);
  CHECK(over["error"]["code"] == -32600);
  // One ends; then there is room for another.
  f.client.notify("notifications/cancelled", {{"requestId", "s0"}, {"_meta", stateless_meta()}});
  f.drain();
  CHECK(f.listen("again", json::object())["method"] == "notifications/subscriptions/acknowledged");
}

}  // namespace listen_test
