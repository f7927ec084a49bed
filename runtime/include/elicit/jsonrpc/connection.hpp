// A JSON-RPC session over a Transport: requests to the peer with per-call timeouts and
// cancellation, many in flight at once on no thread of their own, and dispatch of the peer's
// requests and notifications to handlers. MCP 2025-11-25, Base Protocol (Lifecycle, Cancellation).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"
#include "elicit/jsonrpc/timer_service.hpp"
#include "elicit/jsonrpc/transport.hpp"

namespace elicit::jsonrpc {

/// How a request to the peer ended when no response arrived.
enum class RequestFailure {
  timed_out,         ///< the per-call timeout passed (notifications/cancelled was sent)
  cancelled,         ///< cancel() was called (notifications/cancelled was sent)
  transport_closed,  ///< the connection ended first, or was already closed
  too_many_pending,  ///< ConnectionOptions::max_pending_requests were already waiting: nothing was sent
};

/// What a request to the peer came to: exactly one of `result`, `error`, `failure` is set.
struct RequestOutcome {
  std::optional<nlohmann::json> result;
  std::optional<RpcError> error;
  std::optional<RequestFailure> failure;
  /// The response's text as received, when the session keeps it (ConnectionOptions::keep_message_text)
  /// and a response arrived; null otherwise. For member order `result` does not keep (e.g. the
  /// requestedSchemas of a 2026-07-28 input-required result).
  std::shared_ptr<const std::string> text = nullptr;
};

using ResponseHandler = std::function<void(RequestOutcome)>;

struct CallOptions {
  /// How long to wait for the response, in milliseconds. Empty: wait as long as it takes (a person
  /// may take minutes to fill in a form; there is no hidden default).
  std::optional<std::chrono::milliseconds> timeout;
  SendContext context;
};

class Connection;

/// How a request from the peer ended (Responder::on_answered): for metrics and logs.
struct Answered {
  enum class Kind {
    result,     ///< result(), result_ordered() or result_text()
    error,      ///< error(); `error` points at it
    abandoned,  ///< abandon(): answered by a rule that says not to respond
    cancelled,  ///< never answered: the peer cancelled it, or the session ended first
  };
  Kind kind = Kind::result;
  /// The error sent (kind == error), valid during the callback only; else null.
  const RpcError* error = nullptr;
  /// The result is a 2026-07-28 InputRequiredResult (the sender said so: result_text's
  /// `input_required`, or a `resultType` of "input_required" in result() / result_ordered()).
  bool input_required = false;
};

/// Answers one request from the peer, exactly once, from any thread. Copies share the answer:
/// the first result() / error() wins, later ones are ignored. If the peer cancelled the request
/// (notifications/cancelled), no answer is sent (MCP 2025-11-25, Cancellation).
class Responder {
 public:
  const RequestId& id() const noexcept;
  void result(nlohmann::json result) const;
  /// result() for a result whose members keep their order on the wire (e.g. a requestedSchema
  /// inside an InputRequiredResult: its property order is the order a client shows the fields in).
  void result_ordered(nlohmann::ordered_json result) const;
  /// A result already serialised as JSON text (`result_json`, sent as written), in the envelope
  /// result() writes (`sorted`: {"id", "jsonrpc", "result"}) or result_ordered() writes
  /// ({"jsonrpc", "id", "result"}). `input_required`: the text is an InputRequiredResult (the text
  /// is not read to find out; on_answered reports it).
  void result_text(std::string_view result_json, bool sorted, bool input_required = false) const;
  void error(RpcError error) const;
  /// Never answers this request: for a protocol rule that says not to respond (e.g. a progress
  /// request the server must not answer). It counts as answered (later answers are ignored), the
  /// session forgets it, and the transport ends what it keeps open for it (Transport::abandon:
  /// Streamable HTTP ends the request's SSE stream without a response). Any thread.
  void abandon() const;
  /// True once the peer has cancelled this request.
  bool cancelled() const noexcept;
  /// True once result() or error() has been called.
  bool answered() const noexcept;
  /// Runs `f` once when the peer cancels this request (notifications/cancelled, MCP 2025-11-25,
  /// Base Protocol, "Cancellation") or the session ends first; at once, on the calling thread, if
  /// either has happened. Otherwise it runs on the session's dispatch thread (an event thread):
  /// keep it short and do not block.
  void on_cancel(std::function<void()> f) const;
  /// Runs `f` once when the request is over: answered (result, error, abandon) or never answered
  /// (the peer cancelled it, the session ended). On the thread that answers (any) or that ends the
  /// session; at once if it is over already (then Answered::error is null). One observer per request: a second call
  /// replaces the first. It must be quick, must not block and must not answer this request.
  void on_answered(std::function<void(const Answered&)> f) const;

  struct State;
  explicit Responder(std::shared_ptr<State> state) : state_(std::move(state)) {}

