// One elicitation round trip per sample schema, through the real runtime: a server jsonrpc::Connection sends
// elicitation/create for each generated type over an in-memory transport, a scripted client
// jsonrpc::Connection shows the request and answers as a user would, and the server gets the typed outcome.
#include <deque>
#include <iostream>
#include <mutex>
#include <string>

#include <elicit/elicitation.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>
#include <nlohmann/json.hpp>

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

using nlohmann::json;

// The client side: prints each request it gets and answers with the next scripted result.
class ScriptedClient {
 public:
  explicit ScriptedClient(elicit::Transport& transport) : session_(transport) {
    session_.on_request("elicitation/create", [this](const elicit::Request& r, elicit::Responder out) {
      json answer;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        answer = answers_.front();
        answers_.pop_front();
      }
      std::cout << "   client got elicitation/create: " << r.params["message"].dump() << ", "
                << r.params["requestedSchema"]["properties"].size()
                << " properties\n   client answers: " << answer.dump() << "\n";
      out.result(answer);
    });
    session_.start();
  }
  void will_answer(json result) {
    std::lock_guard<std::mutex> lock(mutex_);
    answers_.push_back(std::move(result));
  }

 private:
  std::mutex mutex_;
  std::deque<json> answers_;
  elicit::jsonrpc::Connection session_;
};

json accept(const char* content) { return {{"action", "accept"}, {"content", json::parse(content)}}; }

int failures = 0;

// Elicits a T (blocking) and prints the typed outcome; `expect_valid` is what the answer deserves.
template <class T>
void round_trip(const char* label, elicit::SessionState& server, ScriptedClient& client, json answer,
                std::string_view message, bool expect_valid) {
  std::cout << "== " << label << "\n";
  client.will_answer(std::move(answer));
  const auto o = elicit::elicit<T>(server, message);
  std::cout << "   server outcome: " << elicit::to_string(o.status);
  if (o) std::cout << ", typed value re-encoded: " << json(*o.value).dump();
  std::cout << "\n";
  for (const auto& e : o.errors.errors) std::cout << "     " << e.pointer << ": " << e.message << "\n";
  const bool valid = o.status != elicit::ElicitStatus::invalid_response;
  if (valid != expect_valid) {
    std::cout << "   UNEXPECTED\n";
    ++failures;
  }
}

}  // namespace

int main() {
  using namespace samples;
  auto [server_end, client_end] = elicit::MemoryTransport::pair();
  elicit::jsonrpc::Connection rpc(*server_end);
  elicit::SessionState server(rpc);
  ScriptedClient client(*client_end);
  // What the client declared in initialize (a full server reads it from the initialize request).
  server.set_client_capabilities(elicit::ClientCapabilities::from_json({{"elicitation", json::object()}}));
  rpc.start();

  round_trip<GithubUsername>("github_username", server, client, accept(R"({"name":"octocat"})"),
                             elicit::default_message<GithubUsername>(), true);
  round_trip<ContactInformation>("contact_information", server, client,
                                 accept(R"({"name":"Monalisa Octocat","email":"octocat@github.com","age":30})"),
                                 elicit::default_message<ContactInformation>(), true);
  round_trip<ContactInformation>("contact_information (invalid answer)", server, client,
                                 accept(R"({"name":"Monalisa","email":"octocat at github","age":17})"),
                                 elicit::default_message<ContactInformation>(), false);
  round_trip<StripeCustomer>("stripe_customer", server, client, accept(R"({"customer_id":"cus_9c44"})"),
                             elicit::default_message<StripeCustomer>(), true);
  round_trip<ToolsCallElicitation>("tools_call_elicitation", server, client,
                                   accept(R"({"username":"testuser","email":"test@example.com"})"),
                                   elicit::default_message<ToolsCallElicitation>(), true);
  round_trip<Sep1034Defaults>("sep1034_defaults (the client filled in nothing: defaults apply)", server, client,
                              accept("{}"), elicit::default_message<Sep1034Defaults>(), true);
  round_trip<Sep1330Enums>(
      "sep1330_enums", server, client,
      accept(
          R"({"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]})"),
      elicit::default_message<Sep1330Enums>(), true);
  round_trip<Sep1330Enums>("sep1330_enums (a title instead of a value)", server, client,
                           accept(R"({"titledMulti":["First Choice"]})"), elicit::default_message<Sep1330Enums>(),
                           false);
  round_trip<SpecPropertyExamples>(
      "spec_property_examples", server, client,
      accept(
          R"({"display_name":"ann@example.com","letters_only":"Ann","count":7,"colors":["Blue"],"when":"2024-02-29","starts_at":"2025-11-25T09:30:00+01:00","homepage":"https://example.com/a?b#c"})"),
      elicit::default_message<SpecPropertyExamples>(), true);
  round_trip<ConfirmDeletion>("confirm_deletion", server, client, {{"action", "accept"}},
                              elicit::default_message<ConfirmDeletion>(), true);
  round_trip<ConfirmDeletion>("confirm_deletion (declined)", server, client,
                              {{"action", "decline"}, {"content", nullptr}}, elicit::default_message<ConfirmDeletion>(),
                              true);
  round_trip<ShippingAddress>("shipping: ShippingAddress", server, client,
                              accept(R"({"recipient":"Ann","street":"1 Main St","postalCode":"12345-6789"})"),
                              elicit::default_message<ShippingAddress>(), true);
  round_trip<DeliveryWindow>("shipping: DeliveryWindow (cancelled)", server, client, {{"action", "cancel"}},
                             "When should we deliver?", true);

  std::cout << (failures == 0 ? "all round trips behaved as expected\n" : "UNEXPECTED RESULTS\n");
  return failures == 0 ? 0 : 1;
}
