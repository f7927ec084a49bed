// JWT access tokens (RFC 9068) for the resource server: the key set they are signed with (RFC 7517,
// RFC 7518), the checks of one token, and a TokenVerifier that finds the authorization server's keys
// itself (RFC 8414 metadata, OpenID Connect discovery) and keeps them. MCP 2026-07-28 and 2025-11-25,
// Basic / Authorization, "Token Handling": a resource server MUST validate that a token was issued
// for it (RFC 8707 audience) and MUST NOT accept one meant for another resource. Signatures are
// checked by OpenSSL.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/http/authorization.hpp"

namespace elicit::auth {

/// A token that names a key (`kid`) the key set does not have; jwt_verifier fetches the set again
/// (at most once per JwtVerifierOptions::jwks_refetch_interval) before it refuses it.
class UnknownSigningKey : public http::InvalidToken {
 public:
  using http::InvalidToken::InvalidToken;
};

/// The public signature keys of a JSON Web Key Set (RFC 7517 section 5). Immutable once parsed;
/// copies share the keys; safe to use from any number of threads.
class JsonWebKeySet {
 public:
  /// No keys: every token is refused.
  JsonWebKeySet();
  /// Parses a JWK Set document (`{"keys": [...]}`). Usable keys: RSA of 2048 bits or more (RS256,
  /// RS384, RS512, PS256, PS384, PS512), EC on P-256, P-384, P-521 (ES256, ES384, ES512) and OKP
  /// Ed25519 (EdDSA). Skipped, each with its reason in skipped(): `use` other than "sig", `key_ops`
  /// without "verify", symmetric ("oct") keys, other curves and types, an `alg` that does not fit the
  /// key, malformed or invalid members (a point not on its curve). Throws std::invalid_argument when
  /// the document is not a JSON object with a `keys` array (the text says where).
  static JsonWebKeySet parse(std::string_view document);

  std::size_t size() const;                         ///< usable keys
  bool has_key_id(std::string_view kid) const;      ///< whether a usable key has this `kid`
  const std::vector<std::string>& skipped() const;  ///< "keys/3: why", one per skipped key

  /// Verifies a JWS signature (RFC 7515 section 5.2) over `signing_input` (the ASCII of
  /// BASE64URL(header) "." BASE64URL(payload)) with the algorithm `alg` and the key `kid` (empty:
  /// each key that fits `alg`). The algorithm is pinned by the key: the key's own `alg` when it has
  /// one, otherwise those of its type and curve; `none` and the HMAC algorithms are never accepted.
  /// Throws UnknownSigningKey when no key has `kid`, InvalidToken when the algorithm is not accepted
  /// for the key or the signature does not verify.
  void verify_signature(std::string_view alg, std::string_view kid, std::string_view signing_input,
                        std::string_view signature) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

/// What verify_jwt_access_token requires of a token besides its signature.
struct JwtAccessTokenRules {
  std::string issuer;    ///< `iss` must equal it (byte for byte)
  std::string audience;  ///< `aud` (a string or an array) must contain it: this resource's URI
  /// Allowed clock difference for `exp`, `nbf` and `iat`, in milliseconds; at most 300,000.
  std::chrono::milliseconds leeway{30000};
  /// RFC 9068 section 4: the header's `typ` must be "at+jwt" (or "application/at+jwt"), so that an ID
  /// token or another JWT signed by the same keys is not taken for an access token.
  bool require_at_jwt_type = true;
};

/// Checks a JWT access token (RFC 9068 section 4; RFC 7519): compact JWS serialisation of exactly
/// three base64url parts without padding, at most 16,384 bytes; a header with `alg` (and `kid`)
/// and no `crit`; the signature with `keys`; `iss`; `aud`; `exp` (required) and `nbf`, `iat` against
/// `now` within the leeway; `sub` a non-empty string. Scopes from `scope` (space-separated). Throws
/// UnknownSigningKey or InvalidToken with the reason (never the token); std::invalid_argument for
/// rules without issuer or audience or with a leeway over 5 minutes.
AccessToken verify_jwt_access_token(std::string_view token, const JsonWebKeySet& keys, const JwtAccessTokenRules& rules,
                                    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

/// jwt_verifier's settings.
struct JwtVerifierOptions {
  /// The authorization server's issuer identifier (https, or http on loopback): the expected `iss`
  /// and where its metadata is found.
  std::string issuer;
  /// This resource's canonical URI, the expected `aud` (ResourceServerOptions::resource).
  std::string audience;
  /// The JWK Set URL. Empty: read from the issuer's metadata, found as RFC 8414 section 3.1 and
  /// the MCP authorization spec say: `/.well-known/oauth-authorization-server` (path-inserted),
  /// then OpenID Connect discovery (path-inserted, then appended). The metadata's `issuer` must
  /// equal `issuer`.
  std::string jwks_uri;
  std::chrono::milliseconds leeway{30000};  ///< JwtAccessTokenRules::leeway
  bool require_at_jwt_type = true;          ///< JwtAccessTokenRules::require_at_jwt_type
  /// A token whose `kid` is unknown fetches the key set again, at most once per this interval (in
  /// milliseconds), so that tokens with made-up key ids cannot make the server flood the
  /// authorization server; in between, they are refused.
  std::chrono::milliseconds jwks_refetch_interval{std::chrono::seconds(60)};
  /// Keys older than this (in milliseconds) are fetched again at the next token, so a key the
  /// authorization server withdrew stops verifying.
  std::chrono::milliseconds jwks_max_age{std::chrono::hours(1)};
  /// Each fetch (metadata, key set) within this many milliseconds.
  std::chrono::milliseconds fetch_timeout{5000};
  /// A PEM file of CA certificates for the HTTPS fetches (a private CA); empty: the system store.
  std::string ca_file;
};

/// A TokenVerifier for ResourceServerOptions::verify that checks JWT access tokens issued by one
/// authorization server: the metadata and key set are fetched at the first token (not at
/// construction, so a server starts while its authorization server is down) and kept; see
/// JwtVerifierOptions for when they are fetched again. A fetch blocks the I/O thread that verifies
/// the token, up to fetch_timeout; only one fetch runs at a time and the others wait for it. A
/// failed fetch refuses the token as InvalidToken ("the authorization server's keys are not
/// available") and is tried again after jwks_refetch_interval. Thread-safe. Throws
/// std::invalid_argument for options without issuer or audience, or with a leeway over 5 minutes.
http::TokenVerifier jwt_verifier(JwtVerifierOptions options);

}  // namespace elicit::auth
