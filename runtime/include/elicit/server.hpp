// The MCP server core needed to host tools that elicit: initialize, ping, tools/list, tools/call
// (MCP 2025-11-25: Lifecycle, Utilities/Ping, Server features/Tools).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/completion.hpp"
#include "elicit/completion_store.hpp"
#include "elicit/content/json_schema.hpp"
#include "elicit/elicitation.hpp"
#include "elicit/input_round.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/transport.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/logging.hpp"
#include "elicit/protocol_era.hpp"
#include "elicit/request_state.hpp"
#include "elicit/session_state.hpp"
#include "elicit/subscriptions.hpp"
#include "elicit/uri_template.hpp"

namespace elicit {

/// Protocol revisions a session opened with `initialize` speaks, newest first (see also
/// stateless_protocol_versions() in protocol_era.hpp).
inline const std::vector<std::string>& supported_protocol_versions() { return session_protocol_versions(); }

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
  /// Any content blocks (elicit/content.hpp: text, image, audio, embedded resource, resource link).
  static ToolResult of(std::vector<nlohmann::json> blocks);
  /// A tool execution error (reported in the result, as MCP asks, not as a JSON-RPC error).
  static ToolResult error(std::string text);
  /// Structured content (MCP 2025-11-25, Tools, "Structured Content"): `value` (a JSON object) as
  /// structuredContent and, for clients that read only content, its JSON text as a text block.
  static ToolResult structured(nlohmann::json value);
  nlohmann::json to_json() const;
};

/// Thrown through a blocking handler serving a 2026-07-28 request (MCP 2026-07-28) to end its run at
/// the first question without an answer; the server then answers the request with an
/// InputRequiredResult. It is not a std::exception, so `catch (const std::exception&)` lets it
/// pass: do not swallow it with `catch (...)` around elicit() (rethrow it).
struct InputRequired {};

/// Throw from a handler when the request needs a client capability the client did not declare;
/// the server answers -32021 MissingRequiredClientCapability with `data.requiredCapabilities`
/// (MCP 2026-07-28, Basic, "Per-request protocol fields"; Streamable HTTP answers it with 400).
/// A 2026-07-28 request's elicitation, sampling or roots request that the client cannot answer throws
/// it by itself; check RequestContext::client_capabilities() first to do without.
class MissingClientCapability : public std::runtime_error {
 public:
  /// `required`: a ClientCapabilities object naming what is missing, e.g. {"sampling": {}}.
  explicit MissingClientCapability(nlohmann::json required);
  const nlohmann::json& required() const noexcept { return required_; }
  RpcError to_error() const { return missing_required_client_capability(required_); }

 private:
  nlohmann::json required_;
};

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

