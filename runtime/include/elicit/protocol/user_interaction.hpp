// The userInteraction dialect: the draft proposal's `interaction/create` (user-interaction-draft.md),
// served as an opt-in alternative wire form of elicitation for 2025-11-25 sessions whose client
// declares `userInteraction` and not `elicitation`. No spec revision adopted the draft (URL-mode
// elicitation took its place); the 2026-07-28 era (stateless requests, input-required results)
// has no such dialect.
//
// It is a layer over the MCP session (SessionState), not part of the JSON-RPC jsonrpc::Connection. The typed
// API does not change: ServerSessionOptions::user_interaction.enabled turns it on, and each session picks
// its dialect from the client's declared capabilities (SessionState::dialect()); the MCP layer's core
// reaches it only through one seam (runtime/src/mcp/elicitation_dialect.hpp):
//  - form elicitation (elicit<T>, elicit_async<T>, elicit_form_async, RequestContext::elicit...) sends
//    interaction/create {id, type: "prompt", interaction: {message: TextContent, schema}} and reads
//    `result.content` with the same decoding and validation;
//  - URL mode (elicit_url, RequestContext::elicit_url...) sends type "ua" {url, message: TextContent},
//    the elicitationId being the interaction id; `accepted` means the client opened the URL;
//  - UrlElicitationRequired thrown by a handler is answered -32003 `interaction_required` with
//    `data` = {id, type: "ua", url, message: TextContent} (the draft, "Requiring Interaction as an
//    Error Response");
//  - interaction/notify with `_meta.progressToken` is answered as the draft's "Progress Tracking"
//    says (see answer_interaction_notify).
#pragma once

#include <cstddef>
#include <deque>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/elicitation.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/message.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

namespace error_code {
/// The draft, "Requiring Interaction as an Error Response": message "interaction_required".
inline constexpr int interaction_required = -32003;
/// What elicit::Client answers an interaction/create the user declined (the draft's own example,
/// "User did not consent to the interaction").
inline constexpr int interaction_declined = -1;
/// What elicit::Client answers an interaction/create the user dismissed without choosing.
inline constexpr int interaction_cancelled = -2;
}  // namespace error_code

/// The bookkeeping of the dialect's interactions in one session (the draft, "Progress Tracking"):
/// the interaction ids the session created, which are running, and the interaction/notify requests
/// watching each. interaction_book() gives a session's once the session speaks the dialect; no
/// other session and no 2026-07-28 request pays for it. Thread-safe.
class InteractionBook {
 public:
  /// `rpc` (the session's connection, for notifications/progress) must outlive this object.
  explicit InteractionBook(jsonrpc::Connection& rpc) noexcept : rpc_(rpc) {}
  InteractionBook(const InteractionBook&) = delete;
  InteractionBook& operator=(const InteractionBook&) = delete;

  /// How many interactions may run at once in one session before the oldest is ended.
  static constexpr std::size_t kRunning = 1024;
  /// How many ended interaction ids are remembered, so a late interaction/notify is still answered.
  static constexpr std::size_t kEnded = 256;
  /// How many interaction/notify requests may watch one interaction.
  static constexpr std::size_t kWatchers = 8;

  /// An interaction id the session created, running until end(). At most kRunning run at once:
  /// adding one more ends the oldest running one (its watchers are answered `{}`, so no
  /// interaction/notify waits forever on a `ua` interaction nobody completes). Adding an id that
  /// is already known does nothing.
  void add(std::string id);
  /// Ends a running interaction: every interaction/notify watching it is answered `{}` (the draft:
  /// "Once the interaction is complete, the server MUST respond"). False for an unknown or ended id.
  bool end(std::string_view id);
  /// Whether `id` is an interaction of this session (running, or among the ended ones kept).
  bool has(std::string_view id) const;
  /// What watch() did with an interaction/notify request.
  enum class Watch {
    unknown,   ///< not an interaction of this session (or too many watchers): the caller stays silent
    watching,  ///< kept; it is answered when the interaction ends
    ended,     ///< the interaction has ended: it was answered `{}` at once
  };
  /// Registers `responder` (an interaction/notify request) for interaction `id` with
  /// `progress_token`; sends it a first notifications/progress (progress 0, or the last value sent
  /// for the interaction). At most kWatchers per interaction; ended ids are remembered (the last
  /// kEnded) so a late notify is still answered. What one watcher receives is in order: the first
  /// progress, later progress with rising values, then the answer.
  Watch watch(std::string_view id, const Responder& responder, const nlohmann::json& progress_token);
  /// Sends notifications/progress {progressToken, progress, total?, message?} to every watcher of
  /// running interaction `id`, on its notify request's stream, when `progress` exceeds the last
  /// value that watcher got. Returns how many were sent.
  std::size_t progress(std::string_view id, double progress, std::optional<double> total, const std::string& message);

