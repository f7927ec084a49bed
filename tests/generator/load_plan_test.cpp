#include <catch2/catch.hpp>

#include <fstream>

#include "load.hpp"
#include "plan.hpp"
#include "test_paths.hpp"

namespace load_plan_test {

using namespace elicitgen;

namespace {

std::string write_tmp(const std::string& name, const std::string& text) {
  const auto path = std::string(TEST_TMP_DIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Plans `schema` as the type "Form" read from "x.json".
std::optional<TypePlan> plan(const std::string& schema, Diagnostics& d) {
  SourceSchema s{"x.json", "", "x", nlohmann::ordered_json::parse(schema), std::nullopt, false};
  return plan_type(s, "Form", d);
}

std::string messages(const Diagnostics& d) {
  std::ostringstream os;
  d.print(os);
  return os.str();
}

}  // namespace

TEST_CASE("the three input shapes load", "[load]") {
  Diagnostics d;
  const auto bare = load_schemas(write_tmp("bare_form.json", R"({"type":"object","properties":{}})"), d);
  REQUIRE(bare.size() == 1);
  CHECK(bare[0].pointer.empty());
  CHECK(bare[0].name_hint == "bare_form");
  CHECK_FALSE(bare[0].message);

  const auto params = load_schemas(
      write_tmp("params.json", R"({"message":"Hi","requestedSchema":{"type":"object","properties":{}}})"), d);
  REQUIRE(params.size() == 1);
  CHECK(params[0].pointer == "/requestedSchema");
  CHECK(params[0].message == "Hi");

  const auto request = load_schemas(write_tmp("request.json", R"({"jsonrpc":"2.0","id":1,"method":"elicitation/create",
      "params":{"mode":"form","message":"M","requestedSchema":{"type":"object","properties":{}}}})"),
                                    d);
  REQUIRE(request.size() == 1);
  CHECK(request[0].pointer == "/params/requestedSchema");

  const auto collection = load_schemas(write_tmp("many.json", R"({"Zed":{"type":"object","properties":{}},
      "Alpha":{"message":"A","requestedSchema":{"type":"object","properties":{}}}})"),
                                       d);
  REQUIRE(collection.size() == 2);
  CHECK(collection[0].name_hint == "Zed");  // file order
  CHECK(collection[1].pointer == "/Alpha/requestedSchema");
  CHECK_FALSE(d.has_errors());
}

TEST_CASE("load errors say where", "[load][errors]") {
  Diagnostics d;
  const auto path = write_tmp("broken.json", "{\n  \"type\": \"object\",\n  \"properties\": {,}\n}");
  CHECK(load_schemas(path, d).empty());
  CHECK_THAT(messages(d), Catch::StartsWith(path + ":3:18: error: malformed JSON: syntax error"));

  Diagnostics d2;
  CHECK(load_schemas(
            write_tmp("url_mode.json", R"({"mode":"url","message":"m","url":"https://x","elicitationId":"1"})"), d2)
            .empty());
  CHECK_THAT(messages(d2), Catch::Contains("url_mode.json:1:2: error: /mode: url mode without a requestedSchema has "
                                           "no form to generate"));
  Diagnostics d2b;
  CHECK(load_schemas(write_tmp("odd_mode.json", R"({"mode":"sms","message":"m","requestedSchema":{"type":"object"}})"),
                     d2b)
            .empty());
  CHECK_THAT(messages(d2b), Catch::Contains("odd_mode.json:1:2: error: /mode: mode must be \"form\", or \"url\" for a "
                                            "browser form; found \"sms\""));
  // url mode with the page's requestedSchema: a browser form.
  Diagnostics d2c;
  const auto browser =
      load_schemas(write_tmp("browser.json",
                             R"({"mode":"url","message":"Key?","requestedSchema":{"type":"object","properties":{}}})"),
                   d2c);
  REQUIRE(browser.size() == 1);
  CHECK(browser[0].browser);
  CHECK(browser[0].message == "Key?");
  CHECK_FALSE(d2c.has_errors());

  Diagnostics d3;
  CHECK(load_schemas(std::string(TEST_TMP_DIR) + "/does-not-exist.json", d3).empty());
  CHECK_THAT(messages(d3), Catch::Contains("does-not-exist.json: error: cannot open file"));

  Diagnostics d4;
  CHECK(load_schemas(write_tmp("odd.json", R"({"A":1})"), d4).empty());
  CHECK_THAT(messages(d4), Catch::Contains("odd.json:1:2: error: /A: collection member must be"));
}

TEST_CASE("names that collide in C++ yield with a warning that names both, a valid schema never fails",
          "[plan][names]") {
  Diagnostics d;
  const auto p1 =
      plan(R"({"type":"object","properties":{"first-name":{"type":"string"},"firstName":{"type":"string"}}})", d);
  REQUIRE(p1);
  CHECK(p1->fields[0].member == "first_name");
  CHECK(p1->fields[1].member == "first_name_");
  CHECK_THAT(messages(d), Catch::Contains("x.json: warning: /properties/firstName: property \"firstName\" would get "
                                          "the C++ name \"first_name\" for its member, which is taken by the member "
                                          "of property \"first-name\" (/properties/first-name); it is named "
                                          "\"first_name_\""));
  // A third one: "_" is taken too, so a hash of the property name.
  Diagnostics d1;
  const auto p3 = plan(
      R"({"type":"object","properties":{"first-name":{"type":"string"},"firstName":{"type":"string"},"first_name":{"type":"string"}}})",
      d1);
  REQUIRE(p3);
  CHECK(p3->fields[2].member.rfind("first_name_", 0) == 0);
  CHECK(p3->fields[2].member.size() == std::string("first_name_").size() + 8);
  // Names that used to be generated member functions are plain members now: the API is free
  // functions and traits (elicit::decode<T>, elicit::validate, ...), so nothing is taken.
  // ("elicit" is a reserved word, spelled "elicit_" with no need to warn.)
  for (const char* member : {"validate", "decode", "parse", "parse_response", "requested_schema", "default_message"}) {
    Diagnostics d2;
    auto schema = nlohmann::ordered_json::parse(R"({"type":"object","properties":{}})");
    schema["properties"][member] = {{"type", "string"}};
    const auto p2 = plan(schema.dump(), d2);
    REQUIRE(p2);
    CHECK(p2->fields[0].member == member);
    CHECK(messages(d2).empty());
  }
  Diagnostics d3;
  const auto p4 = plan(R"({"type":"object","properties":{"form":{"type":"string","enum":["a"]}}})", d3);
  REQUIRE(p4);
  CHECK(p4->fields[0].enumeration->type_name == "Form_");
  CHECK_THAT(messages(d3), Catch::Contains("\"Form\" for its enum type, which is taken by the struct itself"));
  Diagnostics d4;
  const auto p5 = plan(
      R"({"type":"object","properties":{"color":{"type":"string","enum":["a"]},"color_options":{"type":"string"}}})",
      d4);
  REQUIRE(p5);
  CHECK(p5->fields[1].member == "color_options");  // option tables live in elicit::enum_traits
  CHECK(messages(d4).empty());
  // A name chosen with x-cpp-name that is taken is the author's to fix: an error.
  Diagnostics taken;
  CHECK_FALSE(
      plan(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","x-cpp-name":"a"}}})", taken));
  CHECK_THAT(messages(taken),
             Catch::Contains("x.json: error: /properties/b/x-cpp-name: property \"b\" asks for the C++ "
                             "name \"a\" for its member, which is already taken by the member of "
                             "property \"a\""));
  Diagnostics d5;  // values that map to one name: the later one gets a hash of its value, and a warning
  const auto clash = plan(R"({"type":"object","properties":{"c":{"type":"string","enum":["a-b","a_b","a b"]}}})", d5);
  REQUIRE(clash);
  const auto& names = clash->fields[0].enumeration->value_names;
  REQUIRE(names.size() == 3);
  CHECK(names[0] == "a_b");
  CHECK(names[1].rfind("a_b_", 0) == 0);
  CHECK(names[1].size() == 12);
  CHECK(names[2].rfind("a_b_", 0) == 0);
  CHECK(names[1] != names[2]);
  CHECK_THAT(messages(d5),
             Catch::Contains("x.json: warning: /properties/c/enum/1: options \"a-b\" "
                             "(/properties/c/enum/0) and \"a_b\" both map to the C++ enumerator \"a_b\""));
  Diagnostics d5b;  // the same names again, whatever else the schema holds
  const auto again =
      plan(R"({"type":"object","properties":{"z":{"type":"string"},"c":{"type":"string","enum":["a-b","a_b","a b"]}}})",
           d5b);
  REQUIRE(again);
  CHECK(again->fields[1].enumeration->value_names == names);

  Diagnostics d6;  // enumerators come from the wire values, never from titles
  const auto ok = plan(
      R"({"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"x","title":"Same"},{"const":"y","title":"Same"}]}}})",
      d6);
  REQUIRE(ok);
  CHECK(ok->fields[0].enumeration->value_names == std::vector<std::string>{"x", "y"});
  CHECK(messages(d6).empty());
}

