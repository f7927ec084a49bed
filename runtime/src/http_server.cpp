#include "elicit/http_server.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "elicit/event_thread.hpp"
#include "elicit/worker_pool.hpp"
#include "http/connection.hpp"
#include "http/session_transport.hpp"

namespace elicit {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using http::error_reply;
using http::Reply;
using HttpRequest = http::Request;

struct HttpSession {
  explicit HttpSession(std::size_t max_held_bytes) : transport(max_held_bytes) {}
  std::string id;
  bool priming = false;  // the client speaks 2025-11-25 or later: its POST streams start with a priming event
  http::SessionTransport transport;  // declared first: it must outlive the server
  std::unique_ptr<Server> server;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "localhost:8080" -> "localhost", "[::1]:3000" -> "[::1]".
std::string host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    return std::string(close == std::string_view::npos ? host : host.substr(0, close + 1));
  }
  return std::string(host.substr(0, host.find(':')));
}

bool is_loopback_name(std::string_view host) {
  const auto h = lower(host);
  return h == "localhost" || h == "127.0.0.1" || h == "[::1]";
}

std::string_view header(const HttpRequest& req, std::string_view name) {
  const auto it = req.find(boost::beast::string_view(name.data(), name.size()));
  if (it == req.end()) return {};
  return {it->value().data(), it->value().size()};
}

bool has_header(const HttpRequest& req, std::string_view name) {
  return req.find(boost::beast::string_view(name.data(), name.size())) != req.end();
}

}  // namespace

struct StreamableHttpServer::Impl {
  Impl(ServerInfo i, SessionSetup s, HttpServerOptions o)
      : ioc(static_cast<int>(thread_count(o))),
        info(std::move(i)),
        setup(std::move(s)),
        options(std::move(o)),
        reaper(ioc) {}

  static std::size_t thread_count(const HttpServerOptions& o) {
    if (o.io_threads > 0) return o.io_threads;
    return std::max(1u, std::thread::hardware_concurrency());
  }

  net::io_context ioc;  // first: destroyed last, after everything that holds its handlers
  ServerInfo info;
  SessionSetup setup;
  HttpServerOptions options;
  std::optional<tcp::acceptor> acceptor;
  net::steady_timer reaper;
  std::vector<std::thread> threads;
  std::atomic<int> port{0};
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::list<std::weak_ptr<http::Connection>> connections;
  bool started = false;
  bool stopped = false;

  // --- accepting ------------------------------------------------------------------------------

  http::ConnectionLimits limits() const {
    return {options.max_request_bytes, options.max_header_bytes, options.max_header_fields, options.max_queued_bytes,
            options.request_timeout,   options.write_timeout,    options.keepalive};
  }

  void accept() {
    acceptor->async_accept(net::make_strand(ioc), [this](boost::beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
      if (!ec) {
        // SSE writes are small and must leave at once: Nagle's algorithm would hold each one for
        // the client's delayed ACK (~40 ms a response).
        boost::beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        auto c = std::make_shared<http::Connection>(std::move(socket), limits(),
                                                    [this](const HttpRequest& req) { return handle(req); });
        {
          std::lock_guard<std::mutex> lock(mutex);
          connections.push_back(c);
        }
        c->start();
        accept();
        return;
      }
      // Out of file descriptors or similar: keep serving the connections we have, retry shortly.
      auto retry = std::make_shared<net::steady_timer>(ioc, std::chrono::milliseconds(50));
      retry->async_wait([this, retry](boost::beast::error_code e) {
        if (!e) accept();
      });
    });
  }

  // --- sessions -------------------------------------------------------------------------------

