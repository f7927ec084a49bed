// A fixed pool of threads for blocking work (blocking tool handlers), shareable between servers.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace elicit::jsonrpc {

/// A fixed number of threads running posted jobs in FIFO order. Thread-safe.
///
/// The size bounds concurrency: with N threads, at most N jobs (for a ServerSession: N blocking tool
/// handlers, each possibly waiting on a form) run at once, across every server sharing the pool;
/// more wait in FIFO order until a thread is free. A cancelled tools/call frees its thread at once
/// (its elicitations end `aborted`), but a handler that blocks on something else holds its thread
/// until it returns. Asynchronous tool handlers use no pool thread at all.
class WorkerPool {
 public:
  /// Starts `threads` threads (0 means 1). Throws std::system_error if a thread cannot be created
  /// (the threads already started are stopped first).
  explicit WorkerPool(std::size_t threads);
  /// Stops taking jobs, runs every job already posted, and joins the threads. Safe from a job of
  /// this pool (that thread is then left to end by itself).
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Number of threads.
  std::size_t size() const noexcept;
  /// Queues `job`. False (the job is dropped) once the pool is being destroyed. A job should not
  /// throw: an exception escaping it is swallowed.
  bool post(std::function<void()> job);

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace elicit::jsonrpc

// Part of the MCP layer's API (ServerSessionOptions::workers), so named in elicit:: as well.
namespace elicit {
using jsonrpc::WorkerPool;
}  // namespace elicit
