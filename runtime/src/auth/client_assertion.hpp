// private_key_jwt client authentication (RFC 7523 section 2.2, OpenID Connect Core section 9): a
// JWT the client signs with its own key and sends as `client_assertion`. Signing through OpenSSL's
// EVP interface. Internal to elicit::auth.
#pragma once

#include <string>

namespace elicit::auth {

/// A signed JWT with iss = sub = `client_id`, aud = `audience` (the authorization server's issuer or
/// token endpoint), a random jti, iat = now and exp = now + 300 s. `private_key_pem`: an RSA key
/// (RS256) or an EC P-256 key (ES256); `algorithm` "RS256", "ES256", or "" to take the key's. Throws
/// OAuthError when the key cannot be read or does not fit the algorithm.
std::string client_assertion(const std::string& client_id, const std::string& audience,
                             const std::string& private_key_pem, const std::string& algorithm);

}  // namespace elicit::auth
