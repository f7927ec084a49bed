// An authorization server's metadata (RFC 8414; OpenID Connect Discovery 1.0 as the fallback), found
// the way MCP Basic / Authorization, "Authorization Server Metadata Discovery" says, for the
// resource server's token verifiers (the JWK Set URL, the introspection endpoint).
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "http_client.hpp"

namespace elicit::auth {

/// The metadata URLs to try for `issuer`, in order: with a path, RFC 8414 path insertion, then
/// OpenID Connect path insertion, then OpenID Connect path appending; without one, the two
/// well-known documents at the root.
std::vector<std::string> metadata_urls(const std::string& issuer);

/// Fetches the first metadata document `issuer` has (a URL answering other than 200 is skipped) and
/// checks that its `issuer` is `issuer` (RFC 8414 section 3.3). Each fetch gets the time left until
/// `deadline`. Throws FetchError: nothing reachable, none found, not a JSON object, another issuer.
nlohmann::json fetch_metadata(const std::string& issuer, std::chrono::steady_clock::time_point deadline,
                              const FetchOptions& options);

/// GET `url` (Accept: application/json) with the time left until `deadline`.
FetchResponse fetch_json(const std::string& url, std::chrono::steady_clock::time_point deadline, FetchOptions options);

}  // namespace elicit::auth
