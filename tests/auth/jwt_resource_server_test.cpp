// jwt_verifier behind a StreamableHttpServer, against a stand-in authorization server on loopback:
// the table of refused tokens of issue 27 (each "refused token:" case is one row: the token and the
// status the server answers), key rotation and its refetch limit, and metadata discovery (RFC 8414
// path insertion, OpenID Connect fallback, issuer mismatch, an authorization server that is down).
#include <catch2/catch.hpp>

#include <elicit/auth/jwt_verifier.hpp>
#include <elicit/http/server.hpp>

#include "../support/bearer_headers.hpp"
#include "../support/http_client.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/session_initialize.hpp"
#include "../support/stateless_meta.hpp"
#include "github_username.hpp"

namespace jwt_resource_server_test {

using http_test::bhttp::verb;
using jwt_test::b64url;
using jwt_test::SigningKey;
using nlohmann::json;

namespace {

const std::string kResource = "http://127.0.0.1/mcp";

const SigningKey& key() {
  static const SigningKey k("RSA", "key-1");
  return k;
}
const SigningKey& rotated() {
  static const SigningKey k("EC", "key-2");
  return k;
}

long long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct Fixture {
  jwt_test::DocumentServer as;
  std::string issuer = as.origin() + "/tenant";
  std::unique_ptr<elicit::http::StreamableHttpServer> server;

  explicit Fixture(std::chrono::milliseconds refetch_interval = std::chrono::seconds(60), bool publish = true) {
    if (publish) publish_metadata("/.well-known/oauth-authorization-server/tenant");
    publish_keys({key().jwk()});
    elicit::http::HttpServerOptions o;
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    elicit::http::ResourceServerOptions a;
    a.resource = kResource;
    a.authorization_servers = {issuer};
    a.scopes_supported = {"mcp:read", "mcp:write"};
    a.required_scopes = {"mcp:read"};
    a.tool_scopes = {{"write", {"mcp:write"}}};
    elicit::auth::JwtVerifierOptions v;
    v.issuer = issuer;
    v.audience = kResource;
    v.jwks_refetch_interval = refetch_interval;
    v.fetch_timeout = std::chrono::seconds(30);  // loopback; generous for sanitizers
    a.verify = elicit::auth::jwt_verifier(v);
    o.authorization = a;
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"jwt-test", "1"},
        [](elicit::Server& s) {
          s.add_tool(
              elicit::Tool::blocking("read", [](elicit::RequestContext&) { return elicit::ToolResult::text("read"); }));
          s.add_tool(elicit::Tool::blocking(
              "write", [](elicit::RequestContext&) { return elicit::ToolResult::text("written"); }));
          // Who the handler sees: "<sub> <scopes...> | <principal>".
          s.add_tool(elicit::Tool::blocking("whoami", [](elicit::RequestContext& call) {
            const auto& t = call.access_token();
            std::string text = t ? t->subject : "nobody";
            for (const auto& scope : t ? t->scopes : std::vector<std::string>{}) text += " " + scope;
            return elicit::ToolResult::text(text + " | " + call.principal());
          }));
          s.add_tool(elicit::Tool::blocking("ask", [](elicit::RequestContext& call) {
            auto o = call.elicit<samples::GithubUsername>();
            return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
          }));
        },
        std::move(o));
    server->start();
  }

  void publish_metadata(const std::string& path, const std::string& claimed_issuer = "") {
    as.set(path, json{{"issuer", claimed_issuer.empty() ? issuer : claimed_issuer},
                      {"jwks_uri", as.origin() + "/jwks"},
                      {"token_endpoint", as.origin() + "/token"}}
                     .dump());
  }
  void publish_keys(std::initializer_list<json> keys) { as.set("/jwks", json{{"keys", json(keys)}}.dump()); }
  int key_fetches() const { return as.hits("/jwks"); }

