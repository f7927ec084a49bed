// One elicitation round trip per sample schema, at the message level: build the
// elicitation/create request from the generated type, take the client's ElicitResult, and decode
// it into the typed value (or the list of errors). The runtime issue adds transports and sessions.
#include <iostream>
#include <string>

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

int request_id = 0;

template <class T>
nlohmann::ordered_json make_request(std::string_view message) {
  return {
      {"jsonrpc", "2.0"},
      {"id", ++request_id},
      {"method", "elicitation/create"},
      {"params", {{"mode", "form"}, {"message", std::string(message)}, {"requestedSchema", T::requested_schema()}}}};
}

// Sends (prints) the request, then reads the client's response and decodes it as T.
template <class T>
bool round_trip(const char* label, std::string_view message, const std::string& response_text) {
  std::cout << "== " << label << "\n-> " << make_request<T>(message).dump() << "\n<- " << response_text << "\n";
  const auto response = nlohmann::json::parse(response_text);
  const auto& result = response.at("result");
  const auto action = result.at("action").get<std::string>();
  if (action != "accept") {
    std::cout << "   " << action << " (no content)\n";
    return true;
  }
  // An accept without content is an empty object (a confirm-only form has no properties).
  const auto content =
      result.contains("content") && !result["content"].is_null() ? result["content"] : nlohmann::json::object();
  const auto decoded = T::decode(content);
  if (!decoded) {
    std::cout << "   invalid content:\n";
    for (const auto& e : decoded.errors.errors) std::cout << "     " << e.pointer << ": " << e.message << "\n";
    return false;
  }
  std::cout << "   accepted: " << nlohmann::json(*decoded.value).dump() << "\n";
  return true;
}

std::string accept(int id, const std::string& content) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"action":"accept","content":)" + content +
         "}}";
}

}  // namespace

int main() {
  using namespace samples;
  int failures = 0;
  auto expect = [&failures](bool valid, bool got) { failures += valid != got; };

  expect(true, round_trip<GithubUsername>("github_username", GithubUsername::default_message(),
                                          accept(1, R"({"name":"octocat"})")));
  expect(true, round_trip<ContactInformation>(
                   "contact_information", ContactInformation::default_message(),
                   accept(2, R"({"name":"Monalisa Octocat","email":"octocat@github.com","age":30})")));
  expect(false,
         round_trip<ContactInformation>("contact_information (invalid)", ContactInformation::default_message(),
                                        accept(3, R"({"name":"Monalisa","email":"octocat at github","age":17})")));
  expect(true, round_trip<StripeCustomer>("stripe_customer", StripeCustomer::default_message(),
                                          accept(4, R"({"customer_id":"cus_9c44"})")));
  expect(true, round_trip<ToolsCallElicitation>("tools_call_elicitation", ToolsCallElicitation::default_message(),
                                                accept(5, R"({"username":"testuser","email":"test@example.com"})")));
  expect(true, round_trip<Sep1034Defaults>("sep1034_defaults (client applied no defaults)",
                                           Sep1034Defaults::default_message(), accept(6, R"({})")));
  expect(
      true,
      round_trip<Sep1330Enums>(
          "sep1330_enums", Sep1330Enums::default_message(),
          accept(
              7,
              R"({"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]})")));
  expect(false, round_trip<Sep1330Enums>("sep1330_enums (invalid)", Sep1330Enums::default_message(),
                                         accept(8, R"({"untitledSingle":"option9","titledMulti":["First Choice"]})")));
  expect(
      true,
      round_trip<SpecPropertyExamples>(
          "spec_property_examples", SpecPropertyExamples::default_message(),
          accept(
              9,
              R"({"display_name":"ann@example.com","letters_only":"Ann","count":7,"colors":["Blue"],"when":"2024-02-29","starts_at":"2025-11-25T09:30:00+01:00","homepage":"https://example.com/a?b#c"})")));
  expect(true, round_trip<ConfirmDeletion>("confirm_deletion", ConfirmDeletion::default_message(),
                                           R"({"jsonrpc":"2.0","id":10,"result":{"action":"accept"}})"));
  expect(true,
         round_trip<ConfirmDeletion>("confirm_deletion (declined)", ConfirmDeletion::default_message(),
                                     R"({"jsonrpc":"2.0","id":11,"result":{"action":"decline","content":null}})"));
  expect(true, round_trip<ShippingAddress>(
                   "shipping: ShippingAddress", ShippingAddress::default_message(),
                   accept(12, R"({"recipient":"Ann","street":"1 Main St","postalCode":"12345-6789"})")));
  expect(true, round_trip<DeliveryWindow>("shipping: DeliveryWindow", "When should we deliver?",
                                          accept(13, R"({"day":"2026-12-24","attempts":3})")));

  // The typed value in use: members, enum wire values and titles.
  const auto sep = Sep1330Enums::decode(nlohmann::json::parse(R"({"titledSingle":"value2","legacyEnum":"opt3"})"));
  std::cout << "== typed access\n   titledSingle = " << to_string(*sep.value->titled_single) << " (\""
            << title_of(*sep.value->titled_single) << "\"), legacyEnum title = \"" << title_of(*sep.value->legacy_enum)
            << "\"\n";
  std::cout << (failures == 0 ? "all round trips behaved as expected\n" : "UNEXPECTED RESULTS\n");
  return failures == 0 ? 0 : 1;
}
