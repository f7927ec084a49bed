// Event threads: threads that deliver messages and timer callbacks for many requests at once
// (a transport's reader, the Connection's dispatch, the TimerService, an HTTP server's I/O threads).
// Blocking on such a thread for an answer it must itself deliver deadlocks, so the blocking
// calls check the marker and throw instead (design notes, "Waiting").
#pragma once

#include <string_view>

namespace elicit::jsonrpc {

/// Marks the current thread as an event thread while alive. Nestable: the thread stays marked
/// until the outermost scope ends. Not copyable or movable; create it on the thread it marks.
class EventThreadScope {
 public:
  EventThreadScope() noexcept;
  ~EventThreadScope();
  EventThreadScope(const EventThreadScope&) = delete;
  EventThreadScope& operator=(const EventThreadScope&) = delete;
};

/// True while an EventThreadScope is alive on the calling thread.
bool on_event_thread() noexcept;

namespace detail {
/// Throws std::logic_error when called on an event thread: "<operation> would block an event
/// thread ...; use <alternative> instead". Called by every blocking wait of the runtime.
void require_blocking_allowed(std::string_view operation, std::string_view alternative);
}  // namespace detail

}  // namespace elicit::jsonrpc
