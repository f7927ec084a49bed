// The one seam through which a 2025-11-25 session's elicitations take a wire form other than
// elicitation/create (MCP 2025-11-25, Elicitation). The core of the MCP layer (elicitation.cpp,
// request_context.cpp, serving.cpp, session_state.cpp) asks through this interface and knows no
// dialect: a dialect is chosen once per session, when `initialize` brings the client's
// capabilities (SessionState::set_client_capabilities), and kept for the session's life; a session
// without one (the default, and every 2026-07-28 request) speaks elicitation/create. The one dialect
// there is, the draft userInteraction (<elicit/protocol/user_interaction.hpp>), implements it in
// user_interaction.cpp, which is also where choose_elicitation_dialect() is defined.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/elicitation.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/session_state.hpp"

namespace elicit::detail {

/// A wire form of elicitation for one session. Its methods run on any thread (the session's
/// dispatch thread, workers, timers) and must be thread-safe; the session outlives it.
class ElicitationDialect {
 public:
  virtual ~ElicitationDialect() = default;

  /// Whether the client declared, in this dialect's terms, what a form-mode / URL-mode
  /// elicitation needs.
  virtual bool declares_form(const ClientCapabilities& capabilities) const = 0;
  virtual bool declares_url(const ClientCapabilities& capabilities) const = 0;
  /// Why a URL-mode elicitation ends `unsupported` when declares_url() is false (UrlOutcome::problem).
  virtual std::string url_unsupported_problem() const = 0;
  /// A tool's required client capabilities (`need`, ClientCapabilities JSON) as this dialect's
  /// client would declare them, so that the -32021 error names what that client lacks.
  virtual nlohmann::json client_need(nlohmann::json need) const = 0;

  /// Sends a form-mode question (`schema_json`: the serialised requestedSchema); `on_outcome` runs
  /// once with an ElicitResult-shaped outcome, so the typed path decodes and validates it unchanged.
  /// Returns the request id, or nullopt when nothing was sent (options.cancel_scope already cancelled).
  virtual std::optional<RequestId> send_form(SessionState& session, std::string_view message,
                                             std::string_view schema_json, ResponseHandler on_outcome,
                                             const ElicitOptions& options) = 0;
  /// Sends URL-mode elicitation `e` (already registered with the session), as send_form.
  virtual std::optional<RequestId> send_url(SessionState& session, const UrlElicitation& e, ResponseHandler on_outcome,
                                            const ElicitOptions& options) = 0;
  /// Why untyped elicitation/create params (RequestContext::request_inputs) cannot be sent in this
  /// dialect, or "" when they can.
  virtual std::string params_problem(const nlohmann::ordered_json& params) const = 0;
  /// Sends untyped elicitation/create params that passed params_problem(), as send_form.
  virtual std::optional<RequestId> send_params(SessionState& session, const nlohmann::ordered_json& params,
                                               ResponseHandler on_outcome, const ElicitOptions& options) = 0;
  /// Tells the client that URL-mode elicitation `elicitation_id` (marked complete in the session)
  /// is done, the dialect's way. Whether it was sent.
  virtual bool announce_url_complete(SessionState& session, std::string_view elicitation_id) = 0;
  /// The JSON-RPC error a handler's UrlElicitationRequired becomes in this session.
  virtual RpcError url_required_error(SessionState& session, const UrlElicitationRequired& e) = 0;
  /// Adds what the server declares for this dialect to the `capabilities` of its initialize result.
  virtual void add_server_capabilities(nlohmann::json& capabilities) const = 0;
  /// Serves a request of the dialect's own methods (the server routes them here only when the
  /// dialect is enabled); runs on the dispatch thread and does not block.
  virtual void serve(SessionState& session, const Request& request, const Responder& responder) = 0;
};

/// The dialect a 2025-11-25 session speaks with a server configured with `options`
/// (ServerSessionOptions::user_interaction), for the capabilities its client declared at
/// `initialize`: null for elicitation/create. `rpc` is the session's connection; it outlives the
/// dialect. Defined by the dialect (user_interaction.cpp).
std::unique_ptr<ElicitationDialect> choose_elicitation_dialect(const UserInteractionOptions& options,
                                                               const ClientCapabilities& capabilities,
                                                               jsonrpc::Connection& rpc);

}  // namespace elicit::detail
