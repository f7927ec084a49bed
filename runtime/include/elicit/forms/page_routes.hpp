// Serving the pages of URL-mode browser forms (elicit/browser_forms.hpp; MCP 2025-11-25 and
// 2026-07-28, Client, Elicitation, "URL Mode Elicitation Requests", "Safe URL Handling",
// "Phishing") over HTTP: on a StreamableHttpServer's own listener under a path prefix
// (forms::routes() in HttpServerOptions::routes), or, for a stdio server, on a loopback listener of
// their own (forms::PageServer, forms::loopback_pages(), elicit/forms/page_server.hpp). Both serve a
// page the same way:
//
//   GET  <prefix><id>   the form (200), or a short page saying why not (403, 404, 410)
//   POST <prefix><id>   the submission: application/x-www-form-urlencoded (415 otherwise), at most
//                       max_body_bytes (413); 200 thanks, 422 the form again with its errors, 403
//                       wrong user or CSRF token, 400 not a form's submission, 410 already ended
//   anything else       405 with `Allow: GET, POST`
//
// Every answer is text/html; charset=utf-8 with Content-Security-Policy (the store's),
// Cache-Control: no-store, Referrer-Policy: no-referrer, X-Content-Type-Options: nosniff,
// X-Frame-Options: DENY, Content-Language and Vary: Accept-Language, in the language of the
// request's Accept-Language or PageRoutes::language. docs/browser-forms.md ("Serving the pages") has
// the whole table.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/forms/page_store.hpp"
#include "elicit/http/server.hpp"

