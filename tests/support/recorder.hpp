// Values recorded from any thread, waited for with kPatience.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

#include "patience.hpp"

namespace test_support {

/// Values recorded from any thread; wait() ends as soon as `n` are there (or after kPatience).
template <class T>
class Recorder {
 public:
  void add(T v) {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.push_back(std::move(v));
    cv_.notify_all();
  }
  bool wait(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, kPatience, [&] { return values_.size() >= n; });
  }
  std::vector<T> values() {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<T> values_;
};

}  // namespace test_support
