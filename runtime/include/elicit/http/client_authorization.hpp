// The seam between the Streamable HTTP client transport and MCP authorization, client side (MCP
// 2026-07-28 and 2025-11-25, Basic / Authorization): what HttpClientTransport asks of whatever holds
// its access token. The authorization wing's OAuth 2.1 client implements it (auth::OAuthClient,
// elicit/auth/oauth_client.hpp); a caller holding a token of its own can implement it in a few lines.
#pragma once

#include <string>

namespace elicit::http {

/// How an HttpClientTransport authorizes its requests (HttpClientOptions::authorization). Called on
/// the transport's POST threads, several at once: implementations must be thread-safe. Exceptions
/// (anything derived from std::exception) end the request that needed the token with a JSON-RPC
/// error (-32000) whose message says why.
class ClientAuthorization {
 public:
  virtual ~ClientAuthorization() = default;

  /// The `Authorization` header value for the next request (e.g. "Bearer TOKEN"), or "" for none.
  virtual std::string authorization() = 0;

  /// What unauthorized() did to get a token to retry with.
  enum class Renewal {
    other_token,  ///< another token was at hand: a newer one (another thread's), or one kept in a store
    refreshed,    ///< a refresh gave a new access token
    authorized,   ///< a new authorization (a sign-in): refused again, the request fails
  };

  /// The server answered 401 to a request sent with `sent_authorization` (what authorization() gave
  /// for it); `www_authenticate`: its challenges, comma-joined. The transport sends the request
  /// again after each answer, up to 3 times, and not after a new authorization was refused.
  virtual Renewal unauthorized(const std::string& sent_authorization, const std::string& www_authenticate) = 0;

  /// The server answered 403 to a request sent with `sent_authorization`; `www_authenticate`: its
  /// challenges, comma-joined (a Bearer `error="insufficient_scope"` asks for a step-up).
  /// `step_ups_so_far` counts this request's earlier true answers. True: send the request again
  /// (authorization() gives the new token); false: the 403 stands.
  virtual bool forbidden(const std::string& sent_authorization, const std::string& www_authenticate,
                         int step_ups_so_far) = 0;
};

/// A token the caller already holds (e.g. from a secret store or another sign-in), sent as
/// `Authorization: Bearer TOKEN` with every request and never renewed (RFC 6750 section 2.1): a 401
/// ends the request at once (unauthorized() throws std::runtime_error saying the server refused the
/// token, with its challenges; the transport answers the request with -32000 and
/// `transportFailure: "authorization"`), and a 403 stands. Immutable, so thread-safe. The token is
/// never put in a message.
class BearerToken final : public ClientAuthorization {
 public:
  /// Throws std::invalid_argument for an empty token or one with characters outside RFC 6750's
  /// b64token (letters, digits, "-._~+/", then "=" padding).
  explicit BearerToken(std::string token);
  std::string authorization() override { return "Bearer " + token_; }
  Renewal unauthorized(const std::string& sent_authorization, const std::string& www_authenticate) override;
  bool forbidden(const std::string&, const std::string&, int) override { return false; }

 private:
  std::string token_;
};

}  // namespace elicit::http
