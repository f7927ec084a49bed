// elicit::Client over HttpClientTransport against a scripted loopback HTTP server: a 2026-07-28
// request refused with -32022 (UnsupportedProtocolVersionError) is retried once with a version both
// sides speak (Versioning, "Protocol Version Negotiation"), under a new id, its MCP-Protocol-Version
// header equal to its _meta version; a server that lists no 2026-07-28 version is an error, not a loop.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

#include "../support/scripted_http_server.hpp"

namespace version_retry_test {

using namespace elicit;
using nlohmann::json;

namespace {

using test_support::Seen;

// Answers the POSTs in order: answer i is the status and JSON body of the i-th, its "id" set to the
// request's; past the list, a 400 that says so (a test that sees it has made a request too many).
std::function<std::string(const Seen&)> in_order(std::vector<std::pair<int, json>> answers) {
  auto next = std::make_shared<std::size_t>(0);
  return [answers = std::move(answers), next](const Seen& seen) {
    auto [status, answer] = *next < answers.size() ? answers[(*next)++]
                                                   : std::pair<int, json>{400, {{"error", "no more scripted answers"}}};
    answer["jsonrpc"] = "2.0";
    if (seen.body.is_object()) answer["id"] = seen.body.value("id", json());
    return test_support::json_response(answer, status);
  };
}

json unsupported(json supported) {
  return {{"error",
           {{"code", -32022},
            {"message", "Unsupported protocol version"},
            {"data", {{"supported", std::move(supported)}, {"requested", "2026-07-28"}}}}}};
}

std::unique_ptr<Client> client_for(const std::string& url) {
  http::HttpClientOptions t;
  t.url = url;
  ClientOptions o;
  o.session.log = [](std::string_view) {};
  return std::make_unique<Client>(std::make_unique<http::HttpClientTransport>(t), o);
}

const char* const version_key = "io.modelcontextprotocol/protocolVersion";

}  // namespace

TEST_CASE("client: -32022 is retried once with a version both speak", "[client][http]") {
  test_support::ScriptedServer server(
      in_order({{400, unsupported({"2025-11-25", "2026-07-28"})},
                {200, {{"result", {{"supportedVersions", {"2026-07-28"}}, {"capabilities", json::object()}}}}},
                {200, {{"result", {{"tools", json::array()}}}}}}));
  {
    auto client = client_for(server.url);
    client->connect();
    CHECK(client->list_tools().empty());
  }
  REQUIRE(server.seen().size() == 3);
  CHECK(server.seen()[0].body["method"] == "server/discover");
  CHECK(server.seen()[1].body["method"] == "server/discover");
  CHECK(server.seen()[1].body["id"] != server.seen()[0].body["id"]);  // a retry is a new request
  for (const auto& s : server.seen()) {
    INFO(s.body.dump());
    CHECK(s.header("mcp-protocol-version") == "2026-07-28");
    CHECK(s.body["params"]["_meta"][version_key] == s.header("mcp-protocol-version"));
  }
}

TEST_CASE("client: -32022 listing no 2026-07-28 version ends the request with that error", "[client][http]") {
  // Only a 2025-11-25 version listed (an initialize-based server): nothing to retry with.
  test_support::ScriptedServer server(in_order(std::vector<std::pair<int, json>>{{400, unsupported({"2025-11-25"})}}));
  auto client = client_for(server.url);
  try {
    client->connect();
    FAIL("connect succeeded");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32022);
    CHECK(e.data()["supported"] == json::array({"2025-11-25"}));
  }
  client.reset();
  CHECK(server.seen().size() == 1);
}

TEST_CASE("client: a second -32022 for the same request is not retried again", "[client][http]") {
  test_support::ScriptedServer server(in_order(
      std::vector<std::pair<int, json>>{{400, unsupported({"2026-07-28"})}, {400, unsupported({"2026-07-28"})}}));
  auto client = client_for(server.url);
  CHECK_THROWS_AS(client->connect(), ClientError);
  client.reset();
  CHECK(server.seen().size() == 2);
}

}  // namespace version_retry_test
