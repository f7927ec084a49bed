// Logging to the client (MCP 2025-11-25, Server, Utilities, "Logging"; MCP 2026-07-28, the same
// page: the level is set per request with `_meta["io.modelcontextprotocol/logLevel"]`, and
// `logging/setLevel` is gone). The feature is deprecated as of 2026-07-28 (SEP-2577) but still
// served by both revisions; RequestContext::log() sends the messages.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
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

/// How many notifications/message one connection may send (ServerSessionOptions::log_rate): a token bucket, as the spec
/// asks servers to "rate limit log messages" (Logging, "Security Considerations"). Messages over the limit are dropped
/// and counted, not queued.
struct LogRateLimit {
  /// Messages that may go out at once after a quiet period (the bucket's size). 0 sends none.
  std::size_t burst = 100;
  /// Messages per second sustained (the bucket's refill rate); 0: `burst` messages in all.
  double per_second = 50;
};

/// The token bucket of a LogRateLimit. Not synchronised (SessionState locks around it).
class LogRateBucket {
 public:
  explicit LogRateBucket(LogRateLimit limit) noexcept : limit_(limit), tokens_(static_cast<double>(limit.burst)) {}
  /// Takes one token at `now` (times must not go backwards; a time before the last one counts as
  /// the last one): true when the message may go out, else false and counted in dropped().
  bool take(std::chrono::steady_clock::time_point now) noexcept;
  /// Messages refused so far.
  std::uint64_t dropped() const noexcept { return dropped_; }

 private:
  LogRateLimit limit_;
  double tokens_;
  std::optional<std::chrono::steady_clock::time_point> last_;
  std::uint64_t dropped_ = 0;
};

}  // namespace elicit
