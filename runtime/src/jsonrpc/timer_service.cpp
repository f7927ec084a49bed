#include "elicit/jsonrpc/timer_service.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

#include "elicit/jsonrpc/event_thread.hpp"

namespace elicit::jsonrpc {

// Shared with the thread, so the thread can outlive the service when it is destroyed from a callback.
struct TimerService::State {
  std::mutex mutex;
  std::condition_variable cv;
  std::map<std::pair<Clock::time_point, TimerId>, std::function<void()>> queue;  // in firing order
  std::unordered_map<TimerId, Clock::time_point> when;                           // for cancel()
  TimerId next_id = 1;
  bool stopping = false;
  std::thread thread;

  void loop() {
    EventThreadScope event_thread;
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      if (queue.empty()) {
        cv.wait(lock);
        continue;
      }
      const auto first = queue.begin()->first.first;
      if (Clock::now() < first) {
        cv.wait_until(lock, first);
        continue;
      }
      auto node = queue.extract(queue.begin());
      when.erase(node.key().second);
      lock.unlock();
      try {
        node.mapped()();
      } catch (...) {
        // A timer callback has nowhere to report to; the owner's callback should catch its own.
      }
      node = {};  // destroy the callback (and what it holds) outside the lock
      lock.lock();
    }
  }
};

TimerService::TimerService() : state_(std::make_shared<State>()) {
  state_->thread = std::thread([state = state_] { state->loop(); });
}

TimerService::~TimerService() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->cv.notify_all();
  if (state_->thread.get_id() == std::this_thread::get_id()) {
    state_->thread.detach();  // destroyed from one of its callbacks: the loop ends after it returns
  } else {
    state_->thread.join();
  }
}

TimerService::TimerId TimerService::schedule(Clock::time_point when, std::function<void()> callback) {
  TimerId id = 0;
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    id = state_->next_id++;
    const auto it = state_->queue.emplace(std::make_pair(when, id), std::move(callback)).first;
    state_->when.emplace(id, when);
    first = it == state_->queue.begin();
  }
  if (first) state_->cv.notify_all();
  return id;
}

bool TimerService::cancel(TimerId id) {
  std::function<void()> callback;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(state_->mutex);
  const auto it = state_->when.find(id);
  if (it == state_->when.end()) return false;
  const auto node = state_->queue.find({it->second, id});
  callback = std::move(node->second);
  state_->queue.erase(node);
  state_->when.erase(it);
  return true;
}

std::size_t TimerService::pending() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->queue.size();
}

std::shared_ptr<TimerService> TimerService::shared() {
  static const std::shared_ptr<TimerService> instance = std::make_shared<TimerService>();
  return instance;
}

}  // namespace elicit::jsonrpc
