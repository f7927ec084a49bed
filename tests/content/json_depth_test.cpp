#include <catch2/catch.hpp>

#include <string>

#include <elicit/content/json_depth.hpp>

namespace json_depth_test {

using elicit::find_too_deep;

TEST_CASE("find_too_deep finds the bracket that opens one level too many", "[json_depth]") {
  constexpr auto npos = std::string_view::npos;
  CHECK(find_too_deep("", 0) == npos);
  CHECK(find_too_deep("1", 0) == npos);
  CHECK(find_too_deep("[]", 0) == 0);
  CHECK(find_too_deep("[]", 1) == npos);
  CHECK(find_too_deep(R"({"a":[{"b":[]}]})", 4) == npos);
  CHECK(find_too_deep(R"({"a":[{"b":[]}]})", 3) == 11);
  // Siblings do not add up.
  CHECK(find_too_deep("[[],[],[[]]]", 3) == npos);
  CHECK(find_too_deep("[[],[],[[]]]", 2) == 8);
  // Brackets inside strings do not count, escaped quotes do not end them.
  CHECK(find_too_deep(R"(["[[[[", "\"[[[", "\\", "{"])", 1) == npos);
  CHECK(find_too_deep(R"(["\\"[])", 1) == 5);
  // Unbalanced closers never make the depth negative.
  CHECK(find_too_deep("]]]][[", 1) == 5);
  const std::string at_limit = std::string(elicit::kMaxJsonDepth, '[') + std::string(elicit::kMaxJsonDepth, ']');
  CHECK(find_too_deep(at_limit) == npos);
  CHECK(find_too_deep("[" + at_limit + "]") == elicit::kMaxJsonDepth);
}

}  // namespace json_depth_test
