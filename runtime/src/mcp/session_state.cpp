#include "elicit/session_state.hpp"

#include "elicitation_dialect.hpp"

namespace elicit {

namespace {

// Everything but `raw`.
ClientCapabilities read_declared(const nlohmann::json& capabilities) {
  ClientCapabilities c;
  c.known = true;
  if (!capabilities.is_object()) return c;
  // The draft's userInteraction (user-interaction-draft.md, "Capabilities"): a types array of
  // strings listing at least one type; unknown types are kept in `raw` and otherwise ignored.
  if (const auto ui = capabilities.find("userInteraction"); ui != capabilities.end() && ui->is_object()) {
    if (const auto types = ui->find("types"); types != ui->end() && types->is_array()) {
      bool strings = true;
      for (const auto& t : *types) {
        if (!t.is_string()) {
          strings = false;
        } else if (t == "ua") {
          c.interaction_ua = true;
        } else if (t == "prompt") {
          c.interaction_prompt = true;
        }
      }
      c.user_interaction = strings && !types->empty();
      if (!strings) c.interaction_ua = c.interaction_prompt = false;
    }
    const auto progress = ui->find("progress");
    c.interaction_progress = c.user_interaction && progress != ui->end() && *progress == true;
  }
  const auto e = capabilities.find("elicitation");
  if (e == capabilities.end() || !e->is_object()) return c;
  c.elicitation_declared = true;
  if (e->empty()) {
    c.elicitation_form = true;  // `elicitation: {}` is form mode only, for backwards compatibility
  } else {
    c.elicitation_form = e->contains("form");
    c.elicitation_url = e->contains("url");
  }
  return c;
}

}  // namespace

ClientCapabilities ClientCapabilities::from_json(const nlohmann::json& capabilities) {
  auto c = read_declared(capabilities);
  if (capabilities.is_object()) c.raw = capabilities;
  return c;
}

ClientCapabilities ClientCapabilities::from_json(nlohmann::json&& capabilities) {
  auto c = read_declared(capabilities);
  if (capabilities.is_object()) c.raw = std::move(capabilities);
  return c;
}

void SessionState::set_client_capabilities(ClientCapabilities capabilities) {
  std::lock_guard<std::mutex> lock(mutex_);
  capabilities_ = std::move(capabilities);
  choose_dialect_locked();
}

ClientCapabilities SessionState::client_capabilities() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return capabilities_;
}

void SessionState::set_user_interaction(UserInteractionOptions options) {
  std::lock_guard<std::mutex> lock(mutex_);
  user_interaction_ = options;
  choose_dialect_locked();
}

UserInteractionOptions SessionState::user_interaction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return user_interaction_;
}

ElicitDialect SessionState::dialect() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dialect_ ? ElicitDialect::user_interaction : ElicitDialect::elicitation;
}

SessionState::SessionState(jsonrpc::Connection& rpc) noexcept : rpc_(rpc) {}
SessionState::~SessionState() = default;

void SessionState::choose_dialect_locked() {
  // Chosen once (capabilities arrive with initialize) and kept: the interactions it tracks live
  // as long as the session.
  if (!dialect_ && capabilities_.known)
    dialect_ = detail::choose_elicitation_dialect(user_interaction_, capabilities_, rpc_);
}

detail::ElicitationDialect* SessionState::elicitation_dialect() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dialect_.get();
}

void SessionState::add_url_elicitation(std::string elicitation_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!url_elicitations_.emplace(elicitation_id, false).second) return;
  if (!url_order_) url_order_.emplace();
  url_order_->push_back(std::move(elicitation_id));
  if (url_order_->size() > kUrlElicitationsKept) {
    url_elicitations_.erase(url_order_->front());
    url_order_->pop_front();
  }
}

bool SessionState::mark_url_elicitation_complete(std::string_view elicitation_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = url_elicitations_.find(std::string(elicitation_id));
  if (it == url_elicitations_.end() || it->second) return false;
  it->second = true;
  return true;
}

void SessionState::set_log_level(LoggingLevel level) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_level_ = level;
}

std::optional<LoggingLevel> SessionState::log_level() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_level_;
}

void SessionState::set_log_rate(std::optional<LogRateLimit> limit) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_rate_.reset();
  if (limit) log_rate_.emplace(*limit);
}

bool SessionState::admit_log(std::chrono::steady_clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  return !log_rate_ || log_rate_->take(now);
}

std::uint64_t SessionState::logs_dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_rate_ ? log_rate_->dropped() : 0;
}

}  // namespace elicit
