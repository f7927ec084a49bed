// How long a test waits for something that should happen. Only a hang ever reaches it: waits end as
// soon as the thing happens, so a generous bound costs nothing on a fast machine and keeps a slow,
// busy or sanitized one (CI: 2 cores, ASan, TSan) from failing a correct test.
#pragma once

#include <chrono>
#include <thread>

namespace test_support {

inline constexpr std::chrono::milliseconds kPatience = std::chrono::seconds(60);

// Polls `done()` until it holds, at most kPatience: for what another thread or process does by
// itself with no event to wait on (a store's deletion, Redis's expiry). Only a hang reaches the
// bound. True when `done()` held.
template <class F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

}  // namespace test_support
