// One timer thread for any number of sessions: per-request timeouts cost a map entry, not a thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace elicit::jsonrpc {

/// Runs callbacks at points in time on one thread of its own. Thread-safe.
///
/// Callbacks run on the timer thread, one at a time, in deadline order; that thread is an event
/// thread (event_thread.hpp), so a callback must not block (blocking runtime calls throw
/// std::logic_error there). An exception escaping a callback is swallowed.
class TimerService {
 public:
  using TimerId = std::uint64_t;
  using Clock = std::chrono::steady_clock;

  /// Starts the thread. Throws std::system_error if it cannot be created.
  TimerService();
  /// Stops the thread and joins it; callbacks not yet due never run. Safe from a callback of this
  /// service (the thread is then left to end by itself).
  ~TimerService();
  TimerService(const TimerService&) = delete;
  TimerService& operator=(const TimerService&) = delete;

  /// Runs `callback` at `when` (at once when it has passed). Ids are never reused.
  TimerId schedule(Clock::time_point when, std::function<void()> callback);
  /// Forgets a timer. False when it has already fired (or is firing) or was cancelled.
  bool cancel(TimerId id);
  /// Timers scheduled and not yet fired or cancelled.
  std::size_t pending() const;

  /// The process-wide instance, created on first use; sessions use it unless given their own.
  static std::shared_ptr<TimerService> shared();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace elicit::jsonrpc
