#include "elicit/resource_subscriptions.hpp"

#include <algorithm>
#include <set>

#include "elicit/session.hpp"

namespace elicit {

class ResourceSubscriptions::Subscriber {
 public:
  explicit Subscriber(Session& rpc) : rpc_(&rpc) {}
  std::set<std::string> uris;  // under the ResourceSubscriptions mutex

  // Sends unless detached; detach waits for a send in progress, so the Session is not used after.
  bool send(const std::string& uri) {
    std::lock_guard<std::mutex> lock(send_mutex_);
    if (!rpc_) return false;
    return rpc_->notify("notifications/resources/updated", {{"uri", uri}});
  }
  void detach() {
    std::lock_guard<std::mutex> lock(send_mutex_);
    rpc_ = nullptr;
  }

 private:
  std::mutex send_mutex_;
  Session* rpc_;
};

std::shared_ptr<ResourceSubscriptions::Subscriber> ResourceSubscriptions::attach(Session& rpc) {
  return std::make_shared<Subscriber>(rpc);
}

bool ResourceSubscriptions::subscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (subscriber->uris.count(uri)) return true;
  if (subscriber->uris.size() >= max_per_session) return false;
  subscriber->uris.insert(uri);
  by_uri_[uri].push_back(subscriber);
  return true;
}

void ResourceSubscriptions::unsubscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!subscriber->uris.erase(uri)) return;
  const auto it = by_uri_.find(uri);
  if (it == by_uri_.end()) return;
  auto& list = it->second;
  list.erase(std::remove(list.begin(), list.end(), subscriber), list.end());
  if (list.empty()) by_uri_.erase(it);
}

void ResourceSubscriptions::detach(const std::shared_ptr<Subscriber>& subscriber) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& uri : subscriber->uris) {
      const auto it = by_uri_.find(uri);
      if (it == by_uri_.end()) continue;
      auto& list = it->second;
      list.erase(std::remove(list.begin(), list.end(), subscriber), list.end());
      if (list.empty()) by_uri_.erase(it);
    }
    subscriber->uris.clear();
  }
  subscriber->detach();  // after a notify_updated that copied it before, nothing more is sent
}

std::size_t ResourceSubscriptions::notify_updated(std::string_view uri) {
  std::vector<std::shared_ptr<Subscriber>> targets;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = by_uri_.find(uri);
    if (it == by_uri_.end()) return 0;
    targets = it->second;
  }
  // Sent outside the registry's lock: a slow transport delays only its own subscribers' sends.
  const std::string key(uri);
  std::size_t sent = 0;
  for (const auto& t : targets) sent += t->send(key) ? 1 : 0;
  return sent;
}

}  // namespace elicit
