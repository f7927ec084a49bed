// Ctrl-C (SIGINT) and SIGTERM while `elicitgen client` waits for a call: the call is cancelled
// politely rather than the process killed, so the server hears of it (the request in flight gets
// notifications/cancelled; a task the call follows gets tasks/cancel).
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include <elicit/jsonrpc/cancel_scope.hpp>

namespace elicitgen {

/// While it lives, the first SIGINT or SIGTERM cancels `scope` (from a thread of its own, not the
/// signal handler); a second one has the signal's default action (the process ends at once, for a
/// server that does not answer). One at a time per process. Throws std::system_error when the pipe
/// or the thread cannot be made.
class CancelOnSignal {
 public:
  explicit CancelOnSignal(std::shared_ptr<elicit::CancelScope> scope);
  /// Puts the earlier handlers back.
  ~CancelOnSignal();
  CancelOnSignal(const CancelOnSignal&) = delete;
  CancelOnSignal& operator=(const CancelOnSignal&) = delete;

  /// The signal that cancelled the scope, or 0.
  int signal() const noexcept { return signal_.load(); }

 private:
  std::shared_ptr<elicit::CancelScope> scope_;
  std::atomic<int> signal_{0};
  std::thread watcher_;
};

}  // namespace elicitgen
