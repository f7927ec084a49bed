// The Streamable HTTP server: accepting connections, routing each request (origin guard, then the
// 2025-11-25 session routes or the 2026-07-28 stateless routes), the public API.
#include "elicit/http/host_names.hpp"
#include "elicit/http/routes.hpp"
#include "elicit/tasks.hpp"
#include "server_impl.hpp"

namespace elicit::http {

using namespace http::server_impl;

std::size_t StreamableHttpServer::Impl::thread_count(const HttpServerOptions& o) {
  if (o.io_threads > 0) return o.io_threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<std::unique_ptr<StreamableHttpServer::Impl::Loop>> StreamableHttpServer::Impl::make_loops(std::size_t n) {
  std::vector<std::unique_ptr<Loop>> loops;
  // Concurrency hint 1: each loop is run by one thread (posting to it from others stays safe).
  for (std::size_t i = 0; i < n; ++i) loops.push_back(std::make_unique<Loop>(1));
  return loops;
}

http::ConnectionLimits StreamableHttpServer::Impl::limits() const {
  return {options.max_request_bytes, options.max_header_bytes, options.max_header_fields, options.max_queued_bytes,
          options.request_timeout,   options.write_timeout,    options.keepalive};
}

void StreamableHttpServer::Impl::accept() {
  // Round robin over the loops: the new connection lives on the one it is given.
  auto& loop = *loops[next_loop.fetch_add(1, std::memory_order_relaxed) % loops.size()];
  acceptor->async_accept(loop, [this](boost::beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
    if (!ec) {
      // SSE writes are small and must leave at once: Nagle's algorithm would hold each one for
      // the client's delayed ACK (~40 ms a response).
      boost::beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      const auto peer = socket.remote_endpoint(ignored);
      const bool loopback = !ignored && http::loopback_address(peer.address());
      auto c = std::make_shared<http::Connection>(
          std::move(socket), limits(), [this, loopback](const HttpRequest& req) { return handle(req, loopback); },
          tls ? tls->current() : nullptr);
      {
        std::lock_guard<std::mutex> lock(mutex);
        // Accepted while stop() runs: it closes the connections it saw; this one it did not, so
        // it is dropped here (closing its socket) rather than left open on a stopped loop.
        if (stopped) return;
        connections.push_back(c);
      }
      c->start();
      accept();
      return;
    }
    // Out of file descriptors or similar: keep serving the connections we have, retry shortly.
    auto retry = std::make_shared<net::steady_timer>(main_loop(), std::chrono::milliseconds(50));
    retry->async_wait([this, retry](boost::beast::error_code e) {
      if (!e) accept();
    });
  });
}

// Ends sessions idle past options.idle_session_timeout, and forgets connections that are gone.
void StreamableHttpServer::Impl::reap() {
  const auto cutoff = std::chrono::steady_clock::now() - options.idle_session_timeout;
  std::vector<std::string> idle;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [id, s] : sessions) {
      if (s->transport.idle_since(cutoff)) idle.push_back(id);
    }
    connections.remove_if([](const std::weak_ptr<http::Connection>& c) { return c.expired(); });
  }
  for (const auto& id : idle) end_session(id);
}

void StreamableHttpServer::Impl::schedule_reaper() {
  const auto period = std::clamp<std::chrono::milliseconds>(options.idle_session_timeout / 4,
                                                            std::chrono::milliseconds(10), std::chrono::seconds(5));
  reaper.expires_after(period);
  reaper.async_wait([this](boost::beast::error_code ec) {
    if (ec) return;
    reap();
    schedule_reaper();
  });
}

std::string StreamableHttpServer::Impl::listener_origin() const {
  // A wildcard address is reached on this machine's loopback.
  const auto address = net::ip::make_address(options.host);
  std::string host;
  if (address.is_unspecified()) {
    host = address.is_v4() ? "127.0.0.1" : "[::1]";
  } else {
    host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  }
  return std::string(tls ? "https" : "http") + "://" + host + ":" + std::to_string(port.load());
}

