// The Streamable HTTP server transport on Boost.Beast and Boost.Asio, dual-era on one endpoint:
// MCP 2025-11-25 sessions (Basic / Transports, "Streamable HTTP": `initialize`, Mcp-Session-Id, one
// elicit::ServerSession per session) and MCP 2026-07-28 requests served statelessly (per-request `_meta`,
// no session). Every session and request is served from one Server (the tools). Event-driven: an open SSE stream, an
// idle keep-alive connection, a user filling in a form or a 2026-07-28 request waiting for its handler
// holds a little memory and no thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/http/authorization.hpp"
#include "elicit/server_session.hpp"

namespace elicit::http {

class Routes;

/// Limits and settings of a StreamableHttpServer. Each limit has a safe default; the behaviour
/// when it is reached is given with it.
struct HttpServerOptions {
  /// Address to bind. Loopback by default: a local server must not be reachable from the network.
  std::string host = "127.0.0.1";
  /// Port to bind; 0 picks a free one (see StreamableHttpServer::port()).
  int port = 0;
  /// Path of the MCP endpoint. Other paths get 404.
  std::string path = "/mcp";
  /// Host header values accepted besides localhost, 127.0.0.1 and [::1] (with any port), e.g.
  /// "mcp.example.com". Anything else gets 403 (DNS rebinding protection).
  std::vector<std::string> allowed_hosts;
  /// Origin header values accepted besides http(s)://localhost, 127.0.0.1 and [::1] (any port).
  std::vector<std::string> allowed_origins;

  /// TLS (HTTPS, through OpenSSL): when both are set, the listener speaks TLS 1.2 or 1.3 only.
  /// PEM files: the certificate chain (the server's certificate first, then its intermediates) and
  /// its private key (unencrypted). start() reads them and throws std::runtime_error naming the
  /// file and the reason when either cannot be read or the key does not match. Later, when either
  /// file changes, the next connection gets the new pair (checked at most once a second; a pair that
  /// fails to load, e.g. half replaced, is skipped and the pair in use kept); open connections keep
  /// theirs. A client that is not TLS, does not trust the certificate, or offers only an older
  /// version fails the handshake and is closed. Empty (the default): plain HTTP, for loopback or
  /// behind a TLS-terminating proxy.
  std::string tls_certificate_chain_file;
  std::string tls_private_key_file;

