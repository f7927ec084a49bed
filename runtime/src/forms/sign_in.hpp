// The browser form pages' own sign-in (PageRoutes::sign_in, elicit/forms/page_routes.hpp):
// OpenID Connect authorization code + PKCE at the authorization server, sealed cookies, and the
// pages served with the signed-in principal. Internal to elicit::forms.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/forms/page_routes.hpp"
#include "http/connection.hpp"

namespace elicit::forms {

/// The path segment after the prefix that the authorization server redirects back to. Not a page
/// id (ids are 16 to 128 characters), so no page can be shadowed by it.
inline constexpr std::string_view kSignInSegment = "sign-in";

/// Throws std::invalid_argument for options start() must refuse (see PageRoutes::sign_in),
/// but for the issuer and the origin, which are known later (resolve_sign_in_issuer,
/// SignInFlow's constructor).
void check_browser_form_sign_in(const SignIn& options);

/// Throws std::invalid_argument when `origin` is plain http on a host that is not loopback: browsers
/// keep Secure cookies only from https (and from loopback, for development).
void check_sign_in_origin(const std::string& origin);

/// `options.issuer`, or the only one of `authorization_servers`; std::invalid_argument otherwise.
std::string resolve_sign_in_issuer(const SignIn& options, const std::vector<std::string>& authorization_servers);

/// One server's sign-in: its sealers, the authorization server's metadata and keys once fetched,
/// and the worker threads that talk to the authorization server. Thread-safe.
class SignInFlow {
 public:
  /// `issuer`: resolved; `origin`: the pages' public origin (scheme://host[:port]); `prefix`: the
  /// pages' prefix; `store`: whose pages and templates. Throws std::invalid_argument for bad
  /// options (check_browser_form_sign_in) or an http origin that is not loopback.
  SignInFlow(SignIn options, std::string issuer, std::string origin, std::string prefix,
             std::shared_ptr<PageStore> store);
  /// Skips the requests still queued and waits for the ones in progress (each bounded by
  /// fetch_timeout), then joins the worker threads.
  ~SignInFlow();
  SignInFlow(const SignInFlow&) = delete;
  SignInFlow& operator=(const SignInFlow&) = delete;

  /// Serves `req` (whose path `path` is under the prefix; the Host check done): the redirect back
  /// from the authorization server, a page with the session's principal, or the redirect to sign in.
  /// A reply may be pending (answered from a worker thread). Never throws but std::bad_alloc.
  http::Reply serve(const PageRoutes& routes, const http::Request& req, std::string_view path, bool peer_loopback);

  /// The principal of a request's session cookie (`cookie_field`: its Cookie field), "" for none or
  /// an invalid or expired one.
  std::string principal_of(std::string_view cookie_field) const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace elicit::forms
