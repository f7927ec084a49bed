// Resource subscriptions of legacy sessions (MCP 2025-11-25, Server, Resources, "Subscriptions"):
// a client subscribes to a resource URI with resources/subscribe and then receives
// `notifications/resources/updated` when the application says the resource changed. MCP
// 2026-07-28 has no sessions and no resources/subscribe.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

class Session;

/// Which sessions subscribed to which URIs, shared by every session of a ServerCore (so one call
/// reaches the subscribers of all of them, stdio or HTTP). Thread-safe.
class ResourceSubscriptions {
 public:
  /// At most this many URIs per session; more subscriptions are refused.
  static constexpr std::size_t max_per_session = 1024;

  /// One session's membership. Made by attach(); detach() it before its Session is destroyed.
  class Subscriber;

  /// A membership for `rpc`, which must outlive it or be detached first.
  std::shared_ptr<Subscriber> attach(Session& rpc);
  /// Subscribes (again: no change). False when the session already holds max_per_session URIs.
  bool subscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri);
  /// Ends one subscription (none: no change).
  void unsubscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri);
  /// Ends all of the session's subscriptions; once it returns, nothing is sent to its Session.
  void detach(const std::shared_ptr<Subscriber>& subscriber);
  /// Sends notifications/resources/updated {"uri"} to every session subscribed to `uri` (exactly
  /// that URI); returns how many were sent.
  std::size_t notify_updated(std::string_view uri);

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::shared_ptr<Subscriber>>, std::less<>> by_uri_;
};

}  // namespace elicit
