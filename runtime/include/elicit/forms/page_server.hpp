// The browser form pages on a loopback listener of their own, for servers without an HTTP listener
// (stdio): forms::PageServer, and loopback_pages(), which starts one on demand. They serve a page
// exactly as the pages on a StreamableHttpServer's listener do (elicit/forms/page_routes.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "elicit/forms/page_store.hpp"

namespace elicit::forms {

/// Options of a PageServer.
struct PageServerOptions {
  /// Port to bind on 127.0.0.1; 0 (the default) picks a free one (PageServer::port()).
  int port = 0;
  /// The pages' path prefix, starting and ending with '/' (not "/" alone).
  std::string prefix = "/forms/";
  /// Largest POST body of a page in bytes: 413 beyond it.
  std::size_t max_body_bytes = 64 * 1024;
  /// The pages' language, as PageRoutes::language: "" follows each request's Accept-Language.
  std::string language{};
  /// I/O threads running the event loop (at least 1).
  std::size_t io_threads = 1;
  /// Where the pages are kept (any PageStore). Null: the server makes an
  /// InMemoryPageStore with the default options.
  std::shared_ptr<PageStore> store;
};

/// A page server of its own for servers with no HTTP listener (stdio): listens on 127.0.0.1 only,
/// serves the pages under `prefix` exactly as PageRoutes does (the same code), and accepts
/// only loopback Host names (localhost, 127.0.0.1, [::1]: DNS rebinding). Every peer is a loopback
/// peer, so pages without a principal are served (development: the user's own machine). Other paths
/// answer 404. Thread-safe.
class PageServer {
 public:
  /// Throws std::invalid_argument for a prefix that does not start and end with '/' (or is "/"),
  /// io_threads 0 or max_body_bytes 0.
  explicit PageServer(PageServerOptions options = {});
  /// stop()s.
  ~PageServer();
  PageServer(const PageServer&) = delete;
  PageServer& operator=(const PageServer&) = delete;

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
  std::shared_ptr<PageStore> store() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// BrowserForms for a stdio server (Server::set_browser_forms): an InMemoryPageStore whose
/// PageServer starts on the first open() (no listener until a page is needed; open() then
/// throws what PageServer::start() throws) and stops when the returned object is destroyed
/// (waiters still waiting then get `aborted`). URLs are "http://127.0.0.1:<port><prefix><id>".
/// Thread-safe.
std::shared_ptr<BrowserForms> loopback_pages(PageServerOptions options = {});

}  // namespace elicit::forms
