// Request outcomes collected by request number, for tests that drive a jsonrpc::Connection's own
// requests (tests/jsonrpc/connection_test.cpp, tests/mcp/session_limits_test.cpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

#include <elicit/jsonrpc/connection.hpp>

#include "patience.hpp"

namespace test_support {

// Collects request outcomes by request number.
struct Collector {
  std::mutex mutex;
  std::condition_variable cv;
  std::map<int, std::vector<elicit::jsonrpc::RequestOutcome>> got;
  elicit::jsonrpc::ResponseHandler handler(int n) {
    return [this, n](elicit::jsonrpc::RequestOutcome o) {
      std::lock_guard<std::mutex> lock(mutex);  // notify under the lock: the waiter may destroy us
      got[n].push_back(std::move(o));
      cv.notify_all();
    };
  }
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout = kPatience) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, timeout, [&] {
      std::size_t n = 0;
      for (auto& [k, v] : got) n += v.size();
      return n >= count;
    });
  }
};

}  // namespace test_support