  json claims(const std::string& sub = "alice", const std::string& scope = "mcp:read") const {
    return {{"iss", issuer},        {"sub", sub},     {"aud", kResource},
            {"exp", now_s() + 600}, {"iat", now_s()}, {"scope", scope}};
  }
  std::string token(const std::string& sub = "alice", const std::string& scope = "mcp:read") const {
    return jwt_test::token(key(), claims(sub, scope));
  }

  http_test::Response request(verb method, const std::string& target, http_test::Headers headers,
                              const std::string& body = "") const {
    http_test::Connection c(server->port());
    return c.request(method, target, headers, body);
  }

  // A 2026-07-28 request with the token, if any.
  http_test::Response call(const std::string& token, const std::string& method = "tools/list",
                           json params = json::object(), const std::string& target = "/mcp") const {
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
};

std::string challenge(const http_test::Response& r) { return r.header("www-authenticate"); }

// The row's expectation: 401 invalid_token, and the server still serves a good token.
void refused_401(Fixture& f, const std::string& token, const std::string& reason) {
  const auto r = f.call(token);
  INFO(r.body);
  CHECK(r.status == 401);
  CHECK(challenge(r).find("error=\"invalid_token\"") != std::string::npos);
  CHECK(challenge(r).find(reason) != std::string::npos);
  CHECK(f.call(f.token()).status == 200);
}

std::string with_claims(const Fixture& f, const std::function<void(json&)>& change) {
  auto c = f.claims();
  change(c);
  return jwt_test::token(key(), c);
}

}  // namespace

TEST_CASE("refused token: none (401, no error code, the metadata and scope named)", "[http][jwt][refused]") {
  Fixture f;
  const auto r = f.call("");
  CHECK(r.status == 401);
  CHECK(challenge(r).find("resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\"") !=
        std::string::npos);
  CHECK(challenge(r).find("error=") == std::string::npos);
  CHECK(f.key_fetches() == 0);  // nothing to verify, nothing fetched
}

TEST_CASE("refused token: malformed (401 invalid_token)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, "abc", "not a JWT");
  refused_401(f, "e30.e30.e30", "header has no");
}

TEST_CASE("refused token: bad signature (401)", "[http][jwt][refused]") {
  Fixture f;
  auto t = f.token();
  const auto sig = t.rfind('.') + 3;
  t[sig] = t[sig] == 'A' ? 'B' : 'A';
  refused_401(f, t, "the signature does not verify");
}

TEST_CASE("refused token: alg none (401)", "[http][jwt][refused]") {
  Fixture f;
  const auto in = b64url(json{{"alg", "none"}, {"typ", "at+jwt"}}.dump()) + "." + b64url(f.claims().dump());
  refused_401(f, in + "." + b64url("x"), "alg \\\"none\\\"");
}

TEST_CASE("refused token: HS256 signed with the public key (401)", "[http][jwt][refused]") {
  Fixture f;
  const auto in =
      b64url(json{{"alg", "HS256"}, {"typ", "at+jwt"}, {"kid", "key-1"}}.dump()) + "." + b64url(f.claims().dump());
  refused_401(f, in + "." + b64url(jwt_test::hs256(key().jwk().dump(), in)), "algorithm is not accepted");
}

TEST_CASE("refused token: unknown kid (401), accepted after a key rotation with one refetch", "[http][jwt][refused]") {
  Fixture f(std::chrono::milliseconds(0));
  REQUIRE(f.call(f.token()).status == 200);
  REQUIRE(f.key_fetches() == 1);
  const auto next = jwt_test::token(rotated(), f.claims(), json::object(), "ES256");
  CHECK(f.call(next).status == 401);  // not published yet: fetched again, still unknown
  CHECK(f.key_fetches() == 2);
  f.publish_keys({key().jwk(), rotated().jwk()});
  CHECK(f.call(next).status == 200);
  CHECK(f.key_fetches() == 3);
  CHECK(f.call(next).status == 200);
  CHECK(f.call(f.token()).status == 200);
  CHECK(f.key_fetches() == 3);  // kept
}

