// The subscriptions/listen streams open on one connection (MCP 2026-07-28, Basic, Patterns,
// "Subscriptions"). Internal to the runtime (Server).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

#include "elicit/server_session.hpp"

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
  /// (list changes of what the server offers; resource URIs it has), then every notification the
  /// filter names, each with `_meta["io.modelcontextprotocol/subscriptionId"]`, until the client
  /// cancels the request or close_all(). The request is answered only then (an empty result).
  void open(const Request& request, const Responder& out);
  /// Ends every stream gracefully: the empty result ("resultType": "complete", the
  /// subscriptionId in `_meta`), after which nothing more is sent on it.
  void close_all();
  std::size_t size() const;

 private:
  struct Stream;
  void end(const RequestId& id, bool answer);

  jsonrpc::Connection& rpc_;
  Server& core_;
  mutable std::mutex mutex_;
  std::map<RequestId, std::shared_ptr<Stream>> streams_;
  bool closed_ = false;
};

}  // namespace elicit::detail
