// Routes of a feature on a StreamableHttpServer's listener (HttpServerOptions::routes): the seam a
// wing of its own plugs into, as the browser form pages (elicit/forms/page_routes.hpp) do. A
// Routes sees each request before the MCP endpoint's checks and serves the paths it owns; the
// server checks and serves the rest. This header brings Boost.Beast's HTTP message types: include
// it only where routes are written, never from a header every server author includes.
#pragma once

#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

namespace elicit {
class Server;
}  // namespace elicit

namespace elicit::http {

struct HttpServerOptions;

// A request's header fields come from its connection's arena (a block reused from request to request
// instead of an allocation per field); a copy of a Request allocates its own (a polymorphic_allocator
// copy-constructs with the default resource).
using RequestFields = boost::beast::http::basic_fields<std::pmr::polymorphic_allocator<char>>;
/// One HTTP request, its body read whole (within HttpServerOptions::max_request_bytes).
using Request = boost::beast::http::request<boost::beast::http::string_body, RequestFields>;

class SseStream;
class PendingReply;

/// What the server answers to one request.
struct Reply {
  unsigned status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type;  ///< for `body`
  std::string body;
  /// When set, the response is this SSE stream (status 200, text/event-stream) until it ends.
  /// The server's own (its streams are internal): routes leave it null.
  std::shared_ptr<SseStream> sse;
  /// Runs once when the SSE response ends, whether the stream ended or the client went away.
  std::function<void()> on_sse_end;
  /// Written first on the SSE stream (e.g. a priming event), already framed as SSE text.
  std::string sse_preamble;
  /// When set (and `sse` is not), the reply is given later, from any thread, through this: the
  /// connection writes it when it comes (a plain reply or an SSE stream; never another pending
  /// one), holding no thread meanwhile. Everything else of this Reply is ignored.
  std::shared_ptr<PendingReply> pending;
};

/// A reply that comes later (e.g. from a worker thread running a blocking tool handler). Exactly
/// one of two things happens: the reply is given (fulfil), or the connection gives up waiting
/// (abandon: the client went away or the server stops) and `on_abandon` runs. Thread-safe.
class PendingReply {
 public:
  /// Runs once, on the connection's thread, if the connection gives up before the reply is given.
  /// Set it before handing the PendingReply to the connection.
  void on_abandon(std::function<void()> f);
  /// Gives the reply. False (and nothing happens) when it was given already or abandoned.
  bool fulfil(Reply reply);
  /// The reply if it has been given and nobody waits for it yet (then it is taken, once).
  std::optional<Reply> take();

  /// Connection side: `ready` runs once with the reply, at once on the calling thread if it is
  /// already there, else on the thread that gives it. Not called once abandoned.
  void wait(std::function<void(Reply)> ready);
  /// Connection side: stops waiting; runs on_abandon unless the reply was given already.
  void abandon();

 private:
  std::mutex mutex_;
  std::optional<Reply> reply_;
  std::function<void(Reply)> waiter_;
  std::function<void()> on_abandon_;
  bool done_ = false;  // the reply was handed over, or abandoned
};

/// One request as a Routes sees it.
struct RouteRequest {
  const Request& request;
  /// The request target's path (before any '?').
  std::string_view path;
  /// The connection comes from a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127.x).
  bool loopback_peer;
  /// The Host field passes the listener's DNS-rebinding check (HttpServerOptions::allowed_hosts and
  /// this machine's names). The MCP endpoint refuses a request that fails it with 403; a Routes
  /// decides for its own paths, and should refuse too.
  bool host_allowed;
};

/// What a Routes learns when the listener is bound (StreamableHttpServer::start()).
struct RoutesStart {
  /// scheme://host:port the listener is reached at: https when TLS is configured, else http;
  /// HttpServerOptions::host (a wildcard address, 0.0.0.0 or ::, as 127.0.0.1 or [::1]); the bound
  /// port. Behind a proxy the public origin is the application's to know.
  std::string origin;
  /// Whether the listener speaks TLS.
  bool tls;
  /// The Server every session and 2026-07-28 request of the listener is served from (where a feature
  /// sets what handlers reach, e.g. Server::set_browser_forms).
  Server& server;
  /// Whether the listener takes new work now: false once StreamableHttpServer::drain() began, or
  /// after stop() (a readiness probe's answer). Thread-safe, quick; valid while the server lives.
  std::function<bool()> accepting;
};

/// Paths of a feature on the listener. Served in the order of HttpServerOptions::routes, before the
/// MCP endpoint (and its Origin, Accept, protocol version and bearer token checks) and before the
/// Protected Resource Metadata. Implementations must be thread-safe: serve() runs on every I/O thread
/// at once.
class Routes {
 public:
  virtual ~Routes() = default;

  /// At StreamableHttpServer::start(), before anything is bound: throws std::invalid_argument for
  /// options the routes cannot be served with (a prefix that would take the MCP endpoint, a
  /// missing setting). The default accepts all.
  virtual void check(const HttpServerOptions& options) const { (void)options; }

  /// Once the port is known, before the I/O threads run; throws what makes start() fail (the
  /// listener is then closed again). The default does nothing.
  virtual void start(const RoutesStart& start) { (void)start; }

  /// One request, on an I/O thread: nullopt when `request.path` is not one of these routes (the
  /// next Routes, then the server, serves it), else the reply. It must not block (a reply that
  /// needs a wait is Reply::pending); an exception is a 500.
  virtual std::optional<Reply> serve(const RouteRequest& request) = 0;
};

}  // namespace elicit::http
