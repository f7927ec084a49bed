// `elicitgen client`'s side of MCP authorization (elicit::auth::OAuthClientProvider): the user is
// shown the authorization URL and signs in with a browser, which comes back to a loopback redirect
// listener (RFC 8252); client registrations (per authorization server) and tokens (per server and
// authorization server) are kept in a JSON file only the user can read, so the next run reuses them.
// Built only with Streamable HTTP.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include <elicit/auth/loopback_redirect.hpp>
#include <elicit/auth/oauth_client.hpp>

namespace elicitgen {

/// Where the store lives by default: $XDG_STATE_HOME/elicitgen/oauth.json, else
/// $HOME/.local/state/elicitgen/oauth.json; empty when neither variable is set.
std::filesystem::path default_oauth_store();

struct CliAuthorizationOptions {
  /// The store file; empty: in memory only (`--no-store`).
  std::filesystem::path store;
  /// A pre-registered client ID (`--client-id`), used at any authorization server that has no
  /// registration saved; its secret, if any (ELICITGEN_CLIENT_SECRET).
  std::string client_id;
  std::string client_secret;
  /// How long the sign-in may take, from the URL shown to the browser's return (ms).
  std::chrono::milliseconds sign_in_timeout{300000};
};

class CliAuthorization final : public elicit::auth::OAuthClientProvider {
 public:
  /// Reads the store (a missing file is an empty store; an unreadable or malformed one is reported
  /// on `messages` and replaced on the next save). `messages`: where the URL and warnings go (stderr).
  CliAuthorization(CliAuthorizationOptions options, std::ostream& messages);

  std::string redirect_uri() override;
  nlohmann::json client_metadata() override;
  std::optional<elicit::auth::OAuthClientInformation> client_information(const std::string& issuer) override;
  void save_client_information(const std::string& issuer, const elicit::auth::OAuthClientInformation& info) override;
  std::optional<elicit::auth::OAuthTokens> tokens(const std::string& resource, const std::string& issuer) override;
  void save_tokens(const std::string& resource, const std::string& issuer,
                   const elicit::auth::OAuthTokens& tokens) override;
  void discard_tokens(const std::string& resource, const std::string& issuer) override;
  /// Prints the URL and waits for the browser at the loopback listener. Throws RedirectTimeout.
  std::string authorize(const std::string& authorization_url) override;

 private:
  // Writes the store: a temporary file created 0600 in the same folder (0700, made when missing),
  // then renamed over the old one. A failure is reported on `messages_`; the run goes on.
  void save();

  CliAuthorizationOptions options_;
  std::ostream& messages_;
  nlohmann::json store_;  // {"clients": {issuer: info}, "tokens": {"resource issuer": tokens}}
  std::unique_ptr<elicit::auth::LoopbackRedirect> listener_;  // made when a redirect URI is first needed
};

}  // namespace elicitgen
