// The client side of Streamable HTTP (MCP 2025-11-25 and 2026-07-28, Transports, "Streamable
// HTTP"): every message is POSTed to the endpoint; a request's answer comes back as JSON or as an
// SSE stream carrying the server's messages about it (elicitation/create, progress) and then its
// response. 2025-11-25: the Mcp-Session-Id that initialize's answer gives is sent on every later
// POST and the session is ended with DELETE on close. 2026-07-28: no session; each request carries
// MCP-Protocol-Version, Mcp-Method and, for tools/call, prompts/get and resources/read, Mcp-Name.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "elicit/jsonrpc/transport.hpp"

namespace elicit::http {

struct HttpClientOptions {
  /// The MCP endpoint, "http://host[:port]/path". https is refused (this build has no TLS).
  std::string url;
  /// MCP-Protocol-Version of every POST but initialize: the version the client speaks (for a
  /// 2025-11-25 session, replaced by the one initialize's answer names).
  std::string protocol_version = "2026-07-28";
  /// Largest message or SSE event accepted, in bytes; a larger one ends that POST's exchange.
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  /// Connecting to the server, at most (ms).
  std::chrono::milliseconds connect_timeout{10000};
};

/// One POST (its own connection) per message, each answered on a thread of its own that lives as
/// long as its response stream; messages reach on_message one at a time. A request whose POST
/// fails (no connection, an HTTP error without a JSON-RPC body) is answered locally with a
/// JSON-RPC error for its id (-32000 and the HTTP status), so nothing waits forever. A message is
/// not POSTed before every notification sent earlier was accepted (so notifications/initialized
/// precedes the first request). A 2025-11-25 session's GET stream (messages unrelated to a request)
/// is opened once notifications/initialized is accepted. Not yet: reopening or resuming a stream.
class HttpClientTransport final : public Transport {
 public:
  /// Throws std::invalid_argument for a URL that is not http://host[:port][/path].
  explicit HttpClientTransport(HttpClientOptions options);
  ~HttpClientTransport() override;
  void start(MessageHandler on_message, CloseHandler on_close) override;
  bool send(std::string message, const SendContext& context) override;
  /// Ends every exchange in progress (their connections are shut down), DELETEs a 2025-11-25
  /// session, joins the threads and calls on_close. Not from on_message.
  void close() override;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace elicit::http
