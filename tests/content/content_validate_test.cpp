#include <catch2/catch.hpp>

#include <algorithm>

#include <elicit/content/schema.hpp>

namespace content_validate_test {

using namespace elicit;

namespace {

const Form& contact_form() {
  static const Form form = parse_requested_schema(nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "name": {"type":"string","minLength":2,"maxLength":5},
      "email": {"type":"string","format":"email"},
      "code": {"type":"string","pattern":"^[A-Z]{3}$"},
      "age": {"type":"integer","minimum":18,"maximum":150},
      "score": {"type":"number","minimum":0.5,"maximum":9.5},
      "ok": {"type":"boolean"},
      "color": {"type":"string","oneOf":[{"const":"#F00","title":"Red"},{"const":"#0F0","title":"Green"}]},
      "tags": {"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},
      "day": {"type":"string","format":"date"},
      "at": {"type":"string","format":"date-time"},
      "site": {"type":"string","format":"uri"}
    },
    "required": ["name"]
  })"))
                               .form;
  return form;
}

std::string errors_of(const char* content) {
  return validate_content(contact_form(), nlohmann::json::parse(content)).to_string();
}

}  // namespace

TEST_CASE("valid content passes", "[validate]") {
  CHECK(errors_of(R"({"name":"Ann"})").empty());
  CHECK(errors_of(R"({"name":"Ann","email":"a@b.co","code":"ABC","age":18,"score":9.5,"ok":false,"color":"#0F0",
      "tags":["a","c"],"day":"2024-02-29","at":"2024-02-29T12:00:00Z","site":"https://x.y","extra":[1,2]})")
            .empty());
  CHECK(errors_of(R"({"name":"Ann","age":30.0})").empty());  // 30.0 is an integer in JSON Schema
}

TEST_CASE("each constraint rejects with its own pointer and message", "[validate]") {
  CHECK(errors_of(R"({})") == "/name: is required\n");
  CHECK(errors_of(R"({"name":"A"})") == "/name: must be at least 2 characters long\n");
  CHECK(errors_of(R"({"name":"Ann-Marie"})") == "/name: must be at most 5 characters long\n");
  CHECK(errors_of(R"({"name":"\u00e9\u00e9\u00e9\u00e9\u00e9"})").empty());  // 5 code points, 10 bytes
  CHECK(errors_of(R"({"name":"Ann","email":"ann"})") == "/email: must be an email address (RFC 5321)\n");
  CHECK(errors_of(R"({"name":"Ann","code":"abc"})") == "/code: must match the pattern ^[A-Z]{3}$\n");
  CHECK(errors_of(R"({"name":"Ann","age":17})") == "/age: must be >= 18\n");
  CHECK(errors_of(R"({"name":"Ann","age":151})") == "/age: must be <= 150\n");
  CHECK(errors_of(R"({"name":"Ann","age":30.5})") == "/age: must be an integer\n");
  CHECK(errors_of(R"({"name":"Ann","age":9223372036854775808})") ==
        "/age: must be an integer within the 64-bit signed range\n");
  CHECK(errors_of(R"({"name":"Ann","age":"30"})") == "/age: must be an integer\n");
  CHECK(errors_of(R"({"name":"Ann","score":0.4})") == "/score: must be >= 0.5\n");
  CHECK(errors_of(R"({"name":"Ann","score":9.6})") == "/score: must be <= 9.5\n");
  CHECK(errors_of(R"({"name":"Ann","score":true})") == "/score: must be a number\n");
  CHECK(errors_of(R"({"name":"Ann","ok":"true"})") == "/ok: must be a boolean\n");
  CHECK(errors_of(R"({"name":"Ann","color":"Red"})") == "/color: must be one of \"#F00\", \"#0F0\"\n");
  CHECK(errors_of(R"({"name":"Ann","tags":[]})") == "/tags: must select at least 1 option\n");
  CHECK(errors_of(R"({"name":"Ann","tags":["a","b","c"]})") == "/tags: must select at most 2 options\n");
  CHECK(errors_of(R"({"name":"Ann","tags":["a","z"]})") == "/tags/1: must be one of \"a\", \"b\", \"c\"\n");
  CHECK(errors_of(R"({"name":"Ann","tags":"a"})") == "/tags: must be an array of strings\n");
  CHECK(errors_of(R"({"name":"Ann","tags":["a",1]})") == "/tags/1: must be a string\n");
  CHECK(errors_of(R"({"name":"Ann","day":"2023-02-29"})") ==
        "/day: must be a date as YYYY-MM-DD (RFC 3339 full-date)\n");
  CHECK(errors_of(R"({"name":"Ann","at":"2023-02-28"})") ==
        "/at: must be a date-time such as 2025-11-25T10:00:00Z (RFC 3339)\n");
  CHECK(errors_of(R"({"name":"Ann","site":"example.com"})") == "/site: must be an absolute URI (RFC 3986)\n");
  CHECK(errors_of(R"({"name":null})") == "/name: must be a string\n");
  CHECK(errors_of(R"([])") == ": must be an object\n");
}

