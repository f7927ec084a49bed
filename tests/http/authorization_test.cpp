// HttpServerOptions::authorization: the server as an OAuth 2.1 resource server (MCP Basic /
// Authorization; RFC 6750, RFC 9728). A verifier stands in for the token checks (the JWT verifier
// has tests of its own): the metadata document, every refusal with its status and challenge, scopes
// per tool, prompt and resource (the conformance scenario sep-2350-server-scope-challenge), scope
// hierarchies, and the principal binding sessions and requestStates. Loopback only.
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include <catch2/catch.hpp>

#include <elicit/http/server.hpp>
#include <elicit/uri_template.hpp>

#include "../support/bearer_headers.hpp"
#include "../support/free_port.hpp"
#include "../support/http_client.hpp"
#include "../support/session_initialize.hpp"
#include "../support/stateless_meta.hpp"
#include "github_username.hpp"
#ifdef ELICITGEN_TEST_CONFORMANCE_FIXTURES
#include "sample_tools.hpp"
#endif

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
  const auto as = [](const std::string& token, const std::string& session = "") {
    return test_support::bearer_headers(token, session);
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

#ifdef ELICITGEN_TEST_CONFORMANCE_FIXTURES
namespace {

// The conformance scenario sep-2350-server-scope-challenge (modelcontextprotocol/conformance PR #481):
// two fixed tokens, the low one granting only the baseline, the full one every scope below.
const std::string kLow = "mcp-conformance-scope-low";
const std::string kFull = "mcp-conformance-scope-full";
const std::string kBaseline = "mcp:conformance:baseline";

// Each operation of the scenario: its method and params, and the two scopes it needs (method, object).
struct Operation {
  std::string key;
  std::string method;
  json params;
  std::vector<std::string> scopes;
};

const std::vector<Operation>& operations() {
  static const std::vector<Operation> ops = {
      {"tool",
       "tools/call",
       {{"name", "test_simple_text"}},
       {"mcp:conformance:tools:call", "mcp:conformance:tools:test_simple_text"}},
      {"static-resource",
       "resources/read",
       {{"uri", "test://static-text"}},
       {"mcp:conformance:resources:read", "mcp:conformance:resources:static"}},
      {"template-resource",
       "resources/read",
       {{"uri", "test://template/123/data"}},
       {"mcp:conformance:resources:read", "mcp:conformance:resources:template:123"}},
      {"prompt",
       "prompts/get",
       {{"name", "test_simple_prompt"}},
       {"mcp:conformance:prompts:get", "mcp:conformance:prompts:test_simple_prompt"}},
  };
  return ops;
}

// Tokens and the scopes they grant; any other token is refused.
using Grants = std::map<std::string, std::vector<std::string>>;

Grants scenario_grants() {
  std::vector<std::string> all = {kBaseline};
  for (const auto& op : operations()) {
    for (const auto& s : op.scopes) {
      if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
    }
  }
  REQUIRE(all.size() == 8);
  return {{kLow, {kBaseline}}, {kFull, all}, {"no-scopes", {}}};
}

// The scenario's scopes as a server declares them: by method, by name or URI, and by callback for the
// template's URIs, whose scope names the item.
elicit::http::ResourceServerOptions scenario_scopes() {
  elicit::http::ResourceServerOptions a;
  a.authorization_servers = {"https://as.example.com"};
  a.scopes_supported = {kBaseline};
  a.required_scopes = {kBaseline};
  a.method_scopes = {{"tools/call", {"mcp:conformance:tools:call"}},
                     {"resources/read", {"mcp:conformance:resources:read"}},
                     {"prompts/get", {"mcp:conformance:prompts:get"}}};
  a.tool_scopes = {{"test_simple_text", {"mcp:conformance:tools:test_simple_text"}}};
  a.prompt_scopes = {{"test_simple_prompt", {"mcp:conformance:prompts:test_simple_prompt"}}};
  a.resource_scopes = {{"test://static-text", {"mcp:conformance:resources:static"}}};
  a.operation_scopes = [data = elicit::UriTemplate("test://template/{id}/data")](const elicit::Request& r) {
    std::vector<std::string> scopes;
    if (r.method != "resources/read" || !r.params.is_object()) return scopes;
    const auto uri = r.params.find("uri");
    if (uri == r.params.end() || !uri->is_string()) return scopes;
    if (const auto v = data.match(uri->get<std::string>()))
      scopes.push_back("mcp:conformance:resources:template:" + v->at("id"));
    return scopes;
  };
  return a;
}

// The conformance fixtures behind a resource server at http://127.0.0.1:<port>/mcp (its own origin,
// as the scenario checks resource_metadata against the URL it was given).
struct ScopeFixture {
  explicit ScopeFixture(elicit::http::ResourceServerOptions a = scenario_scopes(), Grants grants = scenario_grants()) {
    const int port = test_support::free_loopback_port();
    REQUIRE(port != 0);
    origin = "http://127.0.0.1:" + std::to_string(port);
    elicit::http::HttpServerOptions o;
    o.port = port;
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    a.resource = origin + "/mcp";
    a.verify = [grants = std::move(grants)](std::string_view token) {
      const auto it = grants.find(std::string(token));
      if (it == grants.end()) throw elicit::http::InvalidToken("unknown token");
      elicit::AccessToken t;
      t.issuer = "https://as.example.com";
      t.subject = "conformance";  // one principal: a session goes on with a token of more scopes
      t.scopes = it->second;
      return t;
    };
    o.authorization = std::move(a);
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"scope-test", "1"}, [](elicit::Server& s) { add_conformance_fixtures(s); }, std::move(o));
    server->start();
  }

  // A stateless 2026-07-28 request with the scenario's headers and _meta.
  http_test::Response call(const std::string& token, const std::string& method, json params, json id = 1) const {
    params["_meta"] = test_support::stateless_meta();
    params["_meta"]["io.modelcontextprotocol/clientInfo"] = {{"name", "conformance-test-client"}, {"version", "1.0.0"}};
    auto headers = http_test::kAccept;
    headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
    headers.emplace_back("Mcp-Method", method);
    headers.emplace_back("Mcp-Name", params.value("name", params.value("uri", std::string())));
    headers.emplace_back("Authorization", "Bearer " + token);
    http_test::Connection c(server->port());
    return c.request(verb::post, "/mcp", headers,
                     json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
  }

  std::string origin;
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
};

// The auth-params of a `Bearer` challenge (RFC 6750 section 3, RFC 9110 section 11.6.1), with whether
// each value was a quoted-string; empty when the field holds no Bearer challenge.
struct AuthParam {
  std::string value;
  bool quoted = false;
};

std::map<std::string, AuthParam> bearer_challenge(const std::string& field) {
  std::map<std::string, AuthParam> params;
  if (field.compare(0, 7, "Bearer ") != 0) return params;
  std::size_t i = 7;
  while (i < field.size()) {
    while (i < field.size() && (field[i] == ' ' || field[i] == ',')) ++i;
    const auto eq = field.find('=', i);
    if (eq == std::string::npos) break;
    const auto name = field.substr(i, eq - i);
    AuthParam p;
    i = eq + 1;
    if (i < field.size() && field[i] == '"') {
      p.quoted = true;
      for (++i; i < field.size() && field[i] != '"'; ++i) {
        if (field[i] == '\\' && i + 1 < field.size()) ++i;
        p.value += field[i];
      }
      ++i;  // the closing quote
    } else {
      const auto end = field.find(',', i);
      p.value = field.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? field.size() : end;
    }
    params[name] = p;
  }
  return params;
}

std::vector<std::string> split_scopes(const std::string& scope) {
  std::vector<std::string> out;
  std::istringstream in(scope);
  for (std::string s; in >> s;) out.push_back(s);
  return out;
}

// The JSON-RPC response in a reply, whether application/json or an SSE stream.
json response_of(const http_test::Response& r) {
  if (r.header("content-type").rfind("application/json", 0) == 0) return json::parse(r.body);
  std::istringstream in(r.body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("data: ", 0) != 0 || line.size() == 6) continue;
    auto message = json::parse(line.substr(6));
    if (message.contains("result") || message.contains("error")) return message;
  }
  return nullptr;
}

