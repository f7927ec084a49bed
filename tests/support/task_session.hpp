// Drives a Server's tasks (io.modelcontextprotocol/tasks) in tests: 2026-07-28 request _meta with
// and without the extension, a ServerSession over a MemoryTransport answering one request at a
// time, and a blocking tool that waits until its call is cancelled.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include <catch2/catch.hpp>

#include <elicit/server_session.hpp>
#include <elicit/tasks.hpp>

#include "fake_client.hpp"
#include "patience.hpp"

namespace test_support {

using elicit::MemoryTransport;
using elicit::RequestContext;
using elicit::Server;
using elicit::ServerSession;
using elicit::ServerSessionOptions;
using elicit::TaskSupport;
using elicit::Tool;
using elicit::ToolResult;
using nlohmann::json;

inline const json kExtension = {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};

inline json meta(const json& caps) {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", caps},
          {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1"}}}};
}
inline json with_tasks() {
  auto caps = kExtension;
  caps["elicitation"] = {{"form", json::object()}};
  return meta(caps);
}

// Set when a handler saw its call cancelled and returned.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool cancelled_seen = false;
  int runs = 0;
};

inline Tool waiting_tool(std::shared_ptr<Gate> gate) {
  return Tool::blocking("wait",
                        [gate](RequestContext& call) {
                          {
                            std::lock_guard<std::mutex> lock(gate->mutex);
                            ++gate->runs;
                          }
                          gate->cv.notify_all();
                          auto done = std::make_shared<std::atomic<bool>>(false);
                          call.on_cancel([gate, done] {
                            std::lock_guard<std::mutex> lock(gate->mutex);
                            done->store(true);
                            gate->cv.notify_all();
                          });
                          std::unique_lock<std::mutex> lock(gate->mutex);
                          gate->cv.wait_for(lock, test_support::kPatience, [&] { return done->load(); });
                          gate->cancelled_seen = done->load();
                          gate->cv.notify_all();
                          return ToolResult::text("waited");
                        })
      .with_description("Waits until cancelled")
      .with_task_support(TaskSupport::optional);
}

struct Session {
  explicit Session(std::shared_ptr<Server> server, std::string principal = "", std::size_t workers = 2)
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    ServerSessionOptions o;
    o.worker_threads = workers;
    o.principal = std::move(principal);
    o.session.log = [](std::string_view) {};
    session = std::make_unique<ServerSession>(*ends.first, std::move(server), o);
    session->start();
  }
  ~Session() { session.reset(); }

  json call(const std::string& method, json params) {
    std::lock_guard<std::mutex> lock(mutex);
    const auto id = next_id++;
    client.request(id, method, params);
    auto m = client.next();
    REQUIRE(m);
    REQUIRE((*m)["id"] == id);
    return *m;
  }
  json tool(const std::string& name, const json& m = with_tasks(), json arguments = json::object()) {
    return call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}, {"_meta", m}});
  }
  json get(const std::string& id, const json& m = with_tasks()) {
    return call("tasks/get", {{"taskId", id}, {"_meta", m}});
  }
  // Polls tasks/get until the task's status is `status` (bounded by kPatience).
  json until(const std::string& id, const std::string& status) {
    const auto end = std::chrono::steady_clock::now() + test_support::kPatience;
    json r;
    while (std::chrono::steady_clock::now() < end) {
      r = get(id)["result"];
      if (r.value("status", "") == status) return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("task " << id << " never reached " << status << "; last: " << r.dump());
    return r;
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> session;
  std::mutex mutex;
  int next_id = 1;
};

inline json accept(json content) { return {{"action", "accept"}, {"content", std::move(content)}}; }

}  // namespace test_support
