// Opaque access tokens checked by asking the authorization server (OAuth 2.0 Token Introspection,
// RFC 7662), for the resource server (HttpServerOptions::authorization). MCP Basic / Authorization,
// "Token Handling": the token must have been issued for this resource (its audience).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "elicit/http/authorization.hpp"

namespace elicit::auth {

/// introspection_verifier's settings.
struct IntrospectionVerifierOptions {
  /// The authorization server's issuer identifier (https, or http on loopback): where its metadata
  /// is found, and the `iss` an introspection response must have when it has one.
  std::string issuer;
  /// This resource's canonical URI (ResourceServerOptions::resource): the response's `aud` must
  /// name it.
  std::string audience;
  /// The introspection endpoint. Empty: the metadata's `introspection_endpoint` (found as
  /// JwtVerifierOptions::jwks_uri is).
  std::string introspection_endpoint;
  /// This resource server's credentials at the authorization server, sent as HTTP Basic
  /// (`client_secret_basic`, RFC 6749 section 2.3.1). RFC 7662 section 2.1: the endpoint requires
  /// authorization.
  std::string client_id;
  std::string client_secret;
  /// RFC 7662 makes `aud` optional in a response; MCP requires the audience to be checked, so a
  /// response without `aud` is refused unless this is false (an authorization server that issues
  /// tokens for this resource only).
  bool require_audience = true;
  /// Allowed clock difference for `exp` and `nbf`, in milliseconds; at most 300,000.
  std::chrono::milliseconds leeway{30000};
  /// An answer (active or not) is kept this many milliseconds, never past the token's `exp`, keyed
  /// by the token's SHA-256 (the token itself is not kept). 0: every request asks.
  std::chrono::milliseconds cache_ttl{std::chrono::seconds(60)};
  /// At most this many answers are kept; the oldest go first.
  std::size_t cache_entries = 10000;
  /// Each introspection (and the metadata fetch before the first) within this many milliseconds.
  std::chrono::milliseconds fetch_timeout{5000};
  /// A PEM file of CA certificates for the HTTPS requests (a private CA); empty: the system store.
  std::string ca_file;
};

/// A TokenVerifier for ResourceServerOptions::verify that POSTs each token (not in the cache) to
/// the introspection endpoint and accepts it when the answer is `active: true` with `iss` (when
/// present) the issuer, `aud` naming the audience, `exp`/`nbf` within the leeway and a non-empty
/// `sub`; scopes from `scope`. A request blocks the I/O thread verifying the token, up to
/// fetch_timeout. An authorization server that cannot be reached or answers an error refuses the
/// token as InvalidToken (not cached). Thread-safe. Throws std::invalid_argument for options
/// without issuer, audience or client_id, or with a leeway over 5 minutes.
http::TokenVerifier introspection_verifier(IntrospectionVerifierOptions options);

}  // namespace elicit::auth
