// The state of a StreamableHttpServer shared by its parts: accepting and routing (server.cpp), the
// origin guard (origin_guard.cpp), the 2025-11-25 session routes (session_routes.cpp) and the
// 2026-07-28 stateless routes (stateless_routes.cpp). Internal to elicit::http.
#pragma once

#include "elicit/http/server.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "connection.hpp"
#include "elicit/http/ascii_case.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/timer_service.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "session_transport.hpp"
#include "stateless_request.hpp"
#include "tls_certificates.hpp"

namespace elicit::http::server_impl {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using http::error_reply;
using http::Reply;
using HttpRequest = http::Request;
using http::ascii_lower;
using http::contains_nocase;
using http::equals_nocase;
using http::starts_with_nocase;

// What the bearer token of a request said (HttpServerOptions::authorization).
struct Authorized {
  std::string principal;  // the JSON text ["<iss>","<sub>"]: unambiguous, whatever the two hold
  std::shared_ptr<const AccessToken> token;
};

struct HttpSession {
  explicit HttpSession(std::size_t max_held_bytes) : transport(max_held_bytes) {}
  std::string id;
  std::string principal;                          // whose session it is (authorization); "" without
  std::shared_ptr<AccessTokenSlot> access_token;  // the latest request's token (authorization)
  bool priming = false;  // the client speaks 2025-11-25 or later: its POST streams start with a priming event
  http::SessionTransport transport;  // declared first: it must outlive the server
  std::unique_ptr<ServerSession> server;
};

// A header field's value (name case-insensitive), or nullopt when the request has none (the first
// of repeated fields). A scan in arrival order, names of another length skipped at once: a request
// has about ten fields, and Beast's ordered lookup compared names case-insensitively character by
// character along its tree, some 600 instructions a lookup, a 2026-07-28 request doing 18.
inline std::optional<std::string_view> find_header(const HttpRequest& req, std::string_view name) {
  for (const auto& f : req) {
    const auto n = f.name_string();
    if (equals_nocase(std::string_view(n.data(), n.size()), name)) {
      return std::string_view(f.value().data(), f.value().size());
    }
  }
  return std::nullopt;
}

inline std::string_view header(const HttpRequest& req, std::string_view name) {
  return find_header(req, name).value_or(std::string_view());
}

inline bool has_header(const HttpRequest& req, std::string_view name) { return find_header(req, name).has_value(); }

// One 2026-07-28 request being served: its one-request transport and the shared Server serving it.
struct StatelessExchange {
  explicit StatelessExchange(RequestId id) : transport(std::move(id)) {}
  http::StatelessRequest transport;  // declared first: it must outlive the serving
  std::unique_ptr<detail::StatelessServing> server;
};

// How many StatelessExchanges exist (stop() waits for none).
struct ExchangeCount {
  std::mutex mutex;
  std::condition_variable cv;
  std::size_t live = 0;
};

inline bool contains(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The JSON text of a header value or body value, for error messages (any bytes: replaced).
inline std::string json_text(std::string_view v) {
  return nlohmann::json(std::string(v)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A JSON-RPC error response for the request `id`, with an HTTP status.
inline Reply rpc_error_reply(unsigned status, const RequestId& id, RpcError error) {
  Reply r;
  r.status = status;
  r.content_type = "application/json";
  r.body = jsonrpc::serialize(Response{id, std::nullopt, std::move(error)});
  return r;
}

}  // namespace elicit::http::server_impl

namespace elicit::http {

struct StreamableHttpServer::Impl {
  using Reply = http::Reply;
  using HttpRequest = http::Request;
  using HttpSession = http::server_impl::HttpSession;
  using Authorized = http::server_impl::Authorized;
  using StatelessExchange = http::server_impl::StatelessExchange;
  using ExchangeCount = http::server_impl::ExchangeCount;
  Impl(std::shared_ptr<Server> c, ServerInfo i, ServerSetup s, HttpServerOptions o)
      : loops(make_loops(thread_count(o))),
        core(std::move(c)),
        info(std::move(i)),
        setup(std::move(s)),
        options(std::move(o)),
        reaper(main_loop()) {}

  static std::size_t thread_count(const HttpServerOptions& o);

  using Loop = boost::asio::io_context;
  static std::vector<std::unique_ptr<Loop>> make_loops(std::size_t n);

  // One event loop per I/O thread, each run by that thread alone, and every connection bound to one
  // for its life: a request is read, served and answered on one thread, with no handoff (a shared
  // loop run by N threads woke another thread per step: a futex and an epoll_ctl per round trip).
  // A loop run by one thread is an implicit strand, so a connection needs no strand of its own.
  // First: destroyed last, after everything that holds their handlers.
  std::vector<std::unique_ptr<Loop>> loops;
  // Keep each loop running while it has no connection yet; reset by stop().
  std::vector<boost::asio::executor_work_guard<Loop::executor_type>> keep_running;
  std::atomic<std::size_t> next_loop{0};
  // The acceptor, the reaper and the signals live on the first loop.
  Loop& main_loop() { return *loops.front(); }
  std::shared_ptr<Server> core;  // what every session and 2026-07-28 request serves
  ServerInfo info;               // with setup: makes `core` at start()
  ServerSetup setup;
  // run(): woken by SIGINT/SIGTERM or by the end of stop().
  std::mutex run_mutex;
  std::condition_variable run_cv;
  bool run_wake = false;
  HttpServerOptions options;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor;
  std::unique_ptr<http::TlsCertificates> tls;  // made at start() when TLS is configured
  // On the first loop, whose one thread re-arms it; stop() cancels it there too (an Asio timer must
  // not be used from two threads at once: TSan showed schedule_reaper's expires_after racing
  // stop()'s cancel).
  boost::asio::steady_timer reaper;
  std::vector<std::thread> threads;
  std::atomic<int> port{0};
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::unordered_map<StatelessExchange*, std::shared_ptr<StatelessExchange>> stateless;  // being served
  std::shared_ptr<ExchangeCount> exchanges = std::make_shared<ExchangeCount>();
  std::list<std::weak_ptr<http::Connection>> connections;
  bool started = false;
  bool stopped = false;
  std::condition_variable stopped_cv;  // with `mutex`: stop() has begun
  // drain() began: not ready, accepting nothing new.
  std::atomic<bool> draining{false};
  // 2025-11-25 requests whose POST stream is open (with `stateless`: what drain() waits for).
  std::size_t session_requests = 0;

  // Requests being served now: 2026-07-28 ones and 2025-11-25 POST streams.
  std::size_t in_flight() const;
  // Ready for new work: started, neither draining nor stopped.
  bool accepting() const {
    std::lock_guard<std::mutex> lock(mutex);
    return started && !stopped && !draining.load();
  }

  // --- accepting ------------------------------------------------------------------------------

  http::ConnectionLimits limits() const;

  void accept();

  // --- sessions -------------------------------------------------------------------------------

  // `who`: the request's verified token when the server is a resource server, else null; a session
  // belongs to the principal that made it (another principal's request gets 404, as for none).
  std::shared_ptr<HttpSession> find_session(const HttpRequest& req, Reply& rejection, const Authorized* who);

  std::shared_ptr<HttpSession> new_session(Reply& rejection, const Authorized* who);

  void end_session(const std::string& id);

  // Ends sessions idle past options.idle_session_timeout, and forgets connections that are gone.
  void reap();

  void schedule_reaper();

  // --- requests -------------------------------------------------------------------------------

  bool host_allowed(const HttpRequest& req) const;

  // --- routes of features (HttpServerOptions::routes, elicit/http/routes.hpp) -------------------

  // scheme://host:port the listener is reached at (RoutesStart::origin), once the port is known.
  std::string listener_origin() const;
  // The first reply a Routes gives for `req`, if one does (an exception: 500).
  std::optional<Reply> serve_routes(const HttpRequest& req, std::string_view path, bool loopback_peer);

  bool origin_allowed(const HttpRequest& req) const;

  // Checks every request passes; an error reply when it does not.
  std::optional<Reply> refuse(const HttpRequest& req) const;

  // A version a session may speak, or the one the spec assumes when the header is absent.
  static bool session_version(std::string_view v);

  // The MCP-Protocol-Version check of a 2025-11-25 request (MCP 2025-11-25, Streamable HTTP).
  static std::optional<Reply> refuse_session_version(const HttpRequest& req);

  // `loopback_peer`: the connection comes from a loopback address (127.0.0.0/8, ::1).
  Reply handle(const HttpRequest& req, bool loopback_peer);
  // The MCP endpoint's requests (handle() reports its refusals to the observer).
  Reply handle_endpoint(const HttpRequest& req);

  // --- authorization (MCP Authorization; authorization_routes.cpp) ----------------------------

  // The Protected Resource Metadata document (RFC 9728) when `path` is one of its two paths (the
  // resource's path under /.well-known/oauth-protected-resource, and that prefix alone).
  std::optional<Reply> serve_metadata(const HttpRequest& req, std::string_view path) const;
  // The bearer token check of every request to the MCP endpoint: an error reply (400, 401, 403,
  // 500), or nullopt with `who` filled in.
  std::optional<Reply> authorize(const HttpRequest& req, Authorized& who) const;
  // The scopes a JSON POST needs (required_scopes, and those of its request `r` if any): 403 naming
  // every one when the token lacks one, 500 when a callback throws.
  std::optional<Reply> check_scopes(const ::elicit::Request* r, const Authorized& who) const;
  // 401/403 with the RFC 6750 challenge naming the metadata document.
  Reply challenge(unsigned status, const char* error, const std::string& description,
                  const std::vector<std::string>& scopes) const;

  // Whether a POST without Mcp-Session-Id is a 2026-07-28 message, served statelessly.
  static bool is_stateless(const HttpRequest& req, const jsonrpc::ParseResult& parsed);

  Reply handle_post(const HttpRequest& req, const Authorized* who);

  // --- 2026-07-28 requests (MCP 2026-07-28), stateless ---------------------------------------------

  // `meta_json`: the text of params._meta when handle_post read the body with it apart (the version
  // header named 2026-07-28), else empty (then _meta, if any, is in params).
  Reply handle_stateless(const HttpRequest& req, jsonrpc::ParseResult& parsed, std::string meta_json,
                         const Authorized* who);

  // The checks of MCP 2026-07-28 (Streamable HTTP, "Request Metadata" and "Server Validation";
  // Versioning), in the order the official conformance suite's server-stateless probes fix
  // (tests/interop/conformance/SCENARIOS.md, section 4). Every error carries the request's id.
  // On success `fields` holds the request's per-request fields, read once here: serving it does not
  // read its era again.
  // `meta` is the request's _meta, read from params or apart from them.
  static std::optional<Reply> check_stateless(const HttpRequest& req, const ::elicit::Request& r, RequestMeta meta,
                                              std::optional<StatelessFields>& fields);

  // The Mcp-Param-* headers of a 2026-07-28 tools/call against its arguments (x-mcp-header).
  std::optional<Reply> check_param_headers(const HttpRequest& req, const ::elicit::Request& r) const;

  // Serves one checked 2026-07-28 request with the shared Server over a one-request transport (a
  // StatelessServing: no session, no thread, no copy of the tools or the options); the answer is
  // the HTTP response, now or when it comes.
  Reply serve_stateless(const HttpRequest& req, ::elicit::Request request, StatelessFields fields,
                        const Authorized* who);

  // A 2026-07-28 request is over (answered, abandoned or closed): it no longer counts.
  void release(StatelessExchange* key);

  // An exchange that, whoever lets go of it last (an I/O thread, the worker that answered, the
  // session's own callback), is destroyed on a worker: destroying its serving waits for its blocking
  // handler's last steps, which must hold up no connection (and cannot happen inside its session).
  std::shared_ptr<StatelessExchange> new_exchange(RequestId id);

  Reply handle_get(const HttpRequest& req, const Authorized* who);
  void attach_stream(const std::shared_ptr<HttpSession>& session, const std::shared_ptr<http::SseStream>& stream,
                     Reply& reply);

  Reply handle_delete(const HttpRequest& req, const Authorized* who);
};

}  // namespace elicit::http