std::optional<Reply> StreamableHttpServer::Impl::serve_routes(const HttpRequest& req, std::string_view path,
                                                              bool loopback_peer) {
  if (options.routes.empty()) return std::nullopt;
  const http::RouteRequest request{req, path, loopback_peer, host_allowed(req)};
  // What a Routes throws reaches the Connection, which answers 500 (503 for std::bad_alloc).
  for (const auto& routes : options.routes) {
    if (auto reply = routes->serve(request)) return reply;
  }
  return std::nullopt;
}

namespace {

// The reason a reply of the MCP endpoint is a refusal an operator counts (ServerObserver::
// request_refused), or empty: a bearer token refused (RFC 6750 section 3.1's error code, or
// "no_token" for a challenge without one) or the server at capacity.
std::string_view refusal_reason(const Reply& reply) {
  if (reply.status == 503) return "capacity";
  if (reply.status != 400 && reply.status != 401 && reply.status != 403) return {};
  for (const auto& [name, value] : reply.headers) {
    if (!equals_nocase(name, "WWW-Authenticate")) continue;
    for (const std::string_view code : {"invalid_request", "invalid_token", "insufficient_scope"}) {
      if (value.find("error=\"" + std::string(code) + "\"") != std::string::npos) return code;
    }
    return "no_token";
  }
  return {};
}

}  // namespace

Reply StreamableHttpServer::Impl::handle(const HttpRequest& req, bool loopback_peer) {
  const auto target = std::string_view(req.target().data(), req.target().size());
  const auto path = target.substr(0, target.find('?'));
  if (auto r = serve_routes(req, path, loopback_peer)) return std::move(*r);
  if (path != options.path) {
    if (auto r = serve_metadata(req, path)) return std::move(*r);
    return error_reply(404, -32000, "Not Found");
  }
  auto reply = handle_endpoint(req);
  if (const auto& observer = options.server.observer) {
    if (const auto reason = refusal_reason(reply); !reason.empty()) {
      try {
        observer->request_refused(reply.status, reason);
      } catch (...) {  // an observer must not throw; the reply goes out all the same
      }
    }
  }
  return reply;
}

Reply StreamableHttpServer::Impl::handle_endpoint(const HttpRequest& req) {
  if (auto r = refuse(req)) return std::move(*r);
  Authorized authorized;
  const Authorized* who = nullptr;
  if (options.authorization) {
    if (auto r = authorize(req, authorized)) return std::move(*r);
    who = &authorized;
  }
  switch (req.method()) {
    case boost::beast::http::verb::post:
      return handle_post(req, who);
    case boost::beast::http::verb::get:
      return handle_get(req, who);
    case boost::beast::http::verb::delete_:
      return handle_delete(req, who);
    default: {
      auto r = error_reply(405, -32000, "Method Not Allowed");
      r.headers.emplace_back("Allow", "GET, POST, DELETE");
      return r;
    }
  }
}

std::size_t StreamableHttpServer::Impl::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex);
  return stateless.size() + session_requests;
}

StreamableHttpServer::StreamableHttpServer(std::shared_ptr<Server> core, HttpServerOptions options) {
  if (!core) throw std::invalid_argument("StreamableHttpServer needs a Server");
  auto info = core->info();
  impl_ = std::make_shared<Impl>(std::move(core), std::move(info), nullptr, std::move(options));
}

StreamableHttpServer::StreamableHttpServer(ServerInfo info, ServerSetup setup, HttpServerOptions options)
    : impl_(std::make_shared<Impl>(nullptr, std::move(info), std::move(setup), std::move(options))) {}

StreamableHttpServer::~StreamableHttpServer() { stop(); }

