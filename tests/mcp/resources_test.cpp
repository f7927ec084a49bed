// Resource templates, completion/complete and resource subscriptions through elicit::ServerSession, in
// both eras (MCP 2025-11-25, Server, Resources and Utilities, "Completion"; 2026-07-28 has no
// resources/subscribe: listen_test.cpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "../support/stateless_meta.hpp"

namespace resources_test {

using namespace elicit;
using nlohmann::json;
using test_support::stateless_meta;

namespace {

json contents(const std::string& uri, const std::string& text) {
  return {{"contents", {{{"uri", uri}, {"mimeType", "text/plain"}, {"text", text}}}}};
}

struct Fixture {
  explicit Fixture(bool with_completers = true) : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = 1;
    o.session.log = [this](std::string_view line) {
      std::lock_guard<std::mutex> lock(log_mutex);
      log += std::string(line) + "\n";
    };
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"resources-test", "1"}, o);
    server->add_resource(Resource{"test://exact/1/data", "exact", "An exact resource", std::string("text/plain"),
                                  [](RequestContext& call) { return contents(call.arguments()["uri"], "exact"); }});
    ResourceTemplate items{
        "test://items/{id}/data", "items", "Items by id", std::string("text/plain"),
        [](RequestContext& call) { return contents(call.arguments()["uri"], call.arguments().dump()); }};
    ResourceTemplate files{"test://{+path}", "files", "Anything else", std::nullopt,
                           [](RequestContext& call) { return contents(call.arguments()["uri"], "file"); }};
    PromptArgument language{"language", "A programming language", true};
    PromptArgument style{"style", "No completer", false};
    if (with_completers) {
      items.completions["id"] = complete_from({"100", "101", "200"});
      language.complete = complete_from({"C", "C++", "Cobol", "Go", "cue"});
      PromptArgument many{"many", "Many values", false, [](const CompletionRequest& r) {
                            Completion c;
                            for (int i = 0; i < 250; ++i) c.values.push_back(r.value + std::to_string(i));
                            return c;
                          }};
      PromptArgument by_context{
          "framework", "Depends on language", false, [](const CompletionRequest& r) {
            const auto it = r.context.find("language");
            return Completion{{it == r.context.end() ? "none" : it->second + "-framework"}, std::size_t{7}, true};
          }};
      PromptArgument failing{"failing", "Throws", false,
                             [](const CompletionRequest&) -> Completion { throw std::runtime_error("secret detail"); }};
      server->add_prompt(
          Prompt{"code", "Code", {language, style, many, by_context, failing}, std::nullopt, [](RequestContext&) {
                   return json{{"messages", json::array()}};
                 }});
    } else {
      server->add_prompt(Prompt{"code", "Code", {language, style}, std::nullopt, [](RequestContext&) {
                                  return json{{"messages", json::array()}};
                                }});
    }
    server->add_resource_template(std::move(items));
    server->add_resource_template(std::move(files));
    server->start();
  }
  ~Fixture() { server.reset(); }

  json call(const std::string& method, const json& params) {
    const json id = "r" + std::to_string(++next_id);
    client.request(id, method, params);
    for (int i = 0; i < 16; ++i) {
      auto m = client.next();
      REQUIRE(m);
      if (m->contains("id") && (*m)["id"] == id) return *m;
      seen.push_back(*m);  // notifications before the response
    }
    FAIL("no response to " << method);
    return nullptr;
  }
  json complete(const json& ref, const std::string& argument, const std::string& value, const json& extra = {}) {
    json params{{"ref", ref}, {"argument", {{"name", argument}, {"value", value}}}};
    if (!extra.is_null()) params.update(extra);
    return call("completion/complete", params);
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  std::vector<json> seen;
  int next_id = 0;
  std::mutex log_mutex;
  std::string log;
};

json prompt_ref() { return {{"type", "ref/prompt"}, {"name", "code"}}; }

}  // namespace

TEST_CASE("resources/templates/list lists the templates in the order added", "[resources]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto r = f.call("resources/templates/list", json::object())["result"];
  REQUIRE(r["resourceTemplates"].size() == 2);
  CHECK(r["resourceTemplates"][0] == json{{"uriTemplate", "test://items/{id}/data"},
                                          {"name", "items"},
                                          {"description", "Items by id"},
                                          {"mimeType", "text/plain"}});
  CHECK(r["resourceTemplates"][1]["uriTemplate"] == "test://{+path}");
  CHECK_FALSE(r["resourceTemplates"][1].contains("mimeType"));
  // 2026-07-28 (a connection without initialize): the same list with caching hints.
  Fixture g;
  const auto m = g.call("resources/templates/list", {{"_meta", stateless_meta()}})["result"];
  CHECK(m["resourceTemplates"] == r["resourceTemplates"]);
  CHECK(m["resultType"] == "complete");
  CHECK(m.contains("ttlMs"));
  CHECK(m.contains("cacheScope"));
}