 private:
  std::shared_ptr<State> state_;
};

/// A request handler. It runs on the transport's thread (an event thread, see event_thread.hpp) and
/// must not block there: answer at once, or hand the Responder to another thread and answer later.
/// A request whose id equals that of a request of the peer's still being handled never reaches a
/// handler: it is refused with -32600 (Invalid Request) and the first one is left alone.
using RequestHandler = std::function<void(const Request&, Responder)>;
using NotificationHandler = std::function<void(const Notification&)>;

struct ConnectionOptions {
  /// Diagnostics (malformed messages, late or unknown responses, callbacks that threw). Default: one
  /// line on stderr. Called from any thread, possibly concurrently.
  std::function<void(std::string_view)> log;
  /// Fires per-call timeouts. Null: TimerService::shared(), one thread for every session.
  std::shared_ptr<TimerService> timers = nullptr;
  /// Requests to the peer (for a server: elicitations) waiting for an answer at once, at most.
  /// Beyond it send_request sends nothing and completes at once with too_many_pending, so a
  /// handler that keeps asking a client who never answers cannot grow the session without bound.
  std::size_t max_pending_requests = 1024;
  /// Keep the text of each request and response received (Request::text, RequestOutcome::text),
  /// for a peer that needs the member order parsing loses: elicit::Client sets it, to show a form's
  /// fields in the server's order. Off by default, so a server pays nothing for it. Messages handed
  /// to deliver() have no text.
  bool keep_message_text = false;
};

/// One JSON-RPC connection. Thread-safe. Handlers and response callbacks run on the transport's
/// thread (marked as an event thread while the session dispatches) or on the TimerService's thread;
/// they must not block. An exception escaping a response callback is caught and logged.
class Connection {
 public:
  explicit Connection(Transport& transport, ConnectionOptions options = {});
  /// Closes the transport, fails what is pending with transport_closed, and waits for the
  /// transport to stop. Do not destroy a session from one of its own callbacks.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void on_request(std::string method, RequestHandler handler);
  void on_notification(std::string method, NotificationHandler handler);
  /// Handles every request whose method has no on_request() handler: for a peer that keeps its
  /// own table of methods (elicit::ServerSession) and answers -32601 for what it does not know.
  /// Without one, such a request is answered -32601 Method not found.
  void on_other_requests(RequestHandler handler);

  /// Starts the transport. Register handlers first. Throws what the transport's start() throws
  /// (std::system_error when it cannot create its thread); the session has then ended: what was
  /// pending fails with transport_closed, and closing or destroying it does not wait.
  void start();

  /// Handles a message that was already parsed (by parse_message) exactly as if the transport had
  /// delivered its text to the session: for a transport that parses each message anyway (e.g. to
  /// route it) and would otherwise have it parsed twice. Same rules as the transport's on_message:
  /// after start(), one message at a time, in arrival order, never after the transport's on_close.
  /// Runs the handlers on the calling thread, marked as an event thread.
  void deliver(Message message);

  /// Sends a request and returns its id at once. `on_done` runs exactly once: with the result or
  /// error response, or with a failure (timeout, cancel(), transport closed). It may run before
  /// send_request returns when the transport is already closed.
  /// `params` keep their member order on the wire.
  RequestId send_request(std::string method, nlohmann::ordered_json params, ResponseHandler on_done,
                         CallOptions options = {});
  /// send_request with the params already serialised: `params_json` is one JSON object, sent as
  /// written (the caller vouches for it), or empty for none. For params sent again and again, such
  /// as a form's requestedSchema, which are then serialised once rather than per request.
  RequestId send_request_serialized(std::string method, std::string params_json, ResponseHandler on_done,
                                    CallOptions options = {});

  /// Blocking form of send_request. Throws std::logic_error on an event thread (e.g. in a
  /// RequestHandler or a response callback: that thread delivers the response); use send_request
  /// with a callback there.
  RequestOutcome call(std::string method, nlohmann::ordered_json params, CallOptions options = {});

  /// Cancels a pending request: sends notifications/cancelled (MCP 2025-11-25, Base Protocol,
  /// "Cancellation"; with the request's SendContext::related_request, so that it travels where the
  /// request did) and completes it with `cancelled`, on the calling thread. False when it is not
  /// pending (already answered, timed out or unknown).
  bool cancel(const RequestId& id, std::string reason = "");
  /// cancel() of every request pending now, with `reason` (e.g. the server is shutting down: the
  /// peer closes the forms it shows). Returns how many were cancelled.
  std::size_t cancel_pending(const std::string& reason);

  bool notify(std::string method, nlohmann::ordered_json params, const SendContext& context = {});

  /// Transport::disconnect for the peer's request `id` (Streamable HTTP: close that request's SSE
  /// connection; the client resumes it). Nothing on transports with one stream.
  void disconnect_stream(const RequestId& id);

  /// Writes one diagnostic line to ConnectionOptions::log.
  void log(std::string_view line) const;

  /// Requests sent and not yet completed.
  std::size_t pending_requests() const;

  /// Closes the transport; pending requests fail with transport_closed, then the on_cancel
  /// callbacks of the peer's open requests run.
  void close();
  bool closed() const;
  /// Blocks until the transport has closed.
  void wait_closed();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::CallOptions;
using jsonrpc::NotificationHandler;
using jsonrpc::RequestFailure;
using jsonrpc::RequestHandler;
using jsonrpc::RequestOutcome;
using jsonrpc::Responder;
using jsonrpc::ResponseHandler;
}  // namespace elicit
