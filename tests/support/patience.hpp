// How long a test waits for something that should happen. Only a hang ever reaches it: waits end as
// soon as the thing happens, so a generous bound costs nothing on a fast machine and keeps a slow,
// busy or sanitized one (CI: 2 cores, ASan, TSan) from failing a correct test.
#pragma once

#include <chrono>

namespace test_support {

inline constexpr std::chrono::milliseconds kPatience = std::chrono::seconds(60);

}  // namespace test_support