// The scenario's result checks (validateResult).
void check_result(const Operation& op, const json& result) {
  INFO(op.key << " " << result.dump());
  if (op.key == "tool") {
    CHECK(result["content"][0]["type"] == "text");
  } else if (op.key == "static-resource") {
    CHECK(result["contents"][0]["uri"] == "test://static-text");
    CHECK(result["contents"][0]["text"].is_string());
  } else if (op.key == "template-resource") {
    CHECK(result["contents"][0]["uri"] == "test://template/123/data");
    CHECK(result["contents"][0]["text"].get<std::string>().find("123") != std::string::npos);
  } else {
    CHECK(result["messages"][0]["role"] == "user");
    CHECK(result["messages"][0]["content"].is_object());
  }
}

// The scenario's checks of a 403 challenge, and ours: the scope parameter holds every scope the
// operation needs, required_scopes first, each once.
void check_challenge(const ScopeFixture& f, const http_test::Response& r, const std::vector<std::string>& scopes) {
  const auto field = r.header("www-authenticate");
  INFO(field);
  CHECK(r.status == 403);
  const auto challenge = bearer_challenge(field);
  REQUIRE_FALSE(challenge.empty());
  CHECK(challenge.at("error").value == "insufficient_scope");
  REQUIRE(challenge.count("scope") == 1);
  std::vector<std::string> expected = {kBaseline};
  expected.insert(expected.end(), scopes.begin(), scopes.end());
  CHECK(split_scopes(challenge.at("scope").value) == expected);
  REQUIRE(challenge.count("resource_metadata") == 1);
  CHECK(challenge.at("resource_metadata").quoted);
  CHECK(challenge.at("resource_metadata").value == f.origin + "/.well-known/oauth-protected-resource/mcp");
}

}  // namespace

