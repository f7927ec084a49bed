// The browser form pages on a StreamableHttpServer's listener (HttpServerOptions::browser_forms):
// checked at start(), their store set up once the port is known, and the route in front of the MCP
// endpoint's checks.
#include "browser_form_serving.hpp"
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
  if ((options.authorization || options.principal) && !routes.principal) {
    throw std::invalid_argument(
        "BrowserFormRoutes::principal is needed: with authorization or HttpServerOptions::principal each page "
        "is bound to its caller, so the pages must know who the browser is (from its request's fields)");
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
  return http::serve_browser_form(browser_forms, options.browser_forms, req, path, loopback_peer);
}

}  // namespace elicit
