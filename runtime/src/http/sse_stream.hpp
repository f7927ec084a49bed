// One Server-Sent Events stream of a Streamable HTTP session: the stream answering a POSTed request,
// or the session's GET stream. Any thread queues messages; the connection writing the stream (when
// one is attached) is woken and takes them on its own strand. Internal to elicit::http.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace elicit::http {

class SseStream {
 public:
  /// Called (from any thread) when there is something to take; it must not block.
  using Waker = std::function<void()>;

  /// `max_held_bytes`: messages queued while nobody takes them are bounded by this; the oldest
  /// are dropped beyond it (and counted in dropped()).
  explicit SseStream(std::size_t max_held_bytes) : max_held_bytes_(max_held_bytes) {}

  /// Queues one JSON-RPC message. `final`: the stream ends after it (the response to the POSTed
  /// request). False when the stream has ended or was aborted.
  bool push(std::string message, bool final);
  /// Ends the stream now (the session ended); queued messages are still written first.
  void abort();

  /// Connection side: wakes `waker` whenever something is queued (and once at once if something
  /// already is). Replaces any earlier waker.
  void attach(Waker waker);
  /// The connection is gone: messages are held (bounded) from now on.
  void detach();

  struct Batch {
    std::vector<std::string> messages;
    bool end = false;  ///< nothing more will come: end the HTTP response after these
  };
  /// Everything queued so far.
  Batch take();
  bool ended() const;
  std::size_t dropped() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  std::size_t max_held_bytes_;
  std::size_t dropped_ = 0;
  bool finished_ = false;
  bool aborted_ = false;
  Waker waker_;
};

}  // namespace elicit::http