namespace elicit::forms {

/// The pages' own sign-in (PageRoutes::sign_in): who may answer a page bound to a principal
/// (MCP Client / Elicitation, "Phishing": the server MUST verify that the person who opens the URL
/// is the user who started the elicitation). The browser signs in at the same authorization server
/// as the MCP client did, with OpenID Connect (Core 1.0 section 3.1, the authorization code flow)
/// and PKCE S256 (RFC 7636); the pages then know it as the JSON text `["<iss>","<sub>"]` of the ID
/// token, the same text as RequestContext::principal() of a call whose access token has that `iss`
/// and `sub`, and a page answers only the principal that opened it.
///
/// The flow, all under PageRoutes::prefix:
///
///   `GET  <prefix><id>`     no valid session cookie: 303 to the authorization endpoint
///                           (response_type=code, scope "openid" and `scopes`, state, nonce,
///                           code_challenge S256, redirect_uri `<public origin><prefix>sign-in`),
///                           with the transaction (state, nonce, code verifier, the page) sealed in
///                           a cookie of its own that lives sign_in_timeout
///   `POST <prefix><id>`     no valid session cookie: 403, a short page without the form
///   `GET  <prefix>sign-in`  the redirect back (never a page id: ids are 16 to 128 characters): the
///                           transaction cookie named by `state`, RFC 9207 `iss` (required when the
///                           server advertises it), then the code exchanged at the token endpoint
///                           and the ID token verified (signature by the issuer's JWK Set, `iss`,
///                           `aud` naming client_id, `azp` when present or with several audiences,
///                           `exp`, `iat` present and not in the future, `nonce`); then the session
///                           cookie is set and the browser sent back to its page (303)
///
/// Cookies (RFC 6265bis): `__Host-` names, Path=/, Secure, HttpOnly, SameSite=Lax (Lax, not
/// Strict: the redirect back from the authorization server is a top-level navigation from another
/// site, and must carry the transaction cookie). Their values are sealed like a requestState
/// (RequestStateSealer: XChaCha20-Poly1305 with cookie_keys, an expiry inside): unreadable and
/// unforgeable without a key, and any process holding the keys reads them, so the redirect back and
/// the next page may land on another process. The session holds only {iss, sub}; it ends after
/// session_lifetime.
///
/// Refusals, each a short page (render_form_status_page) naming no secret: the authorization
/// server's `error` (e.g. access_denied) 403; a state without its transaction cookie (expired,
/// another browser, forged) 400; an `iss` that is not the issuer's 400; the token endpoint refusing
/// 502; an ID token failing a check 403; the authorization server unreachable (metadata, keys,
/// token endpoint) 503, never a hang: each fetch within fetch_timeout, and a failed discovery is
/// not tried again for 5 seconds (503 at once meanwhile). A refusal sets no session cookie (and
/// deletes the transaction's).
///
/// Threads: cookies are opened on the I/O thread; discovery, the key set and the token request run
/// on the sign-in's own worker threads (2), answering through a pending reply, so an I/O thread
/// never waits for the authorization server. At most 64 such requests wait at once; more get 503.
struct SignIn {
  /// The issuer identifier of the authorization server (https, or http on loopback). "" (the
  /// default): the only one of HttpServerOptions::authorization's authorization_servers; start()
  /// throws std::invalid_argument when there is not exactly one. Its metadata is found as for the
  /// MCP client (RFC 8414, then OpenID Connect Discovery 1.0) at the first sign-in and kept; it must
  /// name this issuer and have authorization_endpoint, token_endpoint and jwks_uri, and list S256 in
  /// code_challenge_methods_supported.
  std::string issuer;
  /// The pages' client at the authorization server (registered with the redirect URI
  /// `<public origin><prefix>sign-in`). Required.
  std::string client_id;
  /// "" (the default): a public client (PKCE, client_id in the token request). Otherwise the client
  /// authenticates with client_secret_basic (RFC 6749 section 2.3.1).
  std::string client_secret;
  /// Scopes asked for besides "openid", which is always asked for first.
  std::vector<std::string> scopes;
  /// Raw keys of exactly 32 bytes each, at least one (RequestStateSealer::generate_key()): the first
  /// seals cookies, every one opens them (rotation). Give every process serving the pages the same
  /// keys.
  std::vector<std::string> cookie_keys;
  /// How long a session lasts once signed in, in milliseconds (positive).
  std::chrono::milliseconds session_lifetime{std::chrono::hours(8)};
  /// How long a sign-in may take, from the redirect to the authorization server to the redirect
  /// back, in milliseconds (positive): the transaction cookie's lifetime.
  std::chrono::milliseconds sign_in_timeout{std::chrono::minutes(10)};
  /// Allowed clock difference for the ID token's `exp` and `iat`, in milliseconds; 0 to 300,000.
  std::chrono::milliseconds leeway{std::chrono::seconds(60)};
  /// Each request to the authorization server within this many milliseconds (positive).
  std::chrono::milliseconds fetch_timeout{std::chrono::seconds(5)};
  /// A PEM file of CA certificates for the HTTPS requests (a private CA); "": the system store.
  std::string ca_file;
  /// The wall clock for cookie expiry and the ID token's times. Null: system_clock::now.
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// The browser form pages a StreamableHttpServer serves on its listener (routes(), in
/// HttpServerOptions::routes). Requests under `prefix` go to the pages before the MCP endpoint's checks: they
/// pass the Host check (DNS rebinding, HttpServerOptions::allowed_hosts) but not the Origin,
/// Accept and MCP-Protocol-Version checks, nor MCP authorization (a browser sends no bearer token).
struct PageRoutes {
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
  /// Where the pages are kept: any PageStore (InMemoryPageStore, or RedisPageStore
  /// for pages several processes serve). Null: start() makes an InMemoryPageStore with the
  /// default options. start() sets its base URL (public origin + prefix) and hands it to the
  /// Server (Server::set_browser_forms), where RequestContext::elicit_in_browser finds it. A store
  /// that answers later (PageStore::handle) is answered from without holding the I/O thread.
  std::shared_ptr<PageStore> store;
  /// Largest POST body of a page, in bytes: 413 beyond it (HttpServerOptions::max_request_bytes
  /// still bounds what is read).
  std::size_t max_body_bytes = 64 * 1024;
  /// The language of every page's own words (a BCP 47 tag, e.g. "ko"; resolved as
  /// messages::resolve() does, so a language the catalog lacks is English). "" (the default): each
  /// request's Accept-Language decides (RFC 9110 section 12.5.4, RFC 4647 lookup;
  /// messages::from_accept_language), English when it names none the catalog has. Every page says
  /// its language in `<html lang>` and Content-Language (docs/languages.md).
  std::string language{};
  /// The pages' own sign-in at the authorization server (SignIn): when set, the pages
  /// know who the browser is themselves. start() throws std::invalid_argument when `principal` is
  /// set too, when client_id is empty, a cookie key is not 32 bytes (or there is none), a duration
  /// is out of range, the issuer cannot be determined, or the public origin is plain http on a host
  /// that is not loopback (browsers keep Secure cookies only from https, and from loopback for
  /// development).
  std::optional<SignIn> sign_in;
  /// Who the browser is, from its request's header fields (its cookie): `header(name)` gives a
  /// field's value (name case-insensitive; empty when absent). It must answer in the form of
  /// RequestContext::principal() (MCP authorization: the JSON text ["<iss>","<sub>"]), as pages are
  /// matched against it exactly; "" for nobody. For the pages' own sign-in, use `sign_in` instead.
  /// Null (the default): nobody, so only pages opened without a principal can be
  /// answered, from loopback peers (development). Runs on an I/O thread for every page request: it
  /// must be quick and must not block; an exception refuses the request (500).
  std::function<std::string(const std::function<std::string_view(std::string_view name)>& header)> principal;
};

/// The pages as routes of a StreamableHttpServer's listener:
/// `options.routes.push_back(elicit::forms::routes(std::move(pages)))`. The server's start() checks
/// them (the throws listed with each PageRoutes member; a prefix that is a prefix of
/// HttpServerOptions::path; with HttpServerOptions::authorization or principal set, neither
/// `sign_in` nor `principal` to know who a browser is), then, once the port is known, sets the
/// store's base URL (public origin + prefix) and hands the store to its Server
/// (Server::set_browser_forms). A request under the prefix whose Host the listener does not allow is
/// refused with a page (403). Thread-safe. Routes of one server only: give each server its own.
std::shared_ptr<http::Routes> routes(PageRoutes pages);

}  // namespace elicit::forms
