// The server core: lifecycle, tools, and tools that elicit, blocking and asynchronous.
#include <catch2/catch.hpp>

#include <atomic>

#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "contact_information.hpp"
#include "github_username.hpp"

namespace server_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

struct Fixture {
  explicit Fixture(std::size_t workers = 2) : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = workers;
    o.session.log = [](std::string_view) {};
    server =
        std::make_unique<ServerSession>(*ends.first, ServerInfo{"test-server", "1.2.3", std::nullopt, "Be nice."}, o);
  }
  ~Fixture() { server.reset(); }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
};

Tool ask_contact() {
  return Tool{"ask_contact",
              "Asks for contact details",
              {{"type", "object"}},
              std::nullopt,
              [](RequestContext& call) {
                auto o = call.elicit<samples::ContactInformation>();
                if (!o) return ToolResult::text(std::string("no: ") + std::string(to_string(o.status)));
                return ToolResult::text("hello " + o.value->name);
              },
              nullptr};
}

}  // namespace

TEST_CASE("initialize negotiates the protocol version and reads the capabilities", "[server]") {
  for (const auto& [asked, answered] : std::vector<std::pair<std::string, std::string>>{
           {"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"1999-01-01", "2025-11-25"}}) {
    Fixture f;
    f.server->start();
    const auto r = f.client.initialize({{"elicitation", json::object()}}, asked);
    CHECK(r["protocolVersion"] == answered);
    CHECK(r["serverInfo"]["name"] == "test-server");
    CHECK(r["serverInfo"]["version"] == "1.2.3");
    CHECK(r["instructions"] == "Be nice.");
    CHECK(r["capabilities"].contains("tools"));
    const auto caps = f.server->state().client_capabilities();
    CHECK(caps.elicitation_form);
    CHECK_FALSE(caps.elicitation_url);
  }
}

TEST_CASE("ping, tools/list, unknown tools and unknown methods", "[server]") {
  Fixture f;
  f.server->add_tool(ask_contact());
  CHECK_THROWS_AS(f.server->add_tool(ask_contact()), std::invalid_argument);
  f.server->start();
  f.client.initialize(json::object());
  f.client.request(1, "ping");
  CHECK((*f.client.next())["result"] == json::object());
  f.client.request(2, "tools/list");
  const auto list = (*f.client.next())["result"]["tools"];
  REQUIRE(list.size() == 1);
  CHECK(list[0]["name"] == "ask_contact");
  CHECK(list[0]["inputSchema"]["type"] == "object");
  f.client.request(3, "tools/call", {{"name", "nope"}});
  auto m = *f.client.next();
  CHECK(m["error"]["code"] == error_code::invalid_params);
  f.client.request(4, "tools/call", {{"arguments", json::object()}});
  CHECK((*f.client.next())["error"]["code"] == error_code::invalid_params);
  f.client.request(5, "resources/list");
  CHECK((*f.client.next())["error"]["code"] == error_code::method_not_found);
}

TEST_CASE("a blocking tool elicits and returns what the user gave", "[server][elicit]") {
  Fixture f;
  f.server->add_tool(ask_contact());
  f.server->start();
  f.client.initialize({{"elicitation", json::object()}});
  f.client.request("call-1", "tools/call", {{"name", "ask_contact"}, {"arguments", json::object()}});
  const auto e = *f.client.next();
  CHECK(e["method"] == "elicitation/create");
  f.client.respond(e["id"], {{"action", "accept"}, {"content", {{"name", "Ann"}, {"email", "ann@example.com"}}}});
  const auto r = *f.client.next();
  CHECK(r["id"] == "call-1");
  CHECK(r["result"]["content"][0]["text"] == "hello Ann");
}

TEST_CASE("without the capability the tool learns it is unsupported and nothing is sent", "[server][elicit]") {
  Fixture f;
  f.server->add_tool(ask_contact());
  f.server->start();
  f.client.initialize(json::object());
  f.client.request(1, "tools/call", {{"name", "ask_contact"}});
  const auto r = *f.client.next();  // the tool result comes first: no elicitation was sent
  CHECK(r["result"]["content"][0]["text"] == "no: unsupported");
}

TEST_CASE("concurrent tool calls, answered out of order", "[server][elicit]") {
  Fixture f(2);
  f.server->add_tool(ask_contact());
  f.server->start();
  f.client.initialize({{"elicitation", json::object()}});
  f.client.request(1, "tools/call", {{"name", "ask_contact"}});
  f.client.request(2, "tools/call", {{"name", "ask_contact"}});
  const auto e1 = *f.client.next();
  const auto e2 = *f.client.next();
  f.client.respond(e2["id"], {{"action", "accept"}, {"content", {{"name", "Second"}, {"email", "b@b.co"}}}});
  f.client.respond(e1["id"], {{"action", "decline"}});
  std::map<int, std::string> texts;
  for (int i = 0; i < 2; ++i) {
    const auto r = *f.client.next();
    texts[r["id"].get<int>()] = r["result"]["content"][0]["text"];
  }
  // Which call sent which elicitation depends on scheduling; the two answers must both arrive.
  CHECK(((texts[1] == "no: declined" && texts[2] == "hello Second") ||
         (texts[2] == "no: declined" && texts[1] == "hello Second")));
}

TEST_CASE("tool failures are tool results, URLElicitationRequired is a -32042 error", "[server]") {
  Fixture f;
  f.server->add_tool(Tool{"fails",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](RequestContext&) -> ToolResult { throw std::runtime_error("disk full"); },
                          nullptr});
  f.server->add_tool(Tool{"needs_auth",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](RequestContext& call) -> ToolResult {
                            throw UrlElicitationRequired(
                                {create_url_elicitation(call.state(), "Authorize", "https://mcp.example.com/connect")});
                          },
                          nullptr});
  f.server->start();
  f.client.initialize({{"elicitation", {{"url", json::object()}}}});
  f.client.request(1, "tools/call", {{"name", "fails"}});
  auto r = *f.client.next();
  CHECK(r["result"]["isError"] == true);
  CHECK(r["result"]["content"][0]["text"] == "disk full");
  f.client.request(2, "tools/call", {{"name", "needs_auth"}});
  r = *f.client.next();
  CHECK(r["error"]["code"] == -32042);
  const auto parsed =
      parse_url_elicitation_required(RpcError{r["error"]["code"], r["error"]["message"], r["error"]["data"]});
  REQUIRE(parsed);
  CHECK((*parsed)[0].url == "https://mcp.example.com/connect");
  CHECK(complete_url_elicitation(f.server->state(), (*parsed)[0].elicitation_id));
  CHECK((*f.client.next())["method"] == "notifications/elicitation/complete");
}

