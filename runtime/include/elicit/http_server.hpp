// The Streamable HTTP server transport (MCP 2025-11-25, Transports, "Streamable HTTP") on
// cpp-httplib: one MCP endpoint, one elicit::Server per MCP session (Mcp-Session-Id).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "elicit/server.hpp"

namespace elicit {

struct HttpServerOptions {
  /// Address to bind. Loopback by default: a local server must not be reachable from the network.
  std::string host = "127.0.0.1";
  /// Port to bind; 0 picks a free one (see StreamableHttpServer::port()).
  int port = 0;
  /// Path of the MCP endpoint.
  std::string path = "/mcp";
  /// Host header values accepted besides localhost, 127.0.0.1 and [::1] (with any port), e.g.
  /// "mcp.example.com". Anything else gets 403 (DNS rebinding protection).
  std::vector<std::string> allowed_hosts;
  /// Origin header values accepted besides http(s)://localhost, 127.0.0.1 and [::1] (any port).
  std::vector<std::string> allowed_origins;
  /// Largest accepted request body, in bytes (larger ones get 413).
  std::size_t max_request_bytes = 4 * 1024 * 1024;
  /// Socket read and write timeouts: a stalled client cannot hold a worker longer than this.
  std::chrono::seconds io_timeout{30};
  /// How often an idle SSE stream gets a comment line, so a vanished client is noticed.
  std::chrono::milliseconds keepalive{10000};
  /// HTTP worker threads. Each open SSE stream (a tools/call waiting on the user, a GET stream)
  /// holds one while it is open.
  std::size_t http_threads = 32;
  /// Options of each session's elicit::Server (tool worker threads, logging).
  ServerOptions server;
};

/// Serves MCP over Streamable HTTP:
///  - POST of a JSON-RPC request: the answer is an SSE stream that carries the requests the server
///    makes while handling it (elicitation/create during tools/call) and then its response;
///  - POST of a notification or of a response (the client's answer to an elicitation): 202;
///  - `initialize` creates a session and returns its Mcp-Session-Id; every later request must send
///    it (400 without, 404 for an unknown or ended session);
///  - GET opens the session's stream for messages that belong to no request (e.g.
///    notifications/elicitation/complete); DELETE ends the session.
/// Host and Origin headers are checked on every request (403), MCP-Protocol-Version too (400).
class StreamableHttpServer {
 public:
  /// Called for each new session to add its tools.
  using SessionSetup = std::function<void(Server&)>;

  StreamableHttpServer(ServerInfo info, SessionSetup setup, HttpServerOptions options = {});
  ~StreamableHttpServer();
  StreamableHttpServer(const StreamableHttpServer&) = delete;
  StreamableHttpServer& operator=(const StreamableHttpServer&) = delete;

  /// Binds and starts serving on a background thread. Throws std::runtime_error if it cannot bind.
  void start();
  /// The bound port (after start()).
  int port() const noexcept;
  /// Sessions currently open.
  std::size_t session_count() const;
  /// Stops accepting, ends every session, and joins the server thread.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace elicit
