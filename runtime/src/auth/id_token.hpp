// The checks of an OpenID Connect ID token a client makes (OpenID Connect Core 1.0 section 3.1.3.7),
// for the browser form pages' sign-in. Signature, `iss`, `aud` and times are checked as for a JWT
// access token (verify_jwt_access_token, without its `typ` rule); the rest is the ID token's own.
// Internal to elicit::auth.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "elicit/auth/jwt_verifier.hpp"

namespace elicit::auth {

/// What an ID token must say besides a signature by `keys`.
struct IdTokenRules {
  std::string issuer;                       ///< `iss`, byte for byte
  std::string client_id;                    ///< `aud` names it; `azp`, when present, is it
  std::string nonce;                        ///< `nonce`, byte for byte (the authentication request's)
  std::chrono::milliseconds leeway{60000};  ///< for `exp` and `iat`, at most 300,000
};

/// Who an ID token names.
struct IdTokenSubject {
  std::string issuer;
  std::string subject;
};

/// Verifies `token`: compact JWS signed by a key of `keys`; `iss`; `aud` naming client_id; `azp`
/// present when `aud` names several audiences and equal to client_id whenever present; `exp`
/// required and not passed; `iat` required and not in the future; `nonce` equal to the rules'
/// (compared in constant time); `sub` a non-empty string. Throws UnknownSigningKey when no key has
/// the token's `kid` (the caller may fetch the key set again), InvalidToken otherwise, with the
/// reason (never the token).
IdTokenSubject verify_id_token(std::string_view token, const JsonWebKeySet& keys, const IdTokenRules& rules,
                               std::chrono::system_clock::time_point now);

}  // namespace elicit::auth
