#include "elicit/jsonrpc/worker_pool.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace elicit::jsonrpc {

// Shared with the threads, so a thread can outlive the pool when the pool is destroyed from a job.
struct WorkerPool::State {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::function<void()>> jobs;
  bool stopping = false;
  std::vector<std::thread> threads;

  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      cv.wait(lock, [&] { return stopping || !jobs.empty(); });
      if (jobs.empty()) return;  // stopping, and nothing left to run
      auto job = std::move(jobs.front());
      jobs.pop_front();
      lock.unlock();
      try {
        job();
      } catch (...) {
        // post() documents that jobs must not throw; keep the thread alive if one does.
      }
      job = nullptr;  // release what the job holds outside the lock
      lock.lock();
    }
  }

  void stop_and_join() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    cv.notify_all();
    for (auto& t : threads) {
      if (t.get_id() == std::this_thread::get_id()) {
        t.detach();
      } else {
        t.join();
      }
    }
  }
};

WorkerPool::WorkerPool(std::size_t threads) : state_(std::make_shared<State>()) {
  const std::size_t n = threads == 0 ? 1 : threads;
  state_->threads.reserve(n);
  try {
    for (std::size_t i = 0; i < n; ++i) state_->threads.emplace_back([state = state_] { state->loop(); });
  } catch (...) {
    state_->stop_and_join();
    throw;
  }
}

WorkerPool::~WorkerPool() { state_->stop_and_join(); }

std::size_t WorkerPool::size() const noexcept { return state_->threads.size(); }

bool WorkerPool::post(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->stopping) return false;
    state_->jobs.push_back(std::move(job));
  }
  state_->cv.notify_one();
  return true;
}

}  // namespace elicit::jsonrpc
