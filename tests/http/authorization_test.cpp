// HttpServerOptions::authorization: the server as an OAuth 2.1 resource server (MCP Basic /
// Authorization; RFC 6750, RFC 9728). A verifier stands in for the token checks (the JWT verifier
// has tests of its own): the metadata document, every refusal with its status and challenge, scopes
// per tool, and the principal binding sessions and requestStates. Loopback only.
#include <catch2/catch.hpp>

#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/session_initialize.hpp"
#include "../support/stateless_meta.hpp"
#include "github_username.hpp"

namespace authorization_test {

using http_test::bhttp::verb;
using nlohmann::json;

namespace {

const std::string kResource = "https://mcp.example.com/mcp";
const std::string kMetadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

// Tokens are "<user>.<scope>.<scope>..." (RFC 6750 b64token characters), "read" and "write"
// standing for mcp:read and mcp:write; "expired" is refused.
elicit::AccessToken verify(std::string_view token) {
  if (token == "expired") throw elicit::http::InvalidToken("the token has expired");
  const auto dot = token.find('.');
  if (dot == std::string_view::npos) throw elicit::http::InvalidToken("unknown token");
  elicit::AccessToken t;
  t.issuer = "https://as.example.com";
  t.subject = std::string(token.substr(0, dot));
  auto scopes = token.substr(dot + 1);
  while (!scopes.empty()) {
    const auto next = scopes.find('.');
    const auto s = std::string(scopes.substr(0, next));
    t.scopes.push_back(s == "read" || s == "write" ? "mcp:" + s : s);
    if (next == std::string_view::npos) break;
    scopes.remove_prefix(next + 1);
  }
  return t;
}

struct Fixture {
  Fixture() {
    elicit::http::HttpServerOptions o;
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    elicit::http::ResourceServerOptions a;
    a.resource = kResource;
    a.authorization_servers = {"https://as.example.com"};
    a.scopes_supported = {"mcp:read", "mcp:write"};
    a.required_scopes = {"mcp:read"};
    a.tool_scopes = {{"write", {"mcp:write"}}};
    a.verify = verify;
    o.authorization = a;
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"auth-test", "1"},
        [](elicit::Server& s) {
          s.add_tool(
              elicit::Tool::blocking("read", [](elicit::RequestContext&) { return elicit::ToolResult::text("read"); }));
          s.add_tool(elicit::Tool::blocking(
              "write", [](elicit::RequestContext&) { return elicit::ToolResult::text("written"); }));
          s.add_tool(elicit::Tool::blocking("ask", [](elicit::RequestContext& call) {
            auto o = call.elicit<samples::GithubUsername>();
            return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
          }));
        },
        std::move(o));
    server->start();
  }

  http_test::Response request(verb method, const std::string& target, http_test::Headers headers,
                              const std::string& body = "") const {
    http_test::Connection c(server->port());
    return c.request(method, target, headers, body);
  }

  // A 2026-07-28 request with its headers, and the token if given.
  http_test::Response call(const std::string& token, const std::string& method, json params = json::object(),
                           const std::string& target = "/mcp") const {
    params["_meta"] = test_support::stateless_meta();
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {{"elicitation", json::object()}};
    auto headers = http_test::kAccept;
    headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
    headers.emplace_back("Mcp-Method", method);
    if (params.contains("name")) headers.emplace_back("Mcp-Name", params["name"].get<std::string>());
    if (!token.empty()) headers.emplace_back("Authorization", "Bearer " + token);
    return request(verb::post, target, headers,
                   json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump());
  }

  std::unique_ptr<elicit::http::StreamableHttpServer> server;
};

