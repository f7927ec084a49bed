// JsonSchema against the official JSON-Schema-Test-Suite (Debian json-schema-test-suite 2.0.0, whose
// newest set is draft-07: every file of tests/draft7, every case, every test, except the skips below
// with their reasons), plus what the suite does not cover: the 2020-12 keywords, error messages and
// pointers, bounds, and malformed schemas.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <elicit/content/json_schema.hpp>

namespace json_schema_test {

using namespace elicit;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSuite = "/usr/share/json-schema-test-suite/tests/draft7";

// Whole files, and single cases ("file: case description"), left out, each with why.
const std::map<std::string, std::string> kSkipped{
    {"refRemote.json", "references to other documents (http://localhost:1234/...) are not supported"},
    {"definitions.json", "validates schemas against the draft-07 meta-schema, another document"},
    {"ref.json: remote ref, containing refs itself", "the draft-07 meta-schema is another document"},
    {"ref.json: ref overrides any sibling keywords",
     "draft-07 ignores the keywords next to $ref; 2020-12, the default dialect of MCP inputSchema, applies them"},
    {"ref.json: Recursive references between schemas",
     "relative $ref resolved against an $id base URI (http://localhost:1234/tree) is not supported"},
};

}  // namespace

TEST_CASE("JSON-Schema-Test-Suite draft-07: every test of every supported keyword", "[json_schema][suite]") {
  INFO("the Debian package json-schema-test-suite must be installed (scripts/setup-debian.sh)");
  REQUIRE(fs::is_directory(kSuite));
  std::size_t files = 0, cases = 0, run = 0, skipped = 0;
  std::vector<std::string> failures;
  for (const auto& entry : fs::directory_iterator(kSuite)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const auto file = entry.path().filename().string();
    ++files;
    std::ifstream in(entry.path());
    const auto doc = json::parse(in);
    for (const auto& c : doc) {
      ++cases;
      const auto name = file + ": " + c["description"].get<std::string>();
      if (kSkipped.count(file) || kSkipped.count(name)) {
        skipped += c["tests"].size();
        continue;
      }
      std::optional<JsonSchema> schema;
      try {
        schema.emplace(c["schema"]);
      } catch (const JsonSchemaError& e) {
        failures.push_back(name + ": does not compile: " + e.what());
        continue;
      }
      for (const auto& t : c["tests"]) {
        ++run;
        const bool valid = schema->validate(t["data"]).empty();
        if (valid != t["valid"].get<bool>())
          failures.push_back(name + " / " + t["description"].get<std::string>() + ": expected " +
                             (t["valid"].get<bool>() ? "valid" : "invalid"));
      }
    }
  }
  std::string report;
  for (const auto& f : failures) report += f + "\n";
  INFO(report);
  WARN("suite: " << files << " files, " << cases << " cases, " << run << " tests run, " << skipped << " skipped");
  CHECK(failures.empty());
  CHECK(run >= 350);  // 399 in Debian 12's 2.0.0: a broken walk would run far fewer
}

TEST_CASE("2020-12 keywords the draft-07 suite does not have", "[json_schema]") {
  const JsonSchema s(json::parse(R"({
    "$defs": {"positive": {"$anchor": "pos", "type": "integer", "exclusiveMinimum": 0}},
    "type": "object",
    "properties": {
      "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#pos"}], "items": false},
      "tags": {"type": "array", "contains": {"const": "x"}, "minContains": 2, "maxContains": 3},
      "card": {"type": "string"},
      "n": {"$ref": "#/$defs/positive"}
    },
    "dependentRequired": {"card": ["cvv"]},
    "dependentSchemas": {"n": {"required": ["pair"]}}
  })"));
  CHECK(s.validate(json{{"pair", {"a", 1}}, {"tags", {"x", "x"}}}).empty());
  CHECK_FALSE(s.validate(json{{"pair", {"a", 1, 2}}}).empty());  // items: false after the prefix
  CHECK_FALSE(s.validate(json{{"pair", {"a", 0}}}).empty());     // #pos: exclusiveMinimum 0
  CHECK_FALSE(s.validate(json{{"tags", {"x"}}}).empty());
  CHECK_FALSE(s.validate(json{{"tags", {"x", "x", "x", "x"}}}).empty());
  CHECK_FALSE(s.validate(json{{"card", "4111"}}).empty());
  CHECK_FALSE(s.validate(json{{"n", 3}}).empty());
  CHECK(s.validate(json{{"n", 3}, {"pair", {"a"}}}).empty());
}

