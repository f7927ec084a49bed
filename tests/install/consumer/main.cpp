#include <iostream>

#include <elicit/completion_store.hpp>
#include <elicit/request_state.hpp>
#include <nlohmann/json.hpp>
#ifdef CONSUMER_HAVE_REDIS
#include <elicit/redis_completion_store.hpp>
#endif

#include "IDCard.hpp"          // IDCard.json
#include "RSVPForm.hpp"        // RSVPForm.json
#include "caf__.hpp"           // café.json
#include "cancel_booking.hpp"  // cancel-booking.json (additionalProperties: false)
#include "order.hpp"

int main() {
  const auto ok = shop::Order::decode(nlohmann::json::parse(R"({"item":"book","quantity":2,"gift":true})"));
  const auto bad = shop::Order::decode(nlohmann::json::parse(R"({"item":"","quantity":0})"));
  if (!ok || bad) return 1;
  std::cout << shop::Order::default_message() << "\n"
            << nlohmann::json(*ok.value).dump() << "\n"
            << bad.errors.to_string();

  // Output names come from the file names as they are: every one of these headers exists.
  const auto rsvp = shop::RsvpForm::decode(nlohmann::json::parse(R"({"attending":true,"guests":5})"));
  const auto id = shop::IdCard::decode(nlohmann::json::parse(R"({"number":"AB123456"})"));
  const auto coffee = shop::CafU00e9::parse(R"({"taille":"grand"})");
  if (rsvp || !id || !coffee) return 2;
  std::cout << rsvp.errors.to_string() << shop::CafU00e9::default_message() << "\n";

  // additionalProperties: false, on the DOM path and on the no-DOM reader alike.
  const auto extra = R"({"booking":"b1","extra":1,"more":{"x":[1]}})";
  const auto by_dom = shop::CancelBooking::decode(nlohmann::json::parse(extra));
  const auto by_text = shop::CancelBooking::parse(extra);
  const auto fine = shop::CancelBooking::parse(R"({"booking":"b1","reason":"ill"})");
  if (by_dom || by_text || !fine || by_dom.errors.to_string() != by_text.errors.to_string()) return 3;
  std::cout << by_text.errors.to_string();

  // The runtime's private dependencies (libsodium; hiredis for elicit::redis) reach the link.
  const elicit::RequestStateSealer sealer;
  const elicit::RequestStateBinding binding{"tools/call", "order", nlohmann::json::object(), ""};
  if (sealer.open(sealer.seal({{"round", 1}}, binding), binding) != nlohmann::json{{"round", 1}}) return 4;
  elicit::InMemoryCompletionStore completions;
  completions.complete("id", std::chrono::minutes(1));
#ifdef CONSUMER_HAVE_REDIS
  const elicit::RedisCompletionStore redis;  // connects lazily: nothing is sent
#endif
  return 0;
}
