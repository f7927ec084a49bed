// The Streamable HTTP server transport (MCP 2025-11-25, Basic / Transports, "Streamable HTTP") on
// Boost.Beast and Boost.Asio: one MCP endpoint, one elicit::Server per MCP session
// (Mcp-Session-Id). Event-driven: an open SSE stream, an idle keep-alive connection or a user
// filling in a form holds a little memory and no thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "elicit/server.hpp"

namespace elicit {

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

  /// I/O threads running the event loop; 0 means std::thread::hardware_concurrency().
  std::size_t io_threads = 0;
  /// Open MCP sessions at most; an initialize beyond it gets 503 with `Retry-After`.
  std::size_t max_sessions = 16384;
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
  /// Options of each session's elicit::Server. Blocking tool handlers of every session share one
  /// pool: `server.workers` if set, else one of `server.worker_threads` threads made by start().
  ServerOptions server;
};

/// Serves MCP over Streamable HTTP:
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
/// Host and Origin headers are checked on every request (403), MCP-Protocol-Version too (400).
/// A body that is not JSON (or not UTF-8) is 400 with a -32700 JSON-RPC error.
/// Thread rules: all methods are thread-safe; SessionSetup runs on an I/O thread.
class StreamableHttpServer {
 public:
  /// Called for each new session to add its tools.
  using SessionSetup = std::function<void(Server&)>;

  StreamableHttpServer(ServerInfo info, SessionSetup setup, HttpServerOptions options = {});
  /// stop()s.
  ~StreamableHttpServer();
  StreamableHttpServer(const StreamableHttpServer&) = delete;
  StreamableHttpServer& operator=(const StreamableHttpServer&) = delete;

  /// Binds, listens, and starts the I/O threads and the shared worker pool. Throws
  /// std::runtime_error if it cannot bind, or std::system_error if a thread cannot be created.
  /// I/O threads are event threads (event_thread.hpp): a blocking elicit() there throws.
  void start();
  /// The bound port (after start()).
  int port() const noexcept;
  /// Sessions currently open.
  std::size_t session_count() const;
  /// Stops accepting, ends every session (their streams end, their pending elicitations end with
  /// transport_closed) and joins the I/O threads. Idempotent.
  void stop();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace elicit