TEST_CASE("a multi-select is a set: a repeated option is an error at the repeat", "[validate][set]") {
  CHECK(errors_of(R"({"name":"Ann","tags":["a","a"]})") == "/tags/1: \"a\" is selected twice (also at /tags/0)\n");
  // Each repeat once, at its own item, pointing at the first; then the item count, repeats included.
  CHECK(errors_of(R"({"name":"Ann","tags":["b","a","b","b"]})") ==
        "/tags/2: \"b\" is selected twice (also at /tags/0)\n/tags/3: \"b\" is selected twice (also at /tags/0)\n"
        "/tags: must select at most 2 options\n");
  const auto r = validate_content(contact_form(), nlohmann::json::parse(R"({"name":"Ann","tags":["c","c"]})"));
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].pointer == "/tags/1");
  CHECK(r.errors[0].keyword == "uniqueItems");
  // Options outside the enum are reported instead (a repeat of an unknown value is not judged).
  CHECK(errors_of(R"({"name":"Ann","tags":["z","z"]})") ==
        "/tags/0: must be one of \"a\", \"b\", \"c\"\n/tags/1: must be one of \"a\", \"b\", \"c\"\n");
  CHECK(errors_of(R"({"name":"Ann","tags":["a","b"]})").empty());
}

TEST_CASE("a repeated option costs linear time: 200,000 items of one option", "[validate][set][hostile]") {
  auto content = nlohmann::json::parse(R"({"name":"Ann"})");
  content["tags"] = nlohmann::json::array();
  for (int i = 0; i < 200000; ++i) content["tags"].push_back("a");
  const auto r = validate_content(contact_form(), content);
  REQUIRE(r.errors.size() == 200000);  // 199,999 repeats and the item count
  CHECK(r.errors[199998].pointer == "/tags/199999");
  CHECK(r.errors.back().keyword == "maxItems");
}

TEST_CASE("all errors are reported, in property order", "[validate]") {
  const auto r = validate_content(contact_form(), nlohmann::json::parse(R"({"age":1,"name":"","tags":[]})"));
  REQUIRE(r.errors.size() == 3);
  CHECK(r.errors[0].pointer == "/name");
  CHECK(r.errors[0].keyword == "minLength");
  CHECK(r.errors[1].pointer == "/age");
  CHECK(r.errors[1].keyword == "minimum");
  CHECK(r.errors[2].pointer == "/tags");
  CHECK(r.errors[2].keyword == "minItems");
}

