// The context a request handler gets: one tools/call, prompts/get or resources/read being served,
// in either revision (2025-11-25 sessions, 2026-07-28 multi round-trip requests), with typed
// elicitation, requests for the client, progress, logging and cancellation.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include "elicit/access_token.hpp"
#include "elicit/completion_store.hpp"
#include "elicit/content/prefill.hpp"
#include "elicit/detail/stateless_call.hpp"
#include "elicit/elicitation.hpp"
#include "elicit/features.hpp"
#include "elicit/handler_exceptions.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/logging.hpp"
#include "elicit/protocol/input_round.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/server_completed_url.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

class BrowserForms;  // browser_forms.hpp
namespace detail {
struct Asking;
}

/// A request for the client other than a form, for RequestContext::request_inputs: `method` is
/// "sampling/createMessage", "roots/list" or "elicitation/create" (untyped); `key` is its key in
/// `inputRequests` (MCP 2026-07-28), empty for one by call-site order.
struct InputRequest {
  std::string method;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  std::string key;
};

/// A question for RequestContext::elicit_all: the generated type to ask for, the message, and the key it
/// goes under in `inputRequests` (MCP 2026-07-28); empty: one by call-site order.
template <class T>
struct Ask {
  std::string message;
  std::string key;
};
/// Ask<T> with T's own message (`default_message()`) unless one is given.
template <class T>
Ask<T> ask(std::string message = std::string(::elicit::default_message<T>()), std::string key = "") {
  return Ask<T>{std::move(message), std::move(key)};
}

/// One tools/call being handled, in either MCP era; one handler serves both.
///
/// 2025-11-25 (a session opened with `initialize`, MCP 2025-11-25): each elicit sends
/// elicitation/create on the call's stream and waits. When the client cancels the call
/// (notifications/cancelled; Base Protocol, "Cancellation") or the session ends, every elicitation
/// still open for it is cancelled: notifications/cancelled goes to the client and the elicitation
/// ends `aborted` (`transport_closed` when the transport closed), which frees a blocked handler at
/// once. An elicitation started after that is not sent and ends `aborted` at once.
///
/// 2026-07-28 (a request whose `_meta` names 2026-07-28; Basic, Patterns, "Multi Round-Trip
/// Requests"): nothing waits. The handler runs from the top on each retry of the request. An
/// elicit whose question the client has answered (matched by key: an explicit one, else the
/// call-site order) returns that answer, decoded and validated into T; at the first question
/// without an answer the run ends (blocking handlers: the InputRequired exception unwinds them;
/// async handlers: the callback is not called) and the server answers an InputRequiredResult with
/// every question gathered so far and a sealed requestState carrying the answers used. An answer
/// that fails T's validation is asked again with the reason in the message; decline and cancel are
/// returned as outcomes. So work done before the last question must be idempotent, and the
/// questions a handler asks must depend only on its arguments and earlier answers.
/// Timeouts are in ms and apply to the 2025-11-25 era only.
class RequestContext {
 public:
  /// `default_elicitation_timeout` applies to elicitations made without a timeout (none: no limit).
  /// `2026-07-28`: set when serving a 2026-07-28 request (then `session` is the request's transport
  /// session, and nothing is sent to the client before the answer).
  /// `progress_token`: the request's `params._meta.progressToken` (Basic, Utilities, Progress): a
  /// string or an integer asks for progress notifications; null (or any other value) does not.
  /// `caller`: who sent the request (principal, access token). `browser_forms`: where
  /// the browser forms wing opens its pages (Server::browser_forms()), null: nowhere.
  RequestContext(SessionState& session, RequestId request_id, nlohmann::json arguments, Responder responder,
                 std::optional<std::chrono::milliseconds> default_elicitation_timeout = std::nullopt,
                 std::shared_ptr<const StatelessCall> stateless = nullptr,
                 const nlohmann::json& progress_token = nullptr, Caller caller = {},
                 std::shared_ptr<BrowserForms> browser_forms = nullptr);
  /// 2026-07-28: a run that ends the request (not with an InputRequiredResult) closes the
  /// server-completed URLs it read (their answers are read again by every run until then).
  ~RequestContext();
  RequestContext(const RequestContext&) = delete;
  RequestContext& operator=(const RequestContext&) = delete;