TEST_CASE("jwt_verifier: made-up key ids fetch the key set at most once per refetch interval", "[http][jwt][hostile]") {
  Fixture f(std::chrono::seconds(3600));
  REQUIRE(f.call(f.token()).status == 200);
  for (int i = 0; i < 5; ++i) {
    const auto made_up = jwt_test::token(key(), f.claims(), {{"kid", "made-up-" + std::to_string(i)}});
    CHECK(f.call(made_up).status == 401);
  }
  CHECK(f.key_fetches() == 1);
}

TEST_CASE("refused token: wrong iss (401)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, with_claims(f, [](json& c) { c["iss"] = "https://evil.example.com"; }), "not issued by");
}

TEST_CASE("refused token: wrong aud (401)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, with_claims(f, [](json& c) { c["aud"] = "http://127.0.0.1/other"; }), "not meant for");
}

TEST_CASE("refused token: no aud (401)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, with_claims(f, [](json& c) { c.erase("aud"); }), "not meant for");
}

TEST_CASE("refused token: expired (401)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, with_claims(f, [](json& c) { c["exp"] = now_s() - 3600; }), "the token has expired");
}

TEST_CASE("refused token: nbf in the future (401)", "[http][jwt][refused]") {
  Fixture f;
  refused_401(f, with_claims(f, [](json& c) { c["nbf"] = now_s() + 3600; }), "not valid yet");
}

TEST_CASE("refused token: in the query string (400, even with a good one in the header)", "[http][jwt][refused]") {
  Fixture f;
  const auto t = f.token();
  const auto r = f.call(t, "tools/list", json::object(), "/mcp?access_token=" + t);
  CHECK(r.status == 400);
  CHECK(challenge(r).find("error=\"invalid_request\"") != std::string::npos);
  CHECK(r.body.find(t) == std::string::npos);
}

TEST_CASE("refused token: insufficient scope (403 naming every scope the call needs)", "[http][jwt][refused]") {
  Fixture f;
  auto r = f.call(f.token("alice", "profile"));
  CHECK(r.status == 403);
  CHECK(challenge(r).find("error=\"insufficient_scope\", scope=\"mcp:read\"") != std::string::npos);
  r = f.call(f.token(), "tools/call", {{"name", "write"}, {"arguments", json::object()}});
  CHECK(r.status == 403);
  CHECK(challenge(r).find("scope=\"mcp:read mcp:write\"") != std::string::npos);
  r = f.call(f.token("alice", "mcp:read mcp:write"), "tools/call", {{"name", "write"}, {"arguments", json::object()}});
  CHECK(r.status == 200);
  CHECK(r.body.find("written") != std::string::npos);
}

TEST_CASE("refused token: principal A's token on principal B's session (404)", "[http][jwt][refused]") {
  Fixture f;
  const auto as = [](const std::string& token, const std::string& session = "") {
    return test_support::bearer_headers(token, session);
  };
  const auto init = f.request(verb::post, "/mcp", as(f.token("bob")), test_support::session_initialize().dump());
  REQUIRE(init.status == 200);
  const auto session = init.header("mcp-session-id");
  const auto ping = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}.dump();
  CHECK(f.request(verb::post, "/mcp", as(f.token("alice"), session), ping).status == 404);
  CHECK(f.request(verb::post, "/mcp", as(f.token("bob"), session), ping).status == 200);
}