/// What a RequestContext serving a 2026-07-28 request (MCP 2026-07-28) needs: the run's InputRound, the
/// client capabilities of this request, and how to end the run with an InputRequiredResult.
struct StatelessCall {
  std::shared_ptr<InputRound> round;
  ClientCapabilities capabilities;
  /// Answers the request with the InputRequiredResult of `round` (once; later answers are ignored).
  std::function<void()> input_required;
  /// `_meta.io.modelcontextprotocol/serverInfo` of every result.
  nlohmann::json server_info;
  /// Members added to the complete result (resources/read: `ttlMs`, `cacheScope`); null: none.
  nlohmann::json result_members;
  /// `_meta["io.modelcontextprotocol/logLevel"]`: messages below it, or all without it, are not sent.
  std::optional<LoggingLevel> log_level;
};

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
  /// `request_meta`: the request's `params._meta` (its progressToken), null when absent.
  RequestContext(SessionState& session, RequestId request_id, nlohmann::json arguments, Responder responder,
                 std::optional<std::chrono::milliseconds> default_elicitation_timeout = std::nullopt,
                 std::shared_ptr<const StatelessCall> stateless = nullptr,
                 const nlohmann::json& request_meta = nullptr);

  const nlohmann::json& arguments() const noexcept { return arguments_; }
  const RequestId& request_id() const noexcept { return request_id_; }
  /// The MCP session the call came in on (its JSON-RPC jsonrpc::Connection: state().rpc()). For the free
  /// functions of elicitation.hpp, e.g. complete_url_elicitation(call.state(), id).
  SessionState& state() noexcept { return session_; }
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
  /// True once the client cancelled this tools/call (its answer will not be sent).
  bool cancelled() const noexcept { return responder_.cancelled(); }
  /// Runs `f` once when the client cancels this call or the session ends; at once, on the calling
  /// thread, if that has happened already. Otherwise on the session's dispatch thread (an event
  /// thread): keep it short, do not block. Forgotten once the call is answered.
  void on_cancel(std::function<void()> f);

  /// Options for elicitations made on behalf of this call: this call's cancellation scope and
  /// stream, and `timeout` (ms; none = ServerSessionOptions::default_elicitation_timeout, else no limit).
  ElicitOptions elicit_options(std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;

  /// Blocking typed form elicitation (MCP 2025-11-25 / 2026-07-28, Client, "Elicitation"), for
  /// blocking tool handlers, which run on pool workers. 2025-11-25: throws std::logic_error on an event
  /// thread (e.g. in an async_handler): use elicit_async there. 2026-07-28: throws InputRequired when
  /// the question has no answer yet (let it pass).
  template <class T>
  Outcome<T> elicit(std::string_view message, std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (stateless_) return replay_or_throw<T>(next_key(), message);
    return ::elicit::elicit<T>(session_, message, elicit_options(timeout));
  }
  /// Blocking form elicitation with the type's own message (`default_message()`).
  template <class T>
  Outcome<T> elicit(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return elicit<T>(::elicit::default_message<T>(), timeout);
  }
  /// As elicit<T>(message), with the key its question goes under in `inputRequests` (2026-07-28 era;
  /// unique within the call). In the 2025-11-25 era the key is not used.
  template <class T>
  Outcome<T> elicit_keyed(const std::string& key, std::string_view message,
                          std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (stateless_) return replay_or_throw<T>(key, message);
    return ::elicit::elicit<T>(session_, message, elicit_options(timeout));
  }
  /// Asks several questions at once and returns every outcome, in order: 2025-11-25, the
  /// elicitation/create requests go out together and this waits for all (throws std::logic_error
  /// on an event thread); 2026-07-28, the unanswered ones go out in one InputRequiredResult (throws
  /// InputRequired). E.g. `auto [a, b] = call.elicit_all(ask<Contact>(), ask<Address>("Ship to?"));`
  template <class... Ts>
  std::tuple<Outcome<Ts>...> elicit_all(Ask<Ts>... asks) {
    if (stateless_) {
      bool missing = false;
      std::tuple<Outcome<Ts>...> out{replay_step<Ts>(key_of(asks), asks.message, missing)...};  // in order
      if (missing) throw InputRequired{};
      return out;
    }
    jsonrpc::detail::require_blocking_allowed("elicit_all()", "elicit_all_async()");
    auto options = elicit_options();
    std::tuple<std::future<Outcome<Ts>>...> futures{start_future<Ts>(asks.message, options)...};
    return std::apply([](auto&... f) { return std::tuple<Outcome<Ts>...>{f.get()...}; }, futures);
  }
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
  /// cannot be sent so throw std::invalid_argument before anything is sent
  /// (detail::elicitation_params_problem).
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
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (stateless_) {
      bool missing = false;
      auto out = replay_step<T>(next_key(), message, missing);
      if (missing) {
        stateless_->input_required();
      } else {
        guarded(std::move(on_done))(std::move(out));
      }
      return std::nullopt;
    }
    return ::elicit::elicit_async<T>(session_, message, guarded(std::move(on_done)), elicit_options(timeout));
  }
  /// The same with the type's own message (`default_message()`).
  template <class T>
  std::optional<RequestId> elicit_async(std::function<void(Outcome<T>)> on_done,
                                        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return elicit_async<T>(::elicit::default_message<T>(), std::move(on_done), timeout);
  }
  /// Asynchronous elicit_all: `on_done` runs once with every outcome, as for elicit_async.
  template <class... Ts>
  void elicit_all_async(std::function<void(std::tuple<Outcome<Ts>...>)> on_done, Ask<Ts>... asks) {
    if (stateless_) {
      bool missing = false;
      std::tuple<Outcome<Ts>...> out{replay_step<Ts>(key_of(asks), asks.message, missing)...};
      if (missing) {
        stateless_->input_required();
      } else {
        guarded(std::move(on_done))(std::move(out));
      }
      return;
    }
    start_all_async(guarded(std::move(on_done)), std::index_sequence_for<Ts...>{}, std::move(asks)...);
  }
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

 private:
  // Runs `f`; what it throws answers the call (tool error result, or -32042) and is logged;
  // InputRequired (2026-07-28 era) answers the InputRequiredResult.
  static void run_answering_failures(SessionState& session, const Responder& responder, const StatelessCall* stateless,
                                     const std::function<void()>& f);

  template <class R>
  std::function<void(R)> guarded(std::function<void(R)> f) const {
    return [&session = session_, responder = responder_, stateless = stateless_, f = std::move(f)](R r) {
      run_answering_failures(session, responder, stateless.get(), [&] { f(std::move(r)); });
    };
  }
  void forget_cancel_callbacks();

  // --- 2026-07-28 era: replay ---
  std::string next_key(const char* prefix = "elicitation") { return stateless_->round->next_key(prefix); }
  std::optional<UrlOutcome> replay_url(std::string_view message, std::string_view url);
  template <class T>
  std::string key_of(const Ask<T>& a) {
    return a.key.empty() ? next_key() : a.key;
  }
  // The client's answer to the form question, or nullopt (then it is to be asked). An unsupported
  // form mode gives `unsupported` without asking.
  std::optional<RawOutcome> replay_form(const std::string& key, std::string_view message,
                                        const nlohmann::ordered_json& schema);
  // The answer under `key` fails validation: ask the question again, saying why.
  void ask_form_again(const std::string& key, std::string_view message, const nlohmann::ordered_json& schema,
                      const std::string& reason);
  static std::string why_invalid(const std::string& problem, const ValidationResult& errors);

  template <class T>
  Outcome<T> replay_step(const std::string& key, std::string_view message, bool& missing) {
    auto response = replay_form(key, message, ::elicit::requested_schema<T>());
    if (!response) {
      missing = true;
      return Outcome<T>{};
    }
    auto out = typed_outcome<T>(std::move(*response));
    if (out.status == ElicitStatus::invalid_response) {
      ask_form_again(key, message, ::elicit::requested_schema<T>(), why_invalid(out.problem, out.errors));
      missing = true;
    }
    return out;
  }
  template <class T>
  Outcome<T> replay_or_throw(const std::string& key, std::string_view message) {
    bool missing = false;
    auto out = replay_step<T>(key, message, missing);
    if (missing) throw InputRequired{};
    return out;
  }

  // --- 2025-11-25 era: several at once ---
  template <class T>
  std::future<Outcome<T>> start_future(const std::string& message, const ElicitOptions& options) {
    auto promise = std::make_shared<std::promise<Outcome<T>>>();
    auto future = promise->get_future();
    ::elicit::elicit_async<T>(
        session_, message, [promise](Outcome<T> o) { promise->set_value(std::move(o)); }, options);
    return future;
  }
  template <class... Ts, std::size_t... I>
  void start_all_async(std::function<void(std::tuple<Outcome<Ts>...>)> on_done, std::index_sequence<I...>,
                       Ask<Ts>... asks) {
    struct Gather {
      std::mutex mutex;
      std::tuple<Outcome<Ts>...> outcomes;
      std::size_t left = sizeof...(Ts);
      std::function<void(std::tuple<Outcome<Ts>...>)> on_done;
    };
    auto g = std::make_shared<Gather>();
    g->on_done = std::move(on_done);
    const auto options = elicit_options();
    (::elicit::elicit_async<Ts>(
         session_, asks.message,
         [g](Outcome<Ts> o) {
           bool last = false;
           {
             std::lock_guard<std::mutex> lock(g->mutex);
             std::get<I>(g->outcomes) = std::move(o);
             last = --g->left == 0;
           }
           if (last) g->on_done(std::move(g->outcomes));
         },
         options),
     ...);
  }

  SessionState& session_;
  RequestId request_id_;
  nlohmann::json arguments_;
  Responder responder_;
  std::optional<std::chrono::milliseconds> default_timeout_;
  std::shared_ptr<const StatelessCall> stateless_;
  std::shared_ptr<CancelScope> scope_ = std::make_shared<CancelScope>();
  std::mutex mutex_;
  std::vector<CancelScope::Token> on_cancel_tokens_;
  std::map<std::string, std::string> interaction_ids_;  // 2025-11-25: interaction_id() by name
  nlohmann::json progress_token_;                       // null: no progress asked for
  std::optional<double> last_progress_;                 // under mutex_
};

