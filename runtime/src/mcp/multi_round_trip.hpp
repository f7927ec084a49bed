// The server side of a 2026-07-28 multi round-trip request (MCP 2026-07-28, Basic, Patterns,
// "Multi Round-Trip Requests"), in one place with the replay engine (InputRound) and RequestContext's
// replay: opening a request's round from its requestState and inputResponses, and answering an
// InputRequiredResult. Internal to elicit::runtime.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/connection.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/request_context.hpp"
#include "elicit/request_state.hpp"
#include "elicit/server.hpp"

namespace elicit::detail {

/// The run context of one 2026-07-28 request for `server` (its client's `capabilities` and
/// `log_level`, read from its _meta): its InputRound (from the request's
/// requestState, opened for `binding`, and its inputResponses) and how to answer it with an
/// InputRequiredResult (the round's inputRequests and a requestState sealed for `binding`).
/// `result_members` are added to its complete result (resources/read: caching hints). Returns null
/// after answering the request's -32602 (malformed inputResponses or requestState, or a
/// requestState that does not open: "Invalid or expired requestState"). `log` gets what cannot be
/// sent (a state too large to seal) and must outlive the request.
std::shared_ptr<StatelessCall> open_stateless_call(const std::shared_ptr<Server>& server, const nlohmann::json& params,
                                                   RequestStateBinding binding, ClientCapabilities capabilities,
                                                   std::optional<LoggingLevel> log_level, const Responder& responder,
                                                   jsonrpc::Connection& log, nlohmann::json result_members = nullptr);

/// `ttlMs` and `cacheScope` of a 2026-07-28 list or resources/read result (MCP 2026-07-28, Server,
/// Utilities, "Caching").
void add_cache_hints(nlohmann::json& result, const CacheHints& hints);

}  // namespace elicit::detail
