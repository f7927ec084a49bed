#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "cpp_text.hpp"

namespace cpp_text_test {

using namespace elicitgen;

TEST_CASE("string literals keep every byte and cannot break out", "[cpp_text]") {
  CHECK(string_literal("plain") == "\"plain\"");
  CHECK(string_literal("a\"b") == "\"a\\\"b\"");
  CHECK(string_literal("back\\") == "\"back\\\\\"");
  CHECK(string_literal("\?\?/") == "\"\\?\\?/\"");
  CHECK(string_literal(std::string_view("a\0b", 3)) == "\"a\\000b\"");
  CHECK(string_literal("new\nline") == "\"new\\012line\"");
  CHECK(string_literal("\xC3\xA9") == "\"\\303\\251\"");
  CHECK(string_literal("\x01"
                       "7") == "\"\\0017\"");  // octal escapes are always 3 digits
  CHECK(string_view_expr(std::string_view("a\0b", 3)) == "std::string_view{\"a\\000b\", 3}");
}

TEST_CASE("comment text cannot end the comment line early or splice the next one", "[cpp_text]") {
  CHECK(comment_text("two\nlines") == "two lines");
  CHECK(comment_text("ends with backslash \\") == "ends with backslash");
  CHECK(comment_text("ends with backslash and space \\  ") == "ends with backslash and space");
  CHECK(comment_text("  many   spaces\t\there ") == "many spaces here");
  CHECK(comment_text(std::string(300, 'x'), 10) == "xxxxxxxxxx...");
  CHECK(comment_text("\xC3\xA9\xC3\xA9\xC3\xA9", 3) == "\xC3\xA9...");  // cut on a code point boundary
  CHECK(comment_text("ends with a trigraph \?\?/") == "ends with a trigraph ?\\?/");
  CHECK(comment_text("\?\?= \?\?- \?\?? \?\?x") == "?\\?= ?\\?- \?\?? ??x");  // only the nine trigraphs
}

// A held-out list of hostile texts (not the ones the rules above were written from): whatever the
// text, the comment holds no trigraph, no line break, no trailing backslash or space.
TEST_CASE("no hostile text changes what a generated comment means", "[cpp_text][hostile]") {
  const char* const kHostile[] = {
      "\?\?/",           "a\?\?/",          "\?\?\?/", "\?\?\?\?/",         "x \?\?/ \\", "\?\?/\n#error spliced",
      "\?\?'\?\?(\?\?)", "\?\?!\?\?<\?\?>", "\\\\",    "\\ \t \r",          "*/ /* //",   "\r\n#include <x>",
      "\x7F\\",          "\?\? /",          "\?\?\\",  "\xE2\x80\xA8\?\?/", "\?\?\x01/",  "end\\\n",
  };
  const std::string trigraph_ends = "=/'()!<>-";
  for (const std::string text : kHostile) {
    for (const std::size_t limit : {std::size_t{200}, std::size_t{3}, std::size_t{4}, std::size_t{5}}) {
      const auto c = comment_text(text, limit);
      INFO(text << " (" << limit << ") -> " << c);
      CHECK(c.find_first_of("\n\r") == std::string::npos);
      CHECK((c.empty() || (c.back() != '\\' && c.back() != ' ')));
      for (std::size_t i = 0; i + 2 < c.size(); ++i)
        CHECK_FALSE((c[i] == '?' && c[i + 1] == '?' && trigraph_ends.find(c[i + 2]) != std::string::npos));
    }
  }
}

TEST_CASE("double literals read back exactly", "[cpp_text]") {
  CHECK(double_literal(95.5) == "95.5");
  CHECK(double_literal(18) == "18.0");
  CHECK(double_literal(0.1) == "0.1");
  CHECK(double_literal(1e300) == "1e+300");
  for (double d : {0.1, 1.0 / 3.0, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 123456789.125}) {
    CHECK(std::strtod(double_literal(d).c_str(), nullptr) == d);
  }
}

TEST_CASE("long string literals become adjacent literals on short lines", "[cpp_text]") {
  const std::string text(5000, 'x');
  const auto literal = string_literal(text);
  // Three pieces of at most 2,000 source characters (plus quotes), joined by newlines.
  CHECK(std::count(literal.begin(), literal.end(), '\n') == 2);
  std::string joined;
  std::size_t start = 0;
  while (start < literal.size()) {
    auto end = literal.find('\n', start);
    if (end == std::string::npos) end = literal.size();
    const auto line = literal.substr(start, end - start);
    CHECK(line.size() <= 2010);
    const auto open = line.find('"');
    joined += line.substr(open + 1, line.rfind('"') - open - 1);
    start = end + 1;
  }
  CHECK(joined == text);
  // Escapes are never split: each piece ends on a whole escape.
  const auto escaped = string_literal(std::string(3000, '\n'));
  CHECK(escaped.find("\\01\"") == std::string::npos);
  CHECK(escaped.find("\\0\"") == std::string::npos);
}

}  // namespace cpp_text_test
