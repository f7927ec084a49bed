// A StreamableHttpServer's options with the browser form pages kept beside them (as
// HttpServerOptions::browser_forms was before the pages became routes of the forms wing), so that a
// test changes either the same way, and with_pages() joins them when the server is made.
#pragma once

#include <elicit/forms/page_routes.hpp>
#include <elicit/http/server.hpp>

namespace test_support {

struct PagesOptions : elicit::http::HttpServerOptions {
  elicit::forms::PageRoutes browser_forms;
};

/// The server's options with the pages as its routes (elicit::forms::routes).
inline elicit::http::HttpServerOptions with_pages(PagesOptions o) {
  elicit::http::HttpServerOptions options = o;
  options.routes.push_back(elicit::forms::routes(std::move(o.browser_forms)));
  return options;
}

}  // namespace test_support