/// A blocking handler runs on a thread of the server's WorkerPool and may block on elicit(). A call
/// the client cancels before a thread is free never runs. Exceptions become a tool error result;
/// UrlElicitationRequired becomes a -32042 error.
using ToolHandler = std::function<ToolResult(RequestContext&)>;
/// An asynchronous handler runs on the transport's thread (an event thread: blocking calls throw
/// std::logic_error, which becomes a tool error result), must not block, and calls
/// RequestContext::reply() later (e.g. from a RequestContext::elicit_async callback). Thousands can be in
/// flight on no thread of their own.
using AsyncToolHandler = std::function<void(std::shared_ptr<RequestContext>)>;

struct Tool {
  std::string name;
  std::string description;
  nlohmann::json input_schema = {{"type", "object"}};
  std::optional<std::string> title = std::nullopt;
  ToolHandler handler = nullptr;             ///< set this...
  AsyncToolHandler async_handler = nullptr;  ///< ...or this
  /// The JSON Schema of its structuredContent, listed as outputSchema (typed_tool.hpp sets it from a
  /// generated type and keeps the promise); none: the tool returns no structured content.
  std::optional<nlohmann::json> output_schema = std::nullopt;
  /// Check the arguments against input_schema before the handler runs (MCP Tools: servers MUST
  /// validate tool inputs): invalid ones are a tool error listing each `pointer: message`, and the
  /// handler does not run (json_schema.hpp). typed_tool turns it off: the generated type checks.
  bool validate_arguments = true;
};