TEST_CASE("refused token: A's requestState retried with B's token (-32602)", "[http][jwt][refused]") {
  Fixture f;
  const auto first = f.call(f.token("alice"), "tools/call", {{"name", "ask"}, {"arguments", json::object()}});
  REQUIRE(first.status == 200);
  const auto result = json::parse(first.body)["result"];
  REQUIRE(result["resultType"] == "input_required");
  const auto k = result["inputRequests"].items().begin().key();
  const json retry = {{"name", "ask"},
                      {"arguments", json::object()},
                      {"requestState", result["requestState"]},
                      {"inputResponses", {{k, {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}}};
  const auto bob = f.call(f.token("bob"), "tools/call", retry);
  CHECK(bob.status == 200);
  CHECK(json::parse(bob.body)["error"]["code"] == -32602);
  const auto alice = f.call(f.token("alice"), "tools/call", retry);
  CHECK(alice.body.find("octocat") != std::string::npos);
}

TEST_CASE("authorization: a handler sees the request's access token and principal, in both revisions", "[http][jwt]") {
  Fixture f;
  const auto principal = json::array({f.issuer, "alice"}).dump();
  auto text = [](const http_test::Response& r) {
    INFO(r.body);
    REQUIRE(r.status == 200);
    const auto body = r.body.substr(r.body.find('{'));  // JSON, or one SSE event
    return json::parse(body.substr(0, body.rfind('}') + 1))["result"]["content"][0]["text"].get<std::string>();
  };
  const json whoami = {{"name", "whoami"}, {"arguments", json::object()}};
  CHECK(text(f.call(f.token("alice", "mcp:read extra"), "tools/call", whoami)) ==
        "alice mcp:read extra | " + principal);

  // 2025-11-25: the session's latest token, e.g. after a step-up to more scopes.
  const auto as = [](const std::string& token, const std::string& session = "") {
    return test_support::bearer_headers(token, session);
  };
  const auto init = f.request(verb::post, "/mcp", as(f.token()), test_support::session_initialize().dump());
  REQUIRE(init.status == 200);
  const auto session = init.header("mcp-session-id");
  REQUIRE(f.request(verb::post, "/mcp", as(f.token(), session),
                    json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump())
              .status == 202);
  const auto call = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", whoami}}.dump();
  CHECK(text(f.request(verb::post, "/mcp", as(f.token(), session), call)) == "alice mcp:read | " + principal);
  CHECK(text(f.request(verb::post, "/mcp", as(f.token("alice", "mcp:read mcp:write"), session), call)) ==
        "alice mcp:read mcp:write | " + principal);
}

TEST_CASE("jwt_verifier: OpenID Connect discovery when there is no RFC 8414 document", "[http][jwt]") {
  Fixture f(std::chrono::seconds(60), false);
  f.publish_metadata("/tenant/.well-known/openid-configuration");
  CHECK(f.call(f.token()).status == 200);
  CHECK(f.as.hits("/.well-known/oauth-authorization-server/tenant") == 1);
  CHECK(f.as.hits("/.well-known/openid-configuration/tenant") == 1);
  CHECK(f.as.hits("/tenant/.well-known/openid-configuration") == 1);
}

TEST_CASE("jwt_verifier: metadata naming another issuer is not used", "[http][jwt][hostile]") {
  Fixture f(std::chrono::seconds(60), false);
  f.publish_metadata("/.well-known/oauth-authorization-server/tenant", "http://127.0.0.1:1/evil");
  const auto r = f.call(f.token());
  CHECK(r.status == 401);
  CHECK(challenge(r).find("keys are not available") != std::string::npos);
  CHECK(f.key_fetches() == 0);
}

TEST_CASE("jwt_verifier: an authorization server that is down refuses tokens until it is back", "[http][jwt]") {
  Fixture f(std::chrono::milliseconds(0), false);
  CHECK(f.call(f.token()).status == 401);  // no metadata anywhere: 404s
  f.publish_metadata("/.well-known/oauth-authorization-server/tenant");
  CHECK(f.call(f.token()).status == 200);
  CHECK(f.key_fetches() == 1);
}

TEST_CASE("jwt_verifier: options without issuer or audience, or with a long leeway, are refused", "[http][jwt]") {
  elicit::auth::JwtVerifierOptions o;
  o.issuer = "https://as.example.com";
  CHECK_THROWS_AS(elicit::auth::jwt_verifier(o), std::invalid_argument);
  o.audience = kResource;
  o.leeway = std::chrono::minutes(6);
  CHECK_THROWS_AS(elicit::auth::jwt_verifier(o), std::invalid_argument);
  o.leeway = std::chrono::seconds(30);
  CHECK_NOTHROW(elicit::auth::jwt_verifier(o));
}

}  // namespace jwt_resource_server_test
