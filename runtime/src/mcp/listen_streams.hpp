// The subscriptions/listen streams open on one connection (MCP 2026-07-28, Basic, Patterns,
// "Subscriptions"). Internal to the runtime (Server).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "elicit/server_session.hpp"
#include "task_runs.hpp"

namespace elicit::detail {

// Held by a shared_ptr: a stream's on_cancel callback holds it weakly.
class ListenStreams : public std::enable_shared_from_this<ListenStreams> {
 public:
  /// Streams open on one connection at once, at most; more are refused with -32600.
  static constexpr std::size_t max_streams = 64;

  /// `rpc` and `core` must outlive this object (the Server owns all three).
  ListenStreams(jsonrpc::Connection& rpc, Server& core) : rpc_(rpc), core_(core) {}
  ~ListenStreams() { close_all(); }

  /// Serves one subscriptions/listen request: checks its `notifications` filter (-32602 for a
  /// malformed one), sends `notifications/subscriptions/acknowledged` with the part honoured
  /// (list changes of what the server offers; resource URIs it has; task ids of `tasks.caller`'s
  /// tasks), then every notification the filter names, each with
  /// `_meta["io.modelcontextprotocol/subscriptionId"]`, until the client cancels the request or
  /// close_all(). The request is answered only then (an empty result). `notifications.taskIds`
  /// (the tasks extension, tasks.md "Task Status Notifications") from a request that does not
  /// declare the extension (`declares_tasks` false) is refused with -32021; each honoured task's
  /// DetailedTask goes out as `notifications/tasks` once after the acknowledgment and after each
  /// change, from a worker of `tasks` (a blocking store is called there; so is open() itself when
  /// the request names tasks).
  void open(const Request& request, const Responder& out, const TaskServing& tasks, bool declares_tasks);
  /// Ends every stream gracefully: the empty result ("resultType": "complete", the
  /// subscriptionId in `_meta`), after which nothing more is sent on it.
  void close_all();
  std::size_t size() const;

 private:
  struct Stream;
  void open_now(const Request& request, const Responder& out, const TaskServing& tasks,
                std::vector<std::string> task_ids);
  void end(const RequestId& id, bool answer);
  // Sends task `task_id`'s DetailedTask on stream `id` unless it is what was sent last.
  void send_task(const RequestId& id, const std::string& task_id);

  jsonrpc::Connection& rpc_;
  Server& core_;
  mutable std::mutex mutex_;
  std::map<RequestId, std::shared_ptr<Stream>> streams_;
  bool closed_ = false;
};

}  // namespace elicit::detail
