#include <catch2/catch.hpp>

#include <elicit/content/schema.hpp>

namespace schema_parse_test {

using namespace elicit;
using ojson = nlohmann::ordered_json;

namespace {

ParsedForm parse(const char* text) { return parse_requested_schema(ojson::parse(text)); }

// The single error of a schema that must fail, as "pointer: message".
std::string only_error(const char* text) {
  const auto p = parse(text);
  std::string out;
  for (const auto& d : p.diagnostics) {
    if (d.severity == Diagnostic::Severity::error) out += (out.empty() ? "" : " | ") + d.pointer + ": " + d.message;
  }
  return out;
}

std::string one_property(const char* property) {
  return std::string(R"({"type":"object","properties":{"p":)") + property + "}}";
}

}  // namespace

TEST_CASE("every property kind of the 2025-11-25 subset is modelled", "[schema]") {
  const auto p = parse(R"({
    "type": "object",
    "properties": {
      "s": {"type":"string","title":"S","description":"d","minLength":1,"maxLength":5,"format":"email","default":"a@b"},
      "re": {"type":"string","pattern":"^x+$"},
      "n": {"type":"number","minimum":-1.5,"maximum":2.5,"default":0.5},
      "i": {"type":"integer","minimum":18,"maximum":150,"default":30},
      "b": {"type":"boolean","default":true},
      "u": {"type":"string","enum":["a","b"],"default":"a"},
      "t": {"type":"string","oneOf":[{"const":"#F00","title":"Red"},{"const":"#0F0","title":"Green"}]},
      "l": {"type":"string","enum":["x","y"],"enumNames":["Ex","Why"]},
      "um": {"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1,"maxItems":2,"default":["a"]},
      "tm": {"type":"array","items":{"anyOf":[{"const":"v1","title":"One"}]}}
    },
    "required": ["s", "i"]
  })");
  REQUIRE(p.ok());
  REQUIRE(p.diagnostics.empty());
  const auto& f = p.form.fields;
  REQUIRE(f.size() == 10);
  CHECK(f[0].name == "s");  // document order, not sorted
  CHECK(f[0].kind == FieldKind::string);
  CHECK(f[0].required);
  CHECK(f[0].title == "S");
  CHECK(f[0].description == "d");
  CHECK(f[0].min_length == 1u);
  CHECK(f[0].max_length == 5u);
  CHECK(f[0].format == StringFormat::email);
  CHECK(f[0].default_value == ojson("a@b"));
  CHECK(f[0].pointer == "/properties/s");
  CHECK(f[1].pattern == "^x+$");
  REQUIRE(f[1].compiled_pattern);
  CHECK(f[2].kind == FieldKind::number);
  CHECK(f[2].minimum->value == -1.5);
  CHECK(f[2].maximum->text == "2.5");
  CHECK(f[3].kind == FieldKind::integer);
  CHECK(f[3].required);
  CHECK(f[4].kind == FieldKind::boolean);
  CHECK(f[5].kind == FieldKind::single_select);
  CHECK(f[5].enum_style == EnumStyle::untitled);
  CHECK(f[5].options.size() == 2);
  CHECK_FALSE(f[5].options[0].title);
  CHECK(f[6].enum_style == EnumStyle::titled);
  CHECK(f[6].options[1].value == "#0F0");
  CHECK(f[6].options[1].title == "Green");
  CHECK(f[7].enum_style == EnumStyle::legacy_enum_names);
  CHECK(f[7].options[1].title == "Why");
  CHECK(f[8].kind == FieldKind::multi_select);
  CHECK(f[8].enum_style == EnumStyle::untitled_multi);
  CHECK(f[8].min_items == 1u);
  CHECK(f[8].max_items == 2u);
  CHECK(f[9].enum_style == EnumStyle::titled_multi);
  CHECK(f[9].options[0].title == "One");
  CHECK_FALSE(f[9].required);
}

TEST_CASE("a confirm-only form has no properties", "[schema]") {
  const auto p = parse(R"({"type":"object","properties":{}})");
  CHECK(p.ok());
  CHECK(p.form.fields.empty());
}

TEST_CASE("the schema is kept exactly as written", "[schema]") {
  const auto p = parse(R"({"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}},"$schema":"x"})");
  CHECK(p.form.schema.dump() ==
        R"({"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}},"$schema":"x"})");
}

