// The MCP server core needed to host tools that elicit: initialize, ping, tools/list, tools/call
// (MCP 2025-11-25: Lifecycle, Utilities/Ping, Server features/Tools).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/cancel_scope.hpp"
#include "elicit/elicit.hpp"
#include "elicit/session.hpp"
#include "elicit/transport.hpp"
#include "elicit/worker_pool.hpp"

namespace elicit {

/// Protocol revisions this server speaks, newest first.
inline const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> v{"2025-11-25", "2025-06-18"};
  return v;
}

struct ServerInfo {
  std::string name;
  std::string version;
  std::optional<std::string> title = std::nullopt;
  std::optional<std::string> instructions = std::nullopt;
};

/// CallToolResult: `content` blocks, `isError`, optional `structuredContent`.
struct ToolResult {
  nlohmann::json content = nlohmann::json::array();
  bool is_error = false;
  std::optional<nlohmann::json> structured_content;

  /// One text content block.
  static ToolResult text(std::string text);
  /// A tool execution error (reported in the result, as MCP asks, not as a JSON-RPC error).
  static ToolResult error(std::string text);
  nlohmann::json to_json() const;
};

/// One tools/call being handled. Its elicit helpers tie each elicitation to this call: a Streamable
/// HTTP transport sends it on the call's stream, the call's default timeout applies, and when the
/// client cancels the call (notifications/cancelled; MCP 2025-11-25, Base Protocol, "Cancellation")
/// or the session ends, every elicitation still open for it is cancelled: notifications/cancelled
/// for the elicitation/create goes to the client and the elicitation ends `aborted`
/// (`transport_closed` when the transport closed), which frees a blocked handler at once. An
/// elicitation started after that is not sent and ends `aborted` at once. Timeouts are in ms.
class ToolCall {
 public:
  /// `default_elicitation_timeout` applies to elicitations made without a timeout (none: no limit).
  ToolCall(Session& session, RequestId request_id, nlohmann::json arguments, Responder responder,
           std::optional<std::chrono::milliseconds> default_elicitation_timeout = std::nullopt);

  const nlohmann::json& arguments() const noexcept { return arguments_; }
  const RequestId& request_id() const noexcept { return request_id_; }
  Session& session() noexcept { return session_; }
  /// True once the client cancelled this tools/call (its answer will not be sent).
  bool cancelled() const noexcept { return responder_.cancelled(); }
  /// Runs `f` once when the client cancels this call or the session ends; at once, on the calling
  /// thread, if that has happened already. Otherwise on the session's dispatch thread (an event
  /// thread): keep it short, do not block. Forgotten once the call is answered.
  void on_cancel(std::function<void()> f);

