#include <catch2/catch.hpp>

#include "names.hpp"

namespace names_test {

using namespace elicitgen;

TEST_CASE("member names are snake_case and always valid C++", "[names]") {
  CHECK(member_name("name") == "name");
  CHECK(member_name("firstName") == "first_name");
  CHECK(member_name("first-name") == "first_name");
  CHECK(member_name("first_name") == "first_name");
  CHECK(member_name("HTTPServer") == "http_server");
  CHECK(member_name("postalCode2") == "postal_code2");
  CHECK(member_name("class") == "class_");
  CHECK(member_name("co_await") == "co_await_");
  CHECK(member_name("and") == "and_");
  CHECK(member_name("linux") == "linux_");
  CHECK(member_name("NULL") == "null");
  CHECK(member_name("std") == "std_");
  CHECK(member_name("2fa") == "_2fa");
  CHECK(member_name("") == "unnamed");
  CHECK(member_name("*/") == "unnamed");
  CHECK(member_name("__x__") == "x");
  CHECK(member_name("caf\xC3\xA9") == "caf_u00e9");
  CHECK(member_name("\xF0\x9F\x8E\x89") == "u1f389");
  CHECK(member_name("\xFF") == "u00ff");  // invalid UTF-8 still maps to something valid
  CHECK(member_name("a/b~c") == "a_b_c");
  CHECK(member_name("with \"quotes\"") == "with_quotes");
}

TEST_CASE("type names are PascalCase and never reserved", "[names]") {
  CHECK(type_name("contact") == "Contact");
  CHECK(type_name("contact_information") == "ContactInformation");
  CHECK(type_name("sep1330-enums") == "Sep1330Enums");
  CHECK(type_name("untitledMulti") == "UntitledMulti");
  CHECK(type_name("2fa") == "T2fa");
  CHECK(type_name("") == "Unnamed");
  CHECK(type_name("TRUE") == "True");
  CHECK(type_name("EOF") == "Eof");
}

TEST_CASE("file stems: the file name up to its first dot, other bytes than [A-Za-z0-9_] as _", "[names]") {
  CHECK(file_stem("contact_information.json") == "contact_information");
  CHECK(file_stem("forms/RSVPForm.json") == "RSVPForm");
  CHECK(file_stem("/abs/dir.v2/IDCard.json") == "IDCard");
  CHECK(file_stem("HTTPServer.json") == "HTTPServer");
  CHECK(file_stem("sep1330-enums.json") == "sep1330_enums");
  CHECK(file_stem("caf\xc3\xa9.json") == "caf__");
  CHECK(file_stem("R\xc3\xa9servation.json") == "R__servation");
  CHECK(file_stem("order.schema.json") == "order");
  CHECK(file_stem("2fa form.json") == "2fa_form");
  CHECK(file_stem("noext") == "noext");
  CHECK(file_stem(".json").empty());
  CHECK(file_stem("").empty());
}

TEST_CASE("very long names are cut, with a hash that keeps them distinct", "[names]") {
  const std::string long_a(500, 'a');
  const std::string long_b = long_a + "b";
  const auto a = member_name(long_a);
  const auto b = member_name(long_b);
  CHECK(a.size() <= 96);
  CHECK(b.size() <= 96);
  CHECK(a != b);
  CHECK(a.substr(0, 80) == std::string(80, 'a'));
  CHECK(a == member_name(long_a));  // deterministic
  std::string accents;
  for (int i = 0; i < 1000; ++i) accents += "\xc3\xa9";
  CHECK(member_name(accents).size() <= 96);
  CHECK(type_name(accents).size() <= 96);
  CHECK(member_name(std::string(96, 'a')) == std::string(96, 'a'));  // at the limit: unchanged
}

}  // namespace names_test