bool challenge_has(const http_test::Response& r, const std::string& part) {
  return r.header("www-authenticate").find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("authorization: Protected Resource Metadata at the resource's path and at the root", "[http][auth]") {
  Fixture f;
  for (const auto* path : {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}) {
    const auto r = f.request(verb::get, path, {});
    INFO(path << " " << r.body);
    REQUIRE(r.status == 200);
    const auto doc = json::parse(r.body);
    CHECK(doc["resource"] == kResource);
    CHECK(doc["authorization_servers"] == json::array({"https://as.example.com"}));
    CHECK(doc["scopes_supported"] == json::array({"mcp:read", "mcp:write"}));
    CHECK(doc["bearer_methods_supported"] == json::array({"header"}));
  }
  // Readable from any origin (browser-based clients), preflight included.
  const auto cross = f.request(verb::get, "/.well-known/oauth-protected-resource/mcp",
                               {{"Origin", "https://inspector.example.com"}, {"MCP-Protocol-Version", "2026-07-28"}});
  CHECK(cross.status == 200);
  CHECK(cross.header("access-control-allow-origin") == "*");
  const auto preflight = f.request(verb::options, "/.well-known/oauth-protected-resource/mcp",
                                   {{"Origin", "https://inspector.example.com"},
                                    {"Access-Control-Request-Method", "GET"},
                                    {"Access-Control-Request-Headers", "mcp-protocol-version"}});
  CHECK(preflight.status == 204);
  CHECK(preflight.header("access-control-allow-origin") == "*");
  CHECK(preflight.header("access-control-allow-headers") == "MCP-Protocol-Version");
  CHECK(f.request(verb::post, "/.well-known/oauth-protected-resource/mcp", {}).status == 405);
  CHECK(f.request(verb::get, "/.well-known/oauth-protected-resource/other", {}).status == 404);
}

TEST_CASE("authorization: each refusal has its status and challenge, and the server goes on", "[http][auth][hostile]") {
  Fixture f;
  SECTION("no token: 401 naming the metadata and the scopes to ask for, no error code") {
    const auto r = f.call("", "tools/list");
    CHECK(r.status == 401);
    CHECK(challenge_has(r, "Bearer "));
    CHECK(challenge_has(r, "resource_metadata=\"" + kMetadata + "\""));
    CHECK(challenge_has(r, "scope=\"mcp:read\""));
    CHECK_FALSE(challenge_has(r, "error="));
  }
  SECTION("another scheme: 401 as for none") {
    auto headers = http_test::kAccept;
    headers.emplace_back("Authorization", "Basic YWxpY2U6cHc=");
    const auto r = f.request(verb::post, "/mcp", headers, R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    CHECK(r.status == 401);
  }
  SECTION("malformed credentials: 400 invalid_request") {
    const auto r = f.call("not a token", "tools/list");
    CHECK(r.status == 400);
    CHECK(challenge_has(r, "error=\"invalid_request\""));
  }
  SECTION("a token in the query string: 400, even with a good one in the header") {
    const auto r = f.call("alice.read", "tools/list", json::object(), "/mcp?access_token=alice.read");
    CHECK(r.status == 400);
    CHECK(challenge_has(r, "error=\"invalid_request\""));
  }
  SECTION("a token the verifier refuses: 401 invalid_token with its reason") {
    const auto r = f.call("expired", "tools/list");
    CHECK(r.status == 401);
    CHECK(challenge_has(r, "error=\"invalid_token\""));
    CHECK(challenge_has(r, "error_description=\"the token has expired\""));
    CHECK(json::parse(r.body)["error"] == "invalid_token");
  }
  SECTION("a token without a required scope: 403 insufficient_scope") {
    const auto r = f.call("alice.other", "tools/list");
    CHECK(r.status == 403);
    CHECK(challenge_has(r, "error=\"insufficient_scope\""));
    CHECK(challenge_has(r, "scope=\"mcp:read\""));
  }
  SECTION("a tool that needs more: 403 naming every scope the call needs") {
    auto r = f.call("alice.read", "tools/call", {{"name", "write"}, {"arguments", json::object()}});
    CHECK(r.status == 403);
    CHECK(challenge_has(r, "scope=\"mcp:read mcp:write\""));
    r = f.call("alice.read.write", "tools/call", {{"name", "write"}, {"arguments", json::object()}});
    CHECK(r.status == 200);
    CHECK(r.body.find("written") != std::string::npos);
  }
  // Served meanwhile, and after.
  const auto ok = f.call("alice.read", "tools/call", {{"name", "read"}, {"arguments", json::object()}});
  CHECK(ok.status == 200);
  CHECK(ok.body.find("\"read\"") != std::string::npos);
}

TEST_CASE("authorization: a requestState sealed for one principal does not open for another", "[http][auth]") {
  Fixture f;
  const auto first = f.call("alice.read", "tools/call", {{"name", "ask"}, {"arguments", json::object()}});
  REQUIRE(first.status == 200);
  const auto result = json::parse(first.body)["result"];
  REQUIRE(result["resultType"] == "input_required");
  const auto key = result["inputRequests"].items().begin().key();
  json retry = {{"name", "ask"},
                {"arguments", json::object()},
                {"requestState", result["requestState"]},
                {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}}};
  const auto bob = f.call("bob.read", "tools/call", retry);
  CHECK(bob.status == 200);
  CHECK(json::parse(bob.body)["error"]["code"] == -32602);
  const auto alice = f.call("alice.read", "tools/call", retry);
  REQUIRE(alice.status == 200);
  CHECK(alice.body.find("octocat") != std::string::npos);
}

TEST_CASE("authorization: a 2025-11-25 session belongs to the principal that initialized it", "[http][auth]") {
  Fixture f;
  const auto initialize = test_support::session_initialize().dump();
  auto as = [](const std::string& token, const std::string& session = "") {
    auto h = http_test::kAccept;
    h.emplace_back("Authorization", "Bearer " + token);
    if (!session.empty()) {
      h.emplace_back("Mcp-Session-Id", session);
      h.emplace_back("MCP-Protocol-Version", "2025-11-25");
    }
    return h;
  };
  const auto init = f.request(verb::post, "/mcp", as("alice.read"), initialize);
  REQUIRE(init.status == 200);
  const auto session = init.header("mcp-session-id");
  REQUIRE_FALSE(session.empty());
  const auto ping = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}.dump();
  CHECK(f.request(verb::post, "/mcp", as("bob.read", session), ping).status == 404);
  CHECK(f.request(verb::get, "/mcp", as("bob.read", session)).status == 404);
  CHECK(f.request(verb::delete_, "/mcp", as("bob.read", session)).status == 404);
  CHECK(f.server->session_count() == 1);
  CHECK(f.request(verb::post, "/mcp", as("alice.read", session), ping).status == 200);
  CHECK(f.request(verb::delete_, "/mcp", as("alice.read", session)).status == 200);
  CHECK(f.server->session_count() == 0);
}

TEST_CASE("authorization: start() refuses options without resource, authorization servers or verifier",
          "[http][auth]") {
  elicit::http::HttpServerOptions o;
  o.authorization = elicit::http::ResourceServerOptions{};
  o.authorization->resource = kResource;
  elicit::http::StreamableHttpServer s(
      elicit::ServerInfo{"auth-test", "1"}, [](elicit::Server&) {}, o);
  CHECK_THROWS_AS(s.start(), std::invalid_argument);
}

}  // namespace authorization_test
