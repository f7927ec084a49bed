// A task record as the Redis task store tests make one: a confirm_delete call of one principal,
// made now, run 1.
#pragma once

#include <cstdint>

#include <elicit/tasks.hpp>

namespace test_support {

inline elicit::TaskRecord task_record(elicit::TaskStatus status, std::int64_t ttl_ms = 60'000) {
  elicit::TaskRecord t;
  t.id = elicit::new_task_id();
  t.owner = R"(["https://issuer.example","octocat"])";
  t.created_ms = t.updated_ms = elicit::unix_time_ms();
  t.ttl_ms = ttl_ms;
  t.expires_ms = t.created_ms + ttl_ms;
  t.poll_interval_ms = 500;
  t.request = {{"name", "confirm_delete"}, {"arguments", {{"path", "/tmp/x"}}}};
  t.status = status;
  t.run = 1;
  return t;
}

}  // namespace test_support