TEST_CASE("a thousand asynchronous tool calls elicit at once on one worker thread", "[server][async]") {
  Fixture f(1);
  f.server->add_tool(Tool{
      "ask_async", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
        elicit_async<samples::GithubUsername>(
            call->state(), "Your GitHub username?",
            [call](Outcome<samples::GithubUsername> o) { call->reply(ToolResult::text(o ? o.value->name : "none")); },
            call->elicit_options());
      }});
  f.server->start();
  f.client.initialize({{"elicitation", json::object()}});
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) f.client.request(i, "tools/call", {{"name", "ask_async"}});
  std::vector<json> elicitations;
  for (int i = 0; i < kCalls; ++i) elicitations.push_back(*f.client.next());
  CHECK(f.server->state().rpc().pending_requests() == kCalls);
  for (int i = kCalls - 1; i >= 0; --i) {
    f.client.respond(elicitations[i]["id"],
                     {{"action", "accept"}, {"content", {{"name", "user" + std::to_string(i)}}}});
  }
  int answered = 0;
  for (int i = 0; i < kCalls; ++i) {
    const auto r = f.client.next();
    REQUIRE(r);
    answered += (*r)["result"]["content"][0]["text"].get<std::string>().rfind("user", 0) == 0;
  }
  CHECK(answered == kCalls);
  CHECK(f.server->state().rpc().pending_requests() == 0);
}

TEST_CASE("a tools/call the client cancels gets no answer", "[server][cancel]") {
  Fixture f;
  f.server->add_tool(ask_contact());
  f.server->start();
  f.client.initialize({{"elicitation", json::object()}});
  f.client.request("c", "tools/call", {{"name", "ask_contact"}});
  const auto e = *f.client.next();
  f.client.notify("notifications/cancelled", {{"requestId", "c"}, {"reason", "user gave up"}});
  const auto cancelled = *f.client.next();  // the call's form is cancelled with it
  CHECK(cancelled["method"] == "notifications/cancelled");
  CHECK(cancelled["params"]["requestId"] == e["id"]);
  f.client.respond(e["id"], {{"action", "cancel"}});  // late: ignored
  f.client.request(9, "ping");
  const auto r = *f.client.next();
  CHECK(r["id"] == 9);  // not a result for "c"
  CHECK_FALSE(f.client.next(200ms));
}

}  // namespace server_test
