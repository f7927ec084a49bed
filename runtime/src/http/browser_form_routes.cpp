// The browser form pages on a StreamableHttpServer's listener (HttpServerOptions::browser_forms):
// checked at start(), their store set up once the port is known, and the route in front of the MCP
// endpoint's checks.
#include "browser_form_serving.hpp"
#include "browser_form_sign_in.hpp"
#include "server_impl.hpp"

namespace elicit {

using namespace http::server_impl;

void StreamableHttpServer::Impl::check_browser_forms() const {
  const auto& routes = options.browser_forms;
  if (routes.prefix.empty()) return;
  http::check_browser_form_prefix(routes.prefix);
  if (options.path.compare(0, routes.prefix.size(), routes.prefix) == 0) {
    throw std::invalid_argument("BrowserFormRoutes::prefix " + routes.prefix + " would take the MCP endpoint " +
                                options.path);
  }
  if (!routes.public_origin.empty()) http::check_public_origin(routes.public_origin);
  // Known callers bind their pages (RequestContext::principal()); without a way to know who the
  // browser is, no one could answer them: say so now rather than with every page's 403.
  if (routes.sign_in) {
    if (routes.principal) {
      throw std::invalid_argument("BrowserFormRoutes: set sign_in or principal, not both (who would say who?)");
    }
    http::check_browser_form_sign_in(*routes.sign_in);
    if (!routes.public_origin.empty()) {
      http::check_sign_in_origin(routes.public_origin);
    } else if (options.tls_certificate_chain_file.empty()) {
      // The origin will be derived from the listener (start_browser_forms): plain http, so only a
      // loopback (or wildcard, reached on loopback) address keeps the Secure cookies. Said before
      // anything is bound.
      boost::system::error_code ec;
      const auto address = net::ip::make_address(options.host, ec);
      if (!ec && !address.is_unspecified() && !address.is_loopback()) {
        throw std::invalid_argument("BrowserFormSignIn: the pages would be served over plain http at " + options.host +
                                    ", where browsers do not keep Secure cookies: use TLS or set "
                                    "BrowserFormRoutes::public_origin (https behind a proxy)");
      }
    }
    http::resolve_sign_in_issuer(*routes.sign_in, options.authorization ? options.authorization->authorization_servers
                                                                        : std::vector<std::string>{});
  }
  if ((options.authorization || options.principal) && !routes.principal && !routes.sign_in) {
    throw std::invalid_argument(
        "BrowserFormRoutes::sign_in (or principal) is needed: with authorization or HttpServerOptions::principal "
        "each page is bound to its caller, so the pages must know who the browser is");
  }
}

void StreamableHttpServer::Impl::start_browser_forms() {
  const auto& routes = options.browser_forms;
  if (routes.prefix.empty()) return;
  auto origin = routes.public_origin;
  if (origin.empty()) {
    // Where this listener is reached: a wildcard address is reached on this machine's loopback.
    const auto address = net::ip::make_address(options.host);
    std::string host;
    if (address.is_unspecified()) {
      host = address.is_v4() ? "127.0.0.1" : "[::1]";
    } else {
      host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    }
    origin = std::string(tls ? "https" : "http") + "://" + host + ":" + std::to_string(port.load());
  }
  std::shared_ptr<BrowserFormPages> store = routes.store ? routes.store : std::make_shared<InMemoryBrowserForms>();
  store->set_base_url(origin + routes.prefix);
  if (routes.sign_in) {
    browser_form_sign_in = std::make_shared<http::BrowserFormSignInFlow>(
        *routes.sign_in,
        http::resolve_sign_in_issuer(*routes.sign_in, options.authorization
                                                          ? options.authorization->authorization_servers
                                                          : std::vector<std::string>{}),
        origin, routes.prefix, store);
  }
  core->set_browser_forms(store);
  browser_forms = std::move(store);
}

std::optional<Reply> StreamableHttpServer::Impl::serve_browser_forms(const HttpRequest& req, std::string_view path,
                                                                     bool loopback_peer) {
  if (!browser_forms) return std::nullopt;
  const auto& prefix = options.browser_forms.prefix;
  if (path.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  // DNS rebinding: a page read through another name would hand its token to that site.
  if (!host_allowed(req)) return http::browser_form_refusal(*browser_forms, 403, "Forbidden: Host is not allowed");
  if (browser_form_sign_in) return browser_form_sign_in->serve(options.browser_forms, req, path, loopback_peer);
  return http::serve_browser_form(browser_forms, options.browser_forms, req, path, loopback_peer);
}

}  // namespace elicit