TEST_CASE("x-cpp-name names a member or an enumerator, it must be usable as written", "[plan][names]") {
  Diagnostics d;
  const auto p = plan(R"J({"type":"object","properties":{
      "room":{"type":"string","x-cpp-name":"venue","oneOf":[
        {"const":"aurora-8","title":"Aurora (8 seats, 3rd floor)","x-cpp-name":"aurora"},
        {"const":"borealis","title":"Borealis"}]},
      "first name":{"type":"string","x-cpp-name":"givenName"}}})J",
                      d);
  REQUIRE(p);
  CHECK(messages(d).empty());
  CHECK(p->fields[0].member == "venue");
  CHECK(p->fields[0].enumeration->type_name == "Venue");
  CHECK(p->fields[0].enumeration->value_names == std::vector<std::string>{"aurora", "borealis"});
  CHECK(p->fields[1].member == "givenName");

  // An explicit name wins over a derived one, which then yields.
  Diagnostics d1;
  const auto yields = plan(
      R"({"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"b","title":"B"},{"const":"a","title":"A","x-cpp-name":"b"}]}}})",
      d1);
  REQUIRE(yields);
  CHECK(yields->fields[0].enumeration->value_names[1] == "b");
  CHECK(yields->fields[0].enumeration->value_names[0].rfind("b_", 0) == 0);

  for (const char* bad : {"class", "2x", "a-b", "__x", "_X", "a__b", "", "NULL", "café"}) {
    Diagnostics e;
    auto schema = nlohmann::ordered_json::parse(R"({"type":"object","properties":{"p":{"type":"string"}}})");
    schema["properties"]["p"]["x-cpp-name"] = bad;
    CHECK_FALSE(plan(schema.dump(), e));
    CHECK_THAT(messages(e), Catch::Contains("x.json: error: /properties/p/x-cpp-name: \"" + std::string(bad) +
                                            "\" cannot be a C++ name"));
  }
  Diagnostics twice;
  CHECK_FALSE(plan(
      R"({"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"x","title":"X","x-cpp-name":"same"},{"const":"y","title":"Y","x-cpp-name":"same"}]}}})",
      twice));
  CHECK_THAT(messages(twice), Catch::Contains("both ask for the C++ enumerator \"same\""));
  Diagnostics not_string;
  CHECK_FALSE(plan(R"({"type":"object","properties":{"p":{"type":"string","x-cpp-name":3}}})", not_string));
  CHECK_THAT(messages(not_string), Catch::Contains("x-cpp-name must be a string"));
  // Clients never see it.
  Diagnostics d2;
  CHECK(plan(R"({"type":"object","properties":{"p":{"type":"string","x-cpp-name":"q"}}})", d2));
}

