// Typed elicitation in a SessionState: form mode with generated types, URL mode, and the
// URLElicitationRequiredError. MCP 2025-11-25, client features, "Elicitation".
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/content/form.hpp"
#include "elicit/content/validation.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/message.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

/// How an elicitation ended. Each is distinct so a caller can tell them apart.
enum class ElicitStatus {
  accepted,          ///< action "accept", content valid (form) / user consented (URL)
  declined,          ///< action "decline": the user said no
  cancelled,         ///< action "cancel": the user dismissed it without choosing
  timed_out,         ///< no answer within ElicitOptions::timeout (notifications/cancelled sent)
  aborted,           ///< this side cancelled it (jsonrpc::Connection::cancel, or its ElicitOptions::cancel_scope,
                     ///< e.g. the client cancelled the tools/call it was made for)
  unsupported,       ///< the client did not declare this mode; nothing was sent. Treat it like a
                     ///< decline unless the caller needs to know the difference.
  invalid_response,  ///< the result is not a valid ElicitResult, or form content fails validation
  rpc_error,         ///< the client answered with a JSON-RPC error (e.g. -32602)
  transport_closed,  ///< the connection ended first
};

std::string_view to_string(ElicitStatus status) noexcept;

struct ElicitOptions {
  /// How long to wait for the user, in milliseconds. Empty: no limit (the default, since a person
  /// is filling in a form).
  std::optional<std::chrono::milliseconds> timeout;
  /// The client request being handled (e.g. the tools/call id), so transports that need it
  /// (Streamable HTTP) send the elicitation on that request's stream.
  std::optional<RequestId> related_request;
  /// `_meta` of the request params, when an object.
  nlohmann::json meta;
  /// When set, cancelling the scope cancels the elicitation (notifications/cancelled goes to the
  /// client, the outcome is `aborted`; MCP 2025-11-25, Base Protocol, "Cancellation"), and an
  /// elicitation started once the scope is cancelled is not sent and ends `aborted` at once
  /// (`transport_closed` if the session has closed). RequestContext::elicit_options() sets its own.
  std::shared_ptr<CancelScope> cancel_scope;
};

/// The untyped reading of an ElicitResult, shared by the typed API and URL mode.
struct RawOutcome {
  ElicitStatus status = ElicitStatus::invalid_response;
  nlohmann::json content = nlohmann::json::object();  ///< accepted form content ({} when absent)
  std::optional<RpcError> error;                      ///< for rpc_error
  std::string problem;                                ///< for invalid_response: what was wrong
  nlohmann::json result;                              ///< the raw result, when one arrived
};

/// Reads a request outcome as an ElicitResult. `action` must be accept, decline or cancel;
/// `content`, when present and not null, must be an object; for decline and cancel it is ignored
/// (it is "typically omitted" and may be null). `_meta` and unknown members are ignored.
RawOutcome read_elicit_result(const RequestOutcome& outcome);

/// A typed form-mode result.
template <class T>
struct Outcome {
  ElicitStatus status = ElicitStatus::invalid_response;
  std::optional<T> value;         ///< set exactly when status is accepted
  ValidationResult errors;        ///< invalid_response from content: every error, by JSON Pointer
  std::optional<RpcError> error;  ///< rpc_error: the client's error
  std::string problem;            ///< invalid_response: a protocol-level problem
  nlohmann::json result;          ///< the raw ElicitResult, when one arrived

  bool accepted() const noexcept { return status == ElicitStatus::accepted; }
  explicit operator bool() const noexcept { return accepted(); }
};

/// Sends a form-mode elicitation/create with `schema` and calls `on_done` once with the response.
/// Returns the request id (for jsonrpc::Connection::cancel), or nullopt when nothing was sent: the client does
/// not support form mode (on_done runs at once with `unsupported`) or options.cancel_scope is
/// cancelled (`aborted`). on_done runs on the session's dispatch or timer thread (event threads:
/// it must not block), or on the calling thread when nothing was sent or the transport is closed.
/// An exception escaping on_done is caught and written to the session's log.
std::optional<RequestId> elicit_form_async(SessionState& session, std::string_view message,
                                           const nlohmann::ordered_json& schema,
                                           std::function<void(RawOutcome)> on_done, const ElicitOptions& options = {});

namespace detail {
/// The typed reading of `r`, whose accepted content is `content` (r.content, or a part of r.result
/// when it was read in place): decoded with decode<T> before r.result is moved.
template <class T>
Outcome<T> decode_outcome(RawOutcome&& r, const nlohmann::json& content) {
  Outcome<T> out;
  out.status = r.status;
  out.error = std::move(r.error);
  out.problem = std::move(r.problem);
  if (r.status == ElicitStatus::accepted) {
    auto decoded = ::elicit::decode<T>(content);
    if (decoded.ok()) {
      out.value = std::move(decoded.value);
    } else {
      out.status = ElicitStatus::invalid_response;
      out.errors = std::move(decoded.errors);
      out.problem = "content does not match the requested schema";
    }
  }
  out.result = std::move(r.result);
  return out;
}
}  // namespace detail

