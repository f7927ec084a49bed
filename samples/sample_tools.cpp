// The sample tools, shared by the stdio and the Streamable HTTP sample servers: one tool per
// sample schema (form mode), the conformance suite's elicitation tools, two URL-mode tools (one
// finished out of band through a CompletionStore), one that answers URLElicitationRequiredError, and
// api_key, a typed form the user fills in the browser.
#include "sample_tools.hpp"

#include <chrono>
#include <cstdint>
#include <thread>

#include <elicit/content/formats.hpp>
#ifdef ELICITGEN_SAMPLE_BROWSER_FORMS
#include <elicit/forms/elicit_in_browser.hpp>
#endif
#include <nlohmann/json.hpp>

#include "api_key.hpp"
#include "confirm_deletion.hpp"
#include "contact_information.hpp"
#include "github_username.hpp"
#include "sep1034_defaults.hpp"
#include "sep1330_enums.hpp"
#include "shipping.hpp"
#include "spec_property_examples.hpp"
#include "stripe_customer.hpp"
#include "tools_call_elicitation.hpp"

namespace {

using elicit::ElicitStatus;
using elicit::RequestContext;
using elicit::Tool;
using elicit::ToolResult;

// The ElicitResult action a status came from ("accept", "decline", "cancel"), else the status.
std::string action_of(ElicitStatus s) {
  switch (s) {
    case ElicitStatus::accepted:
      return "accept";
    case ElicitStatus::declined:
      return "decline";
    case ElicitStatus::cancelled:
      return "cancel";
    default:
      return std::string(elicit::to_string(s));
  }
}

// One line a test (or a person) can read: the action and the typed content, or why there is none.
template <class T>
ToolResult describe(const elicit::Outcome<T>& o) {
  switch (o.status) {
    case ElicitStatus::accepted:
      return ToolResult::text("accept: " + nlohmann::json(*o.value).dump());
    case ElicitStatus::declined:
      return ToolResult::text("decline");
    case ElicitStatus::cancelled:
      return ToolResult::text("cancel");
    case ElicitStatus::unsupported:
      return ToolResult::text("unsupported: the client cannot show forms");
    case ElicitStatus::invalid_response: {
      std::string text = "invalid: " + o.problem;
      for (const auto& e : o.errors.errors) text += "\n" + e.pointer + ": " + e.message;
      return ToolResult::error(text);
    }
    default:
      return ToolResult::error(std::string(elicit::to_string(o.status)));
  }
}

// A tool that asks for T with `message` and reports the outcome. Asynchronous: a user filling in
// the form holds no thread (the conformance tools below show the blocking form).
template <class T>
Tool form_tool(std::string name, std::string description, std::string message) {
  return Tool::async(std::move(name),
                     [message = std::move(message)](std::shared_ptr<RequestContext> call) {
                       call->elicit_async<T>(message, [call](elicit::Outcome<T> o) { call->reply(describe(o)); });
                     })
      .with_description(std::move(description));
}

// "Elicitation completed: action=<accept/decline/cancel>, content={...}", as the conformance
// scenarios for SEP-1034 and SEP-1330 ask.
template <class T>
Tool conformance_tool(std::string name, std::string description) {
  return Tool::blocking(std::move(name),
                        [](RequestContext& call) {
                          const auto o = call.elicit<T>();
                          const auto content = o ? nlohmann::json(*o.value) : nlohmann::json::object();
                          return ToolResult::text("Elicitation completed: action=" + action_of(o.status) +
                                                  ", content=" + content.dump());
                        })
      .with_description(std::move(description));
}

}  // namespace

void add_sample_tools(elicit::Server& server) { add_sample_tools(server, nullptr); }

