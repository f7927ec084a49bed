// MCP Authorization, resource-server side (MCP 2026-07-28 and 2025-11-25, Basic / Authorization;
// OAuth 2.1 sections 5.2-5.3, RFC 6750, RFC 8707, RFC 9728): a StreamableHttpServer that accepts
// only bearer tokens issued for it, publishes its Protected Resource Metadata, and binds everything
// that waits (sessions, requestStates) to the token's principal.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/access_token.hpp"

namespace elicit::http {

/// Thrown by a TokenVerifier for a token it does not accept (malformed, bad signature, wrong issuer or
/// audience, expired, unknown key...): HTTP 401 with `error="invalid_token"`. The text goes into
/// `error_description`: never put the token in it.
class InvalidToken : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Checks an access token (the bytes after "Bearer "), returning what it says or throwing
/// InvalidToken. It must check the audience names this resource (RFC 8707). Runs on an I/O thread
/// for every HTTP request: it must be quick (cache what it fetches) and must not block for long.
/// Any other exception is a 500 and the request is not served.
using TokenVerifier = std::function<AccessToken(std::string_view token)>;

/// HttpServerOptions::authorization: the server as an OAuth 2.1 resource server.
struct ResourceServerOptions {
  /// The canonical URI of this MCP server (RFC 8707 section 2, RFC 9728 `resource`), e.g.
  /// "https://mcp.example.com/mcp": https (or http on loopback), no fragment.
  std::string resource;
  /// Issuer URLs of the authorization servers whose tokens are accepted (RFC 9728
  /// `authorization_servers`); at least one.
  std::vector<std::string> authorization_servers;
  /// RFC 9728 `scopes_supported`: the scopes a client should ask for to use this server.
  std::vector<std::string> scopes_supported;
  /// Scopes every request needs: missing ones give 403 `insufficient_scope` naming them.
  std::vector<std::string> required_scopes;
  /// Scopes a `tools/call` of the tool named needs besides required_scopes (403 names them all).
  std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
  /// Checks each token. Required.
  TokenVerifier verify;
};

}  // namespace elicit::http
