// Response contents for the sample types: {} and each single-property mutation over a list of
// values of every JSON type, plus seeded random combinations. Shared by the differential tests.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace content_corpus {

using nlohmann::json;

inline std::vector<json> candidate_values(const nlohmann::ordered_json& property) {
  std::vector<json> v = json::parse(R"([
    "", "a", "abc", "Ann", "ann@example.com", "a@b", "not an email", "2024-02-29", "2023-02-29",
    "2025-11-25T10:00:00Z", "2025-11-25T10:00:00", "https://example.com/x?y#z", "example.com", "ABC", "\u00e9\u00e9\u00e9",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com", "#FF0000", "Red", "12345", "12345-6789",
    0, -1, 17, 18, 30, 30.5, 50, 100, 100.5, 150, 151, 1e20, -9223372036854775808, 9223372036854775808, 1.0, 3, 4,
    true, false, null, [], {}, ["a"], ["Red"], ["Red", "Green"], ["Red", "Green", "Blue"], ["Red", "Red"], ["#FF0000"], [1], ["Pink"]
  ])")
                            .get<std::vector<json>>();
  // The property's own options, alone and in arrays, so enum paths are exercised.
  std::vector<std::string> options;
  if (property.contains("enum")) options = property["enum"].get<std::vector<std::string>>();
  for (const auto* key : {"oneOf"}) {
    if (property.contains(key))
      for (const auto& o : property[key]) options.push_back(o["const"]);
  }
  if (property.contains("items")) {
    const auto& items = property["items"];
    if (items.contains("enum")) options = items["enum"].get<std::vector<std::string>>();
    if (items.contains("anyOf"))
      for (const auto& o : items["anyOf"]) options.push_back(o["const"]);
  }
  for (const auto& o : options) {
    v.emplace_back(o);
    v.push_back(json::array({o}));
  }
  if (!options.empty()) {
    v.push_back(options);
    v.push_back(json::array({options.front(), options.back(), options.front()}));  // a repeated option
  }
  return v;
}

// Content objects: {} and each single-property mutation, plus seeded random combinations.
inline std::vector<json> corpus(const nlohmann::ordered_json& schema) {
  std::vector<json> out{json::object(), json::array(), json("text")};
  std::vector<std::pair<std::string, json>> single;
  for (const auto& [name, property] : schema["properties"].items()) {
    for (auto& value : candidate_values(property)) single.emplace_back(name, value);
  }
  for (const auto& [name, value] : single) out.push_back(json{{name, value}});
  std::mt19937 rng(20251125);
  for (int i = 0; i < 60 && !single.empty(); ++i) {
    json c = json::object();
    for (int k = 0; k < 4; ++k) {
      const auto& [name, value] = single[rng() % single.size()];
      c[name] = value;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace content_corpus
