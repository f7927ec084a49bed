// verify_jwt_access_token (jwt_verifier.hpp): RFC 9068 section 4 over RFC 7519 and RFC 7515.
#include <cmath>
#include <stdexcept>

#include "base64url.hpp"
#include "elicit/auth/jwt_verifier.hpp"
#include "http_client.hpp"
#include "json_document.hpp"
#include "token_claims.hpp"

namespace elicit::auth {

namespace {

constexpr std::size_t kMaxTokenBytes = 16 * 1024;

nlohmann::json decode_part(std::string_view part, const char* what) {
  const auto bytes = base64url_decode(part);
  if (!bytes) throw http::InvalidToken(std::string("the token's ") + what + " is not base64url");
  auto value = parse_json_document(*bytes);
  if (!value || !value->is_object())
    throw http::InvalidToken(std::string("the token's ") + what + " is not a JSON object");
  return std::move(*value);
}

// A NumericDate claim (RFC 7519 section 2) in seconds; nullopt when absent.
std::optional<double> numeric_date(const nlohmann::json& claims, const char* name) {
  const auto it = claims.find(name);
  if (it == claims.end()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    throw http::InvalidToken(std::string("the \"") + name + "\" claim is not a number");
  }
  return it->get<double>();
}

}  // namespace

AccessToken verify_jwt_access_token(std::string_view token, const JsonWebKeySet& keys, const JwtAccessTokenRules& rules,
                                    std::chrono::system_clock::time_point now) {
  if (rules.issuer.empty() || rules.audience.empty()) {
    throw std::invalid_argument("JwtAccessTokenRules: issuer and audience are required");
  }
  if (rules.leeway < std::chrono::milliseconds(0) || rules.leeway > std::chrono::minutes(5)) {
    throw std::invalid_argument("JwtAccessTokenRules: the leeway is from 0 to 300,000 ms");
  }
  if (token.size() > kMaxTokenBytes) throw http::InvalidToken("the token is longer than 16,384 bytes");
  const auto first = token.find('.');
  const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    throw http::InvalidToken("the token is not a JWT (three dot-separated parts)");
  }
  const auto header = decode_part(token.substr(0, first), "header");
  const auto signature = base64url_decode(token.substr(second + 1));
  if (!signature || signature->empty()) throw http::InvalidToken("the token's signature is missing or not base64url");

  // RFC 7515 section 4.1.11: extensions we do not know must make us refuse the token.
  if (header.contains("crit")) throw http::InvalidToken("the token's header has critical extensions (\"crit\")");
  const auto alg = header.find("alg");
  if (alg == header.end() || !alg->is_string()) throw http::InvalidToken("the token's header has no \"alg\"");
  std::string kid;
  if (const auto k = header.find("kid"); k != header.end()) {
    if (!k->is_string()) throw http::InvalidToken("the token's \"kid\" is not a string");
    kid = k->get<std::string>();
  }
  if (rules.require_at_jwt_type) {
    const auto typ = header.find("typ");
    const auto t = typ != header.end() && typ->is_string() ? http::ascii_lower(typ->get_ref<const std::string&>()) : "";
    if (t != "at+jwt" && t != "application/at+jwt") {
      throw http::InvalidToken("the token is not a JWT access token (\"typ\" is not \"at+jwt\")");
    }
  }
  // The signature before anything in the payload is believed.
  keys.verify_signature(alg->get_ref<const std::string&>(), kid, token.substr(0, second), *signature);
  const auto claims = decode_part(token.substr(first + 1, second - first - 1), "payload");

  const auto iss = claims.find("iss");
  if (iss == claims.end() || !iss->is_string() || *iss != rules.issuer) {
    throw http::InvalidToken("the token was not issued by " + rules.issuer);
  }
  // RFC 8707 and MCP "Token Audience Binding": a token for another resource is refused.
  const auto aud = claims.find("aud");
  if (aud == claims.end() || !names_audience(*aud, rules.audience))
    throw http::InvalidToken("the token is not meant for " + rules.audience + " (\"aud\")");
  const double t = std::chrono::duration<double>(now.time_since_epoch()).count();
  const double leeway = std::chrono::duration<double>(rules.leeway).count();
  const auto exp = numeric_date(claims, "exp");
  if (!exp) throw http::InvalidToken("the token has no expiry (\"exp\")");
  if (t > *exp + leeway) throw http::InvalidToken("the token has expired");
  if (const auto nbf = numeric_date(claims, "nbf"); nbf && t + leeway < *nbf) {
    throw http::InvalidToken("the token is not valid yet (\"nbf\")");
  }
  if (const auto iat = numeric_date(claims, "iat"); iat && t + leeway < *iat) {
    throw http::InvalidToken("the token was issued in the future (\"iat\")");
  }
  AccessToken out;
  out.issuer = rules.issuer;
  out.subject = subject_of(claims);
  if (const auto scope = claims.find("scope"); scope != claims.end()) {
    if (!scope->is_string()) throw http::InvalidToken("the token's \"scope\" is not a string");
    out.scopes = split_scope(scope->get_ref<const std::string&>());
  }
  out.claims = claims;
  return out;
}

}  // namespace elicit::auth
