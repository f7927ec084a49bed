// Serving the pages of URL-mode browser forms (elicit/browser_forms.hpp; MCP 2025-11-25 and
// 2026-07-28, Client, Elicitation, "URL Mode Elicitation Requests", "Safe URL Handling",
// "Phishing") over HTTP: on a StreamableHttpServer's own listener under a path prefix
// (HttpServerOptions::browser_forms), or, for a stdio server, on a loopback listener of their own
// (BrowserFormServer, loopback_browser_forms()). Both serve a page the same way:
//
//   GET  <prefix><id>   the form (200), or a short page saying why not (403, 404, 410)
//   POST <prefix><id>   the submission: application/x-www-form-urlencoded (415 otherwise), at most
//                       max_body_bytes (413); 200 thanks, 422 the form again with its errors, 403
//                       wrong user or CSRF token, 400 not a form's submission, 410 already ended
//   anything else       405 with `Allow: GET, POST`
//
// Every answer is text/html; charset=utf-8 with Content-Security-Policy (the store's),
// Cache-Control: no-store, Referrer-Policy: no-referrer, X-Content-Type-Options: nosniff and
// X-Frame-Options: DENY. docs/server.md ("Serving the pages") has the whole table.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "elicit/browser_forms.hpp"

namespace elicit {

/// The browser form pages a StreamableHttpServer serves on its listener (HttpServerOptions::
/// browser_forms). Requests under `prefix` go to the pages before the MCP endpoint's checks: they
/// pass the Host check (DNS rebinding, HttpServerOptions::allowed_hosts) but not the Origin,
/// Accept and MCP-Protocol-Version checks, nor MCP authorization (a browser sends no bearer token).
struct BrowserFormRoutes {
  /// The path prefix of the pages, starting and ending with '/' (e.g. "/forms/"): a page's URL is
  /// the origin, the prefix, then its id. "" (the default): no pages are served, and the server
  /// sets no BrowserForms on its Server. start() throws std::invalid_argument for a prefix that does
  /// not start and end with '/', is "/" alone, or is a prefix of the MCP endpoint's path.
  std::string prefix{};
  /// scheme://host[:port] that browsers reach the listener at (e.g. "https://mcp.example.com"
  /// behind a TLS-terminating proxy), without a path or a trailing '/'. "" (the default): derived
  /// from the listener: https when TLS is configured, else http; HttpServerOptions::host (a
  /// wildcard address, 0.0.0.0 or ::, gives 127.0.0.1 or [::1]); the bound port. start() throws
  /// std::invalid_argument when it is not http(s)://host[:port]. When it is set and its host is not
  /// a loopback name, no peer counts as a loopback peer (a proxy on this machine connects from
  /// loopback for everyone): pages without a principal are then refused to all (403).
  std::string public_origin{};
  /// Where the pages are kept: any BrowserFormPages (InMemoryBrowserForms, or RedisBrowserForms
  /// for pages several processes serve). Null: start() makes an InMemoryBrowserForms with the
  /// default options. start() sets its base URL (public origin + prefix) and hands it to the
  /// Server (Server::set_browser_forms), where RequestContext::elicit_in_browser finds it. A store
  /// that answers later (BrowserFormPages::handle) is answered from without holding the I/O thread.
  std::shared_ptr<BrowserFormPages> store;
  /// Largest POST body of a page, in bytes: 413 beyond it (HttpServerOptions::max_request_bytes
  /// still bounds what is read).
  std::size_t max_body_bytes = 64 * 1024;
  /// Who the browser is, from its request's header fields (its cookie): `header(name)` gives a
  /// field's value (name case-insensitive; empty when absent). It must answer in the form of
  /// RequestContext::principal() (MCP authorization: the JSON text ["<iss>","<sub>"]), as pages are
  /// matched against it exactly; "" for nobody. The pages' own sign-in (OIDC, issue 29 item 3) is
  /// not there yet. Null (the default): nobody, so only pages opened without a principal can be
  /// answered, from loopback peers (development). Runs on an I/O thread for every page request: it
  /// must be quick and must not block; an exception refuses the request (500).
  std::function<std::string(const std::function<std::string_view(std::string_view name)>& header)> principal;
};

}  // namespace elicit

namespace elicit::http {

/// Options of a BrowserFormServer.
struct BrowserFormServerOptions {
  /// Port to bind on 127.0.0.1; 0 (the default) picks a free one (BrowserFormServer::port()).
  int port = 0;
  /// The pages' path prefix, starting and ending with '/' (not "/" alone).
  std::string prefix = "/forms/";
  /// Largest POST body of a page in bytes: 413 beyond it.
  std::size_t max_body_bytes = 64 * 1024;
  /// I/O threads running the event loop (at least 1).
  std::size_t io_threads = 1;
  /// Where the pages are kept (any BrowserFormPages). Null: the server makes an
  /// InMemoryBrowserForms with the default options.
  std::shared_ptr<BrowserFormPages> store;
};

/// A page server of its own for servers with no HTTP listener (stdio): listens on 127.0.0.1 only,
/// serves the pages under `prefix` exactly as BrowserFormRoutes does (the same code), and accepts
/// only loopback Host names (localhost, 127.0.0.1, [::1]: DNS rebinding). Every peer is a loopback
/// peer, so pages without a principal are served (development: the user's own machine). Other paths
/// answer 404. Thread-safe.
class BrowserFormServer {
 public:
  /// Throws std::invalid_argument for a prefix that does not start and end with '/' (or is "/"),
  /// io_threads 0 or max_body_bytes 0.
  explicit BrowserFormServer(BrowserFormServerOptions options = {});
  /// stop()s.
  ~BrowserFormServer();
  BrowserFormServer(const BrowserFormServer&) = delete;
  BrowserFormServer& operator=(const BrowserFormServer&) = delete;

  /// Binds 127.0.0.1:port, sets the store's base URL ("http://127.0.0.1:<port><prefix>") and starts
  /// the I/O threads. Throws std::runtime_error if it cannot bind, std::system_error if a thread
  /// cannot be created, std::logic_error when called twice.
  void start();
  /// Stops accepting, closes every connection and joins the I/O threads. Idempotent. Pages and
  /// their waiters stay in the store.
  void stop();
  /// The bound port (after start(); 0 before).
  int port() const noexcept;
  /// The pages it serves.
  std::shared_ptr<BrowserFormPages> store() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// BrowserForms for a stdio server (Server::set_browser_forms): an InMemoryBrowserForms whose
/// BrowserFormServer starts on the first open() (no listener until a page is needed; open() then
/// throws what BrowserFormServer::start() throws) and stops when the returned object is destroyed
/// (waiters still waiting then get `aborted`). URLs are "http://127.0.0.1:<port><prefix><id>".
/// Thread-safe.
std::shared_ptr<BrowserForms> loopback_browser_forms(BrowserFormServerOptions options = {});

}  // namespace elicit::http
