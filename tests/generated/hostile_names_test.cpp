// tests/schemas/compile/hostile_names.json: names and strings built to break generated C++ (keywords,
// digits, dashes, unicode, quotes, backslashes, "*/", newlines, NUL). They compile (warning-free,
// C++17 and C++20) and every key and value survives the round trip byte for byte.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "hostile_names.hpp"

namespace hostile_names_test {

using hostile::HostileNames;
using nlohmann::json;

TEST_CASE("hostile names map to valid, distinct members", "[hostile][names]") {
  HostileNames h;
  h.class_ = "keyword";
  h._2fa = true;
  h.caf_u00e9 = "unicode";
  h.u1f389 = 2.5;
  h.unnamed = "empty name";
  h.std_ = "std";
  h.elicit_ = 7;
  h.a_b_c = "slash and tilde";
  h.int_ = HostileNames::Int::nul;
  const json j = h;
  CHECK(j.at("class") == "keyword");
  CHECK(j.at("2fa") == true);
  CHECK(j.at("caf\u00e9") == "unicode");
  CHECK(j.at("\U0001F389") == 2.5);
  CHECK(j.at("") == "empty name");
  CHECK(j.at("a/b~c") == "slash and tilde");
  CHECK(j.at("int") == std::string("\0", 1));
  CHECK(j.at(std::string("nul\0byte", 8)) == std::string("a\0b", 3));
  CHECK(j.at("with \"quotes\"") == "\"); system(\"rm -rf /\"); //");
  CHECK(j.at("back\\slash") == "C:\\temp\\");
  CHECK(j.at("TRUE") == json::array({"*/", "1"}));
  CHECK(j.at("namespace") == INT64_MIN);
  CHECK(j.at("\U0001F389").get<double>() == 2.5);
  const auto back = elicit::decode<HostileNames>(j);
  INFO(back.errors.to_string());
  REQUIRE(back.ok());
  CHECK(*back.value == h);
}

TEST_CASE("hostile strings survive as data, never as code", "[hostile]") {
  static constexpr char kMessage[] =
      "Hostile names: \"quotes\", back\\slash, */ comment ends, new\nlines, NUL \0 bytes, \?\?/ trigraphs";
  CHECK(elicit::default_message<HostileNames>() == std::string_view(kMessage, sizeof kMessage - 1));
  CHECK(elicit::to_string(HostileNames::Int::unnamed).empty());
  CHECK(elicit::to_string(HostileNames::Int::a_b) == "a\"b");
  CHECK(elicit::title_of(HostileNames::Int::class_) == "default");
  CHECK(elicit::to_string(HostileNames::True::new_line) == "new\nline");
  CHECK(elicit::requested_schema<HostileNames>()["properties"].size() == 18);
  CHECK(elicit::requested_schema<HostileNames>()["title"] == "*/ #error title breaks out \\");
  HostileNames h;
  h.end_comment = "*/*/A";
  CHECK(elicit::validate(h).ok());
  h.end_comment = "*/x";
  REQUIRE(elicit::validate(h).errors.size() == 1);
  CHECK(elicit::validate(h).errors[0].pointer == "/end *~1 comment");  // RFC 6901 escapes "/"
  h.end_comment.reset();
  h.a_b_c = "";
  CHECK(elicit::validate(h).errors.at(0).pointer == "/a~1b~0c");
}

}  // namespace hostile_names_test
