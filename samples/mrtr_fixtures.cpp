// The fixtures the official conformance suite (0.2.0-alpha.12, 2026-07-28 requirements) calls for
// multi round-trip requests (input-required results) and the stateless server, written as any
// tool would be: each serves both eras (a 2025-11-25 session sends the same questions as
// server-to-client requests). See tests/interop/conformance/SCENARIOS.md.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "confirm_ok.hpp"
#include "favorite_color.hpp"
#include "prompt_context.hpp"
#include "sample_tools.hpp"
#include "user_name.hpp"

namespace {

using elicit::InputRequest;
using elicit::RequestContext;
using elicit::Tool;
using elicit::ToolResult;
using nlohmann::json;

// The text of a sampling/createMessage result, or "" when it has none.
std::string sampled_text(const elicit::RequestOutcome& o) {
  if (!o.result || !o.result->is_object()) return "";
  const auto content = o.result->find("content");
  if (content == o.result->end() || !content->is_object()) return "";
  return content->value("text", std::string());
}

std::size_t roots_count(const elicit::RequestOutcome& o) {
  if (!o.result || !o.result->is_object()) return 0;
  const auto roots = o.result->find("roots");
  return roots != o.result->end() && roots->is_array() ? roots->size() : 0;
}

// An untyped form question for request_inputs (the typed API is elicit<T>; these fixtures mix a
// form with sampling and roots in one round).
InputRequest form_request(std::string key, const std::string& message, const nlohmann::ordered_json& schema) {
  return InputRequest{
      "elicitation/create", {{"mode", "form"}, {"message", message}, {"requestedSchema", schema}}, std::move(key)};
}

InputRequest sampling_request(std::string key, const std::string& text, int max_tokens) {
  return InputRequest{
      "sampling/createMessage",
      {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}}}, {"maxTokens", max_tokens}},
      std::move(key)};
}

std::string action_text(elicit::ElicitStatus s) { return std::string(elicit::to_string(s)); }

}  // namespace