TEST_CASE("fields that look like secrets get the spec's form-mode warning", "[plan][secrets]") {
  for (const char* name :
       {"password", "apiKey", "api_key", "accessToken", "client-secret", "creditCardNumber", "cvv"}) {
    Diagnostics d;
    auto schema = nlohmann::ordered_json::parse(R"({"type":"object","properties":{}})");
    schema["properties"][name] = {{"type", "string"}};
    SourceSchema s{"x.json", "", "x", schema, std::nullopt, false};
    INFO(name);
    CHECK(plan_type(s, "Form", d));
    CHECK_FALSE(d.has_errors());
    CHECK_THAT(messages(d), Catch::Contains("x.json: warning: /properties/" + std::string(name) + ": property \"" +
                                            std::string(name) + "\" looks like a secret") &&
                                Catch::Contains("Form Mode Security") &&
                                Catch::Contains("mark the schema file \"mode\": \"url\""));
    // The same field in a browser form (mode "url"): where it belongs, no warning.
    Diagnostics quiet;
    SourceSchema browser{"x.json", "", "x", schema, std::nullopt, true};
    CHECK(plan_type(browser, "Form", quiet));
    CHECK(quiet.messages().empty());
  }
  Diagnostics d;
  SourceSchema s{"x.json",
                 "",
                 "x",
                 nlohmann::ordered_json::parse(
                     R"({"type":"object","properties":{"username":{"type":"string","title":"Your name"}}})"),
                 std::nullopt,
                 false};
  CHECK(plan_type(s, "Form", d));
  CHECK(d.messages().empty());
}

}  // namespace load_plan_test