/// An argument of a prompt (MCP, Server, "Prompts").
struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
  /// Answers completion/complete for this argument (completion.hpp); none: no values offered.
  Completer complete = nullptr;
};

/// Asynchronous prompt and resource handlers: run on the transport's thread (must not block); they
/// answer later, from any thread, with RequestContext::reply_json (or reply_error), typically from an
/// elicit_async callback. Exceptions, and in the 2026-07-28 era the end of the run at an unanswered
/// question, are handled as for an AsyncToolHandler.
using AsyncJsonHandler = std::function<void(std::shared_ptr<RequestContext>)>;

/// A prompt. Its handler runs like a blocking tool handler (on a pool worker) and returns a
/// GetPromptResult ({"messages": [...]}, optionally "description"); it may elicit and ask the
/// client through its RequestContext in both eras (2026-07-28: prompts/get may answer input_required; MCP
/// 2026-07-28, MRTR, "Supported Requests"). RequestContext::arguments() are the prompt's arguments.
struct Prompt {
  std::string name;
  std::string description;
  std::vector<PromptArgument> arguments;
  std::optional<std::string> title = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                ///< ...or this
};

/// A resource. Its handler returns a ReadResourceResult ({"contents": [...]}) and may elicit like
/// a prompt's (2026-07-28: resources/read may answer input_required). RequestContext::arguments() is
/// {"uri": ...}.
struct Resource {
  std::string uri;
  std::string name;
  std::string description;
  std::optional<std::string> mime_type = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                ///< ...or this
};

/// A resource template (MCP 2025-11-25, Server, Resources, "Resource Templates"): resources/read of
/// a URI that no Resource has and that `uri_template` matches (uri_template.hpp: `{var}` and
/// `{+var}`; templates are tried in the order added) runs its handler like a Resource's, with
/// RequestContext::arguments() {"uri": ..., "variables": {name: percent-decoded value, ...}}.
struct ResourceTemplate {
  std::string uri_template;
  std::string name;
  std::string description;
  std::optional<std::string> mime_type = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler = nullptr;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                          ///< ...or this
  /// completion/complete for a variable (ref/resource with this uri_template), by variable name.
  std::map<std::string, Completer> completions = {};
  std::optional<std::string> title = std::nullopt;
};

