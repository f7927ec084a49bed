// The io.modelcontextprotocol/tasks extension on the Server (tasks.hpp): which calls become tasks,
// the task's wire shapes, tasks/get|update|cancel, forms inside a task, cancellation, owners and
// expiry. Requests go over a ServerSession, each naming 2026-07-28 in its _meta.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <thread>

#include <elicit/server_session.hpp>
#include <elicit/tasks.hpp>

#include "../../runtime/src/mcp/task_runs.hpp"  // TaskRuns::counts()
#include "../support/task_session.hpp"
#include "delete_confirmation.hpp"
#include "user_name.hpp"

namespace tasks_test {

using namespace elicit;
using nlohmann::json;

namespace {

using namespace test_support;

std::shared_ptr<Server> task_server(std::shared_ptr<Gate> gate) {
  auto s = std::make_shared<Server>(ServerInfo{"task-server", "1.0.0", std::nullopt, std::nullopt});
  s->add_tool(Tool::blocking("quick", [](RequestContext& call) {
                return ToolResult::text("quick " + call.arguments().value("x", std::string()));
              }).with_task_support(TaskSupport::optional));
  s->add_tool(Tool::blocking("plain", [](RequestContext&) { return ToolResult::text("plain"); }));
  s->add_tool(Tool::blocking("must", [](RequestContext&) {
                return ToolResult::error("tool failed");
              }).with_task_support(TaskSupport::required));
  s->add_tool(Tool::blocking("broken", [](RequestContext&) -> ToolResult {
                throw ProtocolError({-32603, "broken on purpose", json{{"why", "test"}}});
              }).with_task_support(TaskSupport::required));
  s->add_tool(Tool::blocking("ask", [](RequestContext& call) {
                auto [n, d] = call.elicit_all(ask<samples::UserName>("Name?", "name"),
                                              ask<samples::DeleteConfirmation>("Delete?", "delete"));
                if (!n || !d) return ToolResult::text("not answered");
                return ToolResult::text(n.value->name + (d.value->confirm ? " deleted" : " kept"));
              }).with_task_support(TaskSupport::required));
  s->add_tool(Tool::blocking("later", [](RequestContext& call) {
                const auto n = call.elicit_keyed<samples::UserName>("user_name", "Name?");
                if (!n) return ToolResult::text("no name");
                call.start_task();
                return ToolResult::text("Hello, " + n.value->name + (call.task_id().empty() ? "" : " (task)"));
              }).with_task_support(TaskSupport::required, false));
  if (gate) s->add_tool(waiting_tool(gate));
  return s;
}

}  // namespace

TEST_CASE("tasks: server/discover declares the extension only with a task store, never v1 capabilities.tasks",
          "[tasks]") {
  Session with(task_server(nullptr));
  const auto caps = with.call("server/discover", {{"_meta", meta(json::object())}})["result"]["capabilities"];
  CHECK(caps["extensions"] == json{{"io.modelcontextprotocol/tasks", json::object()}});
  CHECK_FALSE(caps.contains("tasks"));

  auto plain = std::make_shared<Server>(ServerInfo{"plain", "1", std::nullopt, std::nullopt});
  plain->add_tool(Tool::blocking("plain", [](RequestContext&) { return ToolResult::text("plain"); }));
  Session without(plain);
  CHECK_FALSE(without.call("server/discover", {{"_meta", meta(json::object())}})["result"]["capabilities"].contains(
      "extensions"));
  // Without a store there are no tasks/* methods.
  CHECK(without.call("tasks/get", {{"taskId", "x"}, {"_meta", with_tasks()}})["error"]["code"] == -32601);
}

TEST_CASE("tasks: the policy decides per request, and a task is a flat CreateTaskResult that tasks/get completes",
          "[tasks]") {
  Session s(task_server(nullptr));
  // Without the extension an optional tool answers directly, and a required one refuses.
  auto direct = s.tool("quick", meta(json::object()), {{"x", "a"}})["result"];
  CHECK(direct["resultType"] == "complete");
  CHECK(direct["content"][0]["text"] == "quick a");
  const auto refused = s.tool("must", meta(json::object()))["error"];
  CHECK(refused["code"] == -32021);
  CHECK(refused["data"]["requiredCapabilities"] == kExtension);
  // A tool that never runs as a task answers directly, also to a client with the extension.
  CHECK(s.tool("plain")["result"]["content"][0]["text"] == "plain");

  const auto created = s.tool("quick", with_tasks(), {{"x", "b"}})["result"];
  CHECK(created["resultType"] == "task");
  CHECK(created["status"] == "working");
  const auto id = created["taskId"].get<std::string>();
  CHECK(std::regex_match(id, std::regex("[A-Za-z0-9_-]{43}")));
  const std::regex iso(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");
  CHECK(std::regex_match(created["createdAt"].get<std::string>(), iso));
  CHECK(std::regex_match(created["lastUpdatedAt"].get<std::string>(), iso));
  CHECK(created["ttlMs"] == 30 * 60 * 1000);
  CHECK(created["pollIntervalMs"] == 500);
  for (const char* absent : {"task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"})
    CHECK_FALSE(created.contains(absent));

  const auto done = s.until(id, "completed");
  CHECK(done["resultType"] == "complete");
  CHECK(done["result"]["content"][0]["text"] == "quick b");
  CHECK(done["result"]["resultType"] == "complete");  // a 2026-07-28 CallToolResult
  CHECK_FALSE(done.contains("requestState"));
  CHECK(done["createdAt"] == created["createdAt"]);
}

TEST_CASE("tasks: a tool error completes the task, a ProtocolError fails it", "[tasks]") {
  Session s(task_server(nullptr));
  const auto error_id = s.tool("must")["result"]["taskId"].get<std::string>();
  const auto completed = s.until(error_id, "completed");
  CHECK(completed["result"]["isError"] == true);
  CHECK_FALSE(completed.contains("error"));

  const auto broken_id = s.tool("broken")["result"]["taskId"].get<std::string>();
  const auto failed = s.until(broken_id, "failed");
  CHECK(failed["error"] == json{{"code", -32603}, {"message", "broken on purpose"}, {"data", {{"why", "test"}}}});
  CHECK_FALSE(failed.contains("result"));
}

TEST_CASE("tasks: tasks/* need the extension first, then a known task, and removed methods are -32601", "[tasks]") {
  Session s(task_server(nullptr));
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    auto e =
        s.call(method, {{"taskId", "nobody"}, {"inputResponses", json::object()}, {"_meta", meta(json::object())}});
    CHECK(e["error"]["code"] == -32021);
    CHECK(e["error"]["data"]["requiredCapabilities"] == kExtension);
    auto unknown = s.call(method, {{"taskId", "nobody"}, {"inputResponses", json::object()}, {"_meta", with_tasks()}});
    CHECK(unknown["error"]["code"] == -32602);
  }
  CHECK(s.call("tasks/get", {{"_meta", with_tasks()}})["error"]["code"] == -32602);
  CHECK(s.call("tasks/result", {{"taskId", "x"}, {"_meta", with_tasks()}})["error"]["code"] == -32601);
  CHECK(s.call("tasks/list", {{"_meta", with_tasks()}})["error"]["code"] == -32601);
  // A 2025-11-25 session has no tasks.
  s.client.initialize({{"elicitation", json::object()}});
  CHECK(s.call("tasks/get", {{"taskId", "x"}})["error"]["code"] == -32601);
}

TEST_CASE("tasks: forms inside a task are inputRequests with partial answers, unknown keys, then completion",
          "[tasks]") {
  Session s(task_server(nullptr));
  const auto id = s.tool("ask")["result"]["taskId"].get<std::string>();
  auto waiting = s.until(id, "input_required");
  REQUIRE(waiting["inputRequests"].size() == 2);
  CHECK(waiting["inputRequests"]["name"]["method"] == "elicitation/create");
  CHECK(waiting["inputRequests"]["delete"]["params"]["requestedSchema"]["required"] == json::array({"confirm"}));
  CHECK_FALSE(waiting.contains("requestState"));

  // Unknown keys (any shape) are ignored; one answer leaves its key at once, the task still waits.
  auto ack = s.call("tasks/update",
                    {{"taskId", id},
                     {"inputResponses", {{"unknown", {{"ignored", true}}}, {"name", accept({{"name", "Ada"}})}}},
                     {"_meta", with_tasks()}})["result"];
  CHECK(ack["resultType"] == "complete");
  for (const char* absent : {"taskId", "status", "result", "error", "inputRequests"}) CHECK_FALSE(ack.contains(absent));
  auto partial = s.get(id)["result"];
  CHECK(partial["status"] == "input_required");
  CHECK(partial["inputRequests"].size() == 1);
  CHECK(partial["inputRequests"].contains("delete"));

  // An answer that fails the schema is asked again, under a key not used before in this task.
  s.call("tasks/update",
         {{"taskId", id}, {"inputResponses", {{"delete", accept({{"confirm", "yes"}})}}}, {"_meta", with_tasks()}});
  auto again = s.until(id, "input_required");
  REQUIRE(again["inputRequests"].size() == 1);
  REQUIRE(again["inputRequests"].contains("delete.2"));
  CHECK(again["inputRequests"]["delete.2"]["params"]["message"].get<std::string>().find("not accepted") !=
        std::string::npos);
  // The old key is gone for good: an answer under it is ignored.
  s.call("tasks/update",
         {{"taskId", id}, {"inputResponses", {{"delete", accept({{"confirm", true}})}}}, {"_meta", with_tasks()}});
  CHECK(s.get(id)["result"]["status"] == "input_required");
  s.call("tasks/update",
         {{"taskId", id}, {"inputResponses", {{"delete.2", accept({{"confirm", true}})}}}, {"_meta", with_tasks()}});
  CHECK(s.until(id, "completed")["result"]["content"][0]["text"] == "Ada deleted");
}

TEST_CASE("tasks: a handler may ask on the tools/call first, then start its task", "[tasks]") {
  Session s(task_server(nullptr));
  const auto first = s.tool("later")["result"];
  CHECK(first["resultType"] == "input_required");
  CHECK_FALSE(first.contains("taskId"));
  const auto second = s.call("tools/call", {{"name", "later"},
                                            {"arguments", json::object()},
                                            {"inputResponses", {{"user_name", accept({{"name", "Alice"}})}}},
                                            {"requestState", first["requestState"]},
                                            {"_meta", with_tasks()}})["result"];
  CHECK(second["resultType"] == "task");
  CHECK_FALSE(second.contains("requestState"));
  CHECK_FALSE(second.contains("inputRequests"));
  CHECK(s.until(second["taskId"], "completed")["result"]["content"][0]["text"] == "Hello, Alice (task)");
}

TEST_CASE("tasks: tasks/cancel ends the task at once, the handler sees it, a second cancel is acknowledged",
          "[tasks]") {
  auto gate = std::make_shared<Gate>();
  Session s(task_server(gate));
  const auto id = s.tool("wait")["result"]["taskId"].get<std::string>();
  {
    std::unique_lock<std::mutex> lock(gate->mutex);
    REQUIRE(gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->runs == 1; }));
  }
  const auto ack = s.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}})["result"];
  CHECK(ack["resultType"] == "complete");
  CHECK_FALSE(ack.contains("status"));
  CHECK(s.get(id)["result"]["status"] == "cancelled");
  {
    std::unique_lock<std::mutex> lock(gate->mutex);
    CHECK(gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->cancelled_seen; }));
  }
  CHECK(s.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}})["result"]["resultType"] == "complete");
  // The handler's late result does not overwrite the cancellation.
  CHECK(s.get(id)["result"]["status"] == "cancelled");
  // A completed task stays completed.
  const auto quick = s.tool("quick")["result"]["taskId"].get<std::string>();
  s.until(quick, "completed");
  CHECK(s.call("tasks/cancel", {{"taskId", quick}, {"_meta", with_tasks()}})["result"]["resultType"] == "complete");
  CHECK(s.get(quick)["result"]["status"] == "completed");
}

