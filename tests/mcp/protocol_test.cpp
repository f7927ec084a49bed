// Protocol hygiene: one initialize per session; a request id still in use is refused.
#include <catch2/catch.hpp>

#include <elicit/server_session.hpp>

#include "../support/server_fixture.hpp"
#include "contact_information.hpp"

namespace protocol_test {

using namespace elicit;
using nlohmann::json;
using test_support::ServerFixture;

TEST_CASE("a second initialize is refused with -32600 and the capabilities stay as they were", "[protocol][server]") {
  ServerFixture f;
  f.server->start();
  f.client.initialize({{"elicitation", {{"url", json::object()}}}});
  f.client.request("again", "initialize",
                   {{"protocolVersion", "2025-06-18"},
                    {"capabilities", json::object()},
                    {"clientInfo", {{"name", "other"}, {"version", "2"}}}});
  const auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["id"] == "again");
  CHECK((*r)["error"]["code"] == error_code::invalid_request);
  CHECK((*r)["error"]["message"].get<std::string>().find("already initialized") != std::string::npos);
  const auto caps = f.server->state().client_capabilities();
  CHECK(caps.elicitation_url);
  CHECK_FALSE(caps.elicitation_form);
  f.client.request(2, "ping");
  CHECK((*f.client.next())["id"] == 2);
}

TEST_CASE("a request reusing the id of a pending one is refused, the first is unaffected", "[protocol][server]") {
  ServerFixture f;
  f.server->add_tool(Tool{"ask",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [](RequestContext& call) {
                            auto o = call.elicit<samples::ContactInformation>();
                            return ToolResult::text(o ? o.value->name : "none");
                          },
                          nullptr});
  f.server->start();
  f.client.initialize({{"elicitation", json::object()}});
  f.client.request(5, "tools/call", {{"name", "ask"}});
  const auto e = f.client.next();
  REQUIRE(e);
  REQUIRE((*e)["method"] == "elicitation/create");
  f.client.request(5, "ping");
  auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["id"] == 5);
  CHECK((*r)["error"]["code"] == error_code::invalid_request);
  f.client.request(5, "tools/call", {{"name", "ask"}});  // a second call with it: refused too
  r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["error"]["code"] == error_code::invalid_request);
  CHECK(f.server->state().rpc().pending_requests() == 1);  // no second form
  f.client.respond((*e)["id"], {{"action", "accept"}, {"content", {{"name", "Ann"}, {"email", "a@b.co"}}}});
  r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["id"] == 5);
  CHECK((*r)["result"]["content"][0]["text"] == "Ann");
  f.client.request(5, "ping");  // answered now: the id may be used again (it is no longer pending)
  r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["result"] == json::object());
}

}  // namespace protocol_test