namespace detail {
// Named entries kept in the order added (MCP lists must be in a deterministic order). Each entry
// has a sequence number, increasing with every add, that is its position for pagination: a cursor
// stays valid while entries before or after it come and go. Entries are shared so a call that
// found one keeps it alive after it is removed. Not synchronised: Server locks around it.
template <class T>
class Registry {
 public:
  // Throws std::invalid_argument naming `kind` for a duplicate key.
  std::shared_ptr<const T> add(const std::string& key, T value, const char* kind) {
    if (by_key_.count(key)) throw std::invalid_argument(std::string("duplicate ") + kind + " " + key);
    auto entry = std::make_shared<const T>(std::move(value));
    const auto seq = next_seq_++;
    by_key_.emplace(key, Entry{seq, entry});
    order_.emplace(seq, key);
    return entry;
  }
  // The removed entry, or null when there is none of that key.
  std::shared_ptr<const T> remove(std::string_view key) {
    const auto it = by_key_.find(key);
    if (it == by_key_.end()) return nullptr;
    auto entry = std::move(it->second.value);
    order_.erase(it->second.seq);
    by_key_.erase(it);
    return entry;
  }
  std::shared_ptr<const T> find(std::string_view key) const {
    const auto it = by_key_.find(key);
    return it == by_key_.end() ? nullptr : it->second.value;
  }
  // Calls f(entry) for the entries from sequence number `from` on, at most `limit` of them (0: no
  // limit), in order; returns the sequence number of the first entry left out, if any.
  template <class F>
  std::optional<std::uint64_t> for_page(std::uint64_t from, std::size_t limit, F&& f) const {
    std::size_t n = 0;
    for (auto it = order_.lower_bound(from); it != order_.end(); ++it, ++n) {
      if (limit != 0 && n == limit) return it->first;
      f(*by_key_.find(it->second)->second.value);
    }
    return std::nullopt;
  }
  template <class F>
  void for_each(F&& f) const {
    for_page(0, 0, std::forward<F>(f));
  }
  bool empty() const noexcept { return order_.empty(); }

 private:
  struct Entry {
    std::uint64_t seq;
    std::shared_ptr<const T> value;
  };
  std::map<std::string, Entry, std::less<>> by_key_;
  std::map<std::uint64_t, std::string> order_;  // sequence number -> key
  std::uint64_t next_seq_ = 1;
};
}  // namespace detail

/// Caching hints of the 2026-07-28 era's list results (MCP 2026-07-28, Server, Utilities, "Caching"):
/// `ttlMs` and `cacheScope` on server/discover and tools/list.
struct CacheHints {
  std::chrono::milliseconds ttl{0};  ///< how long a client may treat the result as fresh; 0: stale at once
  bool shared = false;               ///< cacheScope "public" (shared caches may keep it), else "private"
};

/// What a server offers, shared by every connection it serves (each 2025-11-25 session and each 2026-07-28
/// request): its identity, its tools, prompts and resources, and how it seals requestState. One
/// Server can back any number of Server objects and a StreamableHttpServer, so a tool table
/// costs memory once.
///
/// What it offers may change while it is served: every add_* and remove_* announces the change
/// (`notifications/<kind>/list_changed`, MCP 2025-11-25 and 2026-07-28, Tools/Prompts/Resources,
/// "List Changed Notification") to every initialized 2025-11-25 session and to every 2026-07-28
/// `subscriptions/listen` stream that asked for it. A call already running keeps what it found.
/// The capabilities a session sees are those of the moment it initialized (or of its request):
/// add at least one prompt (resource) before serving for `prompts` (`resources`) to be declared.
/// Thread rules: every method is thread-safe.
class Server {
 public:
  /// `request_state`: keys, expiry and size limit of sealed requestState (request_state.hpp).
  /// Throws what RequestStateSealer's constructor throws (a key that is not 32 bytes).
  explicit Server(ServerInfo info, RequestStateOptions request_state = {}, CacheHints list_cache = {});
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Adds a tool. Throws std::invalid_argument for a duplicate name, a tool without a handler, or
  /// (when validate_arguments) an input_schema JsonSchema cannot compile, naming the pointer.
  void add_tool(Tool tool);
  /// Adds a prompt / a resource. Throws std::invalid_argument for a duplicate name (URI) or no handler.
  void add_prompt(Prompt prompt);
  void add_resource(Resource resource);
  /// Adds a resource template. Throws std::invalid_argument for a duplicate uri_template, no
  /// handler, a template UriTemplate cannot parse, or a completion for a variable it does not have.
  void add_resource_template(ResourceTemplate resource_template);
  /// The violations of `arguments` against the input_schema of tool `name` (empty: valid, or the
  /// tool does not validate, or there is no such tool). At most 16.
  std::vector<SchemaViolation> check_arguments(std::string_view name, const nlohmann::json& arguments) const;
  /// Removes the tool (prompt, resource, template) of that name (URI, uri_template); false when
  /// there is none. Calls already running finish with it; later ones get "Unknown tool" etc.
  bool remove_tool(std::string_view name);
  bool remove_prompt(std::string_view name);
  bool remove_resource(std::string_view uri);
  bool remove_resource_template(std::string_view uri_template);

