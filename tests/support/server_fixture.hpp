// A ServerSession over MemoryTransport with a hand-driven client (and, through recorder.hpp, a
// thread-safe recorder of what the tools saw), for the cancellation, event-thread and protocol tests.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/server_session.hpp>

#include "fake_client.hpp"
#include "patience.hpp"
#include "recorder.hpp"

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

}  // namespace test_support
