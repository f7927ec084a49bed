// The MCP side of a session's JSON-RPC connection: the client capabilities an initialize declares,
// and an elicitation that finds the connection full (tests/jsonrpc/connection_test.cpp has the rest).
#include <catch2/catch.hpp>

#include <elicit/elicitation.hpp>
#include <elicit/jsonrpc/connection.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>

#include "../support/collector.hpp"
#include "../support/fake_client.hpp"

namespace session_limits_test {

using namespace elicit;
using nlohmann::json;
using test_support::Collector;

TEST_CASE("client capabilities: elicitation {} means form only", "[session][capabilities]") {
  auto c = ClientCapabilities::from_json({{"elicitation", json::object()}});
  CHECK(c.elicitation_form);
  CHECK_FALSE(c.elicitation_url);
  c = ClientCapabilities::from_json({{"elicitation", {{"form", json::object()}, {"url", json::object()}}}});
  CHECK(c.elicitation_form);
  CHECK(c.elicitation_url);
  c = ClientCapabilities::from_json({{"elicitation", {{"url", json::object()}}}});
  CHECK_FALSE(c.elicitation_form);
  CHECK(c.elicitation_url);
  c = ClientCapabilities::from_json({{"sampling", json::object()}});
  CHECK_FALSE(c.elicitation_form);
  CHECK_FALSE(c.elicitation_url);
  c = ClientCapabilities::from_json("garbage");
  CHECK(c.known);
  CHECK_FALSE(c.elicitation_form);
}

TEST_CASE("requests beyond max_pending_requests are not sent and fail at once", "[session][limits]") {
  Collector c;  // declared first: the session, destroyed before it, fails what is still pending into it
  auto ends = MemoryTransport::pair();
  FakeClient client(std::move(ends.second));
  jsonrpc::ConnectionOptions o;
  o.log = [](std::string_view) {};
  o.max_pending_requests = 2;
  jsonrpc::Connection session(*ends.first, o);
  session.start();
  session.send_request("test/a", json::object(), c.handler(0));
  session.send_request("test/b", json::object(), c.handler(1));
  const auto first = client.next();
  REQUIRE(first);
  REQUIRE(client.next());
  session.send_request("test/c", json::object(), c.handler(2));  // a third while two wait
  REQUIRE(c.wait_for(1));
  CHECK(c.got[2][0].failure == RequestFailure::too_many_pending);
  CHECK(session.pending_requests() == 2);
  // Once one is answered there is room again.
  client.respond((*first)["id"], json::object());
  REQUIRE(c.wait_for(2));
  session.send_request("test/d", json::object(), c.handler(3));
  const auto fourth = client.next();
  REQUIRE(fourth);
  CHECK((*fourth)["method"] == "test/d");  // test/c was never sent
  // An elicitation that finds the session full ends `aborted`, saying why.
  RawOutcome r = read_elicit_result(RequestOutcome{std::nullopt, std::nullopt, RequestFailure::too_many_pending});
  CHECK(r.status == ElicitStatus::aborted);
  CHECK_THAT(r.problem, Catch::Contains("max_pending_requests"));
}

}  // namespace session_limits_test