TEST_CASE("authorization: each operation's scopes in one 403 challenge, then served with them (SEP-2350)",
          "[http][auth][scopes]") {
  ScopeFixture f;
  int id = 1;
  for (const auto& op : operations()) {
    SECTION(op.key) {
      check_challenge(f, f.call(kLow, op.method, op.params, "scope-challenge-" + op.key), op.scopes);
      // A valid token without even the required scope: still one challenge, with every scope.
      check_challenge(f, f.call("no-scopes", op.method, op.params, ++id), op.scopes);
      const auto retry = f.call(kFull, op.method, op.params, ++id);
      REQUIRE(retry.status == 200);
      const auto response = response_of(retry);
      INFO(retry.body);
      CHECK_FALSE(response.contains("error"));
      check_result(op, response["result"]);
    }
  }
}

TEST_CASE("authorization: what an operation needs beyond required_scopes is asked only of that operation",
          "[http][auth][scopes]") {
  ScopeFixture f;
  // The low token serves what needs no more than the baseline: the listings.
  CHECK(f.call(kLow, "tools/list", json::object()).status == 200);
  CHECK(f.call(kLow, "resources/templates/list", json::object()).status == 200);
  // Another item of the template needs its own scope, which the full token lacks.
  const auto other = f.call(kFull, "resources/read", {{"uri", "test://template/456/data"}});
  CHECK(other.status == 403);
  CHECK(
      split_scopes(bearer_challenge(other.header("www-authenticate")).at("scope").value) ==
      std::vector<std::string>{kBaseline, "mcp:conformance:resources:read", "mcp:conformance:resources:template:456"});
  // A tool without scopes of its own needs the method's.
  const auto image = f.call(kLow, "tools/call", {{"name", "test_image_content"}});
  CHECK(image.status == 403);
  CHECK(split_scopes(bearer_challenge(image.header("www-authenticate")).at("scope").value) ==
        std::vector<std::string>{kBaseline, "mcp:conformance:tools:call"});
  CHECK(f.call(kFull, "tools/call", {{"name", "test_image_content"}}).status == 200);
}

