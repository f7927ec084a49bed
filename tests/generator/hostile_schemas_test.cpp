// Hostile schema files: for each, `elicitgen generate` either writes code that compiles warning-free
// (g++/clang -fsyntax-only -Wall -Wextra -Wpedantic -Werror, C++17) or fails with exit 1, an error
// that names the file and where in it, and no output. Small cases are files in
// tests/schemas/hostile/; the large ones (deep nesting, 10,000 properties, megabyte strings,
// 20,000-option enums) are written here, deterministically. Names with quotes, backslashes, `*/`,
// newlines, NUL and C++ keywords are tests/schemas/compile/hostile_names.json, compiled and
// round-tripped by the generated tests; the names collisions give are in load_plan_test.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace hostile_schemas_test {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

struct Case {
  std::string file;      ///< path of the schema file
  std::string expected;  ///< empty: must generate and compile; else the error text after the file name
};

fs::path work_dir() {
  const auto dir = fs::path(TEST_TMP_DIR) / ("hostile-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string write(const fs::path& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string nested(std::size_t depth, const std::string& open, const std::string& inner, const std::string& close) {
  std::string s;
  s.reserve(depth * (open.size() + close.size()) + inner.size());
  for (std::size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (std::size_t i = 0; i < depth; ++i) s += close;
  return s;
}

std::vector<Case> written_cases(const fs::path& dir) {
  std::vector<Case> cases;
  const auto deep = nested(100000, "[", "", "]");
  cases.push_back({write(dir, "deep_default.json",
                         R"({"type":"object","properties":{"a":{"type":"string","default":)" + deep + "}}}"),
                   ":1:1060: error: JSON nested deeper than 1000 levels (a requestedSchema is a flat object)"});
  cases.push_back({write(dir, "deep_extension.json", R"({"type":"object","x-extension":)" + deep + "}"),
                   ":1:1031: error: JSON nested deeper than 1000 levels"});
  cases.push_back(
      {write(dir, "deep_properties.json",
             R"({"type":"object","properties":{"a":)" +
                 nested(20000, R"({"type":"object","properties":{"b":)", R"({"type":"string"})", "}}") + "}}"),
       ":1:17501: error: JSON nested deeper than 1000 levels"});
  // Nested objects below the limit: a located schema error, not a crash.
  cases.push_back(
      {write(dir, "nested_properties.json",
             R"({"type":"object","properties":{"a":)" +
                 nested(300, R"({"type":"object","properties":{"b":)", R"({"type":"string"})", "}}") + "}}"),
       ":1:37: error: /properties/a/type: nested objects are not allowed"});

  ordered_json many{{"type", "object"}, {"properties", ordered_json::object()}, {"required", ordered_json::array()}};
  for (int i = 0; i < 10000; ++i) {
    const auto name = "p" + std::to_string(i);
    many["properties"][name] = {{"type", i % 2 ? "string" : "integer"}, {"title", "Field " + std::to_string(i)}};
    if (i % 3 == 0) many["required"].push_back(name);
  }
  cases.push_back({write(dir, "ten_thousand_properties.json", many.dump()), ""});

  std::string mb;
  for (int i = 0; i < 500000; ++i) mb += "\xc3\xa9";  // é: 1,000,000 bytes, 500,000 code points
  const ordered_json big{{"type", "object"},
                         {"title", mb},
                         {"properties",
                          {{"s", {{"type", "string"}, {"description", mb}, {"default", mb}, {"maxLength", 500000}}},
                           {mb.substr(0, 2000), {{"type", "string"}, {"enum", {std::string(1000000, 'x'), "y"}}}},
                           {"p", {{"type", "string"}, {"pattern", "^(" + std::string(100000, 'a') + ")+$"}}}}}};
  cases.push_back({write(dir, "megabyte_strings.json", big.dump()), ""});

  ordered_json options = ordered_json::array();
  ordered_json titled = ordered_json::array();
  for (int i = 0; i < 20000; ++i) {
    options.push_back("v" + std::to_string(i));
    titled.push_back({{"const", "c" + std::to_string(i)}, {"title", "Option " + std::to_string(i)}});
  }
  const ordered_json enums{{"type", "object"},
                           {"properties",
                            {{"single", {{"type", "string"}, {"enum", options}}},
                             {"titled", {{"type", "string"}, {"oneOf", titled}}},
                             {"multi", {{"type", "array"}, {"items", {{"type", "string"}, {"anyOf", titled}}}}}}}};
  cases.push_back({write(dir, "huge_enums.json", enums.dump()), ""});
  return cases;
}

std::string hostile(const std::string& name) { return std::string(SOURCE_DIR) + "/tests/schemas/hostile/" + name; }

}  // namespace

TEST_CASE("hostile schemas generate code that compiles, or fail with a located error and no output", "[cli][hostile]") {
  const auto dir = work_dir();
  auto cases = written_cases(dir);
  cases.push_back({hostile("backtracking.json"), ""});
  cases.push_back({hostile("int_beyond.json"), ""});
  // Properties named like the generated member functions, or that mangle to one name: renamed, never
  // a compile error (load_plan_test has the names and the warnings).
  cases.push_back({hostile("colliding_names.json"), ""});
  cases.push_back({hostile("backreference.json"),
                   ":1:59: error: /properties/a/pattern: pattern does not compile: at offset 5: backreferences are "
                   "not supported"});
  cases.push_back({hostile("int_default_beyond.json"),
                   ":1:54: error: /properties/i/default: default does not satisfy its own schema: must be an "
                   "integer within the 64-bit signed range"});
  cases.push_back({hostile("non_utf8.json"), ":1:34: error: malformed JSON: "});

  for (const auto& c : cases) {
    INFO(c.file);
    const auto out = dir / ("out-" + fs::path(c.file).stem().string());
    fs::remove_all(out);
    const auto r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + c.file + "' -o '" +
                                             out.string() + "' --namespace hostile 2>&1");
    if (!c.expected.empty()) {
      CHECK(r.exit_code == 1);
      CHECK_THAT(r.out, Catch::Contains(c.file + c.expected));
      CHECK(!fs::exists(out));
      continue;
    }
    REQUIRE(r.exit_code == 0);
    const auto source = out / (fs::path(c.file).stem().string() + ".cpp");
    REQUIRE(fs::exists(source));
    const auto compile = test_support::run_command(
        std::string(TEST_CXX) + " -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I '" + SOURCE_DIR +
        "/runtime/include' -I '" + out.string() + "' '" + source.string() + "' 2>&1 | head -c 4000");
    CHECK(compile.out == "");
  }
  fs::remove_all(dir);
}

}  // namespace hostile_schemas_test
