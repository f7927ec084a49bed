// The MCP side of one server-client connection, above the JSON-RPC jsonrpc::Connection: what the client
// declared in `initialize` and the URL-mode elicitations issued to it (MCP 2025-11-25, Basic,
// Lifecycle, "Initialization"; Client Features, "Elicitation"). The JSON-RPC layer knows nothing of
// MCP; elicit::ServerSession owns one of these per connection. MCP 2026-07-28 requests carry their
// capabilities themselves (RequestContext::client_capabilities) and use none of this.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
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
};

/// The server's side of one MCP session with a client (as the Python SDK's SessionState): the
/// JSON-RPC jsonrpc::Connection it runs on, the client's capabilities, and the URL-mode elicitationIds it
/// issued and which of them were announced complete. The free elicitation functions (elicitation.hpp)
/// take one. elicit::ServerSession makes and owns one per connection (ServerSession::state(),
/// RequestContext::state()); code that drives a bare jsonrpc::Connection makes its own next to it. Thread-safe.
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

class SessionState {
 public:
  /// `rpc` must outlive this object.
  explicit SessionState(jsonrpc::Connection& rpc) noexcept : rpc_(rpc) {}
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

  /// Interaction bookkeeping of the dialect (user_interaction.hpp; the draft, "Progress
  /// Tracking"): an interaction id this session created, running until end_interaction().
  /// At most kRunningInteractions run at once per session: adding one more ends the oldest
  /// running one (its watchers are answered `{}`, so no interaction/notify waits forever on a `ua`
  /// interaction nobody completes). Adding an id that is already known does nothing.
  void add_interaction(std::string id);
  /// Ends a running interaction: every interaction/notify watching it is answered `{}` (the draft:
  /// "Once the interaction is complete, the server MUST respond"). False for an unknown or ended id.
  bool end_interaction(std::string_view id);
  /// How many interactions may run at once in one session before the oldest is ended.
  static constexpr std::size_t kRunningInteractions = 1024;
  /// How many ended interaction ids are remembered, so a late interaction/notify is still answered.
  static constexpr std::size_t kEndedInteractions = 256;
  /// How many URL-mode elicitationIds one session remembers (issued, completed or not); the oldest
  /// is forgotten beyond that, and complete_url_elicitation() of it returns false.
  static constexpr std::size_t kUrlElicitationsKept = 1024;
  /// Whether `id` is an interaction this session created (running, or among the ended ones kept).
  bool has_interaction(std::string_view id) const;
  /// What watch_interaction did with an interaction/notify request.
  enum class Watch {
    unknown,   ///< not an interaction of this session (or too many watchers): the caller stays silent
    watching,  ///< kept; it is answered when the interaction ends
    ended,     ///< the interaction has ended: it was answered `{}` at once
  };
  /// Registers `responder` (an interaction/notify request) for interaction `id` with
  /// `progress_token`; sends it a first notifications/progress (progress 0, or the last value sent
  /// for the interaction). At most 8 watchers per interaction; ended ids are remembered (the last
  /// kEndedInteractions) so a late notify is still answered. What one watcher receives is in order:
  /// the first progress, later progress with rising values, then the answer.
  Watch watch_interaction(std::string_view id, const Responder& responder, const nlohmann::json& progress_token);
  /// Sends notifications/progress {progressToken, progress, total?, message?} to every watcher of
  /// running interaction `id`, on its notify request's stream, when `progress` exceeds the last
  /// value that watcher got. Returns how many were sent.
  std::size_t interaction_progress(std::string_view id, double progress, std::optional<double> total,
                                   const std::string& message);

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
  std::deque<std::string> url_order_;                       // the same ids, oldest first
  UserInteractionOptions user_interaction_;
  struct Watcher {
    Responder responder;
    nlohmann::json token;
    double last = 0;
  };
  struct Interaction {
    bool ended = false;
    double last = 0;  // the highest progress sent for it
    std::vector<Watcher> watchers;
    std::list<std::string>::iterator running;  // its place in running_, while not ended
  };
  using Interactions = std::unordered_map<std::string, Interaction>;
  // Marks `it` ended, remembers it among the ended ids (forgetting the oldest beyond the bound) and
  // moves its watchers to `answer`. Needs mutex_.
  void end_locked(Interactions::iterator it, std::vector<Watcher>& answer);
  Interactions interactions_;
  std::list<std::string> running_;              // running interaction ids, oldest first
  std::deque<std::string> ended_interactions_;  // oldest first, at most kEndedInteractions
  // Held across deciding and sending interaction/notify messages (never under mutex_'s lock, and
  // taken before it), so a watcher's first progress, its later progress and its answer leave in
  // that order even when the interaction ends, or progresses, on another thread meanwhile.
  std::mutex interaction_order_;
  std::optional<LoggingLevel> log_level_;
  std::optional<LogRateBucket> log_rate_;
};

}  // namespace elicit
