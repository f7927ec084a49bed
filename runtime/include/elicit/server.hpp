// The MCP server core needed to host tools that elicit: initialize, ping, tools/list, tools/call
// (MCP 2025-11-25: Lifecycle, Utilities/Ping, Server features/Tools).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/elicit.hpp"
#include "elicit/session.hpp"
#include "elicit/transport.hpp"

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

/// One tools/call being handled. Its elicit helpers tie each elicitation to this call (so a
/// Streamable HTTP transport sends it on the call's stream) and apply the call's timeout.
class ToolCall {
 public:
  ToolCall(Session& session, RequestId request_id, nlohmann::json arguments, Responder responder);

  const nlohmann::json& arguments() const noexcept { return arguments_; }
  const RequestId& request_id() const noexcept { return request_id_; }
  Session& session() noexcept { return session_; }
  /// True once the client cancelled this tools/call (its answer will not be sent).
  bool cancelled() const noexcept { return responder_.cancelled(); }

  /// Options for elicitations made on behalf of this call; `timeout` in milliseconds, none = no limit.
  ElicitOptions elicit_options(std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;

  /// Blocking typed form elicitation (allowed in blocking tool handlers, which run on workers).
  template <class T>
  Outcome<T> elicit(std::string_view message, std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit<T>(session_, message, elicit_options(timeout));
  }
  /// Blocking form elicitation with the type's own message (`default_message()`).
  template <class T>
  Outcome<T> elicit(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit<T>(session_, T::default_message(), elicit_options(timeout));
  }
  UrlOutcome elicit_url(std::string_view message, std::string_view url,
                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return ::elicit::elicit_url(session_, message, url, elicit_options(timeout));
  }

  /// Sends the result (asynchronous handlers call this once; blocking handlers just return).
  void reply(const ToolResult& result);
  /// Answers with a JSON-RPC error instead (e.g. UrlElicitationRequired::to_error()).
  void reply_error(RpcError error);

 private:
  Session& session_;
  RequestId request_id_;
  nlohmann::json arguments_;
  Responder responder_;
};

/// A blocking handler runs on one of the server's worker threads and may block on elicit().
/// Exceptions become a tool error result; UrlElicitationRequired becomes a -32042 error.
using ToolHandler = std::function<ToolResult(ToolCall&)>;
/// An asynchronous handler runs on the transport's thread, must not block, and calls
/// ToolCall::reply() later (e.g. from an elicit_async callback). Thousands can be in flight.
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
  /// Threads for blocking tool handlers: at most this many blocking calls run at once; more wait.
  std::size_t worker_threads = 4;
  SessionOptions session;
};

class Server {
 public:
  /// The transport must outlive the server.
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
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elicit