void add_sample_tools(elicit::Server& server, std::shared_ptr<elicit::CompletionStore> completions) {
  if (!completions) completions = std::make_shared<elicit::InMemoryCompletionStore>();
  using namespace samples;
  server.add_tool(form_tool<ContactInformation>("contact_information", "Asks for name, email and age",
                                                std::string(elicit::default_message<ContactInformation>())));
  server.add_tool(form_tool<GithubUsername>("github_username", "Asks for a GitHub username",
                                            std::string(elicit::default_message<GithubUsername>())));
  server.add_tool(form_tool<StripeCustomer>("stripe_customer", "Asks which customer was meant",
                                            std::string(elicit::default_message<StripeCustomer>())));
  server.add_tool(form_tool<Sep1034Defaults>("sep1034_defaults", "A form with a default for every kind",
                                             std::string(elicit::default_message<Sep1034Defaults>())));
  server.add_tool(form_tool<Sep1330Enums>("sep1330_enums", "The five enum variants",
                                          std::string(elicit::default_message<Sep1330Enums>())));
  server.add_tool(form_tool<SpecPropertyExamples>("spec_property_examples", "One property of each kind",
                                                  std::string(elicit::default_message<SpecPropertyExamples>())));
  server.add_tool(form_tool<ConfirmDeletion>("confirm_deletion", "A confirm-only form",
                                             std::string(elicit::default_message<ConfirmDeletion>())));
  server.add_tool(form_tool<ShippingAddress>("shipping_address", "Asks where to ship",
                                             std::string(elicit::default_message<ShippingAddress>())));
  server.add_tool(form_tool<DeliveryWindow>("delivery_window", "Asks when to deliver", "When should we deliver?"));

  // Two forms one after the other; in the 2026-07-28 era two rounds, the address carried in the
  // sealed requestState of the second.
  server.add_tool(Tool::blocking("plan_delivery", [](RequestContext& call) {
                    const auto address = call.elicit<ShippingAddress>("Where should we ship your order?");
                    if (!address) return describe(address);
                    const auto window = call.elicit<DeliveryWindow>("When should we deliver?");
                    if (!window) return describe(window);
                    return ToolResult::text("accept: " + nlohmann::json(*address.value).dump() + " / " +
                                            nlohmann::json(*window.value).dump());
                  }).with_description("Asks where to ship, then when to deliver"));

  // The conformance suite's tools-call-elicitation tool: the message comes from the arguments.
  server.add_tool(
      Tool::blocking("test_elicitation",
                     [](RequestContext& call) {
                       const auto message =
                           call.arguments().value("message", std::string("Please provide your information"));
                       const auto o = call.elicit<ToolsCallElicitation>(message);
                       nlohmann::json content = o ? nlohmann::json(*o.value) : nlohmann::json::object();
                       return ToolResult::text("User response: <action: " + action_of(o.status) +
                                               ", content: " + content.dump() + ">");
                     })
          .with_description("Requests user input (username, email) with the given message")
          .with_input_schema(
              {{"type", "object"},
               {"properties", {{"message", {{"type", "string"}, {"description", "The message to show the user"}}}}},
               {"required", {"message"}}}));

  // URL mode: the user opens a page out of band; this sample completes it at once on accept.
  server.add_tool(Tool::blocking("connect_account", [](RequestContext& call) {
                    const auto o = call.elicit_url("Connect your Example Co account to continue.",
                                                   "https://mcp.example.com/connect");
                    if (o.status != ElicitStatus::accepted)
                      return ToolResult::text("url " + std::string(elicit::to_string(o.status)));
                    // 2026-07-28 has no elicitationId: the client learns by retrying.
                    if (call.stateless()) return ToolResult::text("url accepted");
                    elicit::complete_url_elicitation(call.state(), o.elicitation_id);
                    return ToolResult::text("url accepted: " + o.elicitation_id);
                  }).with_description("Sends the user to a page to connect an account (URL mode)"));

  // URL mode finished out of band: the user signs in on a page, and the page (the application's
  // web side, not part of this sample) marks the interaction complete in the CompletionStore,
  // keyed by the id in the URL. The tool goes on only once it is. In MCP 2026-07-28 the server
  // learns of it on the client's retry, so the processes behind a load balancer share the store
  // (elicitgen_http_server --redis PORT). 2025-11-25: `accepted` is the user's consent; the page would
  // announce completion with complete_url_elicitation().
  server.add_tool(Tool::blocking("sign_in", [completions](RequestContext& call) {
                    const auto id = call.interaction_id("sign-in");
                    const auto o = call.elicit_url_completed("Sign in with Example Co to continue.",
                                                             "https://mcp.example.com/sign-in?interaction=" + id, id,
                                                             *completions);
                    if (o.status != ElicitStatus::accepted)
                      return ToolResult::text("sign-in " + std::string(elicit::to_string(o.status)));
                    if (call.stateless()) return ToolResult::text("signed in: " + id);
                    return ToolResult::text("sign-in opened: " + o.elicitation_id);
                  }).with_description("Signs the user in with Example Co (URL mode, finished out of band)"));

  // Sensitive input, typed: the API key is asked on a page the server serves (URL mode), so it
  // never passes through the MCP client; the result names the service and the key's length, never
  // the key. Needs the server's BrowserForms (the HTTP sample serves pages under /forms/, the stdio
  // sample on a loopback page server).
  // `expires_in_ms` shortens the page's life (ten minutes by default), so that a test can see it expire.
  // Built with the browser forms wing (elicit::forms, which needs the HTTP layer).
#ifdef ELICITGEN_SAMPLE_BROWSER_FORMS
  server.add_tool(
      Tool::blocking("api_key",
                     [](RequestContext& call) {
                       elicit::forms::BrowserFormOptions options;
                       const auto& args = call.arguments();
                       if (const auto e = args.find("expires_in_ms");
                           e != args.end() && e->is_number_integer() && *e >= 1 && *e <= 600000) {
                         options.expires_in = std::chrono::milliseconds(e->get<std::int64_t>());
                       }
                       const auto o = elicit::forms::elicit_in_browser<samples::ApiKey>(call, options);
                       if (!o) return ToolResult::text("api key " + std::string(elicit::to_string(o.status)));
                       return ToolResult::text(
                           "connected " + std::string(elicit::to_string(o.value->service)) + " with a key of " +
                           std::to_string(elicit::code_point_length(o.value->api_key)) + " characters");
                     })
          .with_description("Connects a service with its API key, asked in the browser (URL mode)")
          .with_input_schema(
              {{"type", "object"},
               {"properties",
                {{"expires_in_ms",
                  {{"type", "integer"},
                   {"minimum", 1},
                   {"maximum", 600000},
                   {"description", "How long the page takes an answer, in milliseconds (default 600000)"}}}}}}));
#endif

  // The request cannot proceed until the user authorizes out of band: -32042.
  server.add_tool(Tool::blocking("read_private_files", [](RequestContext& call) -> ToolResult {
                    throw elicit::UrlElicitationRequired({elicit::create_url_elicitation(
                        call.state(), "Authorization is required to access your Example Co files.",
                        "https://mcp.example.com/authorize")});
                  }).with_description("Needs third-party authorization first"));

  // The conformance suite's SSE polling tool (SEP-1699): the call lets go of its connection and
  // answers a little later; the client resumes the stream with GET and Last-Event-ID to get it.
  // On stdio, where there is no connection to close, it just answers.
  server.add_tool(
      Tool::blocking("test_reconnection", [](RequestContext& call) {
        call.close_sse_stream();
        // Blocking handlers may wait; 100 ms lets the close reach the client first.
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return ToolResult::text("Reconnection test completed successfully");
      }).with_description("Closes the call's SSE connection mid-call; the result arrives after the client resumes"));

  // x-mcp-header (MCP 2026-07-28, SEP-2243): `region` travels as the Mcp-Param-Region header too,
  // so a proxy can route on it; the server refuses a 2026-07-28 call whose header does not agree
  // with the body (-32020). Any region is accepted.
  server.add_tool(
      Tool::blocking("query_region",
                     [](RequestContext& call) {
                       const auto& args = call.arguments();
                       return ToolResult::text("region " + args.value("region", std::string()) + ": " +
                                               args.value("query", std::string("(no query)")));
                     })
          .with_description("Runs a query in a region; the region is mirrored in the Mcp-Param-Region header")
          .with_input_schema(
              {{"type", "object"},
               {"properties",
                {{"region",
                  {{"type", "string"}, {"description", "Where to run the query"}, {"x-mcp-header", "Region"}}},
                 {"query", {{"type", "string"}, {"description", "What to run"}}}}},
               {"required", {"region"}}}));

  server.add_tool(conformance_tool<Sep1034Defaults>("test_elicitation_sep1034_defaults",
                                                    "Elicitation with a default for every primitive type (SEP-1034)"));
  server.add_tool(conformance_tool<Sep1330Enums>("test_elicitation_sep1330_enums",
                                                 "Elicitation with all five enum schema variants (SEP-1330)"));
  add_mrtr_fixtures(server);
  add_conformance_fixtures(server);
  add_task_fixtures(server);
}
