// elicit::Client over Streamable HTTP (HttpClientTransport) against the sample HTTP server, a child
// process on loopback, in both eras: a form answered on the call's SSE stream (2025-11-25) or by
// input-required retries (2026-07-28), two rounds, lists, errors with their JSON-RPC codes, and a
// request to a server that is gone ending in an error instead of a hang.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

#include "../support/run_command.hpp"
#include "../support/sample_http_server.hpp"

#include "../support/tool_text.hpp"
#include "github_username.hpp"
#include "sep1034_defaults.hpp"
#include "shipping.hpp"
#include "test_paths.hpp"

namespace http_client_test {

using namespace elicit;
using nlohmann::json;
using test_support::text_of;

namespace {

using test_support::SampleHttpServer;

std::unique_ptr<Client> http_client(const std::string& url, const std::string& version) {
  http::HttpClientOptions t;
  t.url = url;
  t.protocol_version = version;
  ClientOptions o;
  o.protocol_version = version;
  o.session.log = [](std::string_view) {};
  return std::make_unique<Client>(std::make_unique<http::HttpClientTransport>(t), o);
}

}  // namespace

TEST_CASE("client over HTTP: a form's properties reach the handler in the server's order", "[client][http][order]") {
  std::vector<std::string> sent;
  const auto& schema = elicit::requested_schema<samples::Sep1034Defaults>();
  for (const auto& p : schema.at("properties").items()) sent.push_back(p.key());
  REQUIRE_FALSE(std::is_sorted(sent.begin(), sent.end()));  // else the order would prove nothing
  SampleHttpServer server;
  // 2025-11-25: the request on the call's SSE stream; 2026-07-28: the input-required result.
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = http_client(server.url, version);
    std::vector<std::string> fields;
    client->on_elicitation([&](const ElicitationRequest& r) {
      REQUIRE(r.form);
      for (const auto& f : r.form->fields) fields.push_back(f.name);
      return Answer::decline();
    });
    client->connect();
    CHECK(text_of(client->call_tool("sep1034_defaults")).find("decline") != std::string::npos);
    CHECK(fields == sent);
  }
}

TEST_CASE("client over HTTP: forms answered in both eras, two rounds, lists and errors", "[client][http]") {
  SampleHttpServer server;
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = http_client(server.url, version);
    client->on_form<samples::GithubUsername>([](const ElicitationRequest&) {
      samples::GithubUsername g;
      g.name = "octocat";
      return FormAnswer<samples::GithubUsername>::accept(g);
    });
    client->on_form<samples::ShippingAddress>([](const ElicitationRequest&) {
      samples::ShippingAddress a;
      a.recipient = "Ada";
      a.street = "1 Main St";
      a.postal_code = "12345";
      return FormAnswer<samples::ShippingAddress>::accept(a);
    });
    client->on_form<samples::DeliveryWindow>([](const ElicitationRequest&) {
      samples::DeliveryWindow w;
      w.day = "2026-12-01";
      return FormAnswer<samples::DeliveryWindow>::accept(w);
    });
    client->connect();
    CHECK(client->server_info()["name"].is_string());
    CHECK(text_of(client->call_tool("github_username")) == R"(accept: {"name":"octocat"})");
    CHECK(text_of(client->call_tool("plan_delivery")).find("\"day\":\"2026-12-01\"") != std::string::npos);
    const auto tools = client->list_tools();
    CHECK(std::any_of(tools.begin(), tools.end(), [](const json& t) { return t["name"] == "plan_delivery"; }));
    CHECK(client->read_resource("test://static-text")["contents"][0]["text"].is_string());
    // A name that is not plain ASCII travels in Mcp-Name as Base64 and still names the tool.
    try {
      client->call_tool("no such tool \xc3\xa9");
      FAIL("an unknown tool was called");
    } catch (const ClientError& e) {
      CHECK(e.code() == -32602);
    }
  }
}

