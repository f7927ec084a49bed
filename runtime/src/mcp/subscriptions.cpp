// Subscriptions: resource-update and list-changed listeners of a Server (subscriptions.hpp).
#include "elicit/protocol/subscriptions.hpp"

#include <algorithm>

namespace elicit {

const char* list_kind_name(ListKind kind) noexcept {
  switch (kind) {
    case ListKind::tools:
      return "tools";
    case ListKind::prompts:
      return "prompts";
    case ListKind::resources:
      return "resources";
  }
  return "tools";
}

bool ListFilter::wants(ListKind kind) const noexcept {
  switch (kind) {
    case ListKind::tools:
      return tools;
    case ListKind::prompts:
      return prompts;
    case ListKind::resources:
      return resources;
  }
  return false;
}

class Subscriptions::Subscriber {
 public:
  Subscriber(Sink sink, ListFilter lists) : lists(lists), sink_(std::move(sink)) {}
  // Both under the Subscriptions mutex.
  ListFilter lists;
  std::set<std::string> uris;

  // Delivers unless detached; detach waits for a delivery in progress, so the sink's target is not
  // used after it.
  bool send(const char* method, nlohmann::ordered_json params) {
    std::lock_guard<std::mutex> lock(send_mutex_);
    return sink_ ? sink_(method, std::move(params)) : false;
  }
  void detach() {
    std::lock_guard<std::mutex> lock(send_mutex_);
    sink_ = nullptr;
  }
  // Held while the first message goes out, so every send() waits for it.
  std::unique_lock<std::mutex> hold_sends() { return std::unique_lock<std::mutex>(send_mutex_); }
  bool send_held(const char* method, nlohmann::ordered_json params) {
    return sink_ ? sink_(method, std::move(params)) : false;
  }

 private:
  std::mutex send_mutex_;
  Sink sink_;
};

namespace {
bool wants_any(const ListFilter& f) { return f.tools || f.prompts || f.resources; }
}  // namespace

std::shared_ptr<Subscriptions::Subscriber> Subscriptions::attach(Sink sink, ListFilter lists) {
  auto subscriber = std::make_shared<Subscriber>(std::move(sink), lists);
  if (wants_any(lists)) {
    std::lock_guard<std::mutex> lock(mutex_);
    listing_.insert(subscriber);
  }
  return subscriber;
}

std::shared_ptr<Subscriptions::Subscriber> Subscriptions::attach_with_first(Sink sink, ListFilter lists,
                                                                            const std::vector<std::string>& uris,
                                                                            const char* first_method,
                                                                            nlohmann::ordered_json first_params) {
  auto subscriber = std::make_shared<Subscriber>(std::move(sink), lists);
  auto sending = subscriber->hold_sends();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (wants_any(lists)) listing_.insert(subscriber);
    for (const auto& uri : uris) {
      if (subscriber->uris.size() >= max_uris_per_subscriber) break;
      if (subscriber->uris.insert(uri).second) by_uri_[uri].push_back(subscriber);
    }
  }
  const bool sent = subscriber->send_held(first_method, std::move(first_params));
  sending.unlock();
  if (sent) return subscriber;
  detach(subscriber);
  return nullptr;
}

void Subscriptions::set_lists(const std::shared_ptr<Subscriber>& subscriber, ListFilter lists) {
  std::lock_guard<std::mutex> lock(mutex_);
  subscriber->lists = lists;
  if (wants_any(lists)) {
    listing_.insert(subscriber);
  } else {
    listing_.erase(subscriber);
  }
}

bool Subscriptions::subscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (subscriber->uris.count(uri)) return true;
  if (subscriber->uris.size() >= max_uris_per_subscriber) return false;
  subscriber->uris.insert(uri);
  by_uri_[uri].push_back(subscriber);
  return true;
}

void Subscriptions::unsubscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!subscriber->uris.erase(uri)) return;
  const auto it = by_uri_.find(uri);
  if (it == by_uri_.end()) return;
  auto& list = it->second;
  list.erase(std::remove(list.begin(), list.end(), subscriber), list.end());
  if (list.empty()) by_uri_.erase(it);
}

void Subscriptions::detach(const std::shared_ptr<Subscriber>& subscriber) {
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
    listing_.erase(subscriber);
  }
  subscriber->detach();  // after a notify_* that copied it before, nothing more is sent
}

std::size_t Subscriptions::notify_updated(std::string_view uri) {
  std::vector<std::shared_ptr<Subscriber>> targets;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = by_uri_.find(uri);
    if (it == by_uri_.end()) return 0;
    targets = it->second;
  }
  // Sent outside the registry's lock: a slow transport delays only its own subscribers' sends.
  std::size_t sent = 0;
  for (const auto& t : targets) sent += t->send("notifications/resources/updated", {{"uri", uri}}) ? 1 : 0;
  return sent;
}

std::size_t Subscriptions::notify_list_changed(ListKind kind) {
  std::vector<std::shared_ptr<Subscriber>> targets;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& s : listing_) {
      if (s->lists.wants(kind)) targets.push_back(s);
    }
  }
  const std::string method = std::string("notifications/") + list_kind_name(kind) + "/list_changed";
  std::size_t sent = 0;
  for (const auto& t : targets) sent += t->send(method.c_str(), nlohmann::ordered_json::object()) ? 1 : 0;
  return sent;
}

}  // namespace elicit