  /// The tool, prompt or resource of that name (URI), or null.
  std::shared_ptr<const Tool> find_tool(std::string_view name) const;
  std::shared_ptr<const Prompt> find_prompt(std::string_view name) const;
  std::shared_ptr<const Resource> find_resource(std::string_view uri) const;
  /// The resource template whose uri_template is exactly `uri_template`, or null.
  std::shared_ptr<const ResourceTemplate> find_resource_template(std::string_view uri_template) const;
  /// The first template (in the order added) that matches `uri`, with its variables, or null.
  std::shared_ptr<const ResourceTemplate> match_resource_template(std::string_view uri,
                                                                  std::map<std::string, std::string>& variables) const;

  /// Entries per page of the four lists (MCP 2025-11-25 and 2026-07-28, Server, Utilities,
  /// "Pagination"); 0 (the default): everything in one page.
  void set_page_size(std::size_t entries) noexcept { page_size_ = entries; }
  std::size_t page_size() const noexcept { return page_size_; }
  /// {"tools": [...]}, {"prompts": [...]}, {"resources": [...]}, {"resourceTemplates": [...]}:
  /// the page starting at `cursor` (empty: the first), in the order added, with "nextCursor" when
  /// more follow. A cursor is opaque to clients and stays valid while entries come and go (it names
  /// a position, not an index). Null for a cursor this server did not make (the caller answers
  /// -32602).
  std::optional<nlohmann::json> list_tools(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_prompts(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_resources(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_resource_templates(std::string_view cursor = {}) const;

  /// Sends notifications/resources/updated for `uri` to every 2025-11-25 session subscribed to it
  /// (resources/subscribe) and every subscriptions/listen stream naming it in
  /// resourceSubscriptions; returns to how many. Any thread, at any time.
  std::size_t notify_resource_updated(std::string_view uri) { return subscriptions_->notify_updated(uri); }
  Subscriptions& subscriptions() const noexcept { return *subscriptions_; }

  const ServerInfo& info() const noexcept { return info_; }
  /// {"name", "version"[, "title"]}: `serverInfo` of initialize, `_meta` of 2026-07-28 results.
  const nlohmann::json& info_json() const noexcept { return info_json_; }
  /// The server's capabilities object, now: initialize's (`2026-07-28` false) or server/discover's
  /// (the same today). `tools` and `logging` always; `prompts`, `resources` and `completions`
  /// when one is registered; listChanged true, resources.subscribe true.
  nlohmann::json capabilities(bool stateless = false) const;
  /// Whether capabilities() has this member now ("tools", "prompts", "resources", "completions",
  /// "logging"), without building it.
  bool offers(std::string_view capability) const;
  const RequestStateSealer& sealer() const noexcept { return sealer_; }
  const CacheHints& list_cache() const noexcept { return list_cache_; }

 private:
  template <class T, class Row>
  std::optional<nlohmann::json> list_page(const detail::Registry<T>& registry, const char* member,
                                          std::string_view cursor, Row&& row) const;

  ServerInfo info_;
  nlohmann::json info_json_;
  RequestStateSealer sealer_;
  CacheHints list_cache_;
  std::atomic<std::size_t> page_size_{0};
  mutable std::shared_mutex mutex_;  // guards the registries, the matchers and completers_
  detail::Registry<Tool> tools_;
  std::map<std::string, JsonSchema, std::less<>> input_schemas_;  // of the tools that validate
  detail::Registry<Prompt> prompts_;
  detail::Registry<Resource> resources_;
  detail::Registry<ResourceTemplate> templates_;
  std::vector<std::pair<UriTemplate, std::shared_ptr<const ResourceTemplate>>> template_matchers_;  // in order
  std::size_t completers_ = 0;  // Completers on prompt arguments and template variables
  std::shared_ptr<Subscriptions> subscriptions_ = std::make_shared<Subscriptions>();
};

struct ServerSessionOptions {
  /// Threads for blocking tool handlers when `workers` is null: at most this many blocking calls
  /// run at once; more wait in FIFO order.
  std::size_t worker_threads = 4;
  /// A pool to share, e.g. one for every session of an HTTP server: then at most workers->size()
  /// blocking handlers run at once across all of them. Null: the server makes its own.
  std::shared_ptr<WorkerPool> workers;
  /// Timeout for elicitations a tool makes without one (ms; 2025-11-25 era). None (the default): no limit.
  std::optional<std::chrono::milliseconds> default_elicitation_timeout;
  /// Sealing of requestState, for a ServerSession that makes its own Server.
  RequestStateOptions request_state;
  /// The authenticated principal of the requests this server serves ("" when the transport knows
  /// none), e.g. the OS user of a stdio process or, per 2026-07-28 HTTP request,
  /// HttpServerOptions::principal. Every requestState is bound to it (RequestStateBinding): a
  /// state sealed for one principal is -32602 "Invalid or expired requestState" for another
  /// (MCP 2026-07-28, Basic, Patterns, "Multi Round-Trip Requests", "requestState" security).
  std::string principal;
  /// The rate limit of RequestContext::log() messages per connection (a stdio connection in either era,
  /// a Streamable HTTP session, or one 2026-07-28 request over Streamable HTTP); more are dropped
  /// (log() returns false). Default: bursts of 100, 50 per second. nullopt: no limit.
  std::optional<LogRateLimit> log_rate = LogRateLimit{};
  /// The opt-in userInteraction dialect (user_interaction.hpp): off by default. When enabled, a
  /// 2025-11-25 session whose client declares `userInteraction` and not `elicitation` gets its
  /// elicitations as interaction/create, and interaction/notify is served.
  UserInteractionOptions user_interaction;
  jsonrpc::ConnectionOptions session;
};

/// An MCP server over one transport (a stdio process, one Streamable HTTP session or one 2026-07-28
/// HTTP request), serving both eras (MCP 2026-07-28, "Versioning and Compatibility"):
///  - `initialize` opens a 2025-11-25 session (2025-11-25, 2025-06-18) for the rest of the connection;
///    a second one is refused with -32600 and changes nothing;
///  - until then, a request whose `_meta` names 2026-07-28 is served statelessly: its client
///    capabilities are read from that request alone; every result carries `resultType` and the
///    server's identity; tools/call may answer an InputRequiredResult; `server/discover` answers;
///    an unknown version gets -32022, a missing clientCapabilities -32602;
///  - a request with neither is served as 2025-11-25 (capabilities unknown).
/// Changes to what the Server offers reach an initialized 2025-11-25 session as
/// `notifications/<kind>/list_changed`, and a 2026-07-28 client through `subscriptions/listen`
/// (MCP 2026-07-28, Basic, Patterns, "Subscriptions": acknowledged first, every notification tagged
/// with the listen request's id; at most 64 streams per connection; ended by the client's
/// cancellation or, gracefully with an empty result, by close()).
class ServerSession {
 public:
  /// The transport must outlive the server. Throws std::system_error if it makes its own WorkerPool
  /// and a thread cannot be created.
  ServerSession(Transport& transport, ServerInfo info, ServerSessionOptions options = {});
  /// A server sharing `core` (its tools and requestState keys) with others.
  ServerSession(Transport& transport, std::shared_ptr<Server> core, ServerSessionOptions options = {});
  ~ServerSession();
  ServerSession(const ServerSession&) = delete;
  ServerSession& operator=(const ServerSession&) = delete;

  /// Adds a tool to this server's Server (shared with any other server on the same core), at
  /// any time and from any thread; the change is announced (see Server). Throws
  /// std::invalid_argument for a duplicate name or a tool without a handler.
  void add_tool(Tool tool);
  /// Adds a prompt / a resource / a resource template to this server's Server, as add_tool().
  void add_prompt(Prompt prompt);
  void add_resource(Resource resource);
  void add_resource_template(ResourceTemplate resource_template);

  /// The MCP state of this session: client capabilities, URL-mode bookkeeping, the log level.
  SessionState& state() noexcept;
  /// The JSON-RPC connection this session runs on (sending, cancelling, closing).
  jsonrpc::Connection& rpc() noexcept { return state().rpc(); }
  /// The Server this session serves (its tools, prompts, resources and requestState keys).
  const std::shared_ptr<Server>& server() const noexcept;
  void start();
  /// Blocks until the transport closes (the client went away or close() was called).
  void wait();
  void run() {
    start();
    wait();
  }
  /// Closes the session: each open subscriptions/listen stream first gets its empty result (a
  /// graceful end); blocking handlers still running see their elicitations end transport_closed. The destructor waits
  /// for this server's running handlers to return.
  void close();

 private:
  void init(Transport& transport, std::shared_ptr<Server> core, ServerSessionOptions options);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elicit
