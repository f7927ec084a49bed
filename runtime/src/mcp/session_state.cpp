#include "elicit/session_state.hpp"

namespace elicit {

ClientCapabilities ClientCapabilities::from_json(const nlohmann::json& capabilities) {
  ClientCapabilities c;
  c.known = true;
  if (!capabilities.is_object()) return c;
  c.raw = capabilities;
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

void SessionState::set_client_capabilities(ClientCapabilities capabilities) {
  std::lock_guard<std::mutex> lock(mutex_);
  capabilities_ = std::move(capabilities);
}

ClientCapabilities SessionState::client_capabilities() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return capabilities_;
}

void SessionState::set_user_interaction(UserInteractionOptions options) {
  std::lock_guard<std::mutex> lock(mutex_);
  user_interaction_ = options;
}

UserInteractionOptions SessionState::user_interaction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return user_interaction_;
}

ElicitDialect SessionState::dialect() const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The rule: a client declaring both gets standard elicitation.
  return user_interaction_.enabled && capabilities_.user_interaction && !capabilities_.elicitation_declared
             ? ElicitDialect::user_interaction
             : ElicitDialect::elicitation;
}

namespace {

constexpr std::size_t kWatchersPerInteraction = 8;

nlohmann::ordered_json progress_params(const nlohmann::json& token, double progress, std::optional<double> total,
                                       const std::string& message) {
  nlohmann::ordered_json p{{"progressToken", token}, {"progress", progress}};
  if (total) p["total"] = *total;
  if (!message.empty()) p["message"] = message;
  return p;
}

}  // namespace

void SessionState::end_locked(Interactions::iterator it, std::vector<Watcher>& answer) {
  it->second.ended = true;
  running_.erase(it->second.running);
  for (auto& w : it->second.watchers) answer.push_back(std::move(w));
  it->second.watchers.clear();
  ended_interactions_.push_back(it->first);
  if (ended_interactions_.size() > kEndedInteractions) {
    interactions_.erase(ended_interactions_.front());
    ended_interactions_.pop_front();
  }
}

void SessionState::add_interaction(std::string id) {
  std::lock_guard<std::mutex> order(interaction_order_);
  std::vector<Watcher> answer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto [it, inserted] = interactions_.try_emplace(id);
    if (!inserted) return;
    it->second.running = running_.insert(running_.end(), std::move(id));
    // A `ua` interaction the user never completes would stay forever; the oldest gives way.
    while (running_.size() > kRunningInteractions) end_locked(interactions_.find(running_.front()), answer);
  }
  for (const auto& w : answer) w.responder.result(nlohmann::json::object());
}

bool SessionState::has_interaction(std::string_view id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return interactions_.count(std::string(id)) != 0;
}

bool SessionState::end_interaction(std::string_view id) {
  std::lock_guard<std::mutex> order(interaction_order_);
  std::vector<Watcher> answer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = interactions_.find(std::string(id));
    if (it == interactions_.end() || it->second.ended) return false;
    end_locked(it, answer);
  }
  // Outside mutex_: answering writes to the transport.
  for (const auto& w : answer) w.responder.result(nlohmann::json::object());
  return true;
}

SessionState::Watch SessionState::watch_interaction(std::string_view id, const Responder& responder,
                                                    const nlohmann::json& progress_token) {
  std::lock_guard<std::mutex> order(interaction_order_);
  bool ended = false;
  double first = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = interactions_.find(std::string(id));
    if (it == interactions_.end()) return Watch::unknown;
    ended = it->second.ended;
    if (!ended) {
      if (it->second.watchers.size() >= kWatchersPerInteraction) return Watch::unknown;
      first = it->second.last;
      it->second.watchers.push_back(Watcher{responder, progress_token, first});
    }
  }
  // Outside mutex_: both write to the transport.
  if (ended) {
    responder.result(nlohmann::json::object());
    return Watch::ended;
  }
  // A first notification, so the client knows the interaction is tracked and still running.
  rpc_.notify("notifications/progress", progress_params(progress_token, first, std::nullopt, "waiting for the user"),
              SendContext{responder.id(), false});
  return Watch::watching;
}

std::size_t SessionState::interaction_progress(std::string_view id, double progress, std::optional<double> total,
                                               const std::string& message) {
  std::lock_guard<std::mutex> order(interaction_order_);
  std::vector<std::pair<RequestId, nlohmann::json>> targets;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = interactions_.find(std::string(id));
    if (it == interactions_.end() || it->second.ended) return 0;
    for (auto& w : it->second.watchers) {
      // The progress rule (MCP 2025-11-25, Utilities, Progress): each value exceeds the last.
      if (progress <= w.last || w.responder.answered() || w.responder.cancelled()) continue;
      w.last = progress;
      targets.emplace_back(w.responder.id(), w.token);
    }
    if (progress > it->second.last) it->second.last = progress;
  }
  std::size_t sent = 0;
  for (const auto& [request, token] : targets) {
    if (rpc_.notify("notifications/progress", progress_params(token, progress, total, message),
                    SendContext{request, false}))
      ++sent;
  }
  return sent;
}

void SessionState::add_url_elicitation(std::string elicitation_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!url_elicitations_.emplace(elicitation_id, false).second) return;
  url_order_.push_back(std::move(elicitation_id));
  if (url_order_.size() > kUrlElicitationsKept) {
    url_elicitations_.erase(url_order_.front());
    url_order_.pop_front();
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
