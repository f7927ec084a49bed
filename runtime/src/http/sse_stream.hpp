// One Server-Sent Events stream of a Streamable HTTP session: the stream answering a POSTed request,
// or the session's GET stream. Any thread queues messages; the connection writing the stream (when
// one is attached) is woken and takes them on its own strand. Each message gets the event id
// "<stream>-<seq>", unique in the session; what was taken is kept (bounded) so a client that lost
// its connection can resume with `Last-Event-ID` (MCP 2025-11-25, Streamable HTTP, "Resumability
// and Redelivery"). Internal to elicit::http.
#pragma once

#include <cstddef>
#include <cstdint>
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

  struct Event {
    std::uint64_t seq = 0;
    std::string message;
  };

  /// `number`: the stream's number in its session (0 for the GET stream). `max_held_bytes`:
  /// bounds both the messages queued while nobody takes them (oldest dropped first) and the
  /// history kept for resumption.
  SseStream(std::uint64_t number, std::size_t max_held_bytes) : number_(number), max_held_bytes_(max_held_bytes) {}

  std::uint64_t number() const noexcept { return number_; }

  /// Queues one JSON-RPC message. `final`: the stream ends after it (the response to the POSTed
  /// request). False when the stream has ended or was aborted.
  bool push(std::string message, bool final);
  /// Ends the stream now (the session ended, or the request's response will never come); queued
  /// messages are still written first.
  void abort();
  /// Asks the attached connection to close once it has written what is queued, leaving the stream
  /// open: the client resumes it with GET and Last-Event-ID (the spec's SSE polling).
  void disconnect();

  /// Connection side: wakes `waker` whenever something is queued (and once at once if something
  /// already is). False, attaching nothing, when another connection is attached.
  bool attach(Waker waker);
  /// The connection is gone: messages are held (bounded) from now on.
  void detach();
  bool attached() const;
  /// Queues again every event after `seq` that was taken before (for a resuming client). False
  /// when some of them are no longer held.
  bool replay_after(std::uint64_t seq);

  struct Batch {
    std::vector<Event> events;
    bool end = false;         ///< nothing more will come: end the HTTP response after these
    bool disconnect = false;  ///< close the connection after these, without ending the stream
  };
  /// Everything queued so far.
  Batch take();
  /// The end of the stream was written to a client: nothing is left to resume.
  void mark_delivered();
  bool delivered() const;
  bool ended() const;
  std::size_t dropped() const;

 private:
  void trim_history_locked();

  mutable std::mutex mutex_;
  const std::uint64_t number_;
  const std::size_t max_held_bytes_;
  std::uint64_t next_seq_ = 1;
  std::deque<Event> queue_;
  std::size_t queued_bytes_ = 0;
  std::deque<Event> history_;  // taken events, oldest first
  std::size_t history_bytes_ = 0;
  std::size_t dropped_ = 0;
  bool finished_ = false;
  bool aborted_ = false;
  bool disconnect_ = false;
  bool delivered_ = false;
  Waker waker_;
};

}  // namespace elicit::http
