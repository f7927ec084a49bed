// The small text formats an OAuth client reads and writes: application/x-www-form-urlencoded bodies
// and query strings (HTML, "URL-encoded form data"; RFC 6749 appendix B), WWW-Authenticate challenges
// (RFC 9110 section 11.6.1, RFC 6750 section 3), and the random values and PKCE S256 challenge
// (RFC 7636 section 4). Internal to elicit::auth.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::auth {

/// One name or value of a form: every byte outside A-Z a-z 0-9 - . _ ~ percent-encoded.
std::string form_component(std::string_view text);

/// The Authorization header value for HTTP Basic client authentication at an OAuth endpoint (RFC
/// 6749 section 2.3.1: the client ID and secret each form-encoded, then Base64).
std::string basic_authorization(std::string_view client_id, std::string_view client_secret);

/// `pairs` as name=value&... with every byte outside A-Z a-z 0-9 - . _ ~ percent-encoded (a space
/// as %20, which every form decoder reads).
std::string form_encode(const std::vector<std::pair<std::string, std::string>>& pairs);

/// The parameters of a query string or form body ("a=1&b=%20"; '+' is a space). A name given twice
/// keeps its first value. nullopt when a percent escape is malformed.
std::optional<std::map<std::string, std::string>> form_decode(std::string_view text);

/// The query parameters of `url` (between '?' and '#'); empty when it has none.
std::optional<std::map<std::string, std::string>> query_parameters(const std::string& url);

/// One challenge of a WWW-Authenticate header: its scheme (lower case) and its auth-params (names
/// in lower case, quoted-string values unescaped).
struct AuthChallenge {
  std::string scheme;
  std::map<std::string, std::string> params;
};

/// Every challenge in `header` (several headers may be joined with ", "). Tolerant: what cannot be
/// parsed ends the list.
std::vector<AuthChallenge> parse_www_authenticate(std::string_view header);

/// The Bearer challenge's parameters, if `header` has one.
std::optional<std::map<std::string, std::string>> bearer_challenge(std::string_view header);

/// `bytes` random bytes (libsodium) as base64url: state values, PKCE verifiers, jti.
std::string random_urlsafe(std::size_t bytes);

/// The PKCE S256 code challenge of `verifier`: base64url(SHA-256(verifier)).
std::string pkce_s256(const std::string& verifier);

/// The scopes of both space-separated lists, each once, `a`'s first (step-up: MCP Authorization,
/// "Step-Up Authorization Flow", the union of the scopes asked for and the challenge's).
std::string scope_union(std::string_view a, std::string_view b);

}  // namespace elicit::auth
