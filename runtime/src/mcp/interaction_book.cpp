// InteractionBook: the userInteraction dialect's interactions of one session and the
// interaction/notify requests watching them (user-interaction-draft.md, "Progress Tracking").
#include "elicit/protocol/user_interaction.hpp"

namespace elicit {

namespace {

nlohmann::ordered_json progress_params(const nlohmann::json& token, double progress, std::optional<double> total,
                                       const std::string& message) {
  nlohmann::ordered_json p{{"progressToken", token}, {"progress", progress}};
  if (total) p["total"] = *total;
  if (!message.empty()) p["message"] = message;
  return p;
}

}  // namespace

void InteractionBook::end_locked(Interactions::iterator it, std::vector<Watcher>& answer) {
  it->second.ended = true;
  running_.erase(it->second.running);
  for (auto& w : it->second.watchers) answer.push_back(std::move(w));
  it->second.watchers.clear();
  ended_.push_back(it->first);
  if (ended_.size() > kEnded) {
    interactions_.erase(ended_.front());
    ended_.pop_front();
  }
}

void InteractionBook::add(std::string id) {
  std::lock_guard<std::mutex> order(order_);
  std::vector<Watcher> answer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto [it, inserted] = interactions_.try_emplace(id);
    if (!inserted) return;
    it->second.running = running_.insert(running_.end(), std::move(id));
    // A `ua` interaction the user never completes would stay forever; the oldest gives way.
    while (running_.size() > kRunning) end_locked(interactions_.find(running_.front()), answer);
  }
  for (const auto& w : answer) w.responder.result(nlohmann::json::object());
}

bool InteractionBook::has(std::string_view id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return interactions_.count(std::string(id)) != 0;
}

bool InteractionBook::end(std::string_view id) {
  std::lock_guard<std::mutex> order(order_);
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

InteractionBook::Watch InteractionBook::watch(std::string_view id, const Responder& responder,
                                              const nlohmann::json& progress_token) {
  std::lock_guard<std::mutex> order(order_);
  bool ended = false;
  double first = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = interactions_.find(std::string(id));
    if (it == interactions_.end()) return Watch::unknown;
    ended = it->second.ended;
    if (!ended) {
      if (it->second.watchers.size() >= kWatchers) return Watch::unknown;
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

std::size_t InteractionBook::progress(std::string_view id, double progress, std::optional<double> total,
                                      const std::string& message) {
  std::lock_guard<std::mutex> order(order_);
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

}  // namespace elicit