  /// Options for elicitations made on behalf of this call: this call's cancellation scope and
  /// stream, and `timeout` (ms; none = ServerOptions::default_elicitation_timeout, else no limit).
  ElicitOptions elicit_options(std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;

  /// Blocking typed form elicitation (MCP 2025-11-25, Client, "Elicitation"), for blocking tool
  /// handlers, which run on pool workers. Throws std::logic_error on an event thread (e.g. in an
  /// async_handler): use elicit_async there.
  template <class T>
  Outcome<T> elicit(std::string_view message, std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit<T>(session_, message, elicit_options(timeout));
  }
  /// Blocking form elicitation with the type's own message (`default_message()`).
  template <class T>
  Outcome<T> elicit(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit<T>(session_, T::default_message(), elicit_options(timeout));
  }
  /// Blocking URL-mode elicitation; throws std::logic_error on an event thread, and
  /// std::invalid_argument for a URL check_elicitation_url rejects.
  UrlOutcome elicit_url(std::string_view message, std::string_view url,
                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit_url(session_, message, url, elicit_options(timeout));
  }

  /// Asynchronous typed form elicitation for async_handler tools. `on_done` runs once, on an event
  /// thread (must not block), usually ending with reply(). If it throws, the call is answered with
  /// ToolResult::error(what()) (UrlElicitationRequired: its -32042 error) and a line is logged.
  /// Returns the elicitation/create id, or nullopt when nothing was sent.
  template <class T>
  std::optional<RequestId> elicit_async(std::string_view message, std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit_async<T>(session_, message, guarded(std::move(on_done)), elicit_options(timeout));
  }
  /// The same with the type's own message (`default_message()`).
  template <class T>
  std::optional<RequestId> elicit_async(std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return elicit_async<T>(T::default_message(), std::move(on_done), timeout);
  }
  /// Asynchronous URL-mode elicitation for async_handler tools; `on_done` as for elicit_async.
  std::optional<RequestId> elicit_url_async(std::string_view message, std::string_view url,
                                            std::function<void(UrlOutcome)> on_done,
                                            std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit_url_async(session_, message, url, guarded(std::move(on_done)), elicit_options(timeout));
  }

  /// Sends the result (asynchronous handlers call this once; blocking handlers just return).
  void reply(const ToolResult& result);
  /// Answers with a JSON-RPC error instead (e.g. UrlElicitationRequired::to_error()).
  void reply_error(RpcError error);
  /// Streamable HTTP: closes the connection of this call's SSE stream now, without ending the
  /// stream; what the call sends later (elicitations, its result) waits for the client to resume
  /// with GET and Last-Event-ID (MCP 2025-11-25, Streamable HTTP, SSE polling). Lets a long call
  /// hold no connection. Nothing on stdio. Any thread.
  void close_sse_stream() { session_.disconnect_stream(request_id_); }

 private:
  // Runs `f`; what it throws answers the call (tool error result, or -32042) and is logged.
  static void run_answering_failures(Session& session, const Responder& responder, const std::function<void()>& f);

  template <class R>
  std::function<void(R)> guarded(std::function<void(R)> f) const {
    return [&session = session_, responder = responder_, f = std::move(f)](R r) {
      run_answering_failures(session, responder, [&] { f(std::move(r)); });
    };
  }
  void forget_cancel_callbacks();

  Session& session_;
  RequestId request_id_;
  nlohmann::json arguments_;
  Responder responder_;
  std::optional<std::chrono::milliseconds> default_timeout_;
  std::shared_ptr<CancelScope> scope_ = std::make_shared<CancelScope>();
  std::mutex mutex_;
  std::vector<CancelScope::Token> on_cancel_tokens_;
};

/// A blocking handler runs on a thread of the server's WorkerPool and may block on elicit(). A call
/// the client cancels before a thread is free never runs. Exceptions become a tool error result;
/// UrlElicitationRequired becomes a -32042 error.
using ToolHandler = std::function<ToolResult(ToolCall&)>;
/// An asynchronous handler runs on the transport's thread (an event thread: blocking calls throw
/// std::logic_error, which becomes a tool error result), must not block, and calls
/// ToolCall::reply() later (e.g. from a ToolCall::elicit_async callback). Thousands can be in
/// flight on no thread of their own.
using AsyncToolHandler = std::function<void(std::shared_ptr<ToolCall>)>;

struct Tool {
  std::string name;
  std::string description;
  nlohmann::json input_schema = {{"type", "object"}};
  std::optional<std::string> title = std::nullopt;
  ToolHandler handler = nullptr;             ///< set this...
  AsyncToolHandler async_handler = nullptr;  ///< ...or this
};

struct ServerOptions {
  /// Threads for blocking tool handlers when `workers` is null: at most this many blocking calls
  /// run at once; more wait in FIFO order.
  std::size_t worker_threads = 4;
  /// A pool to share, e.g. one for every session of an HTTP server: then at most workers->size()
  /// blocking handlers run at once across all of them. Null: the server makes its own.
  std::shared_ptr<WorkerPool> workers;
  /// Timeout for elicitations a tool makes without one (ms). None (the default): no limit.
  std::optional<std::chrono::milliseconds> default_elicitation_timeout;
  SessionOptions session;
};

/// An MCP server over one session. A second `initialize` is refused with -32600 (Invalid Request)
/// and leaves the client capabilities as they were.
class Server {
 public:
  /// The transport must outlive the server. Throws std::system_error if it makes its own WorkerPool
  /// and a thread cannot be created.
  Server(Transport& transport, ServerInfo info, ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Adds a tool; call before start(). Throws std::invalid_argument for a duplicate name or a
  /// tool without a handler.
  void add_tool(Tool tool);

  Session& session() noexcept;
  void start();
  /// Blocks until the transport closes (the client went away or close() was called).
  void wait();
  void run() {
    start();
    wait();
  }
  /// Closes the session; blocking handlers still running see their elicitations end
  /// transport_closed. The destructor waits for this server's running handlers to return.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elicit
