#include "id_token.hpp"

#include <sodium.h>

namespace elicit::auth {

IdTokenSubject verify_id_token(std::string_view token, const JsonWebKeySet& keys, const IdTokenRules& rules,
                               std::chrono::system_clock::time_point now) {
  JwtAccessTokenRules base;
  base.issuer = rules.issuer;
  base.audience = rules.client_id;
  base.leeway = rules.leeway;
  base.require_at_jwt_type = false;  // an ID token's `typ` is JWT or absent
  // Signature first, then iss, aud, exp, nbf, iat (future) and sub: the shared checks.
  const auto checked = verify_jwt_access_token(token, keys, base, now);
  const auto& claims = checked.claims;

  // Core 1.0 section 3.1.3.7 items 4 and 5: with several audiences the token must say which
  // client it was issued to, and a token issued to another client is not ours.
  const auto aud = claims.at("aud");
  const auto azp = claims.find("azp");
  if (aud.is_array() && aud.size() > 1 && azp == claims.end()) {
    throw http::InvalidToken("the ID token names several audiences but no authorized party (\"azp\")");
  }
  if (azp != claims.end() && (!azp->is_string() || *azp != rules.client_id)) {
    throw http::InvalidToken("the ID token was issued to another client (\"azp\")");
  }
  // Item 10: iat is required (its future side is the shared check's).
  const auto iat = claims.find("iat");
  if (iat == claims.end() || !iat->is_number()) throw http::InvalidToken("the ID token has no issue time (\"iat\")");
  // Item 11: the nonce binds the token to this browser's authentication request (no replay of a
  // token obtained elsewhere).
  const auto nonce = claims.find("nonce");
  if (nonce == claims.end() || !nonce->is_string()) throw http::InvalidToken("the ID token has no \"nonce\"");
  const auto& n = nonce->get_ref<const std::string&>();
  if (n.size() != rules.nonce.size() || rules.nonce.empty() ||
      sodium_memcmp(n.data(), rules.nonce.data(), n.size()) != 0) {
    throw http::InvalidToken("the ID token's \"nonce\" is not the authentication request's");
  }
  return {checked.issuer, checked.subject};
}

}  // namespace elicit::auth
