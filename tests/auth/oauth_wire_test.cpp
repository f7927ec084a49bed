// The OAuth client's text formats (runtime/src/auth/oauth_wire.hpp): form encoding both ways,
// WWW-Authenticate challenges as servers write them, PKCE S256 against RFC 7636's own example, the
// scope union of a step-up, canonical resource URIs (RFC 8707), and a private_key_jwt assertion
// that verifies with the key's public half.
#include <catch2/catch.hpp>

#include <elicit/auth/jwt_verifier.hpp>
#include <elicit/auth/oauth_client.hpp>

#include "../../runtime/src/auth/client_assertion.hpp"
#include "../../runtime/src/auth/oauth_wire.hpp"
#include "../support/jwt_issuer.hpp"

namespace oauth_wire_test {

using namespace elicit;
using namespace elicit::http;
using namespace elicit::auth;

TEST_CASE("form encoding: reserved bytes escaped, decoded back, malformed escapes refused", "[oauth][wire]") {
  const auto body = form_encode({{"redirect_uri", "http://127.0.0.1:8080/cb?x=1"}, {"scope", "a b"}, {"é", "~-._"}});
  CHECK(body == "redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcb%3Fx%3D1&scope=a%20b&%C3%A9=~-._");
  const auto back = form_decode(body);
  REQUIRE(back);
  CHECK(back->at("redirect_uri") == "http://127.0.0.1:8080/cb?x=1");
  CHECK(back->at("scope") == "a b");
  CHECK(back->at("\xc3\xa9") == "~-._");
  CHECK(form_decode("a=1+2&a=3&b")->at("a") == "1 2");  // '+' is a space; the first value stays
  CHECK(form_decode("b")->at("b").empty());
  CHECK_FALSE(form_decode("a=%4"));
  CHECK_FALSE(form_decode("a=%zz"));
  const auto q = query_parameters("http://localhost:3000/cb?code=abc&state=x%2By&iss=http%3A%2F%2Flocalhost#frag");
  REQUIRE(q);
  CHECK(q->at("code") == "abc");
  CHECK(q->at("state") == "x+y");
  CHECK(q->at("iss") == "http://localhost");
  CHECK(query_parameters("http://x/")->empty());
  CHECK(basic_authorization("id:1", "s p") == "Basic aWQlM0ExOnMlMjBw");  // "id%3A1:s%20p"
}

TEST_CASE("WWW-Authenticate: Bearer parameters among other challenges, quoted and not", "[oauth][wire]") {
  const auto c = parse_www_authenticate(
      R"(Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", )"
      R"(resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", DPoP algs=ES256)");
  REQUIRE(c.size() == 3);
  CHECK(c[0].scheme == "basic");
  CHECK(c[0].params.at("realm") == "x");
  CHECK(c[1].scheme == "bearer");
  CHECK(c[1].params.at("error") == "insufficient_scope");
  CHECK(c[1].params.at("scope") == "files:read files:write");
  CHECK(c[1].params.at("resource_metadata") == "https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
  CHECK(c[2].scheme == "dpop");
  CHECK(c[2].params.at("algs") == "ES256");
  const auto escaped = bearer_challenge(R"(bearer Realm="a \"b\"",error=invalid_token)");
  REQUIRE(escaped);
  CHECK(escaped->at("realm") == "a \"b\"");
  CHECK(escaped->at("error") == "invalid_token");
  CHECK(bearer_challenge("Bearer")->empty());
  CHECK_FALSE(bearer_challenge("Basic realm=x"));
  CHECK_FALSE(bearer_challenge(""));
}

TEST_CASE("PKCE S256, random values and the step-up scope union", "[oauth][wire]") {
  // RFC 7636 appendix B.
  CHECK(pkce_s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  const auto a = random_urlsafe(32), b = random_urlsafe(32);
  CHECK(a.size() == 43);
  CHECK(a != b);
  CHECK(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
  CHECK(scope_union("a b", "b c") == "a b c");
  CHECK(scope_union("", "x") == "x");
  CHECK(scope_union("a  b", "") == "a b");
}

TEST_CASE("canonical resource URIs: lower-case scheme and host, no default port, fragment or trailing slash",
          "[oauth][wire]") {
  CHECK(canonical_resource_uri("HTTPS://MCP.Example.com:443/Mcp/") == "https://mcp.example.com/Mcp");
  CHECK(canonical_resource_uri("http://localhost:3000/mcp#x") == "http://localhost:3000/mcp");
  CHECK(canonical_resource_uri("https://mcp.example.com/") == "https://mcp.example.com");
  CHECK(canonical_resource_uri("https://[::1]:8443/mcp?x=1") == "https://[::1]:8443/mcp?x=1");
  CHECK_THROWS_AS(canonical_resource_uri("ftp://x/"), std::invalid_argument);
}

TEST_CASE("private_key_jwt: an assertion that verifies with the public key, RS256 and ES256", "[oauth][wire]") {
  for (const char* alg : {"RS256", "ES256"}) {
    INFO(alg);
    const jwt_test::SigningKey key(std::string(alg) == "RS256" ? "RSA" : "EC", "k1");
    const auto jwt = client_assertion("client-1", "https://as.example.com", key.private_pem(), alg);
    const auto keys = JsonWebKeySet::parse(nlohmann::json{{"keys", {key.jwk(alg)}}}.dump());
    JwtAccessTokenRules rules;
    rules.issuer = "client-1";
    rules.audience = "https://as.example.com";
    rules.require_at_jwt_type = false;  // an assertion is not an access token; the rest is the same
    const auto verified = verify_jwt_access_token(jwt, keys, rules);
    CHECK(verified.subject == "client-1");
    CHECK(verified.claims.at("jti").is_string());
    CHECK(verified.claims.at("exp").get<long long>() - verified.claims.at("iat").get<long long>() == 300);
  }
  const jwt_test::SigningKey rsa("RSA", "k2");
  CHECK_THROWS_AS(client_assertion("c", "a", rsa.private_pem(), "ES256"), OAuthError);  // the key does not fit
  CHECK_THROWS_AS(client_assertion("c", "a", "not a key", ""), OAuthError);
}

}  // namespace oauth_wire_test