TEST_CASE("what the subset forbids is an error located by JSON Pointer", "[schema][errors]") {
  CHECK(only_error(one_property(R"({"type":"object","properties":{}})").c_str()) ==
        "/properties/p/type: nested objects are not allowed (MCP 2025-11-25 requestedSchema allows only flat objects "
        "of primitive properties)");
  CHECK_THAT(only_error(one_property(R"({"type":"array","items":{"type":"object"}})").c_str()),
             Catch::StartsWith("/properties/p/items/type: arrays of objects are not allowed"));
  CHECK_THAT(only_error(one_property(R"({"$ref":"#/$defs/x"})").c_str()),
             Catch::StartsWith("/properties/p/$ref: $ref is not allowed"));
  CHECK_THAT(only_error(one_property(R"({"type":"date"})").c_str()),
             Catch::StartsWith("/properties/p/type: unknown type \"date\""));
  CHECK_THAT(only_error(one_property(R"({"type":["string","null"]})").c_str()),
             Catch::StartsWith("/properties/p/type: \"type\" must be a single string"));
  CHECK_THAT(only_error(one_property(R"j({"type":"string","pattern":"(?=x)"})j").c_str()),
             Catch::StartsWith("/properties/p/pattern: pattern does not compile: at offset 0: lookahead"));
  CHECK(only_error(one_property(R"({"type":"integer","minimum":10,"maximum":5})").c_str()) ==
        "/properties/p/minimum: minimum (10) is greater than maximum (5)");
  CHECK(only_error(one_property(R"({"type":"string","minLength":10,"maxLength":5})").c_str()) ==
        "/properties/p/minLength: minLength (10) is greater than maxLength (5)");
  CHECK(only_error(one_property(R"({"type":"array","items":{"enum":["a"]},"minItems":3,"maxItems":2})").c_str()) ==
        "/properties/p/minItems: minItems (3) is greater than maxItems (2)");
  CHECK(only_error(one_property(R"({"type":"string","enum":["a","b"],"enumNames":["A"]})").c_str()) ==
        "/properties/p/enumNames: enumNames has 1 entries but enum has 2; they must match one to one");
  CHECK(only_error(one_property(R"({"type":"string","enum":["a","a"]})").c_str()) ==
        "/properties/p/enum/1: duplicate option value \"a\"");
  CHECK(only_error(one_property(R"({"type":"string","enum":[]})").c_str()) ==
        "/properties/p/enum: enum must be a non-empty array of strings");
  CHECK(only_error(one_property(R"({"type":"string","oneOf":[{"const":"a"}]})").c_str()) ==
        "/properties/p/oneOf/0: option needs a string \"title\" (use \"enum\" for options without titles)");
  CHECK_THAT(only_error(one_property(R"({"type":"string","format":"hostname"})").c_str()),
             Catch::StartsWith("/properties/p/format: unsupported format \"hostname\""));
  CHECK(only_error(one_property(R"({"type":"string","minLength":-1})").c_str()) ==
        "/properties/p/minLength: minLength must be a non-negative integer");
  CHECK_THAT(
      only_error(one_property(R"({"type":"number","exclusiveMinimum":0})").c_str()),
      Catch::StartsWith("/properties/p/exclusiveMinimum: \"exclusiveMinimum\" is not allowed on a number property"));
  CHECK_THAT(only_error(one_property(R"({"type":"string","minimum":1})").c_str()),
             Catch::StartsWith("/properties/p/minimum: \"minimum\" is not allowed on a string property"));
  CHECK(only_error(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["b"]})") ==
        "/required/0: required names \"b\", which is not a property");
  CHECK(only_error(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]})") ==
        "/required/1: \"a\" is listed twice in required");
  CHECK_THAT(only_error(R"({"type":"object"})"), Catch::Contains("must have \"properties\""));
  CHECK(only_error(R"({"type":"array","properties":{}})") == "/type: requestedSchema \"type\" must be \"object\"");
  CHECK(only_error(R"([1])") == ": requestedSchema must be a JSON object");
}

