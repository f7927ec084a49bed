// The fixtures the conformance suite's tasks-* scenarios (0.2.0-alpha.12; the io.modelcontextprotocol/
// tasks extension, SEP-2663) call by name, written as any tool would be: the same handlers serve a
// 2025-11-25 session, a 2026-07-28 input-required round and a task. See
// tests/interop/conformance/SCENARIOS.md and docs/server.md ("Tasks").
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "delete_confirmation.hpp"
#include "sample_tools.hpp"

#include <elicit/tasks.hpp>
#include "user_name.hpp"

namespace {

using elicit::RequestContext;
using elicit::TaskSupport;
using elicit::Tool;
using elicit::ToolResult;
using nlohmann::json;

Tool tool(std::string name, std::string description, json input_schema, elicit::ToolHandler handler,
          TaskSupport support, bool at_start = true) {
  Tool t = Tool::blocking(std::move(name), std::move(handler))
               .with_description(std::move(description))
               .with_input_schema(std::move(input_schema))
               .with_task_support(support, at_start);
  return t;
}

// Waits `duration`, or less when the call is cancelled (tasks/cancel, or the client went away);
// true when it waited to the end. A task's handler holds a worker while it waits, so it must stop
// when told.
bool wait_unless_cancelled(RequestContext& call, std::chrono::milliseconds duration) {
  struct Flag {
    std::mutex mutex;
    std::condition_variable cv;
    bool cancelled = false;
  };
  const auto flag = std::make_shared<Flag>();
  call.on_cancel([flag] {
    std::lock_guard<std::mutex> lock(flag->mutex);
    flag->cancelled = true;
    flag->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(flag->mutex);
  return !flag->cv.wait_for(lock, duration, [&] { return flag->cancelled; });
}

}  // namespace

void add_task_fixtures(elicit::Server& server) {
  server.add_tool(tool(
      "greet", "Greets someone by name (never a task)",
      {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}, {"required", {"name"}}},
      [](RequestContext& call) { return ToolResult::text("Hello, " + call.arguments().value("name", "") + "!"); },
      TaskSupport::never));

  server.add_tool(tool(
      "slow_compute", "Works for `seconds` seconds, then answers; a task when the client declares the tasks extension",
      {{"type", "object"},
       {"properties",
        {{"seconds", {{"type", "number"}, {"minimum", 0}, {"maximum", 600}}}, {"label", {{"type", "string"}}}}},
       {"required", {"seconds"}}},
      [](RequestContext& call) {
        const auto seconds = call.arguments().value("seconds", 0.0);
        const auto label = call.arguments().value("label", std::string("compute"));
        if (!wait_unless_cancelled(call, std::chrono::milliseconds(static_cast<long long>(seconds * 1000))))
          return ToolResult::error("cancelled: " + label);
        return ToolResult::text("computed " + label + " in " + std::to_string(seconds) + " s");
      },
      TaskSupport::optional));

  server.add_tool(tool(
      "failing_job", "Fails with a tool error after about a second (always a task)", json{{"type", "object"}},
      [](RequestContext& call) {
        wait_unless_cancelled(call, std::chrono::seconds(1));
        return ToolResult::error("the job failed");
      },
      TaskSupport::required));

  server.add_tool(tool(
      "protocol_error_job", "Fails with a JSON-RPC error (always a task)", json{{"type", "object"}},
      [](RequestContext& call) -> ToolResult {
        wait_unless_cancelled(call, std::chrono::milliseconds(200));
        throw elicit::ProtocolError({elicit::error_code::internal_error, "the job hit a protocol error", nullptr});
      },
      TaskSupport::required));

  server.add_tool(tool(
      "confirm_delete", "Asks to confirm deleting a file (always a task)",
      {{"type", "object"}, {"properties", {{"filename", {{"type", "string"}}}}}, {"required", {"filename"}}},
      [](RequestContext& call) {
        const auto file = call.arguments().value("filename", std::string());
        const auto o = call.elicit<samples::DeleteConfirmation>("Delete " + file + "?");
        if (!o) return ToolResult::text("kept " + file + ": " + std::string(elicit::to_string(o.status)));
        return ToolResult::text(o.value->confirm ? "deleted " + file : "kept " + file);
      },
      TaskSupport::required));

  server.add_tool(tool(
      "multi_input", "Asks two questions at once (always a task)", json{{"type", "object"}},
      [](RequestContext& call) {
        auto [name, confirm] = call.elicit_all(elicit::ask<samples::UserName>("What is your name?"),
                                               elicit::ask<samples::DeleteConfirmation>("Delete the draft?"));
        if (!name || !confirm) return ToolResult::text("not answered");
        return ToolResult::text("Hello, " + name.value->name + (confirm.value->confirm ? "; draft deleted" : ""));
      },
      TaskSupport::required));

  // Asks first on the tools/call itself (an input-required result), then becomes a task.
  server.add_tool(tool(
      "test_tool_with_task", "Asks for a name, then continues as a task", json{{"type", "object"}},
      [](RequestContext& call) {
        const auto o = call.elicit_keyed<samples::UserName>("user_name", "What is your name?");
        if (!o) return ToolResult::text("No name: " + std::string(elicit::to_string(o.status)));
        call.start_task();
        wait_unless_cancelled(call, std::chrono::milliseconds(200));
        return ToolResult::text("Hello, " + o.value->name + "!");
      },
      TaskSupport::required, /*at_start=*/false));
}