void StreamableHttpServer::start() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.started) throw std::logic_error("StreamableHttpServer::start() called twice");
    impl.started = true;
  }
  // One pool for the blocking tool handlers of every session and 2026-07-28 request: neither costs a
  // thread.
  if (!impl.options.server.workers) {
    impl.options.server.workers = std::make_shared<WorkerPool>(impl.options.server.worker_threads);
  }
  // The timer thread too, now: a session must not need a thread of its own (with none to be had, a
  // new session would be refused).
  if (!impl.options.server.session.timers) impl.options.server.session.timers = jsonrpc::TimerService::shared();
  if (!impl.core) {
    // The ServerSetup constructor: setup fills the one Server, once.
    auto core = std::make_shared<Server>(impl.info, impl.options.server.request_state);
    if (impl.setup) impl.setup(*core);
    std::lock_guard<std::mutex> lock(impl.mutex);
    impl.core = std::move(core);
  }
  const auto& o = impl.options;
  if (const auto& a = o.authorization) {
    if (a->resource.empty() || a->authorization_servers.empty() || !a->verify) {
      throw std::invalid_argument("HttpServerOptions::authorization needs resource, authorization_servers and verify");
    }
  }
  if (o.tls_certificate_chain_file.empty() != o.tls_private_key_file.empty()) {
    throw std::invalid_argument("TLS needs both tls_certificate_chain_file and tls_private_key_file");
  }
  for (const auto& routes : o.routes) {
    if (!routes) throw std::invalid_argument("HttpServerOptions::routes holds a null Routes");
    routes->check(o);
  }
  if (!o.tls_certificate_chain_file.empty()) {
    impl.tls = std::make_unique<http::TlsCertificates>(o.tls_certificate_chain_file, o.tls_private_key_file);
  }
  try {
    const auto address = net::ip::make_address(o.host);
    impl.acceptor.emplace(impl.main_loop());
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(o.port));
    impl.acceptor->open(endpoint.protocol());
    impl.acceptor->set_option(net::socket_base::reuse_address(true));
    impl.acceptor->bind(endpoint);
    // The kernel's largest backlog (SOMAXCONN): a burst of connects waits in the queue, not in SYN
    // retransmission.
    impl.acceptor->listen(net::socket_base::max_listen_connections);
    impl.port = impl.acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + e.code().message());
  }
  {
    const http::RoutesStart started{impl.listener_origin(), impl.tls != nullptr, *impl.core,
                                    [&impl] { return impl.accepting(); }};
    try {
      for (const auto& routes : o.routes) routes->start(started);
    } catch (...) {
      impl.acceptor.reset();  // nothing stays bound after a failed start()
      throw;
    }
  }
  impl.accept();
  impl.schedule_reaper();
  for (auto& loop : impl.loops) {
    impl.keep_running.push_back(net::make_work_guard(*loop));
    impl.threads.emplace_back([loop = loop.get()] {
      const jsonrpc::EventThreadScope event_thread;  // a blocking elicit() here would stall every connection
      loop->run();
    });
  }
}

void StreamableHttpServer::run() {
  start();
  wait();
}

void StreamableHttpServer::wait() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (!impl.started) throw std::logic_error("StreamableHttpServer::wait() before start()");
  }
  // SIGINT/SIGTERM arrive on an I/O thread, which must not join itself: it only wakes this thread,
  // which stops the server.
  auto signals = std::make_shared<net::signal_set>(impl.main_loop(), SIGINT, SIGTERM);
  signals->async_wait([&impl](const boost::system::error_code& ec, int) {
    if (ec) return;  // cancelled by stop()
    std::lock_guard<std::mutex> lock(impl.run_mutex);
    impl.run_wake = true;
    impl.run_cv.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(impl.run_mutex);
    impl.run_cv.wait(lock, [&] { return impl.run_wake; });
  }
  net::post(impl.main_loop(), [signals] {
    boost::system::error_code ec;
    signals->cancel(ec);
  });
  drain(impl.options.drain_timeout);
}

