// Differential test: for a corpus of contents made by mutating each property of each sample schema,
// generated T::decode(), the dynamic validator (elicit::validate_content) and the `elicitgen check`
// command must report exactly the same errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>

#include <elicit/schema.hpp>
#include <nlohmann/json.hpp>

#include "../common/run_command.hpp"
#include "sample_types.hpp"

using nlohmann::json;

namespace {

std::vector<json> candidate_values(const nlohmann::ordered_json& property) {
  std::vector<json> v = json::parse(R"([
    "", "a", "abc", "Ann", "ann@example.com", "a@b", "not an email", "2024-02-29", "2023-02-29",
    "2025-11-25T10:00:00Z", "2025-11-25T10:00:00", "https://example.com/x?y#z", "example.com", "ABC", "\u00e9\u00e9\u00e9",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com", "#FF0000", "Red", "12345", "12345-6789",
    0, -1, 17, 18, 30, 30.5, 50, 100, 100.5, 150, 151, 1e20, -9223372036854775808, 9223372036854775808, 1.0, 3, 4,
    true, false, null, [], {}, ["a"], ["Red"], ["Red", "Green"], ["Red", "Green", "Blue"], ["#FF0000"], [1], ["Pink"]
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
  if (!options.empty()) v.push_back(options);
  return v;
}

// Content objects: {} and each single-property mutation, plus seeded random combinations.
std::vector<json> corpus(const nlohmann::ordered_json& schema) {
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

test_support::CommandResult run_check(const std::string& schema_file, const std::string& name, const json& content) {
  const std::string data = std::string(TEST_TMP_DIR) + "/differential-" + std::to_string(getpid()) + ".json";
  std::ofstream(data) << content.dump();
  std::string cmd = std::string(ELICITGEN_BIN) + " check '" + schema_file + "' '" + data + "'";
  if (!name.empty()) cmd += " --name " + name;
  return test_support::run_command(cmd);
}

}  // namespace

TEST_CASE("generated decode() and the dynamic validator agree on every mutated content", "[differential]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    const auto form = elicit::parse_requested_schema(T::requested_schema());
    REQUIRE(form.ok());
    for (const auto& content : corpus(T::requested_schema())) {
      INFO(sample.file << " " << sample.name << ": " << content.dump());
      const auto generated = T::decode(content);
      const auto dynamic = elicit::validate_content(form.form, content);
      CHECK(generated.errors.errors == dynamic.errors);
      CHECK(generated.ok() == dynamic.ok());
      if (generated.ok()) {
        // A decoded value validates, re-encodes, and decodes to itself.
        CHECK(generated.value->validate().ok());
        const json again = *generated.value;
        CHECK(T::decode(again).value == generated.value);
      }
      ++compared;
    }
  });
  CHECK(compared > 1000);
}

TEST_CASE("`elicitgen check` agrees with generated decode()", "[differential][cli]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    const std::string file = std::string(SAMPLES_DIR) + "/" + sample.file;
    for (const auto& content : corpus(T::requested_schema())) {
      INFO(sample.file << " " << sample.name << ": " << content.dump());
      const auto generated = T::decode(content);
      const auto cli = run_check(file, sample.name, content);
      CHECK(cli.out == generated.errors.to_string());
      CHECK(cli.exit_code == (generated.ok() ? 0 : 1));
      ++compared;
    }
  });
  CHECK(compared > 1000);
}
