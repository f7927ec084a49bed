// The one interface a user implements to carry MCP messages over something new.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "elicit/jsonrpc/message.hpp"

namespace elicit::jsonrpc {

/// Where an outgoing message belongs. A transport with one stream (stdio) ignores it; Streamable
/// HTTP uses `related_request` to put a server-to-client request (an elicitation made while
/// handling tools/call) or a response on the SSE stream of that client request.
struct SendContext {
  std::optional<RequestId> related_request;
  /// True when the message is the response to `related_request` (the last message of that
  /// request's exchange: Streamable HTTP ends the request's SSE stream after it).
  bool response = false;
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
};

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::SendContext;
using jsonrpc::Transport;
}  // namespace elicit