  const nlohmann::json& arguments() const noexcept { return arguments_; }
  const RequestId& request_id() const noexcept { return request_id_; }
  /// The MCP session the call came in on (its JSON-RPC jsonrpc::Connection: state().rpc()). For the free
  /// functions of elicitation.hpp, e.g. complete_url_elicitation(call.state(), id).
  SessionState& state() noexcept { return session_; }
  /// Who the request is from: with MCP authorization the JSON text `["<iss>","<sub>"]` of its
  /// token, else ServerSessionOptions::principal (or HttpServerOptions::principal's answer); ""
  /// when nobody is known. Its requestStates are bound to it.
  const std::string& principal() const noexcept { return caller_.principal; }
  /// The verified access token the request carried (MCP Basic / Authorization): issuer, subject,
  /// scopes and claims, for decisions a handler makes beyond HttpServerOptions' scope checks. Null
  /// when the server checks no tokens. In a 2025-11-25 session, the token of the latest request on
  /// it when this one was dispatched (the same principal's: a session keeps its principal).
  const std::shared_ptr<const AccessToken>& access_token() const noexcept { return caller_.access_token; }
  /// True when serving a 2026-07-28 request: elicitations replay, nothing waits.
  bool stateless() const noexcept { return stateless_ != nullptr; }
  /// The client capabilities that apply to this call (2026-07-28: from this request's `_meta`).
  ClientCapabilities client_capabilities() const;

  /// The request's `_meta.progressToken` (a string or an integer), null when the client asked for
  /// no progress (MCP 2025-11-25 and 2026-07-28, Basic, Utilities, "Progress").
  const nlohmann::json& progress_token() const noexcept { return progress_token_; }
  /// Sends notifications/progress {progressToken, progress, total (when set), message (when not
  /// empty)} for this call, on its stream. `progress` must increase from one call to the next (the
  /// spec's rule); `total` may be unknown. Returns false, sending nothing, without a progress
  /// token, for a value that does not increase, once the call is answered or cancelled, or when
  /// the transport cannot carry it (a 2026-07-28 request over Streamable HTTP is answered as plain
  /// JSON: notifications are dropped). Any thread.
  bool progress(double progress, std::optional<double> total = std::nullopt, std::string message = "");
  /// Sends notifications/message {level, logger (when not empty), data} for this call, on its
  /// stream (MCP, Server, Utilities, "Logging"). 2025-11-25: sent at or above the level the client
  /// set with logging/setLevel (every level until it does). 2026-07-28: only when the request's
  /// `_meta["io.modelcontextprotocol/logLevel"]` is set, at or above it. Returns false when not
  /// sent: filtered out, the call already answered or cancelled, or the transport cannot carry it
  /// (as progress()), or over ServerSessionOptions::log_rate. Do not log secrets: the client may show or
  /// keep them. Any thread.
  bool log(LoggingLevel level, nlohmann::json data, std::string_view logger = {});
  /// The id of the task this call runs in (tasks.hpp), "" when it runs in none.
  const std::string& task_id() const noexcept;
  /// Continues this tools/call as a task (the io.modelcontextprotocol/tasks extension) from here on,
  /// for a tool whose Tool::task_support allows it with Tool::task_at_start false: when the request
  /// can get a task and is not in one, ends the run (the TaskStarted exception unwinds the handler,
  /// blocking or asynchronous) and the server answers a CreateTaskResult; the task
  /// runs the handler again from the top with the answers gathered so far, and there start_task()
  /// returns at once. Returns at once as well when the request cannot get a task (a 2025-11-25
  /// session, a client that does not declare the extension, a tool that runs no tasks): the call
  /// goes on directly. So the work before it must be idempotent, as before any question.
  void start_task();
  /// True once the client cancelled this tools/call (its answer will not be sent), or, in a task,
  /// once tasks/cancel arrived.
  bool cancelled() const noexcept { return responder_.cancelled(); }
  /// Runs `f` once when the client cancels this call or the session ends; at once, on the calling
  /// thread, if that has happened already. Otherwise on the session's dispatch thread (an event
  /// thread): keep it short, do not block. Forgotten once the call is answered.
  void on_cancel(std::function<void()> f);

