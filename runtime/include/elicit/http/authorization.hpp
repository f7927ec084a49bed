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
#include "elicit/jsonrpc/message.hpp"

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

/// The scopes one JSON-RPC request needs besides those the maps of ResourceServerOptions name (see
/// ResourceServerOptions::operation_scopes): `request.method` and `request.params` as the client sent them.
using OperationScopes = std::function<std::vector<std::string>(const ::elicit::Request& request)>;

/// Whether the `granted` scope implies the `needed` one, a different scope (a scope always implies
/// itself): e.g. "files" implies "files:read" (MCP Authorization, "Step-Up Authorization Flow": servers
/// MUST account for scope hierarchies).
using ScopeImplies = std::function<bool(std::string_view granted, std::string_view needed)>;

/// HttpServerOptions::authorization: the server as an OAuth 2.1 resource server.
///
/// Scopes per operation (MCP Authorization, "Runtime Insufficient Scope Errors"): a request to the
/// MCP endpoint needs required_scopes; a JSON-RPC request needs, besides, those method_scopes names for
/// its method, those tool_scopes, prompt_scopes or resource_scopes name for its tool, prompt or
/// resource, and those operation_scopes returns for it. A token without one of them gets 403 with
/// `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"` whose
/// `scope` holds every scope the request needs, granted or not, in that order without repeats: one
/// challenge, so that one step-up authorization gets all of them (a client asks for the union of
/// these and what it had). A scope is granted when the token has it, or has one that scope_implies
/// says implies it. Both eras: a 2026-07-28 request, and each request POSTed on a 2025-11-25 session
/// with the token it carries (so a client that got more scopes goes on in the same session).
struct ResourceServerOptions {
  /// The canonical URI of this MCP server (RFC 8707 section 2, RFC 9728 `resource`), e.g.
  /// "https://mcp.example.com/mcp": https (or http on loopback), no fragment.
  std::string resource;
  /// Issuer URLs of the authorization servers whose tokens are accepted (RFC 9728
  /// `authorization_servers`); at least one.
  std::vector<std::string> authorization_servers;
  /// RFC 9728 `scopes_supported`: the scopes a client should ask for to use this server.
  std::vector<std::string> scopes_supported;
  /// Scopes every request to the MCP endpoint needs (GET and DELETE included): missing ones give 403
  /// `insufficient_scope` naming them, with the scopes the operation needs besides for a POST.
  std::vector<std::string> required_scopes;
  /// Scopes a request of the method named needs, whatever it is about: e.g. {"tools/call",
  /// {"mcp:write"}} while tools/list needs only required_scopes.
  std::map<std::string, std::vector<std::string>, std::less<>> method_scopes;
  /// Scopes a `tools/call` of the tool named (`params.name`) needs.
  std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
  /// Scopes a `prompts/get` of the prompt named (`params.name`) needs.
  std::map<std::string, std::vector<std::string>, std::less<>> prompt_scopes;
  /// Scopes a `resources/read` of the resource whose URI is the key (`params.uri`, compared exactly)
  /// needs. The URIs of a resource template go to operation_scopes (with elicit::UriTemplate::match,
  /// the needed scopes may name the template's variables).
  std::map<std::string, std::vector<std::string>, std::less<>> resource_scopes;
  /// Scopes a request needs besides those the maps above name, for what a map cannot say: the URIs
  /// of a resource template, scopes that depend on a tool's arguments, methods by pattern. Null (the
  /// default): none. Called for every JSON-RPC request POSTed to the MCP endpoint (initialize and ping
  /// too; not for notifications and responses), once its token is verified and before it is served,
  /// with params as sent except that a 2026-07-28 request's `params._meta` may be absent (the server
  /// reads it apart). Params are not validated yet: a member may be missing or of another type.
  /// Runs on an I/O thread: it must be quick and must not block. An exception refuses the request:
  /// HTTP 500 with a JSON-RPC error -32603 (the exception's text is not sent), as for `verify`.
  OperationScopes operation_scopes;
  /// Scope hierarchies: whether a granted scope implies a needed one (e.g. a prefix rule, "files"
  /// implying "files:read" and "files:write"). Null (the default): a scope implies only itself.
  /// Called wherever a needed scope is not granted as such, once per granted scope until one
  /// implies it; on an I/O thread, so quick and not blocking. An exception is a 500, as above.
  /// RequestContext::access_token()->has_scope() still compares exactly.
  ScopeImplies scope_implies;
  /// Checks each token. Required.
  TokenVerifier verify;
};

}  // namespace elicit::http
