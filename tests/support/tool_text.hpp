// The text of a tool result's first content block; fails the test (showing the result) when it has
// no content.
#pragma once

#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace test_support {

inline std::string text_of(const nlohmann::json& result) {
  INFO(result.dump());
  REQUIRE(result.contains("content"));
  return result["content"][0]["text"].get<std::string>();
}

}  // namespace test_support
