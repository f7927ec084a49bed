// interaction/notify of the userInteraction dialect (user-interaction-draft.md, "Progress
// Tracking") over the in-memory transport: progress while an interaction runs, the answer when it
// ends, and silence for whatever is not an interaction of this client and session. Silence is
// checked without waiting: messages are handled in order, so once a later ping is answered, the
// notify before it was handled and got nothing.
#include <catch2/catch.hpp>

#include <elicit/server.hpp>
#include <elicit/user_interaction.hpp>

#include "contact_information.hpp"
#include "fake_client.hpp"

using namespace elicit;
using nlohmann::json;

namespace {

const json kCaps = {{"userInteraction", {{"types", {"ua", "prompt"}}, {"progress", true}}}};

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
                            return ToolResult::text(o ? o.value->name : std::string(to_string(o.status)));
                          },
                          nullptr});
    server->add_tool(Tool{"open",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](ToolCall& call) {
                            auto o = call.elicit_url("Sign in", "https://auth.example.com/start");
                            return ToolResult::text(o.elicitation_id);
                          },
                          nullptr});
    // What the application's page does as the user gets through a ua interaction, then at its end.
    server->add_tool(Tool{"finish",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](ToolCall& call) {
                            const auto id = call.arguments().value("id", std::string());
                            const auto sent = interaction_progress(call.session(), id, 50, 100, "half way");
                            const bool ended = complete_url_elicitation(call.session(), id);
                            return ToolResult::text(std::to_string(sent) + " " + (ended ? "ended" : "unknown"));
                          },
                          nullptr});
    server->start();
    client.initialize(kCaps);
  }
  ~Fixture() { server.reset(); }

  void notify_request(const json& id, const json& params) { client.request(id, "interaction/notify", params); }
  // True when the next message answers the ping sent now, i.e. nothing came before it.
  bool nothing_before_ping(int ping_id = 900) {
    client.request(ping_id, "ping");
    const auto m = client.next().value_or(json());
    return m.value("id", json()) == ping_id && m.contains("result");
  }
  json next() { return client.next().value_or(json()); }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<Server> server;
};

json notify_params(const std::string& id, const json& token = "tok") {
  return {{"id", id}, {"_meta", {{"progressToken", token}}}};
}

}  // namespace

TEST_CASE("notify on a prompt interaction: progress now, the answer when the user answers",
          "[user_interaction][notify]") {
  Fixture f;
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = f.next();
  REQUIRE(create["method"] == "interaction/create");
  const auto id = create["params"]["id"].get<std::string>();
  f.notify_request("n1", notify_params(id, 7));
  const auto p = f.next();
  CHECK(p["method"] == "notifications/progress");
  CHECK(p["params"]["progressToken"] == 7);
  CHECK(p["params"]["progress"] == 0);
  f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  const auto answered = f.next();
  CHECK(answered["id"] == "n1");
  CHECK(answered["result"] == json::object());
  const auto result = f.next();
  CHECK(result["id"] == 1);
  CHECK(result["result"]["content"][0]["text"] == "Ada");
  // Once ended, a late notify is answered at once.
  f.notify_request("n2", notify_params(id));
  const auto late = f.next();
  CHECK(late["id"] == "n2");
  CHECK(late["result"] == json::object());
}

TEST_CASE("notify on a ua interaction follows it out of band until it completes", "[user_interaction][notify]") {
  Fixture f;
  f.client.request(1, "tools/call", {{"name", "open"}});
  const auto create = f.next();
  REQUIRE(create["params"]["type"] == "ua");
  const auto id = create["params"]["id"].get<std::string>();
  f.client.respond(create["id"], json::object());  // the client opened the URL
  CHECK(f.next()["result"]["content"][0]["text"] == id);
  f.notify_request("n1", notify_params(id));
  CHECK(f.next()["params"]["progress"] == 0);
  f.client.request(2, "tools/call", {{"name", "finish"}, {"arguments", {{"id", id}}}});
  const auto p = f.next();
  CHECK(p["method"] == "notifications/progress");
  CHECK(p["params"] == json{{"progressToken", "tok"}, {"progress", 50}, {"total", 100}, {"message", "half way"}});
  const auto answered = f.next();
  CHECK(answered["id"] == "n1");
  CHECK(answered["result"] == json::object());
  CHECK(f.next()["result"]["content"][0]["text"] == "1 ended");
}

TEST_CASE("notify is never answered for what is not an interaction of this session", "[user_interaction][notify]") {
  Fixture a;
  Fixture b;
  a.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = a.next();
  REQUIRE(create["method"] == "interaction/create");
  const auto id = create["params"]["id"].get<std::string>();

  // Session B naming session A's interaction: silence.
  b.notify_request("n1", notify_params(id));
  CHECK(b.nothing_before_ping(901));
  // Unknown ids, and params without a string id: silence.
  a.notify_request("n2", notify_params("00000000000000000000000000000000"));
  a.notify_request("n3", {{"id", 5}, {"_meta", {{"progressToken", "t"}}}});
  a.notify_request("n4", json::array());
  CHECK(a.nothing_before_ping(902));
  // An interaction of this session without a usable progressToken: -32602.
  a.notify_request("n5", {{"id", id}});
  CHECK(a.next()["error"]["code"] == -32602);
  // A's interaction still works for A.
  a.notify_request("n6", notify_params(id));
  CHECK(a.next()["method"] == "notifications/progress");
  a.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  CHECK(a.next()["id"] == "n6");
}

TEST_CASE("without progress support, notify is never answered, even for its own interaction",
          "[user_interaction][notify]") {
  Fixture f(true, false);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = f.next();
  REQUIRE(create["method"] == "interaction/create");
  f.notify_request("n1", notify_params(create["params"]["id"].get<std::string>()));
  CHECK(f.nothing_before_ping());
  f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  // The interaction's end answers no notify: the next message is the tool's result.
  CHECK(f.next()["id"] == 1);
}

TEST_CASE("with the dialect off, interaction/notify is not a method", "[user_interaction][notify]") {
  Fixture f(false);
  f.notify_request("n1", notify_params("x"));
  CHECK(f.next()["error"]["code"] == -32601);
}