TEST_CASE(
    "tasks: a burst begins a batch of runs at a time, the rest wait to begin, can be cancelled, and fail when "
    "the server stops",
    "[tasks]") {
  auto gate = std::make_shared<Gate>();
  auto server = task_server(gate);
  auto s = std::make_unique<Session>(server);  // 2 workers
  const auto held = [&](int n) {
    std::unique_lock<std::mutex> lock(gate->mutex);
    REQUIRE(gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->runs == n; }));
  };
  // Both workers held by a handler each: a run begun now has its handler queued.
  const auto first = s->tool("wait")["result"]["taskId"].get<std::string>();
  s->tool("wait");
  held(2);
  const auto batch = detail::TaskRuns::batch(2);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < 3 * batch; ++i) ids.push_back(s->tool("quick")["result"]["taskId"].get<std::string>());
  // A task's run is started just after its CreateTaskResult goes out: polled, bounded.
  const auto counted = [&](std::size_t n) {
    const auto end = std::chrono::steady_clock::now() + test_support::kPatience;
    auto c = server->task_runs().counts();
    while (c.running + c.waiting != n && std::chrono::steady_clock::now() < end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      c = server->task_runs().counts();
    }
    return c;
  };
  // At most a batch begun since the pool's last drain (the drain behind the second "wait" may not
  // have been taken before that handler held its worker: then one less).
  auto counts = counted(2 + ids.size());
  CHECK(counts.running <= 2 + batch);
  CHECK(counts.running >= 1 + batch);
  CHECK(counts.running + counts.waiting == 2 + ids.size());
  // A run waiting to begin is cancelled where it waits, and never runs.
  CHECK(s->call("tasks/cancel", {{"taskId", ids.back()}, {"_meta", with_tasks()}})["result"]["resultType"] ==
        "complete");
  CHECK(server->task_runs().counts().waiting == counts.waiting - 1);
  // One worker free: every run begins in its turn.
  s->call("tasks/cancel", {{"taskId", first}, {"_meta", with_tasks()}});
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
    CHECK(s->until(ids[i], "completed")["result"]["content"][0]["text"] == "quick ");
  }
  CHECK(s->get(ids.back())["result"]["status"] == "cancelled");
  // A run leaves the count just after its task completes.
  counts = counted(1);
  CHECK(counts.running == 1);  // the second "wait"
  CHECK(counts.waiting == 0);

  // Both workers held again (the drain behind this "wait" stays queued: this batch counts it), a
  // batch begun and the rest waiting: the session's end stops them all.
  s->tool("wait");
  held(3);
  ids.clear();
  for (std::size_t i = 0; i < batch + 5; ++i) ids.push_back(s->tool("quick")["result"]["taskId"].get<std::string>());
  const auto waiting = counted(2 + ids.size()).waiting;
  CHECK(waiting == 6);
  s.reset();
  counts = server->task_runs().counts();
  CHECK(counts.running == 0);
  CHECK(counts.waiting == 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto t = server->task_store()->get(ids[i]);
    REQUIRE(t);
    if (i >= ids.size() - waiting) {
      CHECK(t->status == TaskStatus::failed);
      CHECK(t->error["message"] == "the server stopped before the task's run began");
    } else if (t->status != TaskStatus::completed) {  // a handler a freed worker took before its cancel
      CHECK(t->status == TaskStatus::failed);
      CHECK(t->error["message"] == "the task's run ended without an answer");
    }
  }
}

