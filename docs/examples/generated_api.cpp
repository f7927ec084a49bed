// docs/generated-api.md: the generated types' API. Links only elicit::content (no MCP).
#include <iostream>

#include <nlohmann/json.hpp>
#include "contact.hpp"       // generated from forms/contact.json: struct app::Contact
#include "room_booking.hpp"  // generated from forms/room_booking.json: struct app::RoomBooking

namespace {

void decode_an_answer(const nlohmann::json& content) {
  auto decoded = elicit::decode<app::Contact>(content);  // types, required, every constraint
  if (!decoded) {
    for (const auto& e : decoded.errors.errors) std::cerr << e.pointer << ": " << e.message << "\n";
    return;
  }
  std::cout << decoded.value->name << " " << decoded.value->age.value_or(0) << "\n";
}

void build_and_check() {
  app::RoomBooking booking;  // projector = false: the schema's default
  booking.room = app::RoomBooking::Room::borealis;
  booking.attendees = 12;
  auto errors = elicit::validate(booking);  // every constraint, by JSON Pointer
  for (const auto& e : errors.errors) std::cerr << e.pointer << ": " << e.message << "\n";  // /attendees: must be <= 8
  nlohmann::json content = booking;  // to_json: {"attendees":12,"projector":false,"room":"borealis"}
  std::cout << content.dump() << "\n";
}

void enums() {
  auto room = app::RoomBooking::Room::aurora;
  std::string_view wire = elicit::to_string(room);  // "aurora": what goes on the wire
  std::string_view title = elicit::title_of(room);  // "Aurora (8 seats)": for people
  elicit::from_string("borealis", room);            // false when not an option
  std::cout << wire << " / " << title << "\n";
}

void schema_and_message() {
  const nlohmann::ordered_json& schema = elicit::requested_schema<app::RoomBooking>();  // as sent
  std::string_view message = elicit::default_message<app::RoomBooking>();               // the file's
  std::cout << message << "\n" << schema.dump(2) << "\n";
}

}  // namespace

int main() {
  decode_an_answer({{"name", "Ada"}, {"email", "ada@example.com"}, {"age", 36}});
  decode_an_answer({{"name", ""}, {"email", "ada"}, {"age", 17}});
  build_and_check();
  enums();
  schema_and_message();
  std::cout << (elicit::decode_text<app::Contact>("not json").errors.errors.size()) << "\n";
}
