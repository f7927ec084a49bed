// RequestContext's notifications about its own request: progress (MCP 2025-11-25 and 2026-07-28, Basic,
// Utilities, "Progress") and log messages (Server, Utilities, "Logging"). Both go out related to
// the request, so Streamable HTTP carries them on the request's own stream.
#include "elicit/server_session.hpp"

namespace elicit {

bool RequestContext::progress(double progress, std::optional<double> total, std::string message) {
  if (progress_token_.is_null() || responder_.answered() || responder_.cancelled()) return false;
  {
    // "The progress value MUST increase with each notification": a value that does not is dropped.
    std::lock_guard<std::mutex> lock(mutex_);
    if (last_progress_ && !(progress > *last_progress_)) return false;
    last_progress_ = progress;
  }
  nlohmann::ordered_json params{{"progressToken", progress_token_}, {"progress", progress}};
  if (total) params["total"] = *total;
  if (!message.empty()) params["message"] = std::move(message);
  SendContext context;
  context.related_request = request_id_;
  return session_.rpc().notify("notifications/progress", std::move(params), context);
}

bool RequestContext::log(LoggingLevel level, nlohmann::json data, std::string_view logger) {
  if (responder_.answered() || responder_.cancelled()) return false;
  // 2026-07-28: nothing unless this request asked for a level (2026-07-28: "MUST NOT emit" otherwise).
  const auto threshold = stateless_ ? stateless_->log_level : session_.log_level();
  if (stateless_ && !threshold) return false;
  if (threshold && level < *threshold) return false;
  if (!session_.admit_log()) return false;  // over ServerSessionOptions::log_rate: dropped
  SendContext context;
  context.related_request = request_id_;
  return session_.rpc().notify("notifications/message", log_message_params(level, data, logger), context);
}

}  // namespace elicit