  std::shared_ptr<HttpSession> find_session(const HttpRequest& req, Reply& rejection) {
    if (!has_header(req, "Mcp-Session-Id")) {
      rejection = error_reply(400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = sessions.find(std::string(header(req, "Mcp-Session-Id")));
    if (it == sessions.end()) {
      rejection = error_reply(404, -32001, "Session not found");
      return nullptr;
    }
    return it->second;
  }

  std::shared_ptr<HttpSession> new_session(Reply& rejection) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stopped) {
        rejection = error_reply(503, -32000, "Service Unavailable: the server is shutting down");
        return nullptr;
      }
      if (sessions.size() >= options.max_sessions) {
        rejection = error_reply(503, -32000, "Service Unavailable: too many sessions");
        rejection.headers.emplace_back("Retry-After", "5");
        return nullptr;
      }
    }
    auto s = std::make_shared<HttpSession>(options.max_held_bytes);
    s->id = new_elicitation_id();  // 128 bits from the CSPRNG: unguessable
    try {
      s->server = std::make_unique<Server>(s->transport, info, options.server);
    } catch (const std::system_error&) {  // no thread could be created
      rejection = error_reply(503, -32000, "Service Unavailable: out of resources");
      rejection.headers.emplace_back("Retry-After", "1");
      return nullptr;
    }
    if (setup) setup(*s->server);
    s->server->start();
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) {
      rejection = error_reply(503, -32000, "Service Unavailable: the server is shutting down");
      return nullptr;
    }
    sessions[s->id] = s;
    return s;
  }

  void end_session(const std::string& id) {
    std::shared_ptr<HttpSession> s;
    {
      std::lock_guard<std::mutex> lock(mutex);
      const auto it = sessions.find(id);
      if (it == sessions.end()) return;
      s = it->second;
      sessions.erase(it);
    }
    s->server->close();
  }

  // Ends sessions idle past options.idle_session_timeout, and forgets connections that are gone.
  void reap() {
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

  void schedule_reaper() {
    const auto period = std::clamp<std::chrono::milliseconds>(options.idle_session_timeout / 4,
                                                              std::chrono::milliseconds(10), std::chrono::seconds(5));
    reaper.expires_after(period);
    reaper.async_wait([this](boost::beast::error_code ec) {
      if (ec) return;
      reap();
      schedule_reaper();
    });
  }

  // --- requests -------------------------------------------------------------------------------

  bool host_allowed(const HttpRequest& req) const {
    const auto raw = header(req, "Host");
    const auto host = host_without_port(raw);
    if (host.empty() || is_loopback_name(host)) return true;  // HTTP/1.0 clients may omit Host
    for (const auto& h : options.allowed_hosts) {
      if (lower(h) == lower(host) || lower(h) == lower(raw)) return true;
    }
    return false;
  }

  bool origin_allowed(const HttpRequest& req) const {
    if (!has_header(req, "Origin")) return true;  // not a browser request
    const auto origin = lower(header(req, "Origin"));
    for (const auto& o : options.allowed_origins) {
      if (lower(o) == origin) return true;
    }
    const auto scheme_end = origin.find("://");
    if (scheme_end == std::string::npos) return false;
    const auto scheme = origin.substr(0, scheme_end);
    if (scheme != "http" && scheme != "https") return false;
    return is_loopback_name(host_without_port(origin.substr(scheme_end + 3)));
  }

  // Checks every request passes; an error reply when it does not.
  std::optional<Reply> refuse(const HttpRequest& req) const {
    if (!host_allowed(req) || !origin_allowed(req)) {
      return error_reply(403, -32000, "Forbidden: Host or Origin is not allowed (DNS rebinding protection)");
    }
    if (has_header(req, "MCP-Protocol-Version")) {
      const auto v = header(req, "MCP-Protocol-Version");
      bool known = v == "2025-03-26";  // the spec's assumed default when the header is absent
      for (const auto& s : supported_protocol_versions()) known = known || s == v;
      if (!known) {
        return error_reply(
            400, -32000,
            "Bad Request: unsupported MCP-Protocol-Version " +
                nlohmann::json(std::string(v)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      }
    }
    return std::nullopt;
  }

  Reply handle(const HttpRequest& req) {
    const auto target = std::string_view(req.target().data(), req.target().size());
    if (target.substr(0, target.find('?')) != options.path) return error_reply(404, -32000, "Not Found");
    if (auto r = refuse(req)) return std::move(*r);
    switch (req.method()) {
      case boost::beast::http::verb::post:
        return handle_post(req);
      case boost::beast::http::verb::get:
        return handle_get(req);
      case boost::beast::http::verb::delete_:
        return handle_delete(req);
      default: {
        auto r = error_reply(405, -32000, "Method Not Allowed");
        r.headers.emplace_back("Allow", "GET, POST, DELETE");
        return r;
      }
    }
  }

  Reply handle_post(const HttpRequest& req) {
    if (lower(header(req, "Content-Type")).rfind("application/json", 0) != 0) {
      return error_reply(415, -32000, "Unsupported Media Type: POST bodies are application/json");
    }
    if (has_header(req, "Accept")) {
      const auto accept = lower(header(req, "Accept"));
      if (accept.find("text/event-stream") == std::string::npos && accept.find("*/*") == std::string::npos) {
        return error_reply(406, -32000, "Not Acceptable: the client must accept text/event-stream");
      }
    }
    const auto& body = req.body();
    auto parsed = parse_message(body);
    if (parsed.error) return error_reply(400, parsed.error->code, parsed.error->message);
    const auto* request = parsed.message ? std::get_if<::elicit::Request>(&*parsed.message) : nullptr;
    Reply reply;
    std::shared_ptr<HttpSession> session;
    if (request && request->method == "initialize") {
      session = new_session(reply);
      if (!session) return reply;
      // Priming events (SEP-1699) came with 2025-11-25; older clients may not expect empty events.
      if (const auto v = request->params.find("protocolVersion");
          request->params.is_object() && v != request->params.end() && v->is_string()) {
        session->priming = v->get<std::string>() >= "2025-11-25";
      }
      reply.headers.emplace_back("Mcp-Session-Id", session->id);
    } else {
      session = find_session(req, reply);
      if (!session) return reply;
    }
    if (!request) {  // a notification, or the client's answer to one of our requests
      if (!session->transport.deliver(body)) return error_reply(404, -32001, "Session not found");
      reply.status = 202;
      return reply;
    }
    bool duplicate = false;
    auto stream = session->transport.open_request_stream(request->id, duplicate);
    if (duplicate) {  // answered here, as JSON: the first request keeps its stream
      Reply r;
      r.content_type = "application/json";
      r.body = serialize(
          Response{request->id, std::nullopt,
                   RpcError{error_code::invalid_request,
                            "Invalid Request: id " + to_string(request->id) + " is already in use", std::nullopt}});
      return r;
    }
    if (!stream) return error_reply(404, -32001, "Session not found");
    session->transport.stream_opened();
    std::weak_ptr<HttpSession> weak = session;
    reply.sse = stream;
    reply.on_sse_end = [weak, stream] {
      if (auto s = weak.lock()) {
        s->transport.stream_detached(stream);
        s->transport.stream_closed();
      }
    };
    if (session->priming) {
      // An event id before anything else, so a client that loses the connection can resume, and
      // how long to wait before it does (MCP 2025-11-25, Streamable HTTP, SSE polling).
      reply.sse_preamble = "id: " + std::to_string(stream->number()) +
                           "-0\nretry: " + std::to_string(options.sse_retry.count()) + "\ndata: \n\n";
    }
    session->transport.deliver(body);
    return reply;
  }

  Reply handle_get(const HttpRequest& req) {
    if (lower(header(req, "Accept")).find("text/event-stream") == std::string::npos) {
      return error_reply(406, -32000, "Not Acceptable: GET opens a text/event-stream");
    }
    Reply reply;
    auto session = find_session(req, reply);
    if (!session) return reply;
    std::shared_ptr<http::SseStream> stream;
    if (has_header(req, "Last-Event-ID")) {
      // Resumption: the stream the id names, from the event after it.
      auto [resume, s] = session->transport.resume(header(req, "Last-Event-ID"));
      if (resume == http::SessionTransport::Resume::busy) {
        return error_reply(409, -32000, "Conflict: that stream is being read on another connection");
      }
      if (resume == http::SessionTransport::Resume::unknown) {
        return error_reply(404, -32000, "Not Found: Last-Event-ID names no stream or event this session holds");
      }
      stream = std::move(s);
    } else {
      stream = session->transport.claim_standalone();
      if (!stream) return error_reply(409, -32000, "Conflict: this session already has a GET stream");
    }
    session->transport.stream_opened();
    std::weak_ptr<HttpSession> weak = session;
    reply.sse = stream;
    reply.on_sse_end = [weak, stream] {
      if (auto s = weak.lock()) {
        if (stream->number() == 0) s->transport.release_standalone();
        s->transport.stream_detached(stream);
        s->transport.stream_closed();
      }
    };
    return reply;
  }

  Reply handle_delete(const HttpRequest& req) {
    Reply reply;
    auto session = find_session(req, reply);
    if (!session) return reply;
    end_session(session->id);
    reply.status = 200;
    return reply;
  }
};

StreamableHttpServer::StreamableHttpServer(ServerInfo info, SessionSetup setup, HttpServerOptions options)
    : impl_(std::make_shared<Impl>(std::move(info), std::move(setup), std::move(options))) {}

StreamableHttpServer::~StreamableHttpServer() { stop(); }

void StreamableHttpServer::start() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.started) throw std::logic_error("StreamableHttpServer::start() called twice");
    impl.started = true;
  }
  const auto& o = impl.options;
  try {
    const auto address = net::ip::make_address(o.host);
    impl.acceptor.emplace(impl.ioc);
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
  impl.accept();
  impl.schedule_reaper();
  // One pool for the blocking tool handlers of every session: a session costs no thread.
  if (!impl.options.server.workers) {
    impl.options.server.workers = std::make_shared<WorkerPool>(impl.options.server.worker_threads);
  }
  const auto n = Impl::thread_count(o);
  for (std::size_t i = 0; i < n; ++i) {
    impl.threads.emplace_back([&impl] {
      const EventThreadScope event_thread;  // a blocking elicit() here would stall every connection
      impl.ioc.run();
    });
  }
}

int StreamableHttpServer::port() const noexcept { return impl_->port; }

std::size_t StreamableHttpServer::session_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sessions.size();
}

void StreamableHttpServer::stop() {
  auto& impl = *impl_;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::list<std::weak_ptr<http::Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopped) return;
    impl.stopped = true;
    sessions.swap(impl.sessions);
    connections = impl.connections;
  }
  net::post(impl.ioc, [&impl] {
    boost::beast::error_code ec;
    if (impl.acceptor) impl.acceptor->close(ec);
    impl.reaper.cancel();
  });
  for (auto& [id, s] : sessions) s->server->close();  // ends every open SSE stream
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
  impl.ioc.stop();
  for (auto& t : impl.threads) {
    if (t.joinable()) t.join();
  }
  impl.threads.clear();
}

}  // namespace elicit
