// The client side of MCP authorization (MCP 2026-07-28 and 2025-11-25, Basic / Authorization): an
// OAuth 2.1 client that HttpClientTransport runs when a server answers 401 or 403
// `insufficient_scope` (HttpClientOptions::authorization: it is an http::ClientAuthorization).
//
// What it does, in the spec's order: reads the `WWW-Authenticate` challenge (RFC 6750 / RFC 9728
// `resource_metadata`, `scope`); finds the Protected Resource Metadata (the challenge's URL, else the
// path-aware then the root well-known URI) and checks that its `resource` names this server; finds
// the authorization server's metadata (RFC 8414 and OpenID Connect discovery, path-aware) and checks
// its `issuer`; without any Protected Resource Metadata, the 2025-03-26 fallbacks (the server's
// origin as the authorization server, and /authorize, /token, /register without metadata). It gets a
// client ID in the spec's order of preference (pre-registered, a Client ID Metadata Document,
// Dynamic Client Registration, RFC 7591); runs the authorization code grant with PKCE S256 only,
// `state`, RFC 9207 `iss` checks and `resource` (RFC 8707) on both requests, or the client
// credentials grant; authenticates at the token endpoint with none, client_secret_basic,
// client_secret_post or private_key_jwt; refreshes; and steps up on `insufficient_scope` with the
// union of the scopes, a bounded number of times.
//
// What the application decides is behind OAuthClientProvider: where tokens and client credentials
// are kept, how the user is sent to the authorization endpoint and how the redirect comes back.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/http/client_authorization.hpp"

namespace elicit::auth {

/// Authorization failed: discovery, registration, the user's answer, the token endpoint, a check the
/// spec requires (PKCE S256 not offered, an issuer or resource that does not match). The text says
/// which step and why; the request that needed the token fails with it.
class OAuthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a token endpoint issued (RFC 6749 section 5.1), and when the access token expires.
struct OAuthTokens {
  std::string access_token;
  std::string token_type = "Bearer";
  std::string refresh_token;  ///< empty when none was issued
  std::string scope;          ///< space-separated; the scope asked for when the server did not say
  /// Seconds since the Unix epoch; 0 when the server gave no `expires_in`.
  std::int64_t expires_at = 0;

  nlohmann::json to_json() const;
  /// Throws OAuthError when `j` has no string `access_token`.
  static OAuthTokens from_json(const nlohmann::json& j);
};

/// A client's identity at one authorization server (MCP Authorization, "Client Registration";
/// "Authorization Server Binding": kept per issuer, never used at another).
struct OAuthClientInformation {
  std::string client_id;
  std::string client_secret;  ///< empty: a public client
  /// "none", "client_secret_basic", "client_secret_post" or "private_key_jwt"; empty: chosen from
  /// what the authorization server supports and what this client has.
  std::string token_endpoint_auth_method;
  /// private_key_jwt (RFC 7523 section 2.2): the PEM private key (RSA or EC P-256) and its algorithm
  /// ("RS256" or "ES256").
  std::string private_key_pem;
  std::string signing_algorithm;

  nlohmann::json to_json() const;
  static OAuthClientInformation from_json(const nlohmann::json& j);
};

/// What the application supplies. Called on a transport thread, never two at once for one
/// OAuthClient (its flows are serialized).
class OAuthClientProvider {
 public:
  virtual ~OAuthClientProvider() = default;

  /// "authorization_code" (a user signs in; the default) or "client_credentials" (the client acts
  /// on its own behalf: client_information() must give its credentials).
  virtual std::string grant_type() { return "authorization_code"; }

  /// The redirect URI for the authorization code grant, e.g. a loopback listener's
  /// "http://127.0.0.1:PORT/callback" (RFC 8252 section 7.3). Called before each authorization.
  virtual std::string redirect_uri() { return {}; }

  /// Client metadata for Dynamic Client Registration (RFC 7591 section 2); redirect_uris,
  /// grant_types, response_types, token_endpoint_auth_method and application_type are filled in
  /// when absent. Default: {"client_name": "elicitgen"}.
  virtual nlohmann::json client_metadata() { return {{"client_name", "elicitgen"}}; }

  /// An https URL where this client's Client ID Metadata Document is served, used as its client_id
  /// at authorization servers that support them; empty (the default): none.
  virtual std::string client_metadata_url() { return {}; }

