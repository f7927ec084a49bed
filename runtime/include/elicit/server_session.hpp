// The MCP side of one server-client connection, above the JSON-RPC Session: what the client
// declared in `initialize` and the URL-mode elicitations issued to it (MCP 2025-11-25, Basic,
// Lifecycle, "Initialization"; Client Features, "Elicitation"). The JSON-RPC layer knows nothing of
// MCP; elicit::Server owns one of these per connection. MCP 2026-07-28 requests carry their
// capabilities themselves (ToolCall::client_capabilities) and use none of this.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "elicit/logging.hpp"
#include "elicit/session.hpp"

namespace elicit {

/// The client's capabilities (MCP 2025-11-25, Elicitation, "Capabilities"): from `initialize` in a
/// legacy session, or from `_meta["io.modelcontextprotocol/clientCapabilities"]` of one modern
/// request.
struct ClientCapabilities {
  bool known = false;             ///< they were declared (initialize received, or a modern request)
  bool elicitation_form = false;  ///< `elicitation: {}` or `elicitation: {form: {}}`
  bool elicitation_url = false;   ///< `elicitation: {url: {}}`
  nlohmann::json raw = nlohmann::json::object();

  /// Reads ClientCapabilities JSON; `elicitation: {}` alone means form mode only.
  static ClientCapabilities from_json(const nlohmann::json& capabilities);
};

/// The server's side of one MCP session with a client (as the Python SDK's ServerSession): the
/// JSON-RPC Session it runs on, the client's capabilities, and the URL-mode elicitationIds it
/// issued and which of them were announced complete. The free elicitation functions (elicit.hpp)
/// take one. elicit::Server makes and owns one per connection (Server::session(),
/// ToolCall::session()); code that drives a bare Session makes its own next to it. Thread-safe.
class ServerSession {
 public:
  /// `rpc` must outlive this object.
  explicit ServerSession(Session& rpc) noexcept : rpc_(rpc) {}
  ServerSession(const ServerSession&) = delete;
  ServerSession& operator=(const ServerSession&) = delete;

  /// The JSON-RPC session underneath (sending, cancelling, closing).
  Session& rpc() const noexcept { return rpc_; }

  /// Set from `initialize` (elicit::Server does it); unknown until then, and an elicitation that
  /// needs a capability the client did not declare ends `unsupported` without being sent.
  void set_client_capabilities(ClientCapabilities capabilities);
  ClientCapabilities client_capabilities() const;

  /// URL-mode bookkeeping (elicit.hpp): an elicitationId this session issued; complete_url_elicitation
  /// marks it, true once per issued id (false for an unknown or already completed one).
  void add_url_elicitation(std::string elicitation_id);
  bool mark_url_elicitation_complete(std::string_view elicitation_id);

  /// The level of logging/setLevel (MCP 2025-11-25, Logging): messages below it are not sent;
  /// none until the client sets one (then every level is sent).
  void set_log_level(LoggingLevel level);
  std::optional<LoggingLevel> log_level() const;
  /// The rate limit of this session's log messages (nullopt: none, the default of a bare
  /// ServerSession; elicit::Server sets ServerOptions::log_rate).
  void set_log_rate(std::optional<LogRateLimit> limit);
  /// Whether one more log message may go out at `now` (takes a token); always true without a limit.
  bool admit_log(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  /// Log messages admit_log refused so far.
  std::uint64_t logs_dropped() const;

 private:
  Session& rpc_;
  mutable std::mutex mutex_;
  ClientCapabilities capabilities_;
  std::unordered_map<std::string, bool> url_elicitations_;  // elicitationId -> completed
  std::optional<LoggingLevel> log_level_;
  std::optional<LogRateBucket> log_rate_;
};

}  // namespace elicit
