// Case-insensitive text of the HTTP layer (<elicit/http/ascii_case.hpp>): ASCII letters only,
// whatever the C locale says, and whole comparisons (a prefix is not equality).
#include <catch2/catch.hpp>

#include <clocale>
#include <string>

#include <elicit/http/ascii_case.hpp>

namespace ascii_case_test {

using namespace elicit::http;

TEST_CASE("ascii_lower lowers A to Z and leaves every other byte as it is", "[http][ascii]") {
  CHECK(ascii_lower(std::string_view("Text/Event-Stream; Charset=UTF-8")) == "text/event-stream; charset=utf-8");
  CHECK(ascii_lower(std::string_view("@[`{")) == "@[`{");  // the bytes around the letters
  const std::string latin1 = "\xC4\xD6\xDC";               // Ä Ö Ü in ISO 8859-1, not ASCII
  CHECK(ascii_lower(latin1) == latin1);
  CHECK(ascii_lower(std::string_view()).empty());
}

TEST_CASE("ascii_lower ignores the C locale", "[http][ascii]") {
  // A host application may set a single-byte locale where tolower maps 0xC4 to 0xE4; header names,
  // media types and schemes must read the same regardless.
  const char* set = std::setlocale(LC_CTYPE, "de_DE.ISO-8859-1");
  CHECK(ascii_lower(std::string("\xC4")) == "\xC4");
  CHECK(equals_nocase("\xC4", "\xE4") == false);
  if (set) std::setlocale(LC_CTYPE, "C");
}

TEST_CASE("equals_nocase, starts_with_nocase and contains_nocase compare without ASCII case", "[http][ascii]") {
  CHECK(equals_nocase("Bearer", "bearer"));
  CHECK_FALSE(equals_nocase("Bearer", "bearer "));  // lengths differ
  CHECK_FALSE(equals_nocase("Bearer", "Bearex"));
  CHECK(equals_nocase("", ""));

  CHECK(starts_with_nocase("HTTPS://Example.COM/", "https://"));
  CHECK(starts_with_nocase("text/event-stream", "text/event-stream"));
  CHECK_FALSE(starts_with_nocase("http:", "https://"));  // shorter than the prefix
  CHECK_FALSE(starts_with_nocase("xtext/event-stream", "text/event-stream"));

  CHECK(contains_nocase("application/json, Text/Event-Stream", "text/event-stream"));
  CHECK(contains_nocase("*/*", "*/*"));
  CHECK_FALSE(contains_nocase("application/json", "text/event-stream"));
  CHECK_FALSE(contains_nocase("text/event-strea", "text/event-stream"));
  CHECK(contains_nocase("anything", ""));
}

}  // namespace ascii_case_test
