#include <iostream>

#include <elicit/completion_store.hpp>
#include <elicit/request_state.hpp>
#include <nlohmann/json.hpp>
#ifdef CONSUMER_HAVE_REDIS
#include <elicit/redis/completion_store.hpp>
#endif
#ifdef CONSUMER_HAVE_FORMS_REDIS
#include <elicit/forms/redis_page_store.hpp>
#endif

#include "IDCard.hpp"          // IDCard.json
#include "RSVPForm.hpp"        // RSVPForm.json
#include "caf__.hpp"           // café.json
#include "cancel_booking.hpp"  // cancel-booking.json (additionalProperties: false)
#include "order.hpp"

int main() {
  const auto ok = elicit::decode<shop::Order>(nlohmann::json::parse(R"({"item":"book","quantity":2,"gift":true})"));
  const auto bad = elicit::decode<shop::Order>(nlohmann::json::parse(R"({"item":"","quantity":0})"));
  if (!ok || bad) return 1;
  std::cout << elicit::default_message<shop::Order>() << "\n"
            << nlohmann::json(*ok.value).dump() << "\n"
            << bad.errors.to_string();

  // Output names come from the file names as they are: every one of these headers exists.
  const auto rsvp = elicit::decode<shop::RsvpForm>(nlohmann::json::parse(R"({"attending":true,"guests":5})"));
  const auto id = elicit::decode<shop::IdCard>(nlohmann::json::parse(R"({"number":"AB123456"})"));
  const auto coffee = elicit::decode_text<shop::CafU00e9>(R"({"taille":"grand"})");
  if (rsvp || !id || !coffee) return 2;
  std::cout << rsvp.errors.to_string() << elicit::default_message<shop::CafU00e9>() << "\n";

  // additionalProperties: false, from a DOM and from text alike.
  const auto extra = R"({"booking":"b1","extra":1,"more":{"x":[1]}})";
  const auto by_dom = elicit::decode<shop::CancelBooking>(nlohmann::json::parse(extra));
  const auto by_text = elicit::decode_text<shop::CancelBooking>(extra);
  const auto fine = elicit::decode_text<shop::CancelBooking>(R"({"booking":"b1","reason":"ill"})");
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
#ifdef CONSUMER_HAVE_FORMS_REDIS
  const elicit::forms::RedisPageStore forms;  // likewise
#endif
  return 0;
}
