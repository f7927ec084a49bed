// PageServer: the browser form pages on a loopback listener of their own (for servers
// without an HTTP listener, e.g. stdio), and loopback_pages(), which starts one on demand.
#include <atomic>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "elicit/forms/page_routes.hpp"
#include "elicit/forms/page_server.hpp"
#include "elicit/http/host_names.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "http/connection.hpp"
#include "page_serving.hpp"

namespace elicit::forms {

namespace {

using http::Connection;
using http::ConnectionLimits;
using http::host_without_port;
using http::is_loopback_name;
using tcp = net::ip::tcp;
using Loop = net::io_context;

}  // namespace

struct PageServer::Impl {
  explicit Impl(PageServerOptions o) : options(std::move(o)) {
    check_browser_form_prefix(options.prefix);
    if (options.io_threads == 0) throw std::invalid_argument("PageServerOptions::io_threads must be at least 1");
    if (options.max_body_bytes == 0) {
      throw std::invalid_argument("PageServerOptions::max_body_bytes must be at least 1");
    }
    store = options.store ? options.store : std::make_shared<InMemoryPageStore>();
    routes.prefix = options.prefix;
    routes.max_body_bytes = options.max_body_bytes;
    routes.language = options.language;
    // One loop per thread, each run by that thread alone (Connection relies on it, as in
    // StreamableHttpServer).
    for (std::size_t i = 0; i < options.io_threads; ++i) loops.push_back(std::make_unique<Loop>(1));
  }

  PageServerOptions options;
  PageRoutes routes;  // what serve_browser_form reads: the prefix and the body bound
  std::shared_ptr<PageStore> store;
  std::vector<std::unique_ptr<Loop>> loops;  // first: destroyed last, after what holds their handlers
  std::vector<net::executor_work_guard<Loop::executor_type>> keep_running;
  std::optional<tcp::acceptor> acceptor;
  std::vector<std::thread> threads;
  std::atomic<std::size_t> next_loop{0};
  std::atomic<int> port{0};
  std::mutex mutex;
  std::list<std::weak_ptr<Connection>> connections;
  bool started = false;
  bool stopped = false;

  ConnectionLimits limits() const {
    // The connection reads a little more than a page takes, so that the route answers 413 as a page.
    return {std::max<std::size_t>(4 * options.max_body_bytes, 64 * 1024),
            16 * 1024,
            100,
            4 * 1024 * 1024,
            std::chrono::seconds(30),
            std::chrono::seconds(30),
            std::chrono::seconds(15)};
  }

  Reply handle(const Request& req) {
    // DNS rebinding: only this machine's names reach the pages.
    const auto host = header_value(req, "Host");
    if (!host.empty() && !is_loopback_name(host_without_port(host))) {
      return browser_form_refusal(*store, 403, "page.host_refused", page_language(routes, req));
    }
    const auto target = std::string_view(req.target().data(), req.target().size());
    return serve_browser_form(store, routes, req, target.substr(0, target.find('?')), true);
  }

  static std::string_view header_value(const Request& req, std::string_view name) {
    const auto it = req.find(beast::string_view(name.data(), name.size()));
    return it == req.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
  }