TEST_CASE("pattern and patternProperties in a schema reached through $ref are applied", "[json_schema]") {
  // Patterns were once looked up by the schema pointer of the path taken, so a schema reached
  // through $ref (validated under ".../$ref") never found its own: pattern was skipped, and a
  // patternProperties key counted as an additional property.
  const JsonSchema s(json::parse(R"({
    "$defs": {
      "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
      "tagged": {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                 "additionalProperties": false}
    },
    "type": "object",
    "properties": {"code": {"$ref": "#/$defs/code"}, "meta": {"$ref": "#/$defs/tagged"}},
    "oneOf": [{"$ref": "#/$defs/tagged"}, {"required": ["code"]}]
  })"));
  CHECK(s.validate(json{{"code", "ABC"}}).empty());
  const auto bad_code = s.validate(json{{"code", "abc"}});
  REQUIRE(bad_code.size() == 1);
  CHECK(bad_code[0].instance_pointer == "/code");
  CHECK_THAT(bad_code[0].message, Catch::Contains("must match the pattern"));
  CHECK(s.validate(json{{"code", "ABC"}, {"meta", {{"x-a", "1"}}}}).empty());
  CHECK_FALSE(s.validate(json{{"code", "ABC"}, {"meta", {{"x-a", 1}}}}).empty());  // the pattern's schema
  CHECK_FALSE(s.validate(json{{"code", "ABC"}, {"meta", {{"y", "1"}}}}).empty());  // not matched: additional
  CHECK(s.validate(json{{"x-only", "v"}}).empty());  // the first oneOf branch, through $ref
}

TEST_CASE("violations say where and why, every one up to the bound", "[json_schema]") {
  const JsonSchema s(json::parse(R"({
    "type": "object",
    "required": ["email"],
    "properties": {
      "name": {"type": "string", "minLength": 3, "maxLength": 5},
      "age": {"type": "integer", "minimum": 18},
      "kind": {"oneOf": [{"const": "a"}, {"type": "string"}]}
    },
    "additionalProperties": false
  })"));
  const auto v = s.validate(json{{"name", "é"}, {"age", 17.5}, {"kind", "a"}, {"extra", 1}});
  REQUIRE(v.size() == 6);
  CHECK(v[0].instance_pointer == "");
  CHECK(v[0].schema_pointer == "/required");
  CHECK(v[0].message == "missing required property \"email\"");
  // Properties in the instance's order (nlohmann's: sorted): age, extra, kind, name.
  CHECK(v[1].instance_pointer == "/age");
  CHECK(v[1].message == "must be of type \"integer\"");
  CHECK(v[2].message == "must be at least 18");
  CHECK(v[3].instance_pointer == "/extra");
  CHECK(v[3].message == "is not allowed (additionalProperties: false)");
  CHECK(v[4].instance_pointer == "/kind");
  CHECK(v[4].message == "must match exactly one of the oneOf schemas (2 matched)");
  CHECK(v[5].instance_pointer == "/name");
  CHECK(v[5].schema_pointer == "/properties/name/minLength");
  CHECK(v[5].message == "must be at least 3 characters long");  // "é" is one code point
  CHECK(s.validate(json{{"name", "é"}, {"age", 17.5}, {"kind", "a"}, {"extra", 1}}, 2).size() == 2);
}

TEST_CASE("bounds: a $ref cycle, deep instances, and unsupported keywords ignored", "[json_schema]") {
  const JsonSchema loop(
      json::parse(R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})"));
  const auto v = loop.validate(1);
  REQUIRE_FALSE(v.empty());
  CHECK(v[0].message == "the schema recurses too deeply here");

  const JsonSchema tree(json::parse(R"({"type": "array", "items": {"$ref": "#"}})"));
  json deep = json::array();
  for (int i = 0; i < 10000; ++i) {  // moved, never copied: a copy would recurse 10,000 deep
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  CHECK_FALSE(tree.validate(deep).empty());  // nested beyond the bound: refused, not a crash
  json shallow = json::array({json::array({json::array()})});
  CHECK(tree.validate(shallow).empty());

  const JsonSchema remote(json::parse(
      R"({"properties": {"a": {"$ref": "https://example.com/other.json"}, "b": {"unevaluatedProperties": false}}})"));
  CHECK(remote.unsupported() == std::vector<std::string>{"/properties/a/$ref", "/properties/b/unevaluatedProperties"});
  CHECK(remote.validate(json{{"a", 1}, {"b", {{"c", 1}}}}).empty());
}

TEST_CASE("malformed schemas are refused, saying where", "[json_schema]") {
  const auto error_of = [](const char* text) {
    try {
      JsonSchema s(json::parse(text));
    } catch (const JsonSchemaError& e) {
      return std::string(e.what());
    }
    return std::string("(compiled)");
  };
  CHECK(error_of(R"({"properties": {"age": {"minimum": "18"}}})") == "/properties/age/minimum: must be a number");
  CHECK(error_of(R"({"type": "text"})").rfind("/type: must name JSON Schema types", 0) == 0);
  CHECK(error_of(R"({"required": "a"})") == "/required: must be an array of strings");
  CHECK(error_of(R"({"pattern": "(a)\\1"})").rfind("/pattern: pattern does not compile", 0) == 0);
  CHECK(error_of(R"({"anyOf": []})") == "/anyOf: must be a non-empty array of schemas");
  CHECK(error_of(R"({"minLength": -1})") == "/minLength: must be a non-negative integer");
  CHECK(error_of(R"(3)") == "(root): a schema must be an object or a boolean");
  CHECK(error_of(R"({"type": "object", "properties": {"a": {"type": "string"}}})") == "(compiled)");
}

}  // namespace json_schema_test