/// The typed reading of an untyped response: accepted content is decoded with decode<T> (types,
/// required, every constraint); content that fails makes it invalid_response with every error.
template <class T>
Outcome<T> typed_outcome(RawOutcome r) {
  return detail::decode_outcome<T>(std::move(r), r.content);
}

/// An accepted Outcome holding `value`.
template <class T>
Outcome<T> accepted_outcome(T value) {
  Outcome<T> out;
  out.status = ElicitStatus::accepted;
  out.value = std::move(value);
  return out;
}

/// Reads a JSON-RPC message, as text, as the response to an elicitation/create: what
/// read_elicit_result gives for it, or invalid_response with the reason when the text is not a
/// JSON-RPC response (malformed JSON, a request, no usable id). Never throws.
RawOutcome read_elicit_response(std::string_view message);

namespace detail {

/// requested_schema<T>() as JSON text, serialised once per type, for a form-mode request: every
/// typed form-mode path takes T's schema from here, so a URL-mode T fails to compile here
/// (require_form_mode), with the call to use instead.
template <class T>
const std::string& serialized_schema() {
  require_form_mode<T>();
  return form_traits<T>::binding().schema_text();
}

/// A form-mode elicitation/create whose requestedSchema is already serialised (`schema_json`):
/// what elicit_form_async sends, without its capability check. `on_outcome` runs once, as for
/// jsonrpc::Connection::send_request; options.cancel_scope applies as documented for ElicitOptions.
std::optional<RequestId> send_form_request(jsonrpc::Connection& session, std::string_view message,
                                           std::string_view schema_json, ResponseHandler on_outcome,
                                           const ElicitOptions& options);

/// Whether a form elicitation of `session` can be sent: the client declared form mode, in the
/// terms of the session's dialect (SessionState::dialect()).
bool form_mode_declared(const SessionState& session);

/// A form-mode question to `session` as its dialect asks it: elicitation/create (send_form_request),
/// or the dialect's own request, whose answer reaches `on_outcome` in ElicitResult shape so that
/// decoding and validation are the same. Checks no capability (form_mode_declared does).
std::optional<RequestId> send_form(SessionState& session, std::string_view message, std::string_view schema_json,
                                   ResponseHandler on_outcome, const ElicitOptions& options);

/// Whether elicitation/create params ask for URL mode (`mode` is "url"); false for params that
/// are not an object or a `mode` that is not a string. Never throws.
bool is_url_mode(const nlohmann::ordered_json& params);

/// Ends the serialised params of a request for the client (elicitation/create, interaction/create),
/// `params` holding "{" and its own members so far: adds the request's `_meta` when options.meta is
/// a non-empty object, and the closing brace. The bytes are those of dumping the params as one
/// ordered_json object with `_meta` last.
void close_params(std::string& params, const ElicitOptions& options);

/// Sends `method` (elicitation/create, interaction/create, or another request for the client, as
/// RequestContext::request_inputs sends) with serialised `params`, tied to
/// options.cancel_scope as documented for ElicitOptions (cancelling sends notifications/cancelled),
/// with options.timeout and options.related_request. `on_done` runs once. Returns the request id,
/// or nullopt when the scope was already cancelled (nothing sent).
std::optional<RequestId> send_scoped_request(jsonrpc::Connection& session, const char* method, std::string params,
                                             ResponseHandler on_done, const ElicitOptions& options);

/// read_elicit_result taking the outcome's result, with accepted content left where it is, in
/// `result` (see content_of), rather than copied to RawOutcome::content.
RawOutcome read_elicit_result_in_place(RequestOutcome&& outcome);

/// What a form elicitation comes to when the client did not declare form mode.
RawOutcome unsupported_form_response();

/// Writes the exception being handled, thrown by an elicitation callback, to the session's log.
/// Call it from a catch block.
void log_callback_exception(jsonrpc::Connection& session);

/// The accepted content of a response read in place: result["content"], or {} when it is absent
/// or null.
const nlohmann::json& content_of(const RawOutcome& r);

/// typed_outcome for a response read in place.
template <class T>
Outcome<T> typed_outcome_in_place(RawOutcome r) {
  const auto& content = content_of(r);
  return decode_outcome<T>(std::move(r), content);
}

}  // namespace detail

namespace detail {
/// elicit_async<T> sending `schema_json` (T's requestedSchema, or one prefilled_schema<T> made).
template <class T>
std::optional<RequestId> elicit_async_with(SessionState& mcp, std::string_view message, const std::string& schema_json,
                                           std::function<void(Outcome<T>)> on_done, const ElicitOptions& options) {
  jsonrpc::Connection& session = mcp.rpc();
  if (!detail::form_mode_declared(mcp)) {
    try {
      on_done(detail::typed_outcome_in_place<T>(detail::unsupported_form_response()));
    } catch (...) {
      detail::log_callback_exception(session);
    }
    return std::nullopt;
  }
  // One callback the whole way (a waiting elicitation holds one small heap object): the outcome is
  // read, decoded into T and handed over in it. The session outlives its callbacks.
  ResponseHandler handler = [&session, on_done = std::move(on_done)](RequestOutcome o) {
    try {
      on_done(detail::typed_outcome_in_place<T>(detail::read_elicit_result_in_place(std::move(o))));
    } catch (...) {
      detail::log_callback_exception(session);
    }
  };
  return detail::send_form(mcp, message, schema_json, std::move(handler), options);
}
}  // namespace detail