void StreamableHttpServer::drain(std::chrono::milliseconds timeout) {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (!impl.started || impl.stopped) return;
    if (impl.draining.exchange(true)) return;  // another thread drains: its stop() ends this one's wait
  }
  // Not ready from now on (readiness probes, RoutesStart::accepting); after drain_delay, no new
  // connection: the load balancer sends new work elsewhere. Connections that wait for a next
  // request end then; the others after their response.
  {
    std::unique_lock<std::mutex> lock(impl.mutex);
    if (impl.stopped_cv.wait_for(lock, impl.options.drain_delay, [&] { return impl.stopped; })) return;
  }
  net::post(impl.main_loop(), [&impl] {
    boost::beast::error_code ec;
    if (impl.acceptor) impl.acceptor->close(ec);
  });
  std::list<std::weak_ptr<http::Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    connections = impl.connections;
  }
  for (auto& weak : connections) {
    if (auto c = weak.lock()) c->wind_down();
  }
  // Runs of tasks kept in a store other processes share are let go at once: each task runs again in
  // the next process that reads it (TaskRecord::run_released), rather than wait here for the deadline
  // or, were this process killed, for its lease to lapse (and fail). With a store of this process's
  // own, they go on until stop().
  if (impl.core) {
    if (const auto store = impl.core->task_store(); store && store->run_lease().count() > 0)
      impl.core->stop_task_runs(impl.options.server.workers);
  }
  // Requests in flight finish, up to the deadline, polled: a request's end has no one place to
  // signal from (an answer from a worker, an SSE stream's last event, a client gone).
  const auto wait_until = [&impl](std::chrono::steady_clock::time_point deadline) {
    while (impl.in_flight() > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  wait_until(std::chrono::steady_clock::now() + timeout);
  if (impl.in_flight() > 0) {
    // Still in flight: mostly 2025-11-25 requests waiting for a person. Their clients are told, as the
    // spec allows (Cancellation): each elicitation still open is cancelled on its stream, so the form
    // closes, and its handler answers (it sees the elicitation cancelled) before the stream ends.
    std::vector<std::shared_ptr<HttpSession>> sessions;
    {
      std::lock_guard<std::mutex> lock(impl.mutex);
      for (const auto& [id, s] : impl.sessions) sessions.push_back(s);
    }
    std::size_t told = 0;
    for (const auto& s : sessions) told += s->server->state().rpc().cancel_pending("the server is shutting down");
    // The handlers' answers are writes: they get what a write gets. (None told: nothing to wait for.)
    if (told > 0) wait_until(std::chrono::steady_clock::now() + impl.options.write_timeout);
  }
  stop();
}

bool StreamableHttpServer::draining() const noexcept { return impl_->draining.load(); }

std::size_t StreamableHttpServer::requests_in_flight() const { return impl_->in_flight(); }

int StreamableHttpServer::port() const noexcept { return impl_->port; }

std::size_t StreamableHttpServer::session_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sessions.size();
}

std::size_t StreamableHttpServer::stateless_request_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stateless.size();
}

std::shared_ptr<Server> StreamableHttpServer::server() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->core;
}

void StreamableHttpServer::stop() {
  auto& impl = *impl_;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::unordered_map<StatelessExchange*, std::shared_ptr<StatelessExchange>> stateless;
  std::list<std::weak_ptr<http::Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopped) return;
    impl.stopped = true;
    impl.stopped_cv.notify_all();  // a drain() waiting out its drain_delay
    sessions.swap(impl.sessions);
    stateless.swap(impl.stateless);
    connections = impl.connections;
  }
  net::post(impl.main_loop(), [&impl] {
    boost::beast::error_code ec;
    if (impl.acceptor) impl.acceptor->close(ec);
  });
  net::post(impl.reaper.get_executor(), [&impl] { impl.reaper.cancel(); });
  for (auto& [id, s] : sessions) s->server->close();    // ends every open SSE stream
  for (auto& [p, ex] : stateless) ex->server->close();  // their calls end; no answer is sent
  for (auto& weak : connections) {
    if (auto c = weak.lock()) c->close();
  }
  // Give the connections a bounded moment to write their last bytes, then stop the loop.
  for (int i = 0; i < 300; ++i) {
    bool alive = false;
    for (auto& weak : connections) alive = alive || !weak.expired();
    if (!alive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  impl.keep_running.clear();
  for (auto& loop : impl.loops) loop->stop();
  for (auto& t : impl.threads) {
    if (t.joinable()) t.join();
  }
  impl.threads.clear();
  // 2026-07-28 requests are destroyed on the workers: wait for them, as for the sessions (whose
  // Servers end with `sessions` below), so no handler of this server runs after stop().
  stateless.clear();
  {
    std::unique_lock<std::mutex> lock(impl.exchanges->mutex);
    impl.exchanges->cv.wait(lock, [&] { return impl.exchanges->live == 0; });
  }
  // Runs of tasks (the tasks extension) go on the same pool: stopped too (Server::stop_task_runs).
  if (impl.core) impl.core->stop_task_runs(impl.options.server.workers);
  std::lock_guard<std::mutex> lock(impl.run_mutex);  // run() returns once this has finished
  impl.run_wake = true;
  impl.run_cv.notify_all();
}

}  // namespace elicit::http