  /// I/O threads running the event loop; 0 means std::thread::hardware_concurrency().
  std::size_t io_threads = 0;
  /// Open MCP sessions at most; an initialize beyond it gets 503 with `Retry-After`.
  std::size_t max_sessions = 16384;
  /// 2026-07-28 requests being served at once at most (each waits for its handler, e.g. a
  /// blocking tool queued for a worker); one beyond it gets 503 with `Retry-After: 1` and a
  /// JSON-RPC error carrying its id.
  std::size_t max_stateless_requests = 4096;
  /// A session with no request and no open stream for this long is ended (its pending
  /// elicitations end with transport_closed). Milliseconds.
  std::chrono::milliseconds idle_session_timeout = std::chrono::minutes(15);
  /// Largest request body in bytes, whether sent with Content-Length or chunked: 413.
  std::size_t max_request_bytes = 4 * 1024 * 1024;
  /// Largest request head (request line and header fields) in bytes: 431.
  std::size_t max_header_bytes = 16 * 1024;
  /// Most header fields in one request: 431.
  std::size_t max_header_fields = 100;
  /// Time to receive one whole request (head and body), and to wait for the next request on a
  /// keep-alive connection. A client that trickles bytes cannot extend it: the connection is closed.
  /// Milliseconds.
  std::chrono::milliseconds request_timeout = std::chrono::seconds(30);
  /// Time for one write to the client; a client that stops reading is disconnected. Milliseconds.
  std::chrono::milliseconds write_timeout = std::chrono::seconds(30);
  /// How long drain() (and so wait() on SIGTERM or SIGINT) lets requests in flight finish before
  /// it stops the server (after drain_delay). Milliseconds.
  std::chrono::milliseconds drain_timeout = std::chrono::seconds(10);
  /// How long drain() goes on accepting and serving after readiness turned false, before it closes
  /// the listener: for a load balancer that learns of the drain only from readiness probes (a
  /// Kubernetes Service: until its endpoint is removed it still sends new connections, which would
  /// otherwise be refused). Set it to the probe period times the failure threshold. Milliseconds;
  /// 0 (the default): the listener closes at once.
  std::chrono::milliseconds drain_delay = std::chrono::milliseconds(0);
  /// Idle SSE streams get a comment line this often, so a vanished client is noticed. Milliseconds.
  std::chrono::milliseconds keepalive = std::chrono::seconds(15);
  /// The `retry` of the priming event that starts each POST stream of a 2025-11-25 client: how
  /// long a client whose connection was closed waits before resuming. Milliseconds.
  std::chrono::milliseconds sse_retry = std::chrono::seconds(1);
  /// Bytes a stream keeps for messages it cannot deliver yet (no GET stream open, or a stream
  /// whose client is gone), and of messages already sent, for resumption: the oldest are dropped
  /// beyond it. A session keeps its 16 newest interrupted streams for resumption.
  std::size_t max_held_bytes = 1024 * 1024;
  /// Bytes queued for one connection that the client does not read: beyond it the connection is
  /// closed (the stream's undelivered messages are then held, as above).
  std::size_t max_queued_bytes = 4 * 1024 * 1024;
  /// The authenticated principal of a 2026-07-28 request (e.g. the subject of a bearer token the
  /// application has verified), read from its header fields: `header(name)` gives a field's value
  /// (name case-insensitive; empty when absent). It becomes that request's ServerSessionOptions::principal,
  /// so a requestState sealed for one principal does not open for another (-32602). Null (the
  /// default): no principal. Runs on an I/O thread for every 2026-07-28 request: it must be quick and
  /// must not block. An exception refuses the request: HTTP 401 with a JSON-RPC error -32600
  /// carrying its id (the exception's text is not sent).
  std::function<std::string(const std::function<std::string_view(std::string_view name)>& header)> principal;
  /// MCP Authorization (Basic / Authorization, both revisions): when set, the server is an OAuth 2.1
  /// resource server. Its Protected Resource Metadata (RFC 9728) is served at
  /// /.well-known/oauth-protected-resource followed by the resource's path, and at that prefix alone.
  /// Every request to the MCP endpoint needs `Authorization: Bearer <token>` that `verify` accepts:
  /// none (or another scheme) is 401 with `WWW-Authenticate: Bearer resource_metadata="…",
  /// scope="…"`; a malformed one, or a token in the query string, 400 `invalid_request`; a token
  /// `verify` refuses (InvalidToken), 401 `invalid_token`; a token without a scope the request needs
  /// (required_scopes, and for a JSON-RPC request those its method, tool, prompt or resource needs:
  /// ResourceServerOptions, "scopes per operation"; scope_implies for scope hierarchies), 403
  /// `insufficient_scope` naming every scope needed, in one challenge. The principal is the token's
  /// issuer and subject: a 2025-11-25 session belongs to the principal that initialized it (another
  /// one's requests on it get 404), and every requestState is sealed to it (it replaces `principal`
  /// above). The start() throws std::invalid_argument without resource, authorization_servers or verify.
  std::optional<ResourceServerOptions> authorization;
  /// Paths of features served on this listener besides the MCP endpoint (elicit/http/routes.hpp),
  /// each asked in turn before the endpoint's checks: e.g. the browser form pages
  /// (elicit::forms::routes, elicit/forms/page_routes.hpp). start() calls each one's check() before
  /// binding and its start() once the port is known, and throws what they throw.
  std::vector<std::shared_ptr<http::Routes>> routes;
  /// Options of each session's and each 2026-07-28 request's elicit::ServerSession. Blocking tool handlers of
  /// all of them share one pool: `server.workers` if set, else one of `server.worker_threads`
  /// threads made by start(). (`server.request_state` is used only by the constructor that makes
  /// the Server.)
  ServerSessionOptions server;
};

/// Serves MCP over Streamable HTTP, both eras on one endpoint (MCP 2026-07-28, "Versioning",
/// dual-era server). Each POST is sorted by era:
///  - 2026-07-28: no Mcp-Session-Id, and an `MCP-Protocol-Version` header naming a version that is not
///    a 2025-11-25 one, or a `params._meta["io.modelcontextprotocol/protocolVersion"]` (an `initialize`
///    is 2026-07-28 only when one of the two names a 2026-07-28 version). Served statelessly
///    (MCP 2026-07-28, Streamable HTTP): no session is made and no Mcp-Session-Id is sent; the
///    answer is application/json (Accept must allow it: 406). Checked in this order, each failure
///    a JSON-RPC error carrying the request's id: the version header missing: 400/-32020; `_meta`,
///    its protocolVersion or its clientCapabilities missing: 400/-32602; header != `_meta`
///    version: 400/-32020; a version not served: 400/-32022 (data.supported, data.requested);
///    `Mcp-Method` missing or != method, `Mcp-Name` (Base64 sentinel decoded) missing or != params.name
///    (tools/call, prompts/get) or params.uri (resources/read): 400/-32020; a method not in the
///    2026-07-28 era (initialize, ping, logging/setLevel, resources/subscribe, resources/unsubscribe)
///    or unknown: 404/-32601. Then one elicit::ServerSession (on the shared Server, pool and timers)
///    serves the request; its answer is HTTP 200, except errors -32601 (404) and -32020, -32021,
///    -32022 (400). The answer may come later from a worker: the connection waits holding no
///    thread; a client that disconnects meanwhile cancels the request (its RequestContext sees
///    cancelled(), on_cancel runs). A 2026-07-28 notification is 202 (ignored); a response, 400/-32600.
///  - 2025-11-25 (and 2025-06-18), everything else, as follows.
///  - POST of a JSON-RPC request: the answer is an SSE stream that carries the requests the server
///    makes while handling it (elicitation/create during tools/call) and then its response;
///  - POST of a notification or of a response (the client's answer to an elicitation): 202;
///  - `initialize` creates a session and returns its Mcp-Session-Id; every later request must send
///    it (400 without, 404 for an unknown or ended session);
///  - GET opens the session's stream for messages that belong to no request (e.g.
///    notifications/elicitation/complete); one at a time (409); DELETE ends the session;
///  - every SSE event has an id ("<stream>-<seq>"); GET with Last-Event-ID resumes that stream
///    after that event (404 when it is no longer held, 409 while another connection reads it);
///    POST streams of 2025-11-25 clients start with a priming event (an id, `retry`, empty data).
/// Paths a Routes of HttpServerOptions::routes serves are its own (e.g. the browser form pages):
/// none of the checks below applies to them.
/// Host and Origin headers are checked on every request (403); on 2025-11-25 requests
/// MCP-Protocol-Version too (400 for a version no session speaks).
/// A body that is not JSON (or not UTF-8) is 400 with a -32700 JSON-RPC error.
/// Thread rules: all methods are thread-safe.
class StreamableHttpServer {
 public:
  /// Adds the tools (prompts, resources) to the Server every session and 2026-07-28 request shares.
  using ServerSetup = std::function<void(Server&)>;

