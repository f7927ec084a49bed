#include <catch2/catch.hpp>

#include <fstream>

#include "load.hpp"
#include "plan.hpp"

using namespace elicitgen;

namespace {

std::string write_tmp(const std::string& name, const std::string& text) {
  const auto path = std::string(TEST_TMP_DIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
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
  CHECK_THAT(messages(d), Catch::StartsWith(path + ":: error: malformed JSON at line 3, column 18"));

  Diagnostics d2;
  CHECK(load_schemas(
            write_tmp("url_mode.json", R"({"mode":"url","message":"m","url":"https://x","elicitationId":"1"})"), d2)
            .empty());
  CHECK_THAT(messages(d2), Catch::Contains("/mode: error: only form mode carries a requestedSchema"));

  Diagnostics d3;
  CHECK(load_schemas(std::string(TEST_TMP_DIR) + "/does-not-exist.json", d3).empty());
  CHECK_THAT(messages(d3), Catch::Contains("does-not-exist.json:: error: cannot open file"));

  Diagnostics d4;
  CHECK(load_schemas(write_tmp("odd.json", R"({"A":1})"), d4).empty());
  CHECK_THAT(messages(d4), Catch::Contains("odd.json:/A: error: collection member must be"));
}

TEST_CASE("names that collide in C++ are errors that name both properties", "[plan][errors]") {
  auto plan = [](const char* schema, Diagnostics& d) {
    SourceSchema s{"x.json", "", "x", nlohmann::ordered_json::parse(schema), std::nullopt};
    return plan_type(s, "Form", d);
  };
  Diagnostics d;
  CHECK_FALSE(
      plan(R"({"type":"object","properties":{"first-name":{"type":"string"},"firstName":{"type":"string"}}})", d));
  CHECK_THAT(messages(d),
             Catch::Contains(
                 "x.json:/properties/firstName: error: property \"firstName\" needs the C++ name "
                 "\"first_name\" for its member, which is already taken by the member of property \"first-name\""));
  Diagnostics d2;
  CHECK_FALSE(plan(R"({"type":"object","properties":{"validate":{"type":"string"}}})", d2));
  CHECK_THAT(messages(d2), Catch::Contains("already taken by a generated member function"));
  Diagnostics d3;
  CHECK_FALSE(plan(R"({"type":"object","properties":{"form":{"type":"string","enum":["a"]}}})", d3));
  CHECK_THAT(messages(d3), Catch::Contains("\"Form\" for its enum type, which is already taken by the struct itself"));
  Diagnostics d4;
  CHECK_FALSE(plan(
      R"({"type":"object","properties":{"color":{"type":"string","enum":["a"]},"color_options":{"type":"string"}}})",
      d4));
  CHECK_THAT(messages(d4), Catch::Contains("options table"));
  Diagnostics d5;
  CHECK_FALSE(plan(R"({"type":"object","properties":{"c":{"type":"string","enum":["a-b","a_b"]}}})", d5));
  CHECK_THAT(messages(d5), Catch::Contains("do not map to distinct C++ enumerators"));
  Diagnostics d6;  // duplicate titles fall back to the distinct values
  const auto ok = plan(
      R"({"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"x","title":"Same"},{"const":"y","title":"Same"}]}}})",
      d6);
  REQUIRE(ok);
  CHECK(ok->fields[0].enumeration->value_names == std::vector<std::string>{"x", "y"});
}

TEST_CASE("fields that look like secrets get the spec's form-mode warning", "[plan][secrets]") {
  for (const char* name :
       {"password", "apiKey", "api_key", "accessToken", "client-secret", "creditCardNumber", "cvv"}) {
    Diagnostics d;
    auto schema = nlohmann::ordered_json::parse(R"({"type":"object","properties":{}})");
    schema["properties"][name] = {{"type", "string"}};
    SourceSchema s{"x.json", "", "x", schema, std::nullopt};
    INFO(name);
    CHECK(plan_type(s, "Form", d));
    CHECK_FALSE(d.has_errors());
    CHECK_THAT(messages(d), Catch::Contains("warning: property \"" + std::string(name) + "\" looks like a secret") &&
                                Catch::Contains("Form Mode Security"));
  }
  Diagnostics d;
  SourceSchema s{"x.json", "", "x",
                 nlohmann::ordered_json::parse(
                     R"({"type":"object","properties":{"username":{"type":"string","title":"Your name"}}})"),
                 std::nullopt};
  CHECK(plan_type(s, "Form", d));
  CHECK(d.messages().empty());
}