/// Typed form mode, asynchronous: decodes accepted content with decode<T> (types, required,
/// every constraint). `on_done` runs once, as for elicit_form_async (must not block; what it throws
/// is logged).
template <class T>
std::optional<RequestId> elicit_async(SessionState& mcp, std::string_view message,
                                      std::function<void(Outcome<T>)> on_done, const ElicitOptions& options = {}) {
  return detail::elicit_async_with<T>(mcp, message, detail::serialized_schema<T>(), std::move(on_done), options);
}

/// Typed form mode, blocking. Call it from a worker thread (e.g. a blocking Server tool handler).
/// Throws std::logic_error on an event thread (a transport, session dispatch or timer thread, e.g.
/// in an async tool handler or an elicit_async callback), which must stay free to deliver the
/// answer: use elicit_async there.
template <class T>
Outcome<T> elicit(SessionState& session, std::string_view message, const ElicitOptions& options = {}) {
  jsonrpc::detail::require_blocking_allowed("elicit<T>()",
                                            "elicit_async<T>() (or ToolCall::elicit_async in an async_handler)");
  auto promise = std::make_shared<std::promise<Outcome<T>>>();
  auto future = promise->get_future();
  elicit_async<T>(
      session, message, [promise](Outcome<T> o) { promise->set_value(std::move(o)); }, options);
  return future.get();
}

/// elicit<T> with the message the schema file gave (default_message<T>()).
template <class T>
Outcome<T> elicit(SessionState& session) {
  return elicit<T>(session, default_message<T>());
}

// --- URL mode ------------------------------------------------------------------------------------

/// ElicitRequestURLParams: what a URL-mode elicitation sends.
struct UrlElicitation {
  std::string elicitation_id;
  std::string url;
  std::string message;
};

/// {"mode": "url", "message", "elicitationId", "url"}.
nlohmann::ordered_json to_params(const UrlElicitation& e);

/// An unguessable elicitationId: 128 bits from the operating system's CSPRNG, as 32 hex digits.
/// Throws std::runtime_error if no secure randomness is available.
std::string new_elicitation_id();

/// Checks a URL for URL mode: an absolute http or https URI (RFC 3986) with a host and without
/// userinfo (credentials in a URL would reach the client). Returns "" when fine, else why not.
std::string check_elicitation_url(std::string_view url);

struct UrlOutcome {
  ElicitStatus status = ElicitStatus::invalid_response;  ///< accepted means the user consented to open it
  std::string elicitation_id;
  std::optional<RpcError> error;
  std::string problem;
  nlohmann::json result;
};

/// Sends a URL-mode elicitation/create with a fresh elicitationId, registered with the session so
/// complete_url_elicitation() can announce its completion later. Throws std::invalid_argument for
/// a URL check_elicitation_url rejects. When the client did not declare `elicitation.url`,
/// nothing is sent and `on_done` runs at once with `unsupported`. Cancellation, threads and
/// exceptions from on_done: as for elicit_form_async.
std::optional<RequestId> elicit_url_async(SessionState& session, std::string_view message, std::string_view url,
                                          std::function<void(UrlOutcome)> on_done, const ElicitOptions& options = {});

/// Blocking form of elicit_url_async. Throws std::logic_error on an event thread (use
/// elicit_url_async there).
UrlOutcome elicit_url(SessionState& session, std::string_view message, std::string_view url,
                      const ElicitOptions& options = {});

/// Creates and registers a URL elicitation without sending it (for URLElicitationRequiredError).
/// Throws std::invalid_argument for a bad URL.
UrlElicitation create_url_elicitation(SessionState& session, std::string_view message, std::string_view url);

/// Sends notifications/elicitation/complete for an elicitation this session created, once
/// (MCP 2025-11-25, "Completion Notifications for URL Mode Elicitation"). Returns false, sending
/// nothing, for an unknown or already completed id.
bool complete_url_elicitation(SessionState& session, std::string_view elicitation_id);

/// URLElicitationRequiredError (-32042): the request cannot proceed until these URL elicitations
/// are done. Throw it from a tool handler; the server answers the tools/call with it.
class UrlElicitationRequired : public std::runtime_error {
 public:
  explicit UrlElicitationRequired(std::vector<UrlElicitation> elicitations,
                                  std::string message = "This request requires more information.");
  const std::vector<UrlElicitation>& elicitations() const noexcept { return elicitations_; }
  RpcError to_error() const;

 private:
  std::vector<UrlElicitation> elicitations_;
};

/// Client side: the URL elicitations of a -32042 error, or nullopt when `error` is not a
/// well-formed URLElicitationRequiredError (wrong code, no data.elicitations array, an entry that
/// is not mode "url" or lacks elicitationId / url / message).
std::optional<std::vector<UrlElicitation>> parse_url_elicitation_required(const RpcError& error);

}  // namespace elicit