  /// Serves the tools of `core` (add them before start(); it is read-only while served).
  explicit StreamableHttpServer(std::shared_ptr<Server> core, HttpServerOptions options = {});
  /// Makes the Server at start(): `setup` runs once, on the thread calling start(), to add what the
  /// server offers. Its requestState keys come from options.server.request_state.
  StreamableHttpServer(ServerInfo info, ServerSetup setup, HttpServerOptions options = {});
  /// stop()s.
  ~StreamableHttpServer();
  StreamableHttpServer(const StreamableHttpServer&) = delete;
  StreamableHttpServer& operator=(const StreamableHttpServer&) = delete;

  /// Binds, listens, and starts the I/O threads and the shared worker pool. Throws
  /// std::runtime_error if it cannot bind, std::system_error if a thread cannot be created, and
  /// what ServerSetup throws.
  /// I/O threads are event threads (event_thread.hpp): a blocking elicit() there throws.
  void start();
  /// start(), then wait(). Throws what start() throws.
  void run();
  /// Blocks until stop() (called on another thread; wait() returns once it has finished) or until
  /// the process receives SIGINT or SIGTERM (then it drain()s with HttpServerOptions::drain_timeout
  /// and returns). The signals are caught
  /// with Asio's signal_set while wait() blocks: do not block them in the process's threads. A
  /// signal that arrives between start() and wait() takes its default action (the process ends): a
  /// program that announces it is ready (prints its port) before waiting, and must stop cleanly on
  /// the first signal, blocks SIGINT/SIGTERM before start(), sigwait()s and calls stop() instead, as
  /// samples/http_server.cpp does. Throws std::logic_error before start().
  void wait();
  /// Shuts down gracefully, for a process behind a load balancer (SIGTERM): at once the server stops
  /// being ready (draining(); RoutesStart::accepting, e.g. the readiness probe of elicit/ops,
  /// turns false); after HttpServerOptions::drain_delay (serving as usual meanwhile) it stops
  /// accepting connections; connections waiting for a next request are closed, the others answer
  /// what they are serving with `Connection: close`; runs of tasks (the tasks extension) kept in a
  /// store several processes share are cancelled and released, so the next process a client's
  /// tasks/get reaches runs each again at once (TaskRecord::run_released). Requests in flight
  /// (2026-07-28 requests, 2025-11-25 POST streams, e.g. a user filling in a form) finish, for at
  /// most `timeout` milliseconds from then. Then the 2025-11-25 clients still waiting are told:
  /// each elicitation still open is cancelled (notifications/cancelled on its request's stream,
  /// reason "the server is shutting down"; MCP 2025-11-25, Cancellation), and its handler, which
  /// sees the elicitation cancelled, has up to HttpServerOptions::write_timeout to answer (when
  /// there was one to cancel); then stop(). Returns once stopped. A 2026-07-28 client whose
  /// request arrives meanwhile at another process loses nothing (its requestState opens there
  /// when the processes share their keys). Blocks: never call it on an I/O thread. A second call
  /// while one drains returns at once; after stop(), nothing happens.
  void drain(std::chrono::milliseconds timeout);
  /// True from the start of drain() on.
  bool draining() const noexcept;
  /// Requests being served now: 2026-07-28 requests and 2025-11-25 requests whose stream is open.
  std::size_t requests_in_flight() const;
  /// The bound port (after start()).
  int port() const noexcept;
  /// Sessions currently open.
  std::size_t session_count() const;
  /// 2026-07-28 requests being served now (received, not yet answered or abandoned).
  std::size_t stateless_request_count() const;
  /// The tools every session and 2026-07-28 request is served from (null before start() for the
  /// ServerSetup constructor).
  std::shared_ptr<Server> server() const;
  /// Stops accepting, ends every session (their streams end, their pending elicitations end with
  /// transport_closed) and joins the I/O threads. Idempotent.
  void stop();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace elicit::http
