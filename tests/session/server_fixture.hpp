// A Server over MemoryTransport with a hand-driven client, and a thread-safe recorder of what the
// tools saw, for the cancellation, event-thread and protocol tests.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/server_session.hpp>

#include "../common/patience.hpp"
#include "fake_client.hpp"

namespace test_support {

struct ServerFixture {
  explicit ServerFixture(elicit::ServerSessionOptions o = {})
      : ends(elicit::MemoryTransport::pair()), client(std::move(ends.second)) {
    if (!o.session.log) {
      o.session.log = [this](std::string_view line) {
        std::lock_guard<std::mutex> lock(log_mutex);
        log.emplace_back(line);
      };
    }
    server = std::make_unique<elicit::ServerSession>(*ends.first, elicit::ServerInfo{"test-server", "1"}, std::move(o));
  }
  ~ServerFixture() { server.reset(); }

  static elicit::ServerSessionOptions workers(std::size_t n) {
    elicit::ServerSessionOptions o;
    o.worker_threads = n;
    return o;
  }

  bool logged(const std::string& part) {
    std::lock_guard<std::mutex> lock(log_mutex);
    for (const auto& line : log)
      if (line.find(part) != std::string::npos) return true;
    return false;
  }

  std::pair<std::unique_ptr<elicit::MemoryTransport>, std::unique_ptr<elicit::MemoryTransport>> ends;
  FakeClient client;
  std::mutex log_mutex;
  std::vector<std::string> log;
  std::unique_ptr<elicit::ServerSession> server;
};

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