  /// Options for elicitations made on behalf of this call: this call's cancellation scope and
  /// stream, and `timeout` (ms; none = ServerSessionOptions::default_elicitation_timeout, else no limit).
  ElicitOptions elicit_options(std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;

  /// Blocking typed form elicitation (MCP 2025-11-25 / 2026-07-28, Client, "Elicitation"), for
  /// blocking tool handlers, which run on pool workers. Throws std::logic_error on an event thread
  /// (e.g. in an async_handler: use elicit_async there), in both revisions. 2026-07-28: throws
  /// InputRequired when the question has no answer yet (let it pass). An answer that fails T's
  /// validation is asked again with the reason added to the message, in both revisions (2025-11-25:
  /// at most kMaxAsks asks in all, then the last invalid_response is returned).
  template <class T>
  Outcome<T> elicit(std::string_view message, std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  /// elicit<T>(message) asking with `prefill`'s values as the form's defaults (prefilled_schema<T>:
  /// e.g. a start time of now, attendees from the tool's arguments), in both revisions. Throws
  /// std::invalid_argument when `prefill` breaks T's rules. 2026-07-28: the question includes its
  /// defaults, so a prefill that changes between rounds (the clock) makes a new question, asked
  /// again: compute it from the arguments and earlier answers, or round it.
  template <class T>
  Outcome<T> elicit(std::string_view message, const T& prefill,
                    std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  /// How many times a 2025-11-25 form is asked in all when the answers fail validation (the first
  /// ask and the asks again). As many as elicit::Client's default input-required rounds.
  static constexpr int kMaxAsks = 16;
  /// Blocking form elicitation with the type's own message (`default_message()`).
  template <class T>
  Outcome<T> elicit(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return elicit<T>(::elicit::default_message<T>(), timeout);
  }
  /// As elicit<T>(message), with the key its question goes under in `inputRequests` (2026-07-28 era;
  /// unique within the call). In the 2025-11-25 era the key is not used.
  template <class T>
  Outcome<T> elicit_keyed(const std::string& key, std::string_view message,
                          std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  /// Asks several questions at once and returns every outcome, in order: 2025-11-25, the
  /// elicitation/create requests go out together and this waits for all (throws std::logic_error
  /// on an event thread); 2026-07-28, the unanswered ones go out in one InputRequiredResult (throws
  /// InputRequired). E.g. `auto [a, b] = call.elicit_all(ask<Contact>(), ask<Address>("Ship to?"));`
  template <class... Ts>
  std::tuple<Outcome<Ts>...> elicit_all(Ask<Ts>... asks);
  /// Blocking URL-mode elicitation; throws std::logic_error on an event thread, and
  /// std::invalid_argument for a URL check_elicitation_url rejects. 2026-07-28: `accepted` means the
  /// user consented to open the URL (there is no elicitationId and no completion notification in
  /// 2026-07-28; UrlOutcome::elicitation_id is empty); throws InputRequired until answered, and
  /// MissingClientCapability when the client did not declare `elicitation.url`.
  UrlOutcome elicit_url(std::string_view message, std::string_view url,
                        std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  /// An identifier for an out-of-band interaction of this call named `name` (32 hex digits), to put
  /// in a URL so that the application's page can mark the interaction complete in a
  /// CompletionStore: the same on every round of a 2026-07-28 request (derived from a random seed in
  /// the requestState, so the URL, and so the question, stay the same), fresh from the CSPRNG in a
  /// 2025-11-25 call (the same for the same name within the call).
  std::string interaction_id(const std::string& name = "url");

  /// URL mode whose interaction finishes out of band (a sign-in, a payment): the application's page
  /// calls `store.complete(id, ttl)` when it is done, `id` from interaction_id(). 2026-07-28 (MCP
  /// 2026-07-28: no elicitationId, no completion notification): on the client's retry with
  /// `accept`, the store is asked; `complete` returns `accepted`; `pending` asks the question again
  /// (the message says it is not finished) and throws InputRequired; a store that cannot be reached
  /// throws std::runtime_error (a tool error result). 2025-11-25: as elicit_url() (`accepted` is consent;
  /// announce completion with complete_url_elicitation()). Blocking: call it from a blocking
  /// handler (the lookup may wait on the store's thread).
  UrlOutcome elicit_url_completed(std::string_view message, std::string_view url, const std::string& id,
                                  CompletionStore& store,
                                  std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  /// URL-mode elicitation that the server completes itself (server_completed_url.hpp): opens
  /// `url.open(id)` and sends a URL-mode elicitation of its URL with `message`; the answer comes
  /// from `url.await`, not from the client. The browser forms wing asks through this
  /// (forms::elicit_in_browser, elicit/forms/elicit_in_browser.hpp).
  ///
  /// 2025-11-25: the elicitation has an elicitationId; the client's `accept` is the user's consent,
  /// then this waits up to url.expires_in for the answer; when it comes,
  /// notifications/elicitation/complete goes to the client. Cancelling the call closes it
  /// (`aborted`). 2026-07-28: the first run throws InputRequired; the client's retry with `accept`
  /// waits up to url.retry_wait for the answer, then asks again (InputRequired, the same URL, the
  /// message saying it is not finished); the answer is read again by later runs of the request,
  /// and closed when the request ends without asking again.
  ///
  /// Outcomes: `url.await`'s (accepted with content, declined, cancelled); declined / cancelled by
  /// the client (the user refused to open it; closed at once); timed_out when url.expires_in or the
  /// consent's timeout passes; aborted when the call is cancelled; unsupported (2025-11-25) when the
  /// client did not declare `elicitation.url`, nothing opened. Throws std::logic_error on an event
  /// thread (use the _async form), MissingClientCapability (2026-07-28) without `elicitation.url`,
  /// and what `url.open` throws.
  RawOutcome elicit_server_completed_url(std::string_view message, ServerCompletedUrl url);
  /// Asynchronous elicit_server_completed_url for async_handler tools: `on_done` runs once, on a
  /// thread of the session or of `url.await` (must not block), as for elicit_async; no thread waits.
  /// 2026-07-28: `on_done` runs when the answer is there; else the call is answered with an
  /// InputRequiredResult and `on_done` never runs.
  void elicit_server_completed_url_async(std::string_view message, ServerCompletedUrl url,
                                         std::function<void(RawOutcome)> on_done);
  /// Where the browser forms wing opens this call's pages (Server::browser_forms(),
  /// browser_forms.hpp); null when the server has none.
  const std::shared_ptr<BrowserForms>& browser_forms() const noexcept { return browser_forms_; }

  /// Blocking requests for the client other than forms (sampling/createMessage, roots/list, or an
  /// untyped elicitation/create), all at once; returns one outcome per request, in order. 2025-11-25:
  /// sends them together and waits for all (throws std::logic_error on an event thread); when the
  /// call is cancelled, each unanswered one is cancelled too (notifications/cancelled to the
  /// client; its outcome is RequestFailure::cancelled).
  /// 2026-07-28: answers under their keys, or throws InputRequired with every unanswered one in one
  /// round. Throws MissingClientCapability (both eras) when the client did not declare `sampling`,
  /// `roots` or `elicitation` for a request that needs it. A URL-mode elicitationId is registered
  /// with the session, so complete_url_elicitation() works for it. In the userInteraction dialect
  /// (user_interaction.hpp) an elicitation/create goes as interaction/create (form mode as
  /// "prompt", URL mode as "ua") and its outcome comes back in ElicitResult shape; params that
  /// cannot be sent so (not a message string, or no requestedSchema object in form mode, or no url
  /// and elicitationId strings in URL mode) throw std::invalid_argument before anything is sent.
  /// Throws std::invalid_argument, in both revisions and before anything is sent, for
  /// elicitation/create params with `"mode": "url"` and a `requestedSchema` (a browser form: use
  /// forms::elicit_in_browser).
  std::vector<RequestOutcome> request_inputs(std::vector<InputRequest> requests);
  /// One request_inputs() request.
  RequestOutcome request_input(InputRequest request) { return request_inputs({std::move(request)}).front(); }
  /// Throws MissingClientCapability unless the client declared every member of `required` (a
  /// ClientCapabilities object such as {"sampling": {}} or {"elicitation": {"url": {}}}). In the
  /// userInteraction dialect, elicitation form and URL mode are the "prompt" and "ua" types, and
  /// the exception names those ({"userInteraction": {"types": ["ua"]}}).
  void require_client_capabilities(const nlohmann::json& required) const;

  /// Asynchronous typed form elicitation for async_handler tools. `on_done` runs once, on an event
  /// thread (must not block), usually ending with reply(). If it throws, the call is answered with
  /// ToolResult::error(what()) (UrlElicitationRequired: its -32042 error) and a line is logged.
  /// 2026-07-28: `on_done` runs at once, on the calling thread, when the question is answered; else the
  /// call is answered with an InputRequiredResult now and `on_done` never runs.
  /// Returns the elicitation/create id, or nullopt when nothing was sent.
  template <class T>
  std::optional<RequestId> elicit_async(std::string_view message, std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  /// elicit_async<T>(message, on_done) asking with `prefill`'s values as the form's defaults, as
  /// elicit<T>(message, prefill). Throws std::invalid_argument when `prefill` breaks T's rules.
  template <class T>
  std::optional<RequestId> elicit_async(std::string_view message, const T& prefill,
                                        std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  /// The same with the type's own message (`default_message()`).
  template <class T>
  std::optional<RequestId> elicit_async(std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return elicit_async<T>(::elicit::default_message<T>(), std::move(on_done), timeout);
  }
  /// Asynchronous elicit_all: `on_done` runs once with every outcome, as for elicit_async.
  template <class... Ts>
  void elicit_all_async(std::function<void(std::tuple<Outcome<Ts>...>)> on_done, Ask<Ts>... asks);
  /// Asynchronous URL-mode elicitation for async_handler tools; `on_done` as for elicit_async.
  std::optional<RequestId> elicit_url_async(std::string_view message, std::string_view url,
                                            std::function<void(UrlOutcome)> on_done,
                                            std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  /// Sends the result (asynchronous handlers call this once; blocking handlers just return).
  /// 2026-07-28: the result gets `resultType` "complete" and the server's identity in `_meta`.
  void reply(const ToolResult& result);
  /// Answers with a JSON-RPC error instead (e.g. UrlElicitationRequired::to_error()).
  void reply_error(RpcError error);
  /// Sends a result that is not a CallToolResult (a prompts/get or resources/read handler's);
  /// 2026-07-28: stamped like reply()'s.
  void reply_json(nlohmann::json result);
  /// Streamable HTTP: closes the connection of this call's SSE stream now, without ending the
  /// stream; what the call sends later (elicitations, its result) waits for the client to resume
  /// with GET and Last-Event-ID (MCP 2025-11-25, Streamable HTTP, SSE polling). Lets a long call
  /// hold no connection. Nothing on stdio. Any thread.
  void close_sse_stream() { session_.rpc().disconnect_stream(request_id_); }

  /// Runs `f` (a handler of this call) and answers the call with what it throws: InputRequired
  /// (2026-07-28) the InputRequiredResult; MissingClientCapability its -32021; UrlElicitationRequired
  /// its -32042 (-32003 in the userInteraction dialect); anything else a tool error result with its
  /// what(). The server runs every handler through it; the same mapping answers for the callbacks
  /// of elicit_async and its kin. Any thread.
  void run_answering_failures(const std::function<void()>& f);

 private:
  friend struct detail::Asking;  // the typed asking machinery (detail/request_context_templates.hpp)

  // Runs `f`; what it throws answers the call (tool error result, or -32042) and is logged;
  // InputRequired (2026-07-28 era) answers the InputRequiredResult.
  static void run_answering_failures(SessionState& session, const Responder& responder, const StatelessCall* stateless,
                                     const std::function<void()>& f);

  template <class R>
  std::function<void(R)> guarded(std::function<void(R)> f) const;
  void forget_cancel_callbacks();

  // --- URL mode the server completes (server_completed_url.cpp) ---
  // Opens and asks; `done` gets the outcome (2026-07-28: at once from a blocking caller's thread, or
  // with `blocking` false from url.await's). Returns false when a 2026-07-28 run must
  // end with an InputRequiredResult (then `done` does not run).
  bool server_completed_url(std::string_view message, ServerCompletedUrl url, bool blocking,
                            std::function<void(RawOutcome)> done);
  // A URL-mode question asked again because its interaction is not finished yet (2026-07-28).
  static std::string not_finished_message(std::string_view message);

  // --- 2026-07-28 era: replay ---
  std::string next_key(const char* prefix = "elicitation") { return stateless_->round->next_key(prefix); }
  std::optional<UrlOutcome> replay_url(std::string_view message, std::string_view url);
  // The client's answer to the form question (`message`; the requestedSchema `schema`, or when
  // null T's own, whose text is `schema_json`), or nullopt (then it is to be asked). An unsupported
  // form mode gives `unsupported` without asking. Read in place (detail::typed_outcome_in_place).
  std::optional<RawOutcome> replay_form(const std::string& key, std::string_view message,
                                        const nlohmann::ordered_json* schema, std::string_view schema_json);
  // The answer under `key` fails validation: ask the question again, saying why.
  void ask_form_again(const std::string& key, std::string_view message, const nlohmann::ordered_json* schema,
                      std::string_view schema_json, const std::string& reason);
  static std::string why_invalid(const std::string& problem, const ValidationResult& errors);

  // The message asking again: `message` and why the previous answer was not accepted.
  static std::string again_message(const std::string& message, const std::string& reason);

  SessionState& session_;
  RequestId request_id_;
  nlohmann::json arguments_;
  Responder responder_;
  std::optional<std::chrono::milliseconds> default_timeout_;
  std::shared_ptr<const StatelessCall> stateless_;
  Caller caller_;
  std::shared_ptr<CancelScope> scope_ = std::make_shared<CancelScope>();
  std::mutex mutex_;
  std::vector<CancelScope::Token> on_cancel_tokens_;
  std::map<std::string, std::string> interaction_ids_;  // 2025-11-25: interaction_id() by name
  std::shared_ptr<BrowserForms> browser_forms_;
  // 2026-07-28: closes what this run read the answers of (server-completed URLs) when the request
  // ends; made on the first (server_completed_url.cpp). Shared: an asynchronous handler's callback
  // may read one while the context goes.
  struct Closers;
  std::shared_ptr<Closers> closers_;     // under mutex_
  nlohmann::json progress_token_;        // null: no progress asked for
  std::optional<double> last_progress_;  // under mutex_
};

}  // namespace elicit

// The member templates' definitions: the replay and ask-until-valid machinery, apart from the API.
#include "elicit/detail/request_context_templates.hpp"  // IWYU pragma: export
