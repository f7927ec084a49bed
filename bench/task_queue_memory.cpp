// elicit_task_queue_memory: what a task costs while its run waits for a worker (scripts/bench.sh
// section 9). A benchmark, not a test: it prints one JSON object and never fails on numbers.
//
//   elicit_task_queue_memory [N [WORKERS]]
//
// A Server with tasks in its InMemoryTaskStore serves one ServerSession (over a MemoryTransport) with
// WORKERS worker threads (default 4, as the sample server). Every worker is held by a task whose
// handler waits, then N more tasks (default 10,000) are made, each a tools/call of a blocking tool
// from a 2026-07-28 client declaring the extension: their runs cannot go on. Heap in use (mallinfo2
// uordblks, one malloc arena for the whole process so that it counts every thread) is read before
// and after: bytes per task whose run waits, against the same record alone in a store (no server).
// The runs begun and waiting to begin are counted (TaskRuns::counts()). Then the held workers are
// let go and every task must complete (`ok`).
#include <malloc.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/memory_transport.hpp"
#include "elicit/server_session.hpp"
#include "elicit/tasks.hpp"
#include "task_runs.hpp"  // TaskRuns::counts(): internal to the runtime

namespace {

using nlohmann::json;

long heap_in_use() { return static_cast<long>(mallinfo2().uordblks); }

// The client end: sends requests, takes the responses in order.
class Client {
 public:
  explicit Client(std::unique_ptr<elicit::Transport> end) : end_(std::move(end)) {
    end_->start(
        [this](std::string m) {
          std::lock_guard<std::mutex> lock(mutex_);
          inbox_.push_back(std::move(m));
          cv_.notify_all();
        },
        [] {});
  }
  // Sends a request and returns its response (or null after 60 s).
  json call(const std::string& method, json params) {
    end_->send(json{{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", std::move(params)}}.dump(), {});
    std::unique_lock<std::mutex> lock(mutex_);
    if (!cv_.wait_for(lock, std::chrono::seconds(60), [&] { return !inbox_.empty(); })) return nullptr;
    auto m = json::parse(inbox_.front());
    inbox_.pop_front();
    return m;
  }

 private:
  std::unique_ptr<elicit::Transport> end_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> inbox_;
  int id_ = 0;
};

json meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientInfo", {{"name", "elicit_task_queue_memory"}, {"version", "1"}}},
          {"io.modelcontextprotocol/clientCapabilities",
           {{"elicitation", json::object()}, {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}};
}

json call_params(const std::string& tool, int i) {
  return {{"name", tool}, {"arguments", {{"filename", "f" + std::to_string(i) + ".txt"}}}, {"_meta", meta()}};
}

// Holds a worker until let go.
struct Hold {
  std::mutex mutex;
  std::condition_variable cv;
  int held = 0;
  bool go = false;
};

template <class Pred>
bool until(Pred pred) {  // bounded: 120 s
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  mallopt(M_ARENA_MAX, 1);  // before any thread: mallinfo2 counts one arena
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int workers = argc > 2 ? std::atoi(argv[2]) : 4;
  if (n < 1 || workers < 1) {
    std::fprintf(stderr, "usage: elicit_task_queue_memory [N [WORKERS]]\n");
    return 2;
  }

  auto hold = std::make_shared<Hold>();
  auto server = std::make_shared<elicit::Server>(elicit::ServerInfo{"queue", "1", std::nullopt, std::nullopt});
  elicit::TaskOptions options;
  options.max_tasks = static_cast<std::size_t>(n) + 1000;
  options.max_bytes = std::size_t(1) << 40;
  auto store = std::make_shared<elicit::InMemoryTaskStore>(options);
  server->set_task_store(store);
  server->add_tool(elicit::Tool::blocking("hold", [hold](elicit::RequestContext&) {
                     std::unique_lock<std::mutex> lock(hold->mutex);
                     ++hold->held;
                     hold->cv.notify_all();
                     hold->cv.wait(lock, [&] { return hold->go; });
                     return elicit::ToolResult::text("held");
                   }).with_task_support(elicit::TaskSupport::required));
  server->add_tool(elicit::Tool::blocking("work", [](elicit::RequestContext& call) {
                     return elicit::ToolResult::text("done " + call.arguments().value("filename", std::string()));
                   }).with_task_support(elicit::TaskSupport::required));

  auto ends = elicit::MemoryTransport::pair();
  Client client(std::move(ends.second));
  elicit::ServerSessionOptions o;
  o.worker_threads = static_cast<std::size_t>(workers);
  o.session.log = [](std::string_view) {};
  auto session = std::make_unique<elicit::ServerSession>(*ends.first, server, o);
  session->start();

  json out = {{"tasks", n}, {"workers", workers}, {"batch", elicit::detail::TaskRuns::batch(workers)}};
  // Warm-up: a few tasks made and completed, then every worker held.
  std::vector<std::string> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(client.call("tools/call", call_params("work", i))["result"]["taskId"]);
  const auto& runs = server->task_runs();
  bool ok = until([&] { return runs.counts().running == 0; });
  for (int i = 0; i < workers; ++i) client.call("tools/call", call_params("hold", i));
  ok = ok && until([&] {
         std::lock_guard<std::mutex> lock(hold->mutex);
         return hold->held == workers;
       });

  malloc_trim(0);
  const long before = heap_in_use();
  ids.clear();
  ids.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto r = client.call("tools/call", call_params("work", i));
    if (!r.is_object() || !r.contains("result")) {
      ok = false;
      break;
    }
    ids.push_back(r["result"]["taskId"]);
  }
  // A run starts just after its CreateTaskResult goes out.
  ok = ok && until([&] {
         const auto c = runs.counts();
         return c.running + c.waiting == static_cast<std::size_t>(n + workers);
       });
  const long queued = heap_in_use();
  const auto counts = runs.counts();
  out["runs_begun_while_held"] = counts.running - static_cast<std::size_t>(workers);
  out["runs_waiting_while_held"] = counts.waiting;
  out["heap_per_task_run_waiting"] = (queued - before) / n;

  // The same records in a store alone: what the task costs without its run.
  {
    elicit::InMemoryTaskStore alone(options);
    malloc_trim(0);
    const long b = heap_in_use();
    for (const auto& id : ids) alone.create(*store->get(id));
    out["heap_per_task_record_alone"] = (heap_in_use() - b) / n;
  }

  {
    std::lock_guard<std::mutex> lock(hold->mutex);
    hold->go = true;
  }
  hold->cv.notify_all();
  const auto start = std::chrono::steady_clock::now();
  ok = ok && until([&] {
         const auto c = runs.counts();
         return c.running == 0 && c.waiting == 0;
       });
  int completed = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto t = store->get(ids[i]);
    if (t && t->status == elicit::TaskStatus::completed &&
        t->result["content"][0]["text"] == "done f" + std::to_string(i) + ".txt")
      ++completed;
  }
  out["complete_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out["completed"] = completed;
  out["ok"] = ok && completed == n;
  session.reset();
  std::printf("%s\n", out.dump().c_str());
  return out["ok"].get<bool>() ? 0 : 1;
}
