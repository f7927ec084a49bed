// JWT access tokens (RFC 9068): the key set (JsonWebKeySet), the checks of one token
// (verify_jwt_access_token), and jwt_verifier behind a StreamableHttpServer against a stand-in
// authorization server on loopback (metadata discovery, key rotation, refetch limits). The
// "refused token:" cases are the table of issue 27: each a token the server must refuse, with the
// status it answers. Keys and tokens are made here with OpenSSL.
#include <catch2/catch.hpp>

#include <elicit/auth/jwt_verifier.hpp>
#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/session_initialize.hpp"
#include "../support/stateless_meta.hpp"
#include "github_username.hpp"

namespace jwt_test {

using http_test::bhttp::verb;
using jwt_test::b64url;
using jwt_test::SigningKey;
using nlohmann::json;

namespace {

const std::string kResource = "http://127.0.0.1/mcp";

// Made once: RSA key generation takes a while under sanitizers.
const SigningKey& rsa() {
  static const SigningKey k("RSA", "rsa-1");
  return k;
}
const SigningKey& rsa_rotated() {
  static const SigningKey k("RSA", "rsa-2");
  return k;
}
const SigningKey& ec() {
  static const SigningKey k("EC", "ec-1");
  return k;
}
const SigningKey& ed() {
  static const SigningKey k("Ed25519", "ed-1");
  return k;
}

long long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json claims(const std::string& issuer, const std::string& sub = "alice", const std::string& scope = "mcp:read") {
  return {{"iss", issuer},  {"sub", sub},     {"aud", kResource},          {"exp", now_s() + 600},
          {"iat", now_s()}, {"scope", scope}, {"client_id", "test-client"}};
}

elicit::auth::JsonWebKeySet key_set(std::initializer_list<json> keys) {
  return elicit::auth::JsonWebKeySet::parse(json{{"keys", json(keys)}}.dump());
}

elicit::auth::JwtAccessTokenRules rules() {
  elicit::auth::JwtAccessTokenRules r;
  r.issuer = "https://as.example.com";
  r.audience = kResource;
  return r;
}

std::string refusal(const std::string& token, const elicit::auth::JsonWebKeySet& keys) {
  try {
    elicit::auth::verify_jwt_access_token(token, keys, rules());
  } catch (const elicit::http::InvalidToken& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("jwt: RS256, PS256, ES256 and EdDSA tokens verify, with their subject and scopes", "[http][jwt]") {
  const auto keys = key_set({rsa().jwk(), ec().jwk(), ed().jwk()});
  REQUIRE(keys.size() == 3);
  for (const auto& [key, alg] : std::vector<std::pair<const SigningKey*, std::string>>{
           {&rsa(), "RS256"}, {&rsa(), "PS256"}, {&ec(), "ES256"}, {&ed(), "EdDSA"}}) {
    INFO(alg);
    const auto t = elicit::auth::verify_jwt_access_token(
        jwt_test::token(*key, claims("https://as.example.com", "alice", "mcp:read  mcp:write"), json::object(), alg),
        keys, rules());
    CHECK(t.issuer == "https://as.example.com");
    CHECK(t.subject == "alice");
    CHECK(t.scopes == std::vector<std::string>{"mcp:read", "mcp:write"});
    CHECK(t.claims["client_id"] == "test-client");
  }
  // An audience array naming this resource among others, and "application/at+jwt".
  auto c = claims("https://as.example.com");
  c["aud"] = {"https://other.example.com", kResource};
  CHECK(refusal(jwt_test::token(rsa(), c, {{"typ", "application/at+jwt"}}), keys) == "accepted");
}

TEST_CASE("jwt: claims outside the rules are refused, each with its reason", "[http][jwt][hostile]") {
  const auto keys = key_set({rsa().jwk()});
  const std::string iss = "https://as.example.com";
  auto with = [&](const std::function<void(json&)>& change) {
    auto c = claims(iss);
    change(c);
    return refusal(jwt_test::token(rsa(), c), keys);
  };
  CHECK(with([](json&) {}) == "accepted");
  CHECK(with([](json& c) { c["iss"] = "https://evil.example.com"; }).find("not issued by") != std::string::npos);
  CHECK(with([](json& c) { c["aud"] = "https://other.example.com"; }).find("not meant for") != std::string::npos);
  CHECK(with([](json& c) { c.erase("aud"); }).find("not meant for") != std::string::npos);
  CHECK(with([](json& c) {
          c["aud"] = json::array({"https://a", "https://b"});
        }).find("not meant for") != std::string::npos);
  CHECK(with([](json& c) { c["exp"] = now_s() - 120; }) == "the token has expired");
  CHECK(with([](json& c) { c["exp"] = now_s() - 5; }) == "accepted");  // within the 30 s leeway
  CHECK(with([](json& c) { c.erase("exp"); }).find("no expiry") != std::string::npos);
  CHECK(with([](json& c) { c["exp"] = "tomorrow"; }).find("not a number") != std::string::npos);
  CHECK(with([](json& c) { c["nbf"] = now_s() + 120; }).find("not valid yet") != std::string::npos);
  CHECK(with([](json& c) { c["iat"] = now_s() + 3600; }).find("in the future") != std::string::npos);
  CHECK(with([](json& c) { c.erase("sub"); }).find("no subject") != std::string::npos);
  CHECK(with([](json& c) { c["sub"] = ""; }).find("no subject") != std::string::npos);
  CHECK(with([](json& c) { c["scope"] = json::array({"mcp:read"}); }).find("\"scope\"") != std::string::npos);
  // A token that is not an access token: an ID token signed by the same key.
  CHECK(refusal(jwt_test::token(rsa(), claims(iss), {{"typ", "JWT"}}), keys).find("at+jwt") != std::string::npos);
  CHECK(refusal(jwt_test::token(rsa(), claims(iss), {{"crit", {"exp"}}}), keys).find("crit") != std::string::npos);
}

TEST_CASE("jwt: forged and malformed tokens are refused", "[http][jwt][hostile]") {
  const auto keys = key_set({rsa().jwk(), ec().jwk("ES256")});
  const auto good = jwt_test::token(rsa(), claims("https://as.example.com"));
  const auto dot1 = good.find('.'), dot2 = good.rfind('.');
  const auto input = good.substr(0, dot2);
  SECTION("a bad signature") {
    auto bad = good;
    bad[dot2 + 5] = bad[dot2 + 5] == 'A' ? 'B' : 'A';
    CHECK(refusal(bad, keys) == "the signature does not verify");
    // Claims changed after signing.
    auto c = claims("https://as.example.com", "mallory");
    CHECK(refusal(good.substr(0, dot1) + "." + b64url(c.dump()) + good.substr(dot2), keys) ==
          "the signature does not verify");
  }
  SECTION("alg none, with and without a signature") {
    const auto header = b64url(json{{"alg", "none"}, {"typ", "at+jwt"}, {"kid", "rsa-1"}}.dump());
    const auto payload = b64url(claims("https://as.example.com").dump());
    CHECK(refusal(header + "." + payload + ".", keys).find("signature is missing") != std::string::npos);
    CHECK(refusal(header + "." + payload + "." + b64url("x"), keys).find("alg \"none\"") != std::string::npos);
  }
  SECTION("HS256 keyed with the public key") {
    const auto header = b64url(json{{"alg", "HS256"}, {"typ", "at+jwt"}, {"kid", "rsa-1"}}.dump());
    const auto in = header + "." + b64url(claims("https://as.example.com").dump());
    const auto public_jwk = rsa().jwk().dump();
    CHECK(refusal(in + "." + b64url(jwt_test::hs256(public_jwk, in)), keys) ==
          "the signature algorithm is not accepted");
  }
  SECTION("an algorithm the key is not for: RS256 claimed on the EC key, ES256 on the RSA key") {
    CHECK(refusal(jwt_test::token(rsa(), claims("https://as.example.com"), {{"kid", "ec-1"}}), keys) ==
          "the signature algorithm does not fit the signing key");
    CHECK(refusal(jwt_test::token(ec(), claims("https://as.example.com"), {{"kid", "rsa-1"}}, "ES256"), keys) ==
          "the signature algorithm does not fit the signing key");
  }
  SECTION("an unknown kid") {
    CHECK_THROWS_AS(elicit::auth::verify_jwt_access_token(
                        jwt_test::token(rsa_rotated(), claims("https://as.example.com")), keys, rules()),
                    elicit::auth::UnknownSigningKey);
  }
  SECTION("not three base64url parts of JSON objects") {
    for (const std::string& t : std::vector<std::string>{"", "abc", "a.b", "a.b.c.d", "..", "e30.e30.", input + ".=",
                                                         "e30.e30.e30", "W10.e30.e30", std::string(20000, 'a')}) {
      INFO(t.substr(0, 40));
      CHECK(refusal(t, keys) != "accepted");
    }
    // Padding is not base64url in JOSE.
    CHECK(refusal(input + "." + b64url(rsa().sign("RS256", input)) + "=", keys) != "accepted");
  }
}

TEST_CASE("jwt: a key set keeps only keys that can verify signatures, and says why it skipped the others",
          "[http][jwt]") {
  auto off_curve = ec().jwk();
  off_curve["y"] = off_curve["x"];
  auto enc = rsa().jwk();
  enc["use"] = "enc";
  auto wrong_alg = rsa().jwk("ES256");
  const auto small = SigningKey("RSA", "small", 1024).jwk();
  const auto set = elicit::auth::JsonWebKeySet::parse(json{
      {"keys",
       {rsa().jwk(),
        {{"kty", "oct"}, {"k", "c2VjcmV0"}},
        off_curve,
        enc,
        wrong_alg,
        small,
        {{"kty", "EC"}, {"crv", "secp256k1"}, {"x", "AA"}, {"y", "AA"}},
        {{"kty", "RSA"}, {"n", 5}},
        "text"}}}.dump());
  CHECK(set.size() == 1);
  CHECK(set.has_key_id("rsa-1"));
  REQUIRE(set.skipped().size() == 8);
  CHECK(set.skipped()[0].find("/keys/1: a symmetric key") == 0);
  CHECK(set.skipped()[1].find("/keys/2: not a valid") == 0);
  CHECK(set.skipped()[2].find("/keys/3: \"use\"") == 0);
  CHECK(set.skipped()[3].find("/keys/4: \"alg\"") == 0);
  CHECK(set.skipped()[4].find("/keys/5: an RSA key under 2048 bits") == 0);
  CHECK_THROWS_AS(elicit::auth::JsonWebKeySet::parse("{\"keys\": {}}"), std::invalid_argument);
  CHECK_THROWS_AS(elicit::auth::JsonWebKeySet::parse("[]"), std::invalid_argument);
  CHECK_THROWS_AS(elicit::auth::JsonWebKeySet::parse(std::string(100, '[')), std::invalid_argument);
}

}  // namespace jwt_test