  /// The client's identity at the authorization server `issuer`: pre-registered, or saved by
  /// save_client_information; nullopt when there is none.
  virtual std::optional<OAuthClientInformation> client_information(const std::string& issuer) = 0;
  virtual void save_client_information(const std::string& issuer, const OAuthClientInformation& info) = 0;

  /// The tokens kept for `resource` (the MCP server's canonical URI) from `issuer`; nullopt: none.
  virtual std::optional<OAuthTokens> tokens(const std::string& resource, const std::string& issuer) = 0;
  virtual void save_tokens(const std::string& resource, const std::string& issuer, const OAuthTokens& tokens) = 0;
  /// The tokens for `resource` from `issuer` are no good (refused, or their refresh failed).
  virtual void discard_tokens(const std::string& resource, const std::string& issuer) = 0;

  /// Sends the user to `authorization_url` (the authorization endpoint with every parameter) and
  /// returns the URL the authorization server redirected the user agent to: the redirect URI with
  /// `code`, `state` and `iss`, or `error`. Blocks until then; throws (anything derived from
  /// std::exception) when the user gives up or it times out.
  virtual std::string authorize(const std::string& authorization_url) = 0;
};

struct OAuthClientOptions {
  /// Each fetch of metadata, registration and the token endpoint, at most (ms).
  std::chrono::milliseconds timeout{10000};
  /// A PEM file of CA certificates to trust for the authorization server and metadata instead of
  /// the system's; empty: the system's.
  std::string ca_file;
  /// Step-up authorizations for one request (403 insufficient_scope), at most (MCP Authorization,
  /// "Step-Up Authorization Flow": retry limits).
  int max_step_ups = 2;
};

/// Runs the flows for one MCP server endpoint and keeps the current access token. Thread-safe: the
/// transport's POST threads ask for the header concurrently; a flow runs on one thread while others
/// wait for its result.
class OAuthClient final : public http::ClientAuthorization {
 public:
  /// `server_url` is the MCP endpoint as the transport uses it. Throws std::invalid_argument when it
  /// is not an http(s) URL or provider is null.
  OAuthClient(std::string server_url, std::shared_ptr<OAuthClientProvider> provider, OAuthClientOptions options = {});
  ~OAuthClient() override;
  OAuthClient(const OAuthClient&) = delete;
  OAuthClient& operator=(const OAuthClient&) = delete;

  /// The `Authorization` header value for the next request ("Bearer TOKEN"), or "" before any
  /// token is known. A kept token that has expired is refreshed first when it can be.
  std::string authorization() override;

  /// What unauthorized() did to get a token to retry with: another token at hand (a newer one,
  /// another thread's, or one kept in the store), a refresh (the refresh_token grant), or a new
  /// authorization (the user signed in, or client credentials).
  using Renewal = http::ClientAuthorization::Renewal;

  /// The server answered 401 to a request sent with `sent_authorization` (what authorization()
  /// gave for it), with `www_authenticate` (all challenges, comma-joined). Discovers anew (the
  /// server may have moved to another authorization server), then uses, in this order, a token at
  /// hand that is not the refused one, a refresh, a new authorization. Returns what it did (a
  /// request is sent again after each, and fails once a new authorization is refused too); throws
  /// OAuthError when authorization fails.
  Renewal unauthorized(const std::string& sent_authorization, const std::string& www_authenticate) override;

  /// The server answered 403 with `error="insufficient_scope"`: authorizes again with the union of
  /// the scopes asked for so far and the challenge's. `step_ups_so_far` counts this request's
  /// earlier step-ups; false (no retry) once it reaches max_step_ups. Throws OAuthError.
  bool insufficient_scope(const std::string& sent_authorization, const std::string& www_authenticate,
                          int step_ups_so_far);
  /// A 403: insufficient_scope() when its Bearer challenge says `error="insufficient_scope"`, else
  /// false (the 403 stands).
  bool forbidden(const std::string& sent_authorization, const std::string& www_authenticate,
                 int step_ups_so_far) override;

  /// The resource URI the tokens are for (the Protected Resource Metadata's `resource`, else the
  /// canonical server URI); empty before the first challenge.
  std::string resource() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

/// The canonical URI of an MCP server (RFC 8707 section 2; MCP Authorization, "Canonical Server
/// URI"): scheme and host in lower case, no fragment, no default port, no trailing slash unless the
/// path is only "/"... which is dropped too. Throws std::invalid_argument for a URL that is not
/// http(s).
std::string canonical_resource_uri(const std::string& url);

}  // namespace elicit::auth