TEST_CASE("resources/read of a template URI runs its handler with the variables", "[resources]") {
  Fixture f;
  f.client.initialize(json::object());
  auto r = f.call("resources/read", {{"uri", "test://items/a%2Fb/data"}})["result"];
  CHECK(json::parse(r["contents"][0]["text"].get<std::string>()) ==
        json{{"uri", "test://items/a%2Fb/data"}, {"variables", {{"id", "a/b"}}}});
  CHECK(r["contents"][0]["uri"] == "test://items/a%2Fb/data");
  // An exact resource wins over a template that also matches; templates are tried in order.
  CHECK(f.call("resources/read", {{"uri", "test://exact/1/data"}})["result"]["contents"][0]["text"] == "exact");
  CHECK(f.call("resources/read", {{"uri", "test://items/1/2/data"}})["result"]["contents"][0]["text"] == "file");
  // Nothing matches: -32602 naming the URI, in both eras.
  const auto miss = f.call("resources/read", {{"uri", "other://x"}});
  CHECK(miss["error"]["code"] == -32602);
  CHECK(miss["error"]["data"] == json{{"uri", "other://x"}});
  Fixture g;  // 2026-07-28: no initialize
  const auto stateless = g.call("resources/read", {{"uri", "test://items/7/data"}, {"_meta", stateless_meta()}});
  CHECK(stateless["result"]["resultType"] == "complete");
  CHECK(json::parse(stateless["result"]["contents"][0]["text"].get<std::string>())["variables"] == json{{"id", "7"}});
}

TEST_CASE("Adding a template checks it", "[resources]") {
  Fixture f;
  const auto handler = [](RequestContext&) { return json::object(); };
  CHECK_THROWS_WITH(f.server->add_resource_template(ResourceTemplate{"x://{a", "bad", "", std::nullopt, handler}),
                    Catch::Contains("without '}'"));
  CHECK_THROWS_WITH(
      f.server->add_resource_template(ResourceTemplate{"test://items/{id}/data", "dup", "", std::nullopt, handler}),
      Catch::Contains("duplicate resource template"));
  CHECK_THROWS_WITH(f.server->add_resource_template(ResourceTemplate{"x://{a}", "none", "", std::nullopt}),
                    Catch::Contains("no handler"));
  ResourceTemplate wrong_var{"x://{a}", "wrong", "", std::nullopt, handler};
  wrong_var.completions["b"] = complete_from({});
  CHECK_THROWS_WITH(f.server->add_resource_template(std::move(wrong_var)), Catch::Contains("no variable b"));
}

TEST_CASE("completion/complete answers from the argument's Completer", "[completion]") {
  Fixture f;
  const auto init = f.client.initialize(json::object());
  CHECK(init["capabilities"]["completions"] == json::object());

  auto r = f.complete(prompt_ref(), "language", "c")["result"]["completion"];
  CHECK(r == json{{"values", {"C", "C++", "Cobol", "cue"}}, {"hasMore", false}});
  r = f.complete(prompt_ref(), "language", "")["result"]["completion"];
  CHECK(r["values"].size() == 5);
  // No completer: no values.
  CHECK(f.complete(prompt_ref(), "style", "x")["result"]["completion"] ==
        json{{"values", json::array()}, {"hasMore", false}});
  // At most 100 values are sent; the rest are counted.
  r = f.complete(prompt_ref(), "many", "v")["result"]["completion"];
  CHECK(r["values"].size() == 100);
  CHECK(r["values"][0] == "v0");
  CHECK(r["hasMore"] == true);
  CHECK(r["total"] == 250);
  // The context's arguments reach the completer; its total and hasMore are passed on.
  r = f.complete(prompt_ref(), "framework", "", {{"context", {{"arguments", {{"language", "C++"}}}}}})["result"];
  CHECK(r["completion"] == json{{"values", {"C++-framework"}}, {"total", 7}, {"hasMore", true}});
  // A template variable.
  r = f.complete({{"type", "ref/resource"}, {"uri", "test://items/{id}/data"}}, "id", "10")["result"];
  CHECK(r["completion"]["values"] == json{"100", "101"});
  // 2026-07-28 (no initialize): the same answer, stamped.
  Fixture g;
  const auto m = g.complete(prompt_ref(), "language", "go", {{"_meta", stateless_meta()}})["result"];
  CHECK(m["completion"]["values"] == json{"Go"});
  CHECK(m["resultType"] == "complete");
}

TEST_CASE("completion/complete refuses what it cannot complete", "[completion]") {
  Fixture f;
  f.client.initialize(json::object());
  const auto code = [&](const json& response) { return response["error"]["code"].get<int>(); };
  CHECK(code(f.complete({{"type", "ref/prompt"}, {"name", "nope"}}, "x", "")) == -32602);
  CHECK(code(f.complete(prompt_ref(), "nope", "")) == -32602);
  CHECK(code(f.complete({{"type", "ref/resource"}, {"uri", "test://unknown/{x}"}}, "x", "")) == -32602);
  CHECK(code(f.complete({{"type", "ref/resource"}, {"uri", "test://items/{id}/data"}}, "other", "")) == -32602);
  CHECK(code(f.complete({{"type", "ref/tool"}, {"name", "code"}}, "x", "")) == -32602);
  CHECK(code(f.call("completion/complete", {{"ref", prompt_ref()}})) == -32602);
  CHECK(code(f.call("completion/complete",
                    {{"ref", prompt_ref()}, {"argument", {{"name", "language"}, {"value", 3}}}})) == -32602);
  // A completer that throws: -32603 without its text, which goes to the server's log.
  const auto failed = f.complete(prompt_ref(), "failing", "");
  CHECK(code(failed) == -32603);
  CHECK(failed["error"]["message"].get<std::string>().find("secret") == std::string::npos);
  std::lock_guard<std::mutex> lock(f.log_mutex);
  CHECK_THAT(f.log, Catch::Contains("secret detail"));
}