TEST_CASE("client over HTTP: query_region's x-mcp-header region travels as Mcp-Param-Region, so the server accepts it",
          "[client][http][x-mcp-header]") {
  SampleHttpServer server;
  // 2026-07-28: the server refuses a call without the header (-32020); 2025-11-25: no header needed.
  for (const char* version : {"2026-07-28", "2025-11-25"}) {
    INFO(version);
    auto client = http_client(server.url, version);
    client->connect();
    // Plain ASCII, and a value that must go Base64 (non-ASCII, edge spaces).
    CHECK(text_of(client->call_tool("query_region", {{"region", "us-west1"}, {"query", "q"}})) == "region us-west1: q");
    CHECK(text_of(client->call_tool("query_region", {{"region", " \xc3\xa9u-west "}})) ==
          "region  \xc3\xa9u-west : (no query)");
    // Listed or not, the same: the client reads the annotations itself when it has none.
    const auto tools = client->list_tools();
    CHECK(std::any_of(tools.begin(), tools.end(), [](const json& t) { return t["name"] == "query_region"; }));
  }
}

TEST_CASE("client over HTTP: a server that is gone is an error, not a hang", "[client][http]") {
  std::string url;
  {
    SampleHttpServer server;
    url = server.url;
  }  // stopped: nothing listens on its port now
  auto client = http_client(url, "2026-07-28");
  try {
    client->connect();
    FAIL("connected to a server that is gone");
  } catch (const ClientError& e) {
    CHECK_THAT(e.what(), Catch::Contains("cannot connect"));
  }
  CHECK_THROWS_AS(http::HttpClientTransport(http::HttpClientOptions{"ftp://example.com/"}), std::invalid_argument);
  CHECK_THROWS_AS(http::HttpClientTransport(http::HttpClientOptions{"http://user@example.com/"}),
                  std::invalid_argument);
}

TEST_CASE("elicitgen client --url answers over Streamable HTTP in both eras", "[client][http][cli]") {
  SampleHttpServer server;
  const auto answers = std::string(TEST_TMP_DIR) + "/" + std::to_string(getpid()) + "-url-answers.jsonl";
  std::filesystem::create_directories(TEST_TMP_DIR);
  std::ofstream(answers) << "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}\n";
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto r =
        test_support::run_command(std::string(ELICITGEN_BIN) + " client --url '" + server.url + "' --protocol " +
                                  version + " call github_username --answers '" + answers + "' 2>/dev/null");
    CHECK(r.exit_code == 0);
    CHECK(text_of(json::parse(r.out)) == R"(accept: {"name":"octocat"})");
  }
  const auto both = test_support::run_command(std::string(ELICITGEN_BIN) + " client --url '" + server.url +
                                              "' --stdio x call github_username --defaults 2>&1");
  CHECK(both.exit_code == 2);
}

TEST_CASE("elicitgen client --url with nobody to answer calls a tool that asks nothing, in both eras",
          "[client][http][cli]") {
  SampleHttpServer server;
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    // stdin is not a terminal and neither --answers nor --defaults is given (a script): no form is
    // offered, and a tool that asks none is called as usual.
    const auto r =
        test_support::run_command(std::string(ELICITGEN_BIN) + " client --url '" + server.url + "' --protocol " +
                                  version + " call test_simple_text < /dev/null 2>/dev/null");
    CHECK(r.exit_code == 0);
    CHECK(text_of(json::parse(r.out)) == "This is a simple text response for testing.");
  }
}

TEST_CASE("elicitgen client --url list and an unknown tool, in both eras", "[client][http][cli]") {
  SampleHttpServer server;
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto cli = std::string(ELICITGEN_BIN) + " client --url '" + server.url + "' --protocol " + version;
    const auto listed = test_support::run_command(cli + " list --json 2>/dev/null");
    REQUIRE(listed.exit_code == 0);
    const auto out = json::parse(listed.out);
    CHECK(out["outcome"] == "tools");
    const auto tools = out["tools"];
    REQUIRE(tools.is_array());
    std::string names;
    for (const auto& t : tools) names += (names.empty() ? "" : ", ") + t["name"].get<std::string>();
    CHECK_THAT(names, Catch::StartsWith("contact_information, github_username, "));
    const auto table = test_support::run_command(cli + " list 2>/dev/null");
    CHECK(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("\ngithub_username  ") && Catch::StartsWith("NAME  "));
    const auto unknown = test_support::run_command(cli + " call no_such_tool --defaults 2>&1");
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.out, Catch::Contains("unknown tool 'no_such_tool'; available: " + names + "\n"));
  }
}

}  // namespace http_client_test