  void accept() {
    auto& loop = *loops[next_loop.fetch_add(1, std::memory_order_relaxed) % loops.size()];
    acceptor->async_accept(loop, [this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
      if (ec) {
        // Out of file descriptors or similar: keep serving the connections there are, retry shortly.
        auto retry = std::make_shared<net::steady_timer>(*loops.front(), std::chrono::milliseconds(50));
        retry->async_wait([this, retry](beast::error_code e) {
          if (!e) accept();
        });
        return;
      }
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto c =
          std::make_shared<Connection>(std::move(socket), limits(), [this](const Request& req) { return handle(req); });
      {
        std::lock_guard<std::mutex> lock(mutex);
        // Accepted while stop() runs: it closes the connections it saw; this one it did not, so
        // it is dropped here (closing its socket) rather than left open on a stopped loop.
        if (stopped) return;
        connections.remove_if([](const std::weak_ptr<Connection>& w) { return w.expired(); });
        connections.push_back(c);
      }
      c->start();
      accept();
    });
  }
};

PageServer::PageServer(PageServerOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {}

PageServer::~PageServer() { stop(); }

void PageServer::start() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.started) throw std::logic_error("PageServer::start() called twice");
    impl.started = true;
  }
  try {
    const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(impl.options.port));
    impl.acceptor.emplace(*impl.loops.front());
    impl.acceptor->open(endpoint.protocol());
    impl.acceptor->set_option(net::socket_base::reuse_address(true));
    impl.acceptor->bind(endpoint);
    impl.acceptor->listen(net::socket_base::max_listen_connections);
    impl.port = impl.acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(impl.options.port) + ": " +
                             e.code().message());
  }
  impl.store->set_base_url("http://127.0.0.1:" + std::to_string(impl.port.load()) + impl.options.prefix);
  impl.accept();
  for (auto& loop : impl.loops) {
    impl.keep_running.push_back(net::make_work_guard(*loop));
    // Each thread keeps the state alive: one stopped from its own thread is detached, not joined.
    impl.threads.emplace_back([keep = impl_, loop = loop.get()] {
      const jsonrpc::EventThreadScope event_thread;  // nothing here may block
      loop->run();
    });
  }
}

void PageServer::stop() {
  auto& impl = *impl_;
  std::list<std::weak_ptr<Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (!impl.started || impl.stopped) {
      impl.stopped = true;
      return;
    }
    impl.stopped = true;
    connections = impl.connections;
  }
  net::post(*impl.loops.front(), [&impl] {
    beast::error_code ec;
    if (impl.acceptor) impl.acceptor->close(ec);
  });
  for (auto& weak : connections) {
    if (auto c = weak.lock()) c->close();
  }
  // A bounded moment for the connections to end, then the loops stop.
  for (int i = 0; i < 300; ++i) {
    bool alive = false;
    for (auto& weak : connections) alive = alive || !weak.expired();
    if (!alive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  impl.keep_running.clear();
  for (auto& loop : impl.loops) loop->stop();
  for (auto& t : impl.threads) {
    if (t.get_id() == std::this_thread::get_id()) {
      t.detach();  // stopped from its own I/O thread (a `done` that let go of the last owner)
    } else if (t.joinable()) {
      t.join();
    }
  }
  impl.threads.clear();
}

int PageServer::port() const noexcept { return impl_->port; }

std::shared_ptr<PageStore> PageServer::store() const { return impl_->store; }

namespace {

// The store now; its server on the first open().
class LoopbackBrowserForms final : public BrowserForms {
 public:
  explicit LoopbackBrowserForms(PageServerOptions options) : options_(std::move(options)) {
    check_browser_form_prefix(options_.prefix);
    if (!options_.store) options_.store = std::make_shared<InMemoryPageStore>();
    store_ = options_.store;
  }
  ~LoopbackBrowserForms() override {
    std::unique_ptr<PageServer> server;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      server = std::move(server_);
    }
    server.reset();  // stops it, without the mutex: a `done` its threads run may call open()
  }

  std::string open(const std::string& id, const BrowserFormPage& page) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!server_) {
        auto server = std::make_unique<PageServer>(options_);
        server->start();
        server_ = std::move(server);
      }
    }
    return store_->open(id, page);
  }
  void await(const std::string& id, std::chrono::milliseconds wait,
             std::function<void(std::optional<BrowserFormAnswer>)> done) override {
    store_->await(id, wait, std::move(done));
  }
  void close(const std::string& id) override { store_->close(id); }

 private:
  PageServerOptions options_;
  std::shared_ptr<PageStore> store_;
  std::mutex mutex_;
  std::unique_ptr<PageServer> server_;  // guarded by mutex_
};

}  // namespace

std::shared_ptr<BrowserForms> loopback_pages(PageServerOptions options) {
  return std::make_shared<LoopbackBrowserForms>(std::move(options));
}

}  // namespace elicit::forms
