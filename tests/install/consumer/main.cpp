#include <iostream>

#include <nlohmann/json.hpp>

#include "order.hpp"

int main() {
  const auto ok = shop::Order::decode(nlohmann::json::parse(R"({"item":"book","quantity":2,"gift":true})"));
  const auto bad = shop::Order::decode(nlohmann::json::parse(R"({"item":"","quantity":0})"));
  if (!ok || bad) return 1;
  std::cout << shop::Order::default_message() << "\n"
            << nlohmann::json(*ok.value).dump() << "\n"
            << bad.errors.to_string();
  return 0;
}
