// Generated types with only elicit::content linked: decode, validate and write JSON.
#include <iostream>

#include <nlohmann/json.hpp>

#include "order.hpp"

int main() {
  const auto ok = elicit::decode<types::Order>(nlohmann::json::parse(R"({"item":"pen","quantity":3,"gift":false})"));
  const auto bad = elicit::decode_text<types::Order>(R"({"item":"pen","quantity":0})");
  if (!ok || bad) return 1;
  std::cout << nlohmann::json(*ok.value).dump() << "\n" << bad.errors.to_string();
  return 0;
}
