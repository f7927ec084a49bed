// The Transport of one Streamable HTTP session: routes each outgoing message to the SSE stream of
// the client request it belongs to, else to the session's GET stream (held, bounded, while no GET
// stream is open). Internal to elicit::http.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/transport.hpp"
#include "sse_stream.hpp"

namespace elicit::http {

class SessionTransport final : public Transport {
 public:
  explicit SessionTransport(std::size_t max_held_bytes);

  void start(MessageHandler on_message, CloseHandler on_close) override;
  bool send(std::string message, const SendContext& context) override;
  /// Ends every stream and tells the session (on_close). Idempotent.
  void close() override;
  /// Ends the request's SSE stream: its response will never come.
  void abandon(const RequestId& id) override;
  /// Closes the connection carrying the request's SSE stream; the stream stays open for the
  /// client to resume with GET and Last-Event-ID.
  void disconnect(const RequestId& id) override;

  /// Registers the stream for a request before the request is delivered, so nothing is missed.
  /// nullptr when the session has ended, or when a request with this id is still open (`duplicate`).
  std::shared_ptr<SseStream> open_request_stream(const RequestId& id, bool& duplicate);
  /// The session's GET stream, or nullptr when one is already being read (one at a time) or the
  /// session has ended. release_standalone() when its connection ends.
  std::shared_ptr<SseStream> claim_standalone();
  void release_standalone();

  enum class Resume { ok, unknown, busy };
  /// The stream a `Last-Event-ID` ("<stream>-<seq>") names, with every event after it queued
  /// again: `unknown` when no such stream (or event) is held, `busy` when a connection is still
  /// reading it. For stream 0 (the GET stream) it is claimed as by claim_standalone().
  std::pair<Resume, std::shared_ptr<SseStream>> resume(std::string_view last_event_id);
  /// A connection stopped writing `stream`: forgotten when its end was delivered; otherwise kept
  /// for resumption (the newest kMaxResumable undelivered streams).
  void stream_detached(const std::shared_ptr<SseStream>& stream);

  /// Hands one received message to the session; one at a time per session, in arrival order.
  bool deliver(std::string message);
  /// The same for a message the HTTP layer has parsed already: `session` (the one this transport
  /// carries) handles it without parsing it again (jsonrpc::Connection::deliver).
  bool deliver(jsonrpc::Message message, jsonrpc::Connection& session);

  /// For idle reaping: when the session last saw a request or had a stream end, and how many of
  /// its streams are open on connections now.
  void touch();
  void stream_opened();
  void stream_closed();
  bool idle_since(std::chrono::steady_clock::time_point cutoff) const;
  bool closed() const;

 private:
  mutable std::mutex mutex_;
  std::mutex deliver_mutex_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  bool closed_ = false;
  std::size_t max_held_bytes_;
  static constexpr std::size_t kMaxResumable = 16;
  std::unordered_map<std::string, std::shared_ptr<SseStream>> request_streams_;  // by to_string(id)
  std::map<std::uint64_t, std::shared_ptr<SseStream>> resumable_;                // by stream number
  std::uint64_t next_stream_ = 1;
  std::shared_ptr<SseStream> standalone_;
  bool standalone_claimed_ = false;
  std::size_t open_streams_ = 0;
  std::chrono::steady_clock::time_point last_activity_;
};

}  // namespace elicit::http
