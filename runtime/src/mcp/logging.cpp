#include "elicit/logging.hpp"

#include <algorithm>

#include <array>
#include <string>

namespace elicit {

namespace {

constexpr std::array<std::string_view, 8> kNames = {"debug", "info",     "notice", "warning",
                                                    "error", "critical", "alert",  "emergency"};

}  // namespace

std::string_view to_string(LoggingLevel level) noexcept { return kNames[static_cast<std::size_t>(level)]; }

std::optional<LoggingLevel> parse_logging_level(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<LoggingLevel>(i);
  }
  return std::nullopt;
}

std::optional<LoggingLevel> parse_logging_level(const nlohmann::json& name) noexcept {
  if (!name.is_string()) return std::nullopt;
  return parse_logging_level(std::string_view(name.get_ref<const std::string&>()));
}

nlohmann::ordered_json log_message_params(LoggingLevel level, const nlohmann::json& data, std::string_view logger) {
  nlohmann::ordered_json params{{"level", std::string(to_string(level))}};
  if (!logger.empty()) params["logger"] = std::string(logger);
  params["data"] = data;
  return params;
}

bool LogRateBucket::take(std::chrono::steady_clock::time_point now) noexcept {
  if (last_ && now > *last_) {
    const std::chrono::duration<double> elapsed = now - *last_;
    tokens_ = std::min(static_cast<double>(limit_.burst), tokens_ + elapsed.count() * limit_.per_second);
  }
  if (!last_ || now > *last_) last_ = now;
  if (tokens_ >= 1.0) {
    tokens_ -= 1.0;
    return true;
  }
  ++dropped_;
  return false;
}

}  // namespace elicit
