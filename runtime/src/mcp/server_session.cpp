#include "elicit/server_session.hpp"

namespace elicit {

ClientCapabilities ClientCapabilities::from_json(const nlohmann::json& capabilities) {
  ClientCapabilities c;
  c.known = true;
  if (!capabilities.is_object()) return c;
  c.raw = capabilities;
  const auto e = capabilities.find("elicitation");
  if (e == capabilities.end() || !e->is_object()) return c;
  if (e->empty()) {
    c.elicitation_form = true;  // `elicitation: {}` is form mode only, for backwards compatibility
  } else {
    c.elicitation_form = e->contains("form");
    c.elicitation_url = e->contains("url");
  }
  return c;
}

void ServerSession::set_client_capabilities(ClientCapabilities capabilities) {
  std::lock_guard<std::mutex> lock(mutex_);
  capabilities_ = std::move(capabilities);
}

ClientCapabilities ServerSession::client_capabilities() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return capabilities_;
}

void ServerSession::add_url_elicitation(std::string elicitation_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  url_elicitations_.emplace(std::move(elicitation_id), false);
}

bool ServerSession::mark_url_elicitation_complete(std::string_view elicitation_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = url_elicitations_.find(std::string(elicitation_id));
  if (it == url_elicitations_.end() || it->second) return false;
  it->second = true;
  return true;
}

void ServerSession::set_log_level(LoggingLevel level) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_level_ = level;
}

std::optional<LoggingLevel> ServerSession::log_level() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_level_;
}

void ServerSession::set_log_rate(std::optional<LogRateLimit> limit) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_rate_.reset();
  if (limit) log_rate_.emplace(*limit);
}

bool ServerSession::admit_log(std::chrono::steady_clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  return !log_rate_ || log_rate_->take(now);
}

std::uint64_t ServerSession::logs_dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_rate_ ? log_rate_->dropped() : 0;
}

}  // namespace elicit