TEST_CASE("a default that breaks its own property is an error", "[schema][errors][default]") {
  // The String Schema example of the spec page, verbatim: its default cannot match its pattern.
  CHECK(only_error(one_property(R"({"type":"string","title":"Display Name","description":"Description text",
      "minLength":3,"maxLength":50,"pattern":"^[A-Za-z]+$","format":"email","default":"user@example.com"})")
                       .c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must match the pattern ^[A-Za-z]+$");
  CHECK(only_error(one_property(R"({"type":"integer","minimum":18,"default":17})").c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must be >= 18");
  CHECK(only_error(one_property(R"({"type":"integer","default":30.5})").c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must be an integer");
  CHECK(only_error(one_property(R"({"type":"string","enum":["a"],"default":"b"})").c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must be one of \"a\"");
  CHECK(only_error(
            one_property(R"({"type":"array","items":{"enum":["a","b"]},"maxItems":1,"default":["a","b"]})").c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must select at most 1 option");
  CHECK(only_error(one_property(R"({"type":"array","items":{"enum":["a"]},"default":["a","z"]})").c_str()) ==
        "/properties/p/default/1: default does not satisfy its own schema: must be one of \"a\"");
  CHECK(only_error(one_property(R"({"type":"boolean","default":"yes"})").c_str()) ==
        "/properties/p/default: default does not satisfy its own schema: must be a boolean");
}

TEST_CASE("unknown keywords are warnings, not errors", "[schema]") {
  const auto p = parse(one_property(R"({"type":"string","x-widget":"textarea","examples":["a"]})").c_str());
  CHECK(p.ok());
  REQUIRE(p.diagnostics.size() == 1);
  CHECK(p.diagnostics[0].severity == Diagnostic::Severity::warning);
  CHECK(p.diagnostics[0].pointer == "/properties/p/x-widget");
}

TEST_CASE("pointers escape ~ and / in property names and take a base", "[schema]") {
  const auto p = parse_requested_schema(ojson::parse(R"({"type":"object","properties":{"a/b~c":{"type":"object"}}})"),
                                        "/params/requestedSchema");
  REQUIRE(p.diagnostics.size() == 1);
  CHECK(p.diagnostics[0].pointer == "/params/requestedSchema/properties/a~1b~0c/type");
}

TEST_CASE("every error of a schema is reported, not just the first", "[schema][errors]") {
  const auto p = parse(R"({"type":"object","properties":{
      "a":{"type":"object"},"b":{"type":"string","format":"x"},"c":{"$ref":"#"}},"required":["zz"]})");
  CHECK(p.diagnostics.size() == 4);
}

TEST_CASE("uniqueItems on a multi-select: true is what is enforced anyway, false cannot be honoured", "[schema][set]") {
  const auto multi = [](const std::string& tail) {
    return one_property((R"({"type":"array","items":{"type":"string","enum":["a","b"]})" + tail + "}").c_str());
  };
  const auto yes = parse_requested_schema(ojson::parse(multi(R"(,"uniqueItems":true)")));
  REQUIRE(yes.ok());
  REQUIRE(yes.diagnostics.size() == 1);
  CHECK(yes.diagnostics[0].severity == Diagnostic::Severity::warning);
  CHECK(yes.diagnostics[0].pointer == "/properties/p/uniqueItems");
  CHECK_THAT(yes.diagnostics[0].message, Catch::StartsWith("uniqueItems is outside the MCP 2025-11-25"));
  CHECK(validate_content(yes.form, nlohmann::json::parse(R"({"p":["b","b"]})")).to_string() ==
        "/p/1: \"b\" is selected twice (also at /p/0)\n");
  CHECK(only_error(multi(R"(,"uniqueItems":false)").c_str()) ==
        "/properties/p/uniqueItems: uniqueItems: false cannot be honoured: a multi-select is a set, each option "
        "selected at most once");
  CHECK(only_error(multi(R"(,"uniqueItems":1)").c_str()) ==
        "/properties/p/uniqueItems: uniqueItems must be true (a multi-select is a set)");
  // Elsewhere it stays outside the subset.
  CHECK_THAT(only_error(one_property(R"({"type":"string","uniqueItems":true})").c_str()),
             Catch::StartsWith("/properties/p/uniqueItems: \"uniqueItems\" is not allowed on a string property"));
  // A default that repeats an option breaks its own property.
  CHECK(only_error(multi(R"(,"default":["a","a"])").c_str()) ==
        "/properties/p/default/1: default does not satisfy its own schema: \"a\" is selected twice (also at "
        "/properties/p/default/0)");
}

}  // namespace schema_parse_test
