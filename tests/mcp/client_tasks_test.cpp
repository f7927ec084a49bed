// elicit::Client following tasks (the io.modelcontextprotocol/tasks extension) against a Server in
// this process over a MemoryTransport: no child process, so it runs under every sanitizer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/server_session.hpp>
#include <elicit/tasks.hpp>

#include "../support/patience.hpp"
#include "../support/tool_text.hpp"
#include "user_name.hpp"

namespace client_tasks_test {

using namespace elicit;
using nlohmann::json;
using test_support::text_of;

TEST_CASE("client: listening for notifications/tasks, a task whose pollIntervalMs is an hour is followed at once",
          "[client][tasks]") {
  // An in-process server whose tasks say "poll every hour": only the notifications on the
  // subscriptions/listen stream can bring the client to read the task again in time.
  auto server = std::make_shared<Server>(ServerInfo{"listen-server", "1.0.0", std::nullopt, std::nullopt});
  TaskOptions t;
  t.poll_interval = std::chrono::hours(1);
  server->set_task_store(std::make_shared<InMemoryTaskStore>(t));
  server->add_tool(Tool::blocking("greet_later", [](RequestContext& call) {
                     const auto name = call.elicit<samples::UserName>("Your name?");
                     return ToolResult::text(name ? "Hello, " + name.value->name : std::string("no name"));
                   }).with_task_support(TaskSupport::required));
  auto ends = MemoryTransport::pair();
  ServerSessionOptions so;
  so.session.log = [](std::string_view) {};
  ServerSession session(*ends.first, server, so);
  session.start();

  ClientOptions o;
  o.protocol_version = "2026-07-28";
  o.task_notifications = true;
  o.session.log = [](std::string_view) {};
  std::vector<std::string> statuses;
  o.on_task_status = [&](const json& task) { statuses.push_back(task.value("status", "")); };
  Client client(*ends.second, o);
  client.on_form<samples::UserName>([](const ElicitationRequest&) {
    samples::UserName answer;
    answer.name = "Ada";
    return FormAnswer<samples::UserName>::accept(answer);
  });
  client.connect();
  // Bounded: were the notifications not heard, the caller's scope ends the wait.
  auto scope = std::make_shared<CancelScope>();
  auto call = std::async(std::launch::async, [&] { return client.call_tool("greet_later", json::object(), scope); });
  if (call.wait_for(test_support::kPatience) != std::future_status::ready) {
    scope->cancel();
    call.wait();
    FAIL("the client did not follow the task from its notifications");
  }
  CHECK(text_of(call.get()) == "Hello, Ada");
  REQUIRE(statuses.size() >= 3);
  CHECK(statuses.front() == "working");
  CHECK(std::find(statuses.begin(), statuses.end(), "input_required") != statuses.end());
  CHECK(statuses.back() == "completed");
}

}  // namespace client_tasks_test
