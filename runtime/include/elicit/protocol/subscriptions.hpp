// Who hears about changes to a server's offer, in both eras:
//  - MCP 2025-11-25 (Server, Resources, "Subscriptions"; Tools, Prompts, Resources, "List Changed
//    Notification"): a 2025-11-25 session subscribes to resource URIs with resources/subscribe and
//    then receives `notifications/resources/updated`; once initialized it receives
//    `notifications/{tools,prompts,resources}/list_changed` (the capabilities say listChanged).
//  - MCP 2026-07-28 (Basic, Patterns, "Subscriptions"): a `subscriptions/listen` request opens a
//    stream that receives only what its filter names, each notification carrying the request's id
//    in `_meta["io.modelcontextprotocol/subscriptionId"]`.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicit {

/// The lists a server offers whose changes are announced (`notifications/<kind>/list_changed`).
enum class ListKind { tools, prompts, resources };

/// "tools", "prompts" or "resources".
const char* list_kind_name(ListKind kind) noexcept;

/// Which list changes a subscriber hears about.
struct ListFilter {
  bool tools = false;
  bool prompts = false;
  bool resources = false;  ///< resources/list and resources/templates/list
  bool wants(ListKind kind) const noexcept;
};

/// Every listener of one Server (so one call reaches all of its sessions and streams, stdio or
/// HTTP). Thread-safe: any method from any thread.
class Subscriptions {
 public:
  /// At most this many resource URIs per subscriber; more are refused.
  static constexpr std::size_t max_uris_per_subscriber = 1024;

  /// Delivers one notification: the method and its params. Returns false when it could not be sent
  /// (the connection is gone). Called outside the registry's lock, possibly from several threads
  /// at once for different notifications.
  using Sink = std::function<bool(const char* method, nlohmann::ordered_json params)>;

  /// One listener: a 2025-11-25 session, or one subscriptions/listen stream. Made by attach(); detach()
  /// it before what its Sink uses is destroyed.
  class Subscriber;

  std::shared_ptr<Subscriber> attach(Sink sink, ListFilter lists = {});
  /// attach(), also subscribed to `uris` (at most max_uris_per_subscriber are kept), with
  /// `first_method`/`first_params` delivered before anything else: a change announced while it is
  /// being sent waits and follows it, none is missed. Null (nothing attached) when the first
  /// message could not be sent.
  std::shared_ptr<Subscriber> attach_with_first(Sink sink, ListFilter lists, const std::vector<std::string>& uris,
                                                const char* first_method, nlohmann::ordered_json first_params);
  /// Changes which list changes `subscriber` hears about (a 2025-11-25 session: all, once initialized).
  void set_lists(const std::shared_ptr<Subscriber>& subscriber, ListFilter lists);
  /// Subscribes to `uri` (again: no change). False when the subscriber holds max_uris_per_subscriber.
  bool subscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri);
  /// Ends one subscription (none: no change).
  void unsubscribe(const std::shared_ptr<Subscriber>& subscriber, const std::string& uri);
  /// Ends everything of `subscriber`; once it returns its Sink is not called again (a delivery in
  /// progress is waited for).
  void detach(const std::shared_ptr<Subscriber>& subscriber);

  /// Sends notifications/resources/updated {"uri"} to every subscriber of exactly `uri`; returns
  /// to how many it was sent.
  std::size_t notify_updated(std::string_view uri);
  /// Sends `notifications/<kind>/list_changed` to every subscriber whose ListFilter wants it;
  /// returns to how many it was sent.
  std::size_t notify_list_changed(ListKind kind);

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::shared_ptr<Subscriber>>, std::less<>> by_uri_;
  std::set<std::shared_ptr<Subscriber>> listing_;  // those whose ListFilter wants some list
};

}  // namespace elicit
