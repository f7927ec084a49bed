// docs/server.md and docs/revisions.md: tools, prompts and resources with blocking and asynchronous
// handlers, served over stdio. The same handlers serve MCP 2025-11-25 and 2026-07-28.
#include <chrono>
#include <memory>
#include <string>

#include <elicit/elicit.hpp>
#include "contact.hpp"       // app::Contact
#include "room_booking.hpp"  // app::RoomBooking

namespace {

std::string status_text(elicit::ElicitStatus status) { return std::string(elicit::to_string(status)); }

// A blocking handler: runs on a worker thread and waits in elicit() while the user fills in the form.
elicit::Tool book_room() {
  auto handler = [](elicit::RequestContext& ctx) {
    auto answer = ctx.elicit<app::RoomBooking>();
    if (!answer) return elicit::ToolResult::text(status_text(answer.status));
    return elicit::ToolResult::text("Booked " + std::string(elicit::to_string(answer.value->room)));
  };
  return elicit::Tool::blocking("book_room", handler)
      .with_title("Book a room")
      .with_description("Asks which room and for how many people, then books it");
}

// An asynchronous handler: returns at once and answers from the callback; nothing waits on a thread.
elicit::Tool register_user() {
  auto handler = [](std::shared_ptr<elicit::RequestContext> ctx) {
    ctx->elicit_async<app::Contact>([ctx](elicit::Outcome<app::Contact> answer) {
      ctx->reply(answer ? elicit::ToolResult::text("Welcome, " + answer.value->name)
                        : elicit::ToolResult::text(status_text(answer.status)));
    });
  };
  return elicit::Tool::async("register", handler).with_description("Registers the user");
}

// Arguments: the input schema is checked before the handler runs (invalid arguments are a tool error).
elicit::Tool rename_room() {
  auto handler = [](elicit::RequestContext& ctx) {
    const std::string name = ctx.arguments().at("name");
    return elicit::ToolResult::text("Renamed to " + name);
  };
  return elicit::Tool::blocking("rename_room", handler)
      .with_description("Renames a room")
      .with_input_schema({{"type", "object"},
                          {"properties", {{"name", {{"type", "string"}, {"minLength", 1}}}}},
                          {"required", {"name"}}});
}

// Two forms in one round: under 2026-07-28 one input-required result asks both; under 2025-11-25
// both elicitation/create requests go out together.
elicit::Tool book_for_someone() {
  return elicit::Tool::blocking("book_for_someone", [](elicit::RequestContext& ctx) {
    auto [who, what] = ctx.elicit_all(elicit::ask<app::Contact>(), elicit::ask<app::RoomBooking>("Which room?"));
    if (!who || !what) return elicit::ToolResult::error("nothing booked");
    return elicit::ToolResult::text(who.value->name + " in " + std::string(elicit::to_string(what.value->room)));
  });
}

// A long call, as a task for a client that declares the io.modelcontextprotocol/tasks extension: the
// tools/call answers with a task at once, the form becomes the task's inputRequests, tasks/update
// brings the answer, tasks/get the result. Other clients get the same handler directly.
elicit::Tool book_every_week() {
  auto handler = [](elicit::RequestContext& ctx) {
    auto answer = ctx.elicit<app::RoomBooking>("Which room, every week?");
    if (!answer) return elicit::ToolResult::text(status_text(answer.status));
    int weeks = 0;
    for (; weeks < 52 && !ctx.cancelled(); ++weeks) {
      // book week `weeks` (idempotent: a task runs the handler again after each answer)
    }
    return elicit::ToolResult::text("Booked " + std::string(elicit::to_string(answer.value->room)) + " for " +
                                    std::to_string(weeks) + " weeks");
  };
  return elicit::Tool::blocking("book_every_week", handler)
      .with_description("Books a room every week for a year")
      .with_task_support(elicit::TaskSupport::optional);
}

// A prompt that asks before it answers; prompts/get may elicit like a tool.
elicit::Prompt plan_meeting() {
  auto handler = [](elicit::RequestContext& ctx) {
    const std::string topic = ctx.arguments().value("topic", "");
    auto room = ctx.elicit<app::RoomBooking>("Where should it take place?");
    const std::string where = room ? std::string(elicit::to_string(room.value->room)) : "anywhere";
    nlohmann::json text = {{"type", "text"}, {"text", "Plan a meeting about " + topic + " in " + where}};
    return nlohmann::json{{"messages", {{{"role", "user"}, {"content", text}}}}};
  };
  return elicit::Prompt::blocking("plan_meeting", handler)
      .with_description("Plans a meeting")
      .with_argument({"topic", "What the meeting is about", true});
}

// A resource, and a resource template whose variables arrive in ctx.arguments()["variables"].
elicit::Resource room_list() {
  return elicit::Resource::blocking("rooms://list", "rooms", [](elicit::RequestContext&) {
    nlohmann::json item = {{"uri", "rooms://list"}, {"mimeType", "text/plain"}, {"text", "aurora\nborealis"}};
    return nlohmann::json{{"contents", {item}}};
  });
}

elicit::ResourceTemplate room_page() {
  return elicit::ResourceTemplate::blocking("rooms://{name}", "room", [](elicit::RequestContext& ctx) {
    const std::string name = ctx.arguments()["variables"]["name"];
    nlohmann::json item = {{"uri", ctx.arguments()["uri"]}, {"mimeType", "text/plain"}, {"text", "Room " + name}};
    return nlohmann::json{{"contents", {item}}};
  });
}

}  // namespace

int main() {
  auto server = std::make_shared<elicit::Server>(elicit::ServerInfo{"rooms", "1.0.0"});
  server->add_tool(book_room());
  server->add_tool(register_user());
  server->add_tool(rename_room());
  server->add_tool(book_for_someone());
  server->add_tool(book_every_week());
  elicit::TaskOptions tasks;
  tasks.ttl = std::chrono::hours(1);  // a task stays readable for an hour after it was made
  server->set_task_store(std::make_shared<elicit::InMemoryTaskStore>(tasks));
  server->add_prompt(plan_meeting());
  server->add_resource(room_list());
  server->add_resource_template(room_page());

  elicit::ServerSessionOptions options;
  options.worker_threads = 8;                                      // blocking handlers running at once
  options.default_elicitation_timeout = std::chrono::minutes(10);  // 2025-11-25: then timed_out
  elicit::StdioTransport transport;                                // JSON-RPC lines on stdin/stdout
  elicit::ServerSession session(transport, server, options);
  session.run();  // until stdin closes
}
