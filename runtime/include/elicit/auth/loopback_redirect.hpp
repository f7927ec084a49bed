// The redirect URI of a native OAuth client (RFC 8252 section 7.3, "Loopback Interface
// Redirection"): a listener on 127.0.0.1 and a port the system picks, which receives the
// authorization response when the user's browser is sent back to
// http://127.0.0.1:PORT/callback?code=...&state=...&iss=... . An OAuthClientProvider's
// redirect_uri() and authorize() are built on it (oauth_client.hpp).
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace elicit::auth {

/// No authorization response arrived in time (or the listener was cancelled).
class RedirectTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Listens from construction to destruction. Only GET `path` counts; any other request gets 404 and
/// the listener goes on waiting. The browser is answered with a short page saying whether the
/// sign-in went through (never echoing what the authorization server sent). Each connection must
/// deliver its request within 10 seconds (a browser's idle speculative connections do not hold up
/// the real one). Not thread-safe: one thread calls wait().
class LoopbackRedirect {
 public:
  /// Binds 127.0.0.1 on a free port. Throws std::runtime_error when it cannot.
  explicit LoopbackRedirect(std::string path = "/callback");
  ~LoopbackRedirect();
  LoopbackRedirect(const LoopbackRedirect&) = delete;
  LoopbackRedirect& operator=(const LoopbackRedirect&) = delete;

  /// "http://127.0.0.1:PORT/callback": the exact redirect URI to register and send.
  std::string redirect_uri() const;

  /// Blocks until the browser GETs the redirect URI, up to `timeout` (ms), and returns the full URL
  /// it asked for (redirect URI and query), for OAuthClientProvider::authorize() to return. Throws
  /// RedirectTimeout.
  std::string wait(std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace elicit::auth
