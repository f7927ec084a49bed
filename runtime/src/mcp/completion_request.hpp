// completion/complete, served by elicit::ServerSession in both eras (server.cpp registers it).
#pragma once

#include <functional>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"

namespace elicit {

class Server;

/// The CompleteResult ({"completion": {"values", "total"?, "hasMore"}}) for completion/complete
/// `params` (MCP 2025-11-25, Server, Utilities, "Completion"), or the error: -32602 for malformed
/// params, an unknown prompt or resource template, or an argument it does not have; -32603 when the
/// Completer throws (its message goes to `log`, not to the client).
std::variant<nlohmann::json, RpcError> answer_completion(const Server& core, const nlohmann::json& params,
                                                         const std::function<void(std::string_view)>& log);

}  // namespace elicit
