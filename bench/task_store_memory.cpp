// elicit_task_store_memory: where the bytes of a task waiting in input_required go in
// elicit::InMemoryTaskStore, and what the store's operations cost (scripts/bench.sh section 9).
// A benchmark, not a test: it prints one JSON object and never fails on numbers.
//
//   elicit_task_store_memory [N [STATE_BYTES]]
//
// N records (default 10,000) shaped like the sample server's confirm_delete tasks over stateless HTTP
// (the tools/call params with their 2026-07-28 _meta, one elicitation/create question, a sealed
// requestState of STATE_BYTES characters, default 200: the sample server's confirm_deletion seals
// its one question's state in 173) are created in a store and moved to
// input_required, as the task runs do. Heap in use (mallinfo2 uordblks; one thread, so one arena)
// is read before and after: bytes per task working and waiting. Then the heap of each member of one
// record (the average over 1,000 copies), and ns per call
// of TaskRecord::bytes(), a record copy, InMemoryTaskStore::get and ::update.
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/tasks.hpp"

namespace {

using elicit::TaskRecord;
using elicit::TaskStatus;
using nlohmann::json;
using nlohmann::ordered_json;

long heap_in_use() { return static_cast<long>(mallinfo2().uordblks); }

TaskRecord created(int i) {
  TaskRecord t;
  t.id = elicit::new_task_id();
  t.created_ms = t.updated_ms = elicit::unix_time_ms();
  t.ttl_ms = 30 * 60 * 1000;
  t.expires_ms = t.created_ms + t.ttl_ms;
  t.poll_interval_ms = 500;
  t.request = json::parse(
      R"({"name":"confirm_delete","arguments":{"filename":"f)" + std::to_string(i) +
      R"(.txt"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientInfo":{"name":"elicit_http_load","version":"1"},)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}})");
  t.run = 1;
  return t;
}

// What a run that ends with the question does to the record (task_runs.cpp, ask()).
void ask(TaskRecord& t, int i, std::size_t state_bytes) {
  const std::string key = "elicitation-1";
  t.status = TaskStatus::input_required;
  t.status_message = "waiting for input";
  t.request_state = std::string(state_bytes, 'A');
  t.answers = json::object();
  t.input_requests = ordered_json::object();
  t.input_requests[key] = ordered_json::parse(
      R"({"method":"elicitation/create","params":{"mode":"form","message":"Delete f)" + std::to_string(i) +
      R"(.txt?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","title":"Delete it",)"
      R"("description":"Check to delete the file; it cannot be brought back"}},"required":["confirm"]}}})");
  t.key_map = json::object();
  t.key_map[key] = key;
  t.used_keys.push_back(key);
}

// Heap of one value made by `make` (a unique_ptr), averaged over 1,000, the holder's own chunk left
// out (glibc malloc: the object's size plus 8, rounded up to 16, at least 32).
template <class Make>
long heap_of(Make make) {
  using Value = typename decltype(make())::element_type;
  const long holder = std::max<long>(32, static_cast<long>((sizeof(Value) + 8 + 15) / 16 * 16));
  std::vector<decltype(make())> keep;
  keep.reserve(1000);
  const long before = heap_in_use();
  for (int k = 0; k < 1000; ++k) keep.push_back(make());
  return (heap_in_use() - before) / 1000 - holder;
}

template <class F>
double ns_per_call(int reps, F f) {
  std::size_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) sink += f(r);
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / reps;
  if (sink == 42) std::puts("");  // keeps the calls
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  const std::size_t state_bytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200;
  if (n < 1) {
    std::fprintf(stderr, "usage: elicit_task_store_memory [N [STATE_BYTES]]\n");
    return 2;
  }
  json out = {{"tasks", n}, {"request_state_bytes", state_bytes}};

  auto one = created(1);
  ask(one, 1, state_bytes);
  out["record_bytes"] = one.bytes();  // what counts against TaskOptions::max_bytes
  out["record_json_text_bytes"] = one.to_json().dump().size();
  out["heap_of_members"] = {
      {"request", heap_of([&] { return std::make_unique<json>(one.request); })},
      {"input_requests", heap_of([&] { return std::make_unique<ordered_json>(one.input_requests); })},
      {"request_state", heap_of([&] { return std::make_unique<std::string>(one.request_state); })},
      {"key_map", heap_of([&] { return std::make_unique<json>(one.key_map); })},
      {"used_keys", heap_of([&] { return std::make_unique<json>(one.used_keys); })},
      {"answers_empty", heap_of([&] { return std::make_unique<json>(one.answers); })},
      {"whole_record", heap_of([&] { return std::make_unique<TaskRecord>(one); })},
      {"record_as_json_text", heap_of([&] { return std::make_unique<std::string>(one.to_json().dump()); })},
  };

  elicit::TaskOptions options;
  options.max_tasks = static_cast<std::size_t>(n) + 1;
  options.max_bytes = std::size_t(1) << 40;
  elicit::InMemoryTaskStore store(options);
  std::vector<std::string> ids;
  ids.reserve(static_cast<std::size_t>(n));
  malloc_trim(0);
  const long before = heap_in_use();
  for (int i = 0; i < n; ++i) {
    auto t = created(i);
    ids.push_back(t.id);
    store.create(t);
  }
  const long working = heap_in_use();
  for (int i = 0; i < n; ++i) {
    store.update(ids[static_cast<std::size_t>(i)], [&](TaskRecord& t) {
      ask(t, i, state_bytes);
      return true;
    });
  }
  const long waiting = heap_in_use();
  out["heap_per_task"] = {{"working", (working - before) / n}, {"input_required", (waiting - before) / n}};
  out["store_bytes_per_task"] = store.bytes() / static_cast<std::size_t>(n);
  const auto id = [&](int r) -> const std::string& { return ids[static_cast<std::size_t>(r % n)]; };
  out["ns"] = {
      {"record_bytes", ns_per_call(20000, [&](int) { return one.bytes(); })},
      {"record_copy", ns_per_call(20000, [&](int) { return TaskRecord(one).id.size(); })},
      {"record_to_json_dump", ns_per_call(20000, [&](int) { return one.to_json().dump().size(); })},
      {"store_get", ns_per_call(20000, [&](int r) { return store.get(id(r))->id.size(); })},
      {"store_update", ns_per_call(20000,
                                   [&](int r) {
                                     return store
                                         .update(id(r),
                                                 [](TaskRecord& t) {
                                                   t.updated_ms += 1;
                                                   return true;
                                                 })
                                         ->id.size();
                                   })},
  };
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
