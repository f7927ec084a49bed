// The Transport of one 2026-07-28 request (MCP 2026-07-28) served statelessly over Streamable HTTP: no
// session, one JSON-RPC request in (handed to the jsonrpc::Connection already parsed, jsonrpc::Connection::deliver),
// one response out, written as the HTTP response (application/json) whenever it comes, on the thread that gives it. MCP
// 2026-07-28 sends no server-to-client request for a 2026-07-28 request (input is asked for in an InputRequiredResult);
// notifications about the request (progress, log messages) turn the reply into an SSE stream of them ended by the
// response, when the client accepts text/event-stream (Streamable HTTP, "Sending Messages to the Server"); else they
// are dropped. Internal to elicit::http.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "connection.hpp"
#include "elicit/jsonrpc/transport.hpp"
#include "sse_stream.hpp"

namespace elicit::http {

class StatelessRequest final : public Transport {
 public:
  explicit StatelessRequest(RequestId id);

  void start(MessageHandler on_message, CloseHandler on_close) override;
  /// Takes the response to the request (the only message it takes): HTTP 200, or for a JSON-RPC
  /// error its status (http_status_for_error). False for anything else, and once answered or closed.
  bool send(std::string message, const SendContext& context) override;
  /// Ends the exchange without a response (the session's on_close runs). Idempotent.
  void close() override;
  /// The request was cancelled and will get no response (jsonrpc::Connection, answering a cancelled request).
  void abandon(const RequestId& id) override;

  /// Lets notifications about the request go out before its response: the first one makes the
  /// reply an SSE stream (HTTP 200, text/event-stream) that carries them and ends with the
  /// response. `max_held_bytes` bounds what waits for a slow client (oldest dropped). Call before
  /// start(), when the client's Accept allows text/event-stream.
  void allow_sse(std::size_t max_held_bytes);
  /// Runs once if the client goes away from the SSE reply before the response was written to it
  /// (the request is then to be cancelled). Set before start(); runs on an I/O thread.
  void on_sse_gone(std::function<void()> f) { on_sse_gone_ = std::move(f); }

  /// Where the HTTP response comes from.
  const std::shared_ptr<PendingReply>& reply() const noexcept { return reply_; }
  /// Runs `f` once when the exchange is over: answered, abandoned or closed. Set before start().
  void on_done(std::function<void()> f) { on_done_ = std::move(f); }

 private:
  void finish();
  void end_stream();  // no response will come: an SSE reply ends without one

  const RequestId id_;
  const std::shared_ptr<PendingReply> reply_ = std::make_shared<PendingReply>();
  std::mutex mutex_;
  CloseHandler on_close_;
  std::function<void()> on_done_;
  std::function<void()> on_sse_gone_;
  std::size_t sse_max_held_bytes_ = 0;  // 0: no SSE reply
  std::shared_ptr<SseStream> sse_;      // the SSE reply, once a notification started it
  bool answered_ = false;
  bool closed_ = false;
  bool done_ = false;
};

/// The HTTP status of a 2026-07-28 request's JSON-RPC error (MCP 2026-07-28, Streamable HTTP): 404 for
/// -32601 (the method is not implemented), 400 for -32020 HeaderMismatch, -32021
/// MissingRequiredClientCapability and -32022 UnsupportedProtocolVersion; 200 for any other.
unsigned http_status_for_error(int code);

/// The HTTP reply carrying one JSON-RPC response text (application/json); its status from
/// http_status_for_error when it is an error response.
Reply json_rpc_reply(std::string response);

}  // namespace elicit::http