TEST_CASE("Without a Completer the server has no completions capability and no completion/complete", "[completion]") {
  Fixture f(false);
  const auto init = f.client.initialize(json::object());
  CHECK_FALSE(init["capabilities"].contains("completions"));
  CHECK(f.complete(prompt_ref(), "language", "")["error"]["code"] == -32601);
}

TEST_CASE("A subscribed session is told when the resource changes, until it unsubscribes", "[subscribe]") {
  Fixture f;
  const auto init = f.client.initialize(json::object());
  CHECK(init["capabilities"]["resources"]["subscribe"] == true);
  CHECK(f.call("resources/subscribe", {{"uri", "test://exact/1/data"}})["result"] == json::object());
  CHECK(f.call("resources/subscribe", {{"uri", "test://items/5/data"}})["result"] == json::object());
  CHECK(f.call("resources/subscribe", {{"uri", "test://exact/1/data"}})["result"] == json::object());  // again

  CHECK(f.server->server()->notify_resource_updated("test://exact/1/data") == 1);  // once, not twice
  CHECK(f.server->server()->notify_resource_updated("test://items/6/data") == 0);
  f.call("ping", json::object());  // after the notification, in order
  REQUIRE(f.seen.size() == 1);
  CHECK(f.seen[0] == json{{"jsonrpc", "2.0"},
                          {"method", "notifications/resources/updated"},
                          {"params", {{"uri", "test://exact/1/data"}}}});

  CHECK(f.call("resources/unsubscribe", {{"uri", "test://exact/1/data"}})["result"] == json::object());
  CHECK(f.call("resources/unsubscribe", {{"uri", "test://never/subscribed"}})["result"] == json::object());
  CHECK(f.server->server()->notify_resource_updated("test://exact/1/data") == 0);
  CHECK(f.server->server()->notify_resource_updated("test://items/5/data") == 1);

  // Unknown resources and malformed params.
  const auto miss = f.call("resources/subscribe", {{"uri", "other://x"}});
  CHECK(miss["error"]["code"] == -32602);
  CHECK(miss["error"]["data"] == json{{"uri", "other://x"}});
  CHECK(f.call("resources/subscribe", json::object())["error"]["code"] == -32602);
}

TEST_CASE("Subscriptions per session are bounded", "[subscribe]") {
  Fixture f;
  f.client.initialize(json::object());
  for (std::size_t i = 0; i < Subscriptions::max_uris_per_subscriber; ++i) {
    const auto r = f.call("resources/subscribe", {{"uri", "test://items/" + std::to_string(i) + "/data"}});
    REQUIRE(r["result"] == json::object());
  }
  const auto over = f.call("resources/subscribe", {{"uri", "test://items/x/data"}});
  CHECK(over["error"]["code"] == -32602);
  CHECK_THAT(over["error"]["message"].get<std::string>(), Catch::Contains("Too many subscriptions"));
  // Re-subscribing to one it holds is no new subscription.
  CHECK(f.call("resources/subscribe", {{"uri", "test://items/0/data"}})["result"] == json::object());
}

TEST_CASE("MCP 2026-07-28 has no resources/subscribe: it subscribes with subscriptions/listen", "[subscribe]") {
  Fixture f;
  const auto discover = f.call("server/discover", {{"_meta", stateless_meta()}})["result"];
  CHECK(discover["capabilities"]["resources"]["subscribe"] == true);  // through resourceSubscriptions
  const auto r = f.call("resources/subscribe", {{"uri", "test://exact/1/data"}, {"_meta", stateless_meta()}});
  CHECK(r["error"]["code"] == -32601);
}

TEST_CASE("A server that goes away is detached, even while updates are being sent", "[subscribe]") {
  Fixture f;
  f.client.initialize(json::object());
  REQUIRE(f.call("resources/subscribe", {{"uri", "test://exact/1/data"}})["result"] == json::object());
  const auto core = f.server->server();
  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0};
  std::thread notifier([&] {
    for (int i = 0; i < 100000 && !stop; ++i) {  // bounded; ends once the server is gone
      core->notify_resource_updated("test://exact/1/data");
      rounds.fetch_add(1);
      std::this_thread::yield();
    }
  });
  while (rounds.load() < 10) std::this_thread::yield();
  f.server.reset();  // detaches while the notifier runs
  CHECK(core->notify_resource_updated("test://exact/1/data") == 0);
  stop = true;
  notifier.join();
}

}  // namespace resources_test
