// Logging to the client (MCP 2025-11-25, Server, Utilities, "Logging"; MCP 2026-07-28, the same
// page: the level is set per request with `_meta["io.modelcontextprotocol/logLevel"]`, and
// `logging/setLevel` is gone). The feature is deprecated as of 2026-07-28 (SEP-2577) but still
// served by both revisions; ToolCall::log() sends the messages.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace elicit {

/// The syslog severities of RFC 5424, in increasing order.
enum class LoggingLevel { debug, info, notice, warning, error, critical, alert, emergency };

/// "debug", "info", ... "emergency".
std::string_view to_string(LoggingLevel level) noexcept;
/// The level named `name` (exactly as to_string writes it); nullopt for anything else.
std::optional<LoggingLevel> parse_logging_level(std::string_view name) noexcept;
/// The level a JSON value names; nullopt when it is not a string naming one.
std::optional<LoggingLevel> parse_logging_level(const nlohmann::json& name) noexcept;

/// The params of notifications/message: {"level", "logger" (when not empty), "data"}.
nlohmann::ordered_json log_message_params(LoggingLevel level, const nlohmann::json& data, std::string_view logger);

}  // namespace elicit
