// The MCP side of one server-client connection, above the JSON-RPC jsonrpc::Connection: what the client
// declared in `initialize` and the URL-mode elicitations issued to it (MCP 2025-11-25, Basic,
// Lifecycle, "Initialization"; Client Features, "Elicitation"). The JSON-RPC layer knows nothing of
// MCP; elicit::ServerSession owns one of these per connection. MCP 2026-07-28 requests carry their
// capabilities themselves (RequestContext::client_capabilities) and use none of this.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/connection.hpp"
#include "elicit/logging.hpp"

namespace elicit {

/// The client's capabilities (MCP 2025-11-25, Elicitation, "Capabilities"): from `initialize` in a
/// 2025-11-25 session, or from `_meta["io.modelcontextprotocol/clientCapabilities"]` of one 2026-07-28
/// request.
struct ClientCapabilities {
  bool known = false;             ///< they were declared (initialize received, or a 2026-07-28 request)
  bool elicitation_form = false;  ///< `elicitation: {}` or `elicitation: {form: {}}`
  bool elicitation_url = false;   ///< `elicitation: {url: {}}`
  /// `elicitation` is present as an object, whatever its members: standard elicitation wins over
  /// the userInteraction dialect (user_interaction.hpp).
  bool elicitation_declared = false;
  /// The draft's `userInteraction: {types: [...], progress}` (user-interaction-draft.md,
  /// "Capabilities"): whether it is declared with at least one type, and which types it lists.
  bool user_interaction = false;
  bool interaction_ua = false;        ///< `types` lists "ua"
  bool interaction_prompt = false;    ///< `types` lists "prompt"
  bool interaction_progress = false;  ///< `progress: true`
  nlohmann::json raw = nlohmann::json::object();

  /// Reads ClientCapabilities JSON; `elicitation: {}` alone means form mode only. A
  /// `userInteraction` whose `types` is not an array of strings, or lists no type, is not declared
  /// (the draft: clients MUST support at least one type).
  static ClientCapabilities from_json(const nlohmann::json& capabilities);
  /// As above, `capabilities` moved into `raw` rather than copied.
  static ClientCapabilities from_json(nlohmann::json&& capabilities);
};

/// The opt-in userInteraction dialect (user_interaction.hpp; user-interaction-draft.md).
struct UserInteractionOptions {
  /// Speak the dialect to a 2025-11-25 session whose client declares `userInteraction` and not
  /// `elicitation`. Off by default: the draft was never adopted by a spec revision.
  bool enabled = false;
  /// Answer `interaction/notify` with progress (the draft, "Progress Tracking"); when false the
  /// server never answers it, as the draft requires of a server without progress support.
  bool progress = true;
};

/// How a session's elicitations go on the wire.
enum class ElicitDialect {
  elicitation,       ///< elicitation/create (MCP 2025-11-25)
  user_interaction,  ///< interaction/create (the draft): the client declared `userInteraction` only
};

namespace detail {
class ElicitationDialect;
}

/// The MCP state of one connection a server serves (as the Python SDK's SessionState): the JSON-RPC
/// jsonrpc::Connection it runs on, the client's capabilities, the URL-mode elicitationIds it issued
/// and which of them were announced complete, the log level and rate, and (only in a session that
/// speaks the userInteraction dialect) the dialect with its bookkeeping. The free elicitation functions
/// (elicitation.hpp) take one. elicit::ServerSession has one per connection, and each 2026-07-28
/// HTTP request one of its own (ServerSession::state(), RequestContext::state()); code that drives
/// a bare jsonrpc::Connection makes its own next to it. Thread-safe.
class SessionState {
 public:
  /// `rpc` must outlive this object.
  explicit SessionState(jsonrpc::Connection& rpc) noexcept;
  ~SessionState();
  SessionState(const SessionState&) = delete;
  SessionState& operator=(const SessionState&) = delete;

  /// The JSON-RPC session underneath (sending, cancelling, closing).
  jsonrpc::Connection& rpc() const noexcept { return rpc_; }

  /// Set from `initialize` (elicit::ServerSession does it); unknown until then, and an elicitation that
  /// needs a capability the client did not declare ends `unsupported` without being sent.
  void set_client_capabilities(ClientCapabilities capabilities);
  ClientCapabilities client_capabilities() const;

  /// Whether this server speaks the userInteraction dialect (elicit::ServerSession sets
  /// ServerSessionOptions::user_interaction; a bare SessionState does not).
  void set_user_interaction(UserInteractionOptions options);
  UserInteractionOptions user_interaction() const;
  /// The dialect of this session: user_interaction when the dialect is enabled and the client
  /// declared `userInteraction` (at least one type) and no `elicitation`; else elicitation.
  ElicitDialect dialect() const;

  /// The MCP layer's seam for a dialect other than elicitation/create (internal): made once
  /// dialect() becomes user_interaction (the client's capabilities from initialize choose it), with
  /// the dialect's bookkeeping, and kept for the session's life; null in any other session and for
  /// every 2026-07-28 request. Any thread. (The dialect's own functions reach its bookkeeping:
  /// interaction_book() in user_interaction.hpp.)
  detail::ElicitationDialect* elicitation_dialect() const;

  /// How many URL-mode elicitationIds one session remembers (issued, completed or not); the oldest
  /// is forgotten beyond that, and complete_url_elicitation() of it returns false.
  static constexpr std::size_t kUrlElicitationsKept = 1024;
  /// URL-mode bookkeeping (elicitation.hpp): an elicitationId this session issued; complete_url_elicitation
  /// marks it, true once per issued id (false for an unknown, forgotten or already completed one).
  /// The last kUrlElicitationsKept ids are kept.
  void add_url_elicitation(std::string elicitation_id);
  bool mark_url_elicitation_complete(std::string_view elicitation_id);

  /// The level of logging/setLevel (MCP 2025-11-25, Logging): messages below it are not sent;
  /// none until the client sets one (then every level is sent).
  void set_log_level(LoggingLevel level);
  std::optional<LoggingLevel> log_level() const;
  /// The rate limit of this session's log messages (nullopt: none, the default of a bare
  /// SessionState; elicit::ServerSession sets ServerSessionOptions::log_rate).
  void set_log_rate(std::optional<LogRateLimit> limit);
  /// Whether one more log message may go out at `now` (takes a token); always true without a limit.
  bool admit_log(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  /// Log messages admit_log refused so far.
  std::uint64_t logs_dropped() const;

 private:
  jsonrpc::Connection& rpc_;
  mutable std::mutex mutex_;
  ClientCapabilities capabilities_;
  std::unordered_map<std::string, bool> url_elicitations_;  // elicitationId -> completed
  std::optional<std::deque<std::string>> url_order_;        // the same ids, oldest first (made on first use)
  UserInteractionOptions user_interaction_;
  // Made when the dialect is chosen; needs mutex_.
  void choose_dialect_locked();
  std::unique_ptr<detail::ElicitationDialect> dialect_;
  std::optional<LoggingLevel> log_level_;
  std::optional<LogRateBucket> log_rate_;
};

}  // namespace elicit