TEST_CASE("integer bounds compare exactly, also beyond 2^53", "[validate]") {
  const auto form = parse_requested_schema(nlohmann::ordered_json::parse(
      R"({"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993,"maximum":9223372036854775807}}})"));
  REQUIRE(form.ok());
  // 9007199254740993 is not a double; as a double bound it is 9007199254740992.
  CHECK(validate_content(form.form, nlohmann::json::parse(R"({"n":9007199254740992})")).ok());
  CHECK(validate_content(form.form, nlohmann::json::parse(R"({"n":9223372036854775807})")).ok());
  CHECK_FALSE(validate_content(form.form, nlohmann::json::parse(R"({"n":9007199254740991})")).ok());
  const auto frac = parse_requested_schema(nlohmann::ordered_json::parse(
      R"({"type":"object","properties":{"n":{"type":"integer","minimum":1.5,"maximum":3.5}}})"));
  CHECK(validate_content(frac.form, nlohmann::json::parse(R"({"n":1})")).to_string() == "/n: must be >= 1.5\n");
  CHECK(validate_content(frac.form, nlohmann::json::parse(R"({"n":2})")).ok());
  CHECK(validate_content(frac.form, nlohmann::json::parse(R"({"n":3})")).ok());
  CHECK(validate_content(frac.form, nlohmann::json::parse(R"({"n":4})")).to_string() == "/n: must be <= 3.5\n");
}

TEST_CASE("huge enums keep error messages short", "[validate][hostile]") {
  nlohmann::ordered_json schema = {
      {"type", "object"}, {"properties", {{"e", {{"type", "string"}, {"enum", nlohmann::ordered_json::array()}}}}}};
  for (int i = 0; i < 5000; ++i) schema["properties"]["e"]["enum"].push_back("v" + std::to_string(i));
  const auto form = parse_requested_schema(schema);
  REQUIRE(form.ok());
  const auto r = validate_content(form.form, nlohmann::json::parse(R"({"e":"nope"})"));
  REQUIRE(r.errors.size() == 1);
  CHECK_THAT(r.errors[0].message, Catch::EndsWith("... (5,000 in all)"));  // digits grouped, as English groups them
  CHECK(r.errors[0].message.size() < 200);
}

TEST_CASE("validation errors in another language: only the human text changes", "[validate][messages]") {
  const auto r = validate_content(
      contact_form(), nlohmann::json::parse(R"({"name":"A","age":7,"tags":["a","a","b"],"ok":"yes","x":1})"));
  struct Expected {
    const char* pointer;
    const char* keyword;
    const char* english;
    const char* korean;
  };
  const Expected expected[] = {
      {"/name", "minLength", "must be at least 2 characters long", "2자 이상이어야 합니다"},
      {"/age", "minimum", "must be >= 18", "18 이상이어야 합니다"},
      {"/ok", "type", "must be a boolean", "참 또는 거짓이어야 합니다"},
      {"/tags", "maxItems", "must select at most 2 options", "2개 이하로 선택해야 합니다"},
      {"/tags/1", "uniqueItems", "\"a\" is selected twice (also at /tags/0)",
       "\"a\"이(가) 두 번 선택되었습니다 (/tags/0에도 있음)"},
  };
  for (const auto& e : expected) {
    INFO(e.pointer << " " << e.keyword);
    const auto found = std::find_if(r.errors.begin(), r.errors.end(), [&](const ValidationError& x) {
      return x.pointer == e.pointer && x.keyword == e.keyword;
    });
    REQUIRE(found != r.errors.end());
    CHECK(found->message == e.english);  // what the runtime reports: English whatever the person reads
    CHECK(found->in("en") == e.english);
    CHECK(found->in("ko") == e.korean);
    CHECK(found->in("ko-KR") == e.korean);
    CHECK(found->in("fr") == e.english);  // no French catalog: English
  }
  // An error the catalog has no message for is said as it is, in every language.
  ValidationResult general;
  general.add("/x", "contains", "must contain at least 1 matching item(s)");
  CHECK(general.errors[0].in("ko") == "must contain at least 1 matching item(s)");
}

}  // namespace content_validate_test