void add_mrtr_fixtures(elicit::Server& server) {
  using namespace samples;

  server.add_tool(Tool::blocking("test_input_required_result_elicitation", [](RequestContext& call) {
                    const auto o = call.elicit_keyed<UserName>("user_name", "What is your name?");
                    if (!o) return ToolResult::text("No name: " + action_text(o.status));
                    return ToolResult::text("Hello, " + o.value->name + "!");
                  }).with_description("Asks for the user's name (input-required result)"));

  server.add_tool(Tool::blocking("test_input_required_result_sampling", [](RequestContext& call) {
                    const auto o =
                        call.request_input(sampling_request("capital_question", "What is the capital of France?", 100));
                    return ToolResult::text("Sampling result: " + sampled_text(o));
                  }).with_description("Asks the client's model a question"));

  server.add_tool(Tool::blocking("test_input_required_result_list_roots", [](RequestContext& call) {
                    const auto o = call.request_input(InputRequest{"roots/list", json::object(), "client_roots"});
                    return ToolResult::text("Found " + std::to_string(roots_count(o)) + " root(s)");
                  }).with_description("Asks the client for its roots"));

  server.add_tool(Tool::blocking("test_input_required_result_request_state", [](RequestContext& call) {
                    const auto o = call.elicit_keyed<ConfirmOk>("confirm", "Please confirm");
                    if (!o) return ToolResult::text("not confirmed: " + action_text(o.status));
                    return ToolResult::text(std::string("state-ok: confirmed=") + (o.value->ok ? "true" : "false"));
                  }).with_description("Asks for a confirmation, with a requestState"));

  server.add_tool(Tool::blocking("test_input_required_result_multiple_inputs", [](RequestContext& call) {
                    const auto out = call.request_inputs(
                        {form_request("user_name", "What is your name?", elicit::requested_schema<UserName>()),
                         sampling_request("greeting", "Generate a greeting", 50),
                         InputRequest{"roots/list", json::object(), "client_roots"}});
                    const auto name = out[0].result
                                          ? out[0].result->value("content", json::object()).value("name", std::string())
                                          : std::string();
                    return ToolResult::text("multiple-inputs-ok: name=" + name + ", greeting=" + sampled_text(out[1]) +
                                            ", roots=" + std::to_string(roots_count(out[2])));
                  }).with_description("Asks for a form, a sampling and the roots in one round"));

  server.add_tool(
      Tool::blocking("test_input_required_result_multi_round", [](RequestContext& call) {
        const auto name = call.elicit_keyed<UserName>("step1", "Step 1: What is your name?");
        if (!name) return ToolResult::text("No name: " + action_text(name.status));
        const auto color = call.elicit_keyed<FavoriteColor>("step2", elicit::default_message<FavoriteColor>());
        if (!color) return ToolResult::text("No color: " + action_text(color.status));
        return ToolResult::text("Multi-round complete for " + name.value->name + " who likes " + color.value->color);
      }).with_description("Asks in two rounds, the first answer carried"));

  server.add_tool(Tool::blocking("test_input_required_result_tampered_state", [](RequestContext& call) {
                    const auto o = call.elicit_keyed<ConfirmOk>("confirm", "Please confirm");
                    return ToolResult::text("tampered-state-ok: " + action_text(o.status));
                  }).with_description("Asks for a confirmation; a requestState altered on the retry is refused"));

  server.add_tool(Tool::blocking("test_input_required_result_capabilities", [](RequestContext& call) {
                    const auto caps = call.client_capabilities();
                    std::vector<InputRequest> requests;
                    std::vector<std::string> keys;
                    if (caps.elicitation_form) {
                      requests.push_back(
                          form_request("elicit_input", "What is your name?", elicit::requested_schema<UserName>()));
                      keys.push_back("elicit_input");
                    }
                    if (caps.raw.contains("sampling")) {
                      requests.push_back(sampling_request("sample_input", "Sample request", 50));
                      keys.push_back("sample_input");
                    }
                    if (requests.empty()) return ToolResult::text("capabilities-ok: nothing to ask");
                    call.request_inputs(std::move(requests));
                    std::string received;
                    for (const auto& k : keys) received += (received.empty() ? "" : ", ") + k;
                    return ToolResult::text("capabilities-ok: received " + received);
                  }).with_description("Asks only for what the request's client capabilities declare"));

  // server-stateless: needs sampling, which a client declaring {} does not have: -32021.
  server.add_tool(Tool::blocking("test_missing_capability", [](RequestContext& call) {
                    call.require_client_capabilities({{"sampling", json::object()}});
                    return ToolResult::text("sampling is available");
                  }).with_description("Needs the client's sampling capability"));
  // server-stateless: asking must not put a server-to-client request on the response stream.
  server.add_tool(Tool::blocking("test_streaming_elicitation", [](RequestContext& call) {
                    const auto o = call.elicit<UserName>();
                    return ToolResult::text(o ? "Hello, " + o.value->name + "!" : "No name: " + action_text(o.status));
                  }).with_description("Asks for the user's name"));
  // server-stateless: no log message for a request that did not ask for one.
  server.add_tool(Tool::blocking("test_logging_tool", [](RequestContext&) {
                    return ToolResult::text("done, nothing logged");
                  }).with_description("Does some work without logging"));

  // server-stateless, subscriptions/listen: each call adds a tool (prompt) or, when it is there,
  // removes it; Server announces the change to every listener that asked for it. The core is
  // held weakly: it owns these tools.
  const std::weak_ptr<elicit::Server> weak_core = server.weak_from_this();  // held in a shared_ptr
  server.add_tool(Tool::blocking("test_trigger_tool_change", [weak_core](RequestContext&) {
                    const auto core = weak_core.lock();
                    if (!core) return ToolResult::error("the server is shutting down");
                    if (core->remove_tool("test_dynamic_tool")) return ToolResult::text("removed test_dynamic_tool");
                    core->add_tool(Tool::blocking("test_dynamic_tool", [](RequestContext&) {
                                     return ToolResult::text("dynamic");
                                   }).with_description("Added by test_trigger_tool_change"));
                    return ToolResult::text("added test_dynamic_tool");
                  }).with_description("Adds or removes the tool test_dynamic_tool"));
  server.add_tool(
      Tool::blocking("test_trigger_prompt_change", [weak_core](RequestContext&) {
        const auto core = weak_core.lock();
        if (!core) return ToolResult::error("the server is shutting down");
        if (core->remove_prompt("test_dynamic_prompt")) return ToolResult::text("removed test_dynamic_prompt");
        core->add_prompt(elicit::Prompt{
            "test_dynamic_prompt", "Added by test_trigger_prompt_change", {}, std::nullopt, [](RequestContext&) {
              return json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "dynamic"}}}}}}};
            }});
        return ToolResult::text("added test_dynamic_prompt");
      }).with_description("Adds or removes the prompt test_dynamic_prompt"));

  server.add_prompt(elicit::Prompt{
      "test_input_required_result_prompt",
      "A prompt that asks for its context first",
      {},
      std::nullopt,
      [](RequestContext& call) {
        const auto o = call.elicit_keyed<PromptContext>("user_context", "What context should the prompt use?");
        const std::string text =
            o ? "Prompt with context: " + o.value->context : "Prompt without context (" + action_text(o.status) + ")";
        return json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}}}};
      }});
}