 private:
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

  jsonrpc::Connection& rpc_;
  // Held across deciding and sending interaction/notify messages (never under mutex_'s lock, and
  // taken before it), so a watcher's first progress, its later progress and its answer leave in
  // that order even when the interaction ends, or progresses, on another thread meanwhile.
  std::mutex order_;
  mutable std::mutex mutex_;
  Interactions interactions_;
  std::list<std::string> running_;  // running interaction ids, oldest first
  std::deque<std::string> ended_;   // oldest first, at most kEnded
};

/// The dialect's bookkeeping of `session`'s interactions: made when `initialize` chooses the
/// dialect for the session (SessionState::dialect() is user_interaction), kept for the session's
/// life; null in any other session and for every 2026-07-28 request. Any thread.
InteractionBook* interaction_book(const SessionState& session);

/// How the server reads the client's error response to interaction/create (the draft,
/// "Client-Initiated Cancellation", defines only "an error response", e.g. code -1):
///  - code -1 (interaction_declined): `declined`, the user refused consent;
///  - any other code outside the JSON-RPC reserved range -32768..-32000: `cancelled`, the client
///    abandoned the interaction;
///  - a reserved code (e.g. -32601, -32602): `rpc_error`, a protocol failure, not a user's choice.
ElicitStatus interaction_error_status(const RpcError& error);

/// Translates the outcome of an interaction/create to the ElicitResult shape read_elicit_result
/// reads, so the typed path decodes and validates it unchanged: a `prompt` result
/// {"content": {...}} becomes {"action": "accept", "content": {...}} (a result without `content`
/// is accept without content); a `ua` result (any object, normally {}) becomes
/// {"action": "accept"}; a result that is not an object stays as it is (invalid_response); an
/// error becomes {"action": "decline"} or {"action": "cancel"} per interaction_error_status, or
/// stays an error. Failures (timeout, cancel, closed) pass through.
RequestOutcome translate_interaction_outcome(RequestOutcome outcome, bool prompt);

/// The -32003 `interaction_required` error for a URL interaction: data {id, type: "ua", url,
/// message: TextContent} (the message omitted when empty; the draft makes it optional).
RpcError interaction_required_error(const UrlElicitation& e);

/// The error a handler's UrlElicitationRequired becomes in `session`: -32003 in the
/// userInteraction dialect, registering its first elicitation as a running `ua` interaction (the
/// draft's `data` holds one interaction; further ones are not sent), else -32042.
RpcError url_elicitation_required_error(SessionState& session, const UrlElicitationRequired& e);

/// Sends notifications/progress for a running interaction of `session` to each interaction/notify
/// watching it (InteractionBook::progress): e.g. from the page of a `ua` interaction as
/// the user gets through it. `progress` must exceed the last value sent. Returns how many were sent.
/// Any thread.
std::size_t interaction_progress(SessionState& session, std::string_view interaction_id, double progress,
                                 std::optional<double> total = std::nullopt, const std::string& message = "");

/// Serves an interaction/notify request (the draft, "Progress Tracking"). Never answers (Responder::
/// abandon) when progress is off (UserInteractionOptions::progress), the session does not speak the
/// dialect, `params.id` is not a string naming an interaction this session created (another
/// session's ids included), or the interaction has 8 watchers already. For an interaction of this
/// session: -32602 when `params._meta.progressToken` is not a string or an integer; else one
/// notifications/progress now, more from interaction_progress(), and the answer `{}` when the
/// interaction ends (at once if it has). Runs on the dispatch thread; does not block.
void answer_interaction_notify(SessionState& session, const Request& request, const Responder& responder);

// --- client side ---------------------------------------------------------------------------------

/// An interaction as it arrives at a client: the params of interaction/create, or the `data` of a
/// -32003 error.
struct Interaction {
  std::string id;
  std::string type;               ///< "ua" or "prompt" (others are refused by parse_interaction)
  std::string url;                ///< ua
  std::string message;            ///< the TextContent's text ("" when absent)
  nlohmann::ordered_json schema;  ///< prompt: the requested JSON Schema
};

/// Reads interaction/create params {id, type, interaction: {...}}; nullopt, with `why`, when they
/// do not have the draft's shape: id and type strings; ua: url a string, message absent or a
/// TextContent; prompt: message a TextContent, schema an object.
std::optional<Interaction> parse_interaction(const nlohmann::ordered_json& params, std::string* why = nullptr);

/// Reads a -32003 error's `data` {id, type, url, message} (ua) or {id, type, message, schema}
/// (prompt); nullopt when the code or the shape is not the draft's.
std::optional<Interaction> parse_interaction_required(const RpcError& error);

}  // namespace elicit
