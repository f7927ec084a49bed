// The one interface a user implements to carry MCP messages over something new.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "elicit/jsonrpc/message.hpp"

namespace elicit::jsonrpc {

/// The member of `error.data` that marks a JSON-RPC error a client transport made itself, for a
/// request the peer never answered: {"transportFailure": KIND} with KIND "connect" (no connection:
/// refused, name not found, timed out), "tls" (the server was reached but its TLS was not accepted:
/// the certificate, its name, the protocol), "no_answer" (the connection broke before a response),
/// "http_status" (an HTTP status without a JSON-RPC body; `httpStatus` holds it), "authorization"
/// or "exchange". Such an error says nothing of the server's protocol revision (elicit::Client
/// falls back to 2025-11-25 only on answers from the server, as MCP 2026-07-28, Versioning,
/// "Backward Compatibility" names them). Its message ends with a hint where one is known.
inline constexpr const char* kTransportFailure = "transportFailure";

/// Where an outgoing message belongs. A transport with one stream (stdio) ignores it; Streamable
/// HTTP uses `related_request` to put a server-to-client request (an elicitation made while
/// handling tools/call) or a response on the SSE stream of that client request.
struct SendContext {
  std::optional<RequestId> related_request;
  /// True when the message is the response to `related_request` (the last message of that
  /// request's exchange: Streamable HTTP ends the request's SSE stream after it).
  bool response = false;
  /// Header fields of this message, {name, value}, for a transport that has headers
  /// (carries_headers(): Streamable HTTP sends each with the message's POST); the others ignore them.
  /// The values are sent as given, so the caller encodes them (encode_header_value in
  /// <elicit/protocol/param_headers.hpp>); a field whose name is not an RFC 9110 token or whose value has a
  /// byte outside 0x20-0x7E and tab is not sent, nor one the transport sets itself. For the
  /// `Mcp-Param-*` fields of a 2026-07-28 tools/call (Streamable HTTP, "Custom Headers from Tool
  /// Parameters"), which elicit::Client computes from the tool's inputSchema.
  std::vector<std::pair<std::string, std::string>> headers{};
};

/// Carries serialised JSON-RPC messages (one JSON text each, no framing) in both directions.
///
/// Contract:
///  - start() is called once; from then on the transport calls `on_message` with each received
///    message text, one at a time and in arrival order, from a thread of its choosing, and calls
///    `on_close` once when the connection ends (peer gone, EOF, close()). After on_close returns,
///    neither callback is called again.
///  - send() may be called from any thread, concurrently; it returns false when the message could
///    not be handed over (the transport is closed). It must not call on_message synchronously.
///  - close() ends the connection; it is idempotent and safe from any thread except inside the
///    callbacks' own thread if that would deadlock the implementation (document it if so).
class Transport {
 public:
  using MessageHandler = std::function<void(std::string message)>;
  using CloseHandler = std::function<void()>;

  virtual ~Transport() = default;
  virtual void start(MessageHandler on_message, CloseHandler on_close) = 0;
  virtual bool send(std::string message, const SendContext& context) = 0;
  virtual void close() = 0;
  /// No response will be sent for the peer's request `id` (the peer cancelled it, MCP 2025-11-25
  /// Base Protocol, "Cancellation"): a transport that keeps something open until the response
  /// (Streamable HTTP: the request's SSE stream) ends it now. Any thread. Default: nothing.
  virtual void abandon(const RequestId& id) { (void)id; }
  /// Closes the connection that carries what belongs to the peer's request `id`, without ending
  /// that exchange: Streamable HTTP's SSE polling (MCP 2025-11-25, Streamable HTTP: the server
  /// "MAY close the connection" after an event id; the client resumes with GET and
  /// Last-Event-ID). Any thread. Default: nothing.
  virtual void disconnect(const RequestId& id) { (void)id; }
  /// Who is at the other end, as a stable name (an HTTP client transport: its endpoint URL), for
  /// caches keyed by server; "" (the default) when the transport cannot say.
  virtual std::string peer() const { return {}; }
  /// True when send() carries SendContext::headers (Streamable HTTP's client side). A client uses it
  /// to know whether a server's x-mcp-header annotations apply (MCP 2026-07-28, server/tools,
  /// "x-mcp-header": clients on other transports may ignore them). Any thread. Default: false.
  virtual bool carries_headers() const noexcept { return false; }
};

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::SendContext;
using jsonrpc::Transport;
}  // namespace elicit
