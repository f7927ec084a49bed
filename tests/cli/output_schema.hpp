// The JSON Schemas docs/ keeps for `elicitgen client`'s output (docs/schemas/client-output.schema.json)
// and its park file (docs/schemas/parked-call.schema.json), applied with the runtime's own validator
// (<elicit/content/json_schema.hpp>), so that what the docs promise is what the tests see.
#pragma once

#include <map>
#include <string>

#include <catch2/catch.hpp>
#include <elicit/content/json_schema.hpp>
#include <nlohmann/json.hpp>

#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace test_support {

/// CHECKs that `instance` satisfies docs/schemas/NAME (e.g. "client-output.schema.json"), saying
/// each violation where it fails.
inline void check_schema(const std::string& name, const nlohmann::json& instance) {
  static std::map<std::string, elicit::JsonSchema> schemas;
  auto it = schemas.find(name);
  if (it == schemas.end()) {
    const auto text = read_file(std::string(SOURCE_DIR) + "/docs/schemas/" + name);
    it = schemas.emplace(name, elicit::JsonSchema(nlohmann::json::parse(text))).first;
    REQUIRE(it->second.unsupported().empty());  // every keyword the schema uses is judged
  }
  const auto violations = it->second.validate(instance);
  std::string said;
  for (const auto& v : violations) said += v.instance_pointer + " (" + v.schema_pointer + "): " + v.message + "\n";
  INFO(name << " against " << instance.dump() << "\n" << said);
  CHECK(violations.empty());
}

}  // namespace test_support
