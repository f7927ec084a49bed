// The browser form pages as routes of a StreamableHttpServer's listener (forms::routes, in
// HttpServerOptions::routes): checked at start(), their store set up once the port is known, and
// served in front of the MCP endpoint's checks.
#include "elicit/forms/page_routes.hpp"

#include <boost/asio/ip/address.hpp>

#include "elicit/http/routes.hpp"
#include "page_serving.hpp"
#include "sign_in.hpp"

namespace elicit::forms {

namespace {

// The issuers the server's resource-server options name: where the pages' sign-in may default to.
std::vector<std::string> authorization_servers(const http::HttpServerOptions& options) {
  return options.authorization ? options.authorization->authorization_servers : std::vector<std::string>{};
}

class PageRouteSet final : public http::Routes {
 public:
  explicit PageRouteSet(PageRoutes pages) : pages_(std::move(pages)) {}

  void check(const http::HttpServerOptions& options) const override {
    if (pages_.prefix.empty()) return;
    check_browser_form_prefix(pages_.prefix);
    if (options.path.compare(0, pages_.prefix.size(), pages_.prefix) == 0) {
      throw std::invalid_argument("PageRoutes::prefix " + pages_.prefix + " would take the MCP endpoint " +
                                  options.path);
    }
    if (!pages_.public_origin.empty()) check_public_origin(pages_.public_origin);
    // Known callers bind their pages (RequestContext::principal()); without a way to know who the
    // browser is, no one could answer them: say so now rather than with every page's 403.
    if (pages_.sign_in) {
      if (pages_.principal) {
        throw std::invalid_argument("PageRoutes: set sign_in or principal, not both (who would say who?)");
      }
      check_browser_form_sign_in(*pages_.sign_in);
      if (!pages_.public_origin.empty()) {
        check_sign_in_origin(pages_.public_origin);
      } else if (options.tls_certificate_chain_file.empty()) {
        // The origin will be derived from the listener (start()): plain http, so only a loopback (or
        // wildcard, reached on loopback) address keeps the Secure cookies. Said before anything is
        // bound.
        boost::system::error_code ec;
        const auto address = boost::asio::ip::make_address(options.host, ec);
        if (!ec && !address.is_unspecified() && !address.is_loopback()) {
          throw std::invalid_argument("forms::SignIn: the pages would be served over plain http at " + options.host +
                                      ", where browsers do not keep Secure cookies: use TLS or set "
                                      "PageRoutes::public_origin (https behind a proxy)");
        }
      }
      issuer_ = resolve_sign_in_issuer(*pages_.sign_in, authorization_servers(options));
    }
    if ((options.authorization || options.principal) && !pages_.principal && !pages_.sign_in) {
      throw std::invalid_argument(
          "PageRoutes::sign_in (or principal) is needed: with authorization or HttpServerOptions::principal "
          "each page is bound to its caller, so the pages must know who the browser is");
    }
  }

  void start(const http::RoutesStart& start) override {
    if (pages_.prefix.empty()) return;
    if (store_) throw std::logic_error("forms::routes(): one set of page routes serves one server");
    const auto origin = pages_.public_origin.empty() ? start.origin : pages_.public_origin;
    std::shared_ptr<PageStore> store = pages_.store ? pages_.store : std::make_shared<InMemoryPageStore>();
    store->set_base_url(origin + pages_.prefix);
    if (pages_.sign_in) {
      sign_in_ = std::make_shared<SignInFlow>(*pages_.sign_in, issuer_, origin, pages_.prefix, store);
    }
    start.server.set_browser_forms(store);
    store_ = std::move(store);
  }

  std::optional<http::Reply> serve(const http::RouteRequest& r) override {
    if (!store_) return std::nullopt;
    if (r.path.compare(0, pages_.prefix.size(), pages_.prefix) != 0) return std::nullopt;
    // DNS rebinding: a page read through another name would hand its token to that site.
    if (!r.host_allowed)
      return browser_form_refusal(*store_, 403, "page.host_refused", page_language(pages_, r.request));
    if (sign_in_) return sign_in_->serve(pages_, r.request, r.path, r.loopback_peer);
    return serve_browser_form(store_, pages_, r.request, r.path, r.loopback_peer);
  }

 private:
  const PageRoutes pages_;
  // Set by check() and start(), on the thread calling StreamableHttpServer::start(), before the I/O
  // threads run; read-only once they do.
  mutable std::string issuer_;
  std::shared_ptr<PageStore> store_;
  std::shared_ptr<SignInFlow> sign_in_;
};

}  // namespace

std::shared_ptr<http::Routes> routes(PageRoutes pages) { return std::make_shared<PageRouteSet>(std::move(pages)); }

}  // namespace elicit::forms
