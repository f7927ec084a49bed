// No silent deadlock, no crash in the MCP layer: blocking elicitation refuses to run on event
// threads, and exceptions from asynchronous elicitation callbacks are caught (logged; a
// RequestContext's answer the call). The JSON-RPC layer's part is tests/jsonrpc/event_thread_test.cpp.
#include <catch2/catch.hpp>

#include <future>

#include <elicit/server_session.hpp>

#include "../support/server_fixture.hpp"
#include "contact_information.hpp"

namespace event_thread_test {

using namespace elicit;
using nlohmann::json;
using samples::ContactInformation;
using test_support::kPatience;
using test_support::Recorder;
using test_support::ServerFixture;

namespace {
const json kForm = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}}};
const json kAnn = {{"action", "accept"}, {"content", {{"name", "Ann"}, {"email", "ann@example.com"}}}};
}  // namespace

TEST_CASE("blocking elicit in an async handler is a logic_error naming elicit_async, answered as a tool error",
          "[event_thread][async]") {
  ServerFixture f;
  f.server->add_tool(
      Tool{"bad", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
             call->reply(ToolResult::text(call->elicit<ContactInformation>().value->name));
           }});
  f.server->add_tool(
      Tool{"bad_url", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
             call->elicit_url("m", "https://example.com/x");
           }});
  f.server->start();
  f.client.initialize(kForm);
  for (const char* tool : {"bad", "bad_url"}) {
    f.client.request(tool, "tools/call", {{"name", tool}});
    const auto r = f.client.next();  // at once: nothing was sent, nothing hangs
    REQUIRE(r);
    CHECK((*r)["id"] == tool);
    CHECK((*r)["result"]["isError"] == true);
    const auto text = (*r)["result"]["content"][0]["text"].get<std::string>();
    CHECK(text.find("event thread") != std::string::npos);
    CHECK(text.find("_async") != std::string::npos);
  }
  CHECK(f.server->state().rpc().pending_requests() == 0);
}

TEST_CASE("blocking elicit inside an elicit_async callback throws a logic_error naming elicit_async",
          "[event_thread]") {
  ServerFixture f;
  Recorder<std::string> what;
  f.server->add_tool(
      Tool{"nested", "", {{"type", "object"}}, std::nullopt, nullptr, [&](std::shared_ptr<RequestContext> call) {
             elicit_async<ContactInformation>(
                 call->state(), "first",
                 [&what, call](Outcome<ContactInformation>) {
                   try {
                     call->elicit<ContactInformation>();
                   } catch (const std::logic_error& e) {
                     what.add(e.what());
                   }
                   call->reply(ToolResult::text("ok"));
                 },
                 call->elicit_options());
           }});
  f.server->start();
  f.client.initialize(kForm);
  f.client.request(1, "tools/call", {{"name", "nested"}});
  const auto e = f.client.next();
  REQUIRE(e);
  f.client.respond((*e)["id"], kAnn);
  const auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["result"]["content"][0]["text"] == "ok");
  REQUIRE(what.wait(1));
  CHECK(what.values()[0].find("elicit_async") != std::string::npos);
}

TEST_CASE("an exception in a RequestContext::elicit_async callback answers the call with a tool error",
          "[async][exceptions][server]") {
  ServerFixture f;
  f.server->add_tool(
      Tool{"throws", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
             call->elicit_async<ContactInformation>(
                 "Who?", [](Outcome<ContactInformation>) { throw std::runtime_error("boom in callback"); });
           }});
  f.server->add_tool(
      Tool{"needs_url", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
             call->elicit_async<ContactInformation>([call](Outcome<ContactInformation>) {
               throw UrlElicitationRequired(
                   {create_url_elicitation(call->state(), "Authorize", "https://example.com/auth")});
             });
           }});
  f.server->add_tool(
      Tool{"url_throws", "", {{"type", "object"}}, std::nullopt, nullptr, [](std::shared_ptr<RequestContext> call) {
             call->elicit_url_async("Connect", "https://example.com/c",
                                    [](UrlOutcome) { throw std::runtime_error("url boom"); });
           }});
  f.server->start();
  f.client.initialize(kForm);

  f.client.request(1, "tools/call", {{"name", "throws"}});
  auto e = f.client.next();
  REQUIRE(e);
  f.client.respond((*e)["id"], kAnn);
  auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["id"] == 1);
  CHECK((*r)["result"]["isError"] == true);
  CHECK((*r)["result"]["content"][0]["text"] == "boom in callback");
  CHECK(f.logged("boom in callback"));

  f.client.request(2, "tools/call", {{"name", "needs_url"}});
  e = f.client.next();
  REQUIRE(e);
  f.client.respond((*e)["id"], {{"action", "decline"}});
  r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["error"]["code"] == error_code::url_elicitation_required);

  f.client.request(3, "tools/call", {{"name", "url_throws"}});
  e = f.client.next();
  REQUIRE(e);
  f.client.respond((*e)["id"], {{"action", "accept"}});
  r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["result"]["content"][0]["text"] == "url boom");

  f.client.request(4, "ping");  // the process and the session are alive
  CHECK((*f.client.next())["id"] == 4);
}

TEST_CASE("an exception in a free elicit_async / elicit_url_async callback is logged, not fatal",
          "[async][exceptions]") {
  auto ends = MemoryTransport::pair();
  FakeClient client(std::move(ends.second));
  Recorder<std::string> log;
  jsonrpc::Connection session(*ends.first,
                              jsonrpc::ConnectionOptions{[&](std::string_view line) { log.add(std::string(line)); }});
  SessionState mcp(session);
  session.start();
  mcp.set_client_capabilities(ClientCapabilities::from_json(kForm));
  elicit_async<ContactInformation>(mcp, "m",
                                   [](Outcome<ContactInformation>) { throw std::runtime_error("form callback"); });
  elicit_url_async(mcp, "m", "https://example.com/u", [](UrlOutcome) { throw std::runtime_error("url callback"); });
  for (int i = 0; i < 2; ++i) {
    const auto e = client.next();
    REQUIRE(e);
    client.respond((*e)["id"], {{"action", "cancel"}});
  }
  REQUIRE(log.wait(2));
  const auto lines = log.values();
  CHECK(lines[0].find("form callback") != std::string::npos);
  CHECK(lines[1].find("url callback") != std::string::npos);
  // Also when the callback runs at once, on the caller's thread (no capability).
  mcp.set_client_capabilities(ClientCapabilities::from_json(json::object()));
  CHECK_NOTHROW(elicit_async<ContactInformation>(mcp, "m", [](Outcome<ContactInformation>) { throw 42; }));
  REQUIRE(log.wait(3));
  CHECK(session.notify("test/alive", json::object()));
  CHECK((*client.next())["method"] == "test/alive");
}

}  // namespace event_thread_test