TEST_CASE("authorization: a 2025-11-25 session gets the same challenges, and the next token counts at once",
          "[http][auth][scopes]") {
  ScopeFixture f;
  const auto as = [](const std::string& token, const std::string& session = "") {
    return test_support::bearer_headers(token, session);
  };
  auto post = [&](const std::string& token, const std::string& session, const json& message) {
    http_test::Connection c(f.server->port());
    return c.request(verb::post, "/mcp", as(token, session), message.dump());
  };
  const auto init = post(kLow, "", test_support::session_initialize());
  REQUIRE(init.status == 200);
  const auto session = init.header("mcp-session-id");
  REQUIRE_FALSE(session.empty());
  REQUIRE(post(kLow, session, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status == 202);
  int id = 1;
  for (const auto& op : operations()) {
    INFO(op.key);
    const json request = {{"jsonrpc", "2.0"}, {"method", op.method}, {"params", op.params}};
    auto low = request;
    low["id"] = ++id;
    check_challenge(f, post(kLow, session, low), op.scopes);
    auto full = request;
    full["id"] = ++id;
    const auto served = post(kFull, session, full);
    REQUIRE(served.status == 200);
    const auto response = response_of(served);
    INFO(served.body);
    CHECK(response["id"] == full["id"]);
    CHECK_FALSE(response.contains("error"));
    check_result(op, response["result"]);
  }
  CHECK(f.server->session_count() == 1);
}

TEST_CASE("authorization: scope_implies lets a broader granted scope stand for narrower ones", "[http][auth][scopes]") {
  auto a = scenario_scopes();
  // "x:*" implies every scope that starts with "x:".
  a.scope_implies = [](std::string_view granted, std::string_view needed) {
    return granted.size() >= 2 && granted.substr(granted.size() - 2) == ":*" &&
           needed.substr(0, granted.size() - 1) == granted.substr(0, granted.size() - 1);
  };
  ScopeFixture f(a, {{"tools", {kBaseline, "mcp:conformance:tools:*"}},
                     {"everything", {"mcp:conformance:*"}},
                     {"other", {"mcp:other:*"}}});
  const auto& tool = operations().front();
  const auto& prompt = operations().back();
  CHECK(f.call("tools", tool.method, tool.params).status == 200);
  // Not implied: the challenge is the same as without the broad scope.
  check_challenge(f, f.call("tools", prompt.method, prompt.params), prompt.scopes);
  for (const auto& op : operations()) {
    INFO(op.key);
    CHECK(f.call("everything", op.method, op.params).status == 200);
    check_challenge(f, f.call("other", op.method, op.params), op.scopes);
  }
  // The required scope of a request without a body (GET) is implied too: past the scope check, to the
  // session check.
  auto get = [&](const std::string& token) {
    auto h = http_test::Headers{{"Accept", "text/event-stream"}, {"Authorization", "Bearer " + token}};
    http_test::Connection c(f.server->port());
    return c.request(verb::get, "/mcp", h);
  };
  CHECK(get("other").status == 403);
  CHECK(get("everything").status == 400);
}

TEST_CASE("authorization: a scope callback that throws refuses the request with 500, no detail, and the server goes on",
          "[http][auth][scopes][hostile]") {
  SECTION("operation_scopes") {
    auto a = scenario_scopes();
    a.operation_scopes = [](const elicit::Request& r) -> std::vector<std::string> {
      if (r.method == "prompts/get") throw std::runtime_error("secret detail");
      return {};
    };
    ScopeFixture f(a);
    const auto& prompt = operations().back();
    const auto r = f.call(kFull, prompt.method, prompt.params);
    CHECK(r.status == 500);
    CHECK(r.body.find("secret") == std::string::npos);
    CHECK(json::parse(r.body)["error"]["code"] == -32603);
    CHECK(f.call(kFull, "tools/call", {{"name", "test_simple_text"}}).status == 200);
  }
  SECTION("scope_implies") {
    auto a = scenario_scopes();
    a.scope_implies = [](std::string_view, std::string_view needed) -> bool {
      if (needed == "mcp:conformance:prompts:get") throw std::runtime_error("secret detail");
      return false;
    };
    ScopeFixture f(a);
    const auto& prompt = operations().back();
    const auto r = f.call(kLow, prompt.method, prompt.params);
    CHECK(r.status == 500);
    CHECK(r.body.find("secret") == std::string::npos);
    // Not called when the scope is granted as such.
    CHECK(f.call(kFull, prompt.method, prompt.params).status == 200);
  }
}
#endif  // ELICITGEN_TEST_CONFORMANCE_FIXTURES

}  // namespace authorization_test
