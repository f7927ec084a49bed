// The tools both userInteraction fixtures serve (tests/support/interaction_fixture.hpp over the
// in-memory transport, tests/http/user_interaction_http_test.cpp over Streamable HTTP): one per way
// a handler reaches the user besides a typed form, whose type each fixture picks itself.
#pragma once

#include <string>

#include <elicit/protocol/user_interaction.hpp>
#include <elicit/server_session.hpp>

namespace interaction_test {

/// Adds:
///  - open: call.elicit_url("Sign in", ...); "STATUS ELICITATION_ID";
///  - needs_auth: throws UrlElicitationRequired (one URL elicitation);
///  - finish {id}: interaction_progress(50 of 100) then complete_url_elicitation(id); "SENT ended"
///    or "SENT unknown", what the application's page does as the user gets through a ua interaction;
///  - raw {params}: request_input of an untyped elicitation/create with those params; the outcome's
///    result, or "error CODE", or "failure".
inline void add_tools(elicit::Server& server) {
  using elicit::RequestContext;
  using elicit::Tool;
  using elicit::ToolResult;
  using nlohmann::json;
  const json open_args{{"type", "object"}};
  server.add_tool(Tool{"open", "", open_args, std::nullopt,
                       [](RequestContext& call) {
                         auto o = call.elicit_url("Sign in", "https://auth.example.com/start?x=1");
                         return ToolResult::text(std::string(to_string(o.status)) + " " + o.elicitation_id);
                       },
                       nullptr});
  server.add_tool(Tool{"needs_auth", "", open_args, std::nullopt,
                       [](RequestContext& call) -> ToolResult {
                         throw elicit::UrlElicitationRequired({elicit::create_url_elicitation(
                             call.state(), "Authorization is required", "https://mcp.example.com/connect")});
                       },
                       nullptr});
  server.add_tool(Tool{"finish", "", open_args, std::nullopt,
                       [](RequestContext& call) {
                         const auto id = call.arguments().value("id", std::string());
                         const auto sent = elicit::interaction_progress(call.state(), id, 50, 100, "half way");
                         const bool ended = elicit::complete_url_elicitation(call.state(), id);
                         return ToolResult::text(std::to_string(sent) + " " + (ended ? "ended" : "unknown"));
                       },
                       nullptr});
  server.add_tool(Tool{
      "raw", "", open_args, std::nullopt,
      [](RequestContext& call) {
        const auto o = call.request_input({"elicitation/create", call.arguments().value("params", json::object()), ""});
        if (o.result) return ToolResult::text(o.result->dump());
        if (o.error) return ToolResult::text("error " + std::to_string(o.error->code));
        return ToolResult::text("failure");
      },
      nullptr});
}

}  // namespace interaction_test