TEST_CASE("tasks: runs that end while other workers record them never hold a worker", "[tasks]") {
  // A run's outcome is recorded on another worker, which may finish before the handler's thread
  // has left the reply; the run must then not be destroyed on the handler's thread (its destructor
  // waits for that very job). Were a worker lost so, the four "wait" tasks below could not all run.
  auto gate = std::make_shared<Gate>();
  auto server = task_server(gate);
  Session s(server, "", 4);
  std::vector<std::string> ids;
  for (int i = 0; i < 500; ++i) ids.push_back(s.tool("quick")["result"]["taskId"].get<std::string>());
  for (const auto& id : ids) s.until(id, "completed");
  std::vector<std::string> waits;
  for (int i = 0; i < 4; ++i) waits.push_back(s.tool("wait")["result"]["taskId"].get<std::string>());
  {
    std::unique_lock<std::mutex> lock(gate->mutex);
    CHECK(gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->runs == 4; }));
  }
  for (const auto& id : waits) s.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}});
}

TEST_CASE("tasks: another principal's task answers like an unknown one", "[tasks]") {
  auto server = task_server(nullptr);
  Session alice(server, R"(["https://issuer","alice"])");
  Session mallory(server, R"(["https://issuer","mallory"])");
  const auto id = alice.tool("ask")["result"]["taskId"].get<std::string>();
  alice.until(id, "input_required");
  CHECK(mallory.get(id)["error"]["code"] == -32602);
  CHECK(mallory.call("tasks/update", {{"taskId", id},
                                      {"inputResponses", {{"name", accept({{"name", "M"}})}}},
                                      {"_meta", with_tasks()}})["error"]["code"] == -32602);
  CHECK(mallory.call("tasks/cancel", {{"taskId", id}, {"_meta", with_tasks()}})["error"]["code"] == -32602);
  const auto still = alice.get(id)["result"];
  CHECK(still["status"] == "input_required");
  CHECK(still["inputRequests"].size() == 2);
}

TEST_CASE("tasks: subscriptions/listen with taskIds sends notifications/tasks for the caller's tasks", "[tasks]") {
  auto server = task_server(nullptr);
  const std::string alice_id = R"(["https://issuer","alice"])";
  Session alice(server, alice_id);
  const auto id = alice.tool("ask")["result"]["taskId"].get<std::string>();
  alice.until(id, "input_required");

  // Asking for task notifications needs the extension (-32021); taskIds must be strings (-32602).
  const auto refused =
      alice.call("subscriptions/listen", {{"notifications", {{"taskIds", {id}}}}, {"_meta", meta(json::object())}});
  CHECK(refused["error"]["code"] == -32021);
  CHECK(refused["error"]["data"]["requiredCapabilities"] == kExtension);
  CHECK(alice.call("subscriptions/listen",
                   {{"notifications", {{"taskIds", {1}}}}, {"_meta", with_tasks()}})["error"]["code"] == -32602);

  // Another principal names the task: not honoured, nothing sent.
  Session mallory(server, R"(["https://issuer","mallory"])");
  mallory.client.request(7, "subscriptions/listen", {{"notifications", {{"taskIds", {id}}}}, {"_meta", with_tasks()}});
  const auto refused_ack = mallory.client.next();
  REQUIRE(refused_ack);
  CHECK((*refused_ack)["params"]["notifications"]["taskIds"] == json::array());

  // The owner's stream: the acknowledgment names the known task only, then its state now, then
  // each change until it completes.
  Session watcher(server, alice_id);
  watcher.client.request(500, "subscriptions/listen",
                         {{"notifications", {{"taskIds", {id, "no-such-task"}}}}, {"_meta", with_tasks()}});
  const auto ack = watcher.client.next();
  REQUIRE(ack);
  CHECK((*ack)["method"] == "notifications/subscriptions/acknowledged");
  CHECK((*ack)["params"]["notifications"]["taskIds"] == json::array({id}));
  const auto now = watcher.client.next();
  REQUIRE(now);
  CHECK((*now)["method"] == "notifications/tasks");
  CHECK((*now)["params"]["taskId"] == id);
  CHECK((*now)["params"]["status"] == "input_required");
  CHECK((*now)["params"]["inputRequests"].size() == 2);
  CHECK((*now)["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 500);
  CHECK_FALSE((*now)["params"].contains("resultType"));
  CHECK_FALSE((*now)["params"].contains("requestState"));

  alice.call("tasks/update",
             {{"taskId", id},
              {"inputResponses", {{"name", accept({{"name", "Ada"}})}, {"delete", accept({{"confirm", true}})}}},
              {"_meta", with_tasks()}});
  json last = json::object();
  for (int i = 0; i < 8 && last.value("status", "") != "completed"; ++i) {
    const auto m = watcher.client.next();
    REQUIRE(m);
    REQUIRE((*m)["method"] == "notifications/tasks");
    CHECK((*m)["params"]["taskId"] == id);
    CHECK((*m)["params"]["status"] != last.value("status", ""));  // a change heard twice goes out once
    last = (*m)["params"];
  }
  CHECK(last["status"] == "completed");
  CHECK(last["result"]["content"][0]["text"] == "Ada deleted");
  CHECK(mallory.client.next(std::chrono::milliseconds(50)) == std::nullopt);
}

TEST_CASE("tasks: the in-memory store expires tasks by ttl and bounds their count", "[tasks]") {
  std::int64_t now = 1'000'000;
  TaskOptions o;
  o.ttl = std::chrono::milliseconds(1000);
  o.max_tasks = 2;
  InMemoryTaskStore store(o, [&] { return now; });
  TaskRecord t;
  t.id = new_task_id();
  t.created_ms = t.updated_ms = now;
  t.expires_ms = now + 1000;
  REQUIRE(store.create(t));
  CHECK(store.bytes() == t.bytes());  // the store counts a record as TaskRecord::bytes() does
  auto second = t;
  second.id = new_task_id();
  REQUIRE(store.create(second));
  auto third = t;
  third.id = new_task_id();
  CHECK_FALSE(store.create(third));  // full
  CHECK(store.get(t.id));
  now += 999;
  CHECK(store
            .update(t.id,
                    [](TaskRecord& r) {
                      r.status = TaskStatus::completed;
                      r.expires_ms = 0;  // not the change's to make
                      return true;
                    })
            ->status == TaskStatus::completed);
  now += 1;
  CHECK_FALSE(store.get(t.id));
  CHECK_FALSE(store.update(t.id, [](TaskRecord&) { return true; }));
  CHECK(store.size() == 0);
  CHECK(store.bytes() == 0);
  CHECK(store.create(third));

  // A record survives its JSON form.
  t.input_requests["b"] = {{"method", "elicitation/create"}};
  t.input_requests["a"] = {{"method", "sampling/createMessage"}};
  const auto back = TaskRecord::from_json(json::parse(t.to_json().dump()));
  CHECK(back.to_json() == t.to_json());
  CHECK(back.input_requests.begin().key() == "b");
}

TEST_CASE("tasks: an asynchronous handler asks in a task too, and a task waiting for input can be cancelled",
          "[tasks]") {
  auto server = task_server(nullptr);
  server->add_tool(Tool::async("ask_async", [](std::shared_ptr<RequestContext> call) {
                     call->elicit_async<samples::UserName>("Name?", [call](Outcome<samples::UserName> o) {
                       call->reply(ToolResult::text(o ? "hi " + o.value->name : "no name"));
                     });
                   }).with_task_support(TaskSupport::required));
  Session s(server);
  const auto id = s.tool("ask_async")["result"]["taskId"].get<std::string>();
  const auto waiting = s.until(id, "input_required");
  REQUIRE(waiting["inputRequests"].size() == 1);
  const auto key = waiting["inputRequests"].begin().key();
  s.call("tasks/update",
         {{"taskId", id}, {"inputResponses", {{key, accept({{"name", "Bo"}})}}}, {"_meta", with_tasks()}});
  CHECK(s.until(id, "completed")["result"]["content"][0]["text"] == "hi Bo");

  const auto parked = s.tool("ask")["result"]["taskId"].get<std::string>();
  s.until(parked, "input_required");
  CHECK(s.call("tasks/cancel", {{"taskId", parked}, {"_meta", with_tasks()}})["result"]["resultType"] == "complete");
  auto cancelled = s.get(parked)["result"];
  CHECK(cancelled["status"] == "cancelled");
  CHECK_FALSE(cancelled.contains("inputRequests"));
  // Answers after the cancel change nothing.
  s.call("tasks/update",
         {{"taskId", parked}, {"inputResponses", {{"name", accept({{"name", "Late"}})}}}, {"_meta", with_tasks()}});
  CHECK(s.get(parked)["result"]["status"] == "cancelled");
}

TEST_CASE("tasks: a task past its ttl answers like an unknown one, and a full store refuses new tasks", "[tasks]") {
  auto now = std::make_shared<std::atomic<std::int64_t>>(unix_time_ms());
  TaskOptions o;
  o.ttl = std::chrono::minutes(1);
  o.max_tasks = 1;
  auto server = task_server(nullptr);
  server->set_task_store(std::make_shared<InMemoryTaskStore>(o, [now] { return now->load(); }));
  Session s(server);
  const auto created = s.tool("ask")["result"];
  CHECK(created["ttlMs"] == 60000);
  const auto id = created["taskId"].get<std::string>();
  s.until(id, "input_required");
  const auto full = s.tool("ask");
  CHECK(full["error"]["code"] == -32603);
  // Past the ttl by the store's clock. (The task's createdAt comes from the system clock a moment
  // after `now` was read: a second minute keeps the test from depending on how long that took.)
  *now += 120000;
  CHECK(s.get(id)["error"]["code"] == -32602);
  CHECK(s.tool("ask")["result"]["resultType"] == "task");
}

}  // namespace tasks_test
