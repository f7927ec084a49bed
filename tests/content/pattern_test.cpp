#include <catch2/catch.hpp>

#include <string>

#include <elicit/content/pattern.hpp>

namespace pattern_test {

using elicit::Pattern;
using elicit::PatternError;

TEST_CASE("pattern is an unanchored search, as JSON Schema requires", "[pattern]") {
  const Pattern p("abc");
  CHECK(p.search("xxabcxx"));
  CHECK_FALSE(p.search("ab c"));
  const Pattern anchored("^[A-Za-z]+$");
  CHECK(anchored.search("Octocat"));
  CHECK_FALSE(anchored.search("octo cat"));
  CHECK_FALSE(anchored.search("user@example.com"));
  CHECK_FALSE(anchored.search("abc\n"));  // ECMA $ without the m flag is the very end
}

TEST_CASE("ECMA-262 semantics that differ from RE2's defaults", "[pattern]") {
  CHECK_FALSE(Pattern("^.$").search("\n"));
  CHECK_FALSE(Pattern("^.$").search("\r"));
  CHECK_FALSE(Pattern("^.$").search("\xE2\x80\xA8"));    // U+2028
  CHECK(Pattern("^.$").search("\xC3\xA9"));              // one code point, not one byte
  CHECK(Pattern("^\\s$").search("\xC2\xA0"));            // NBSP is ECMA whitespace
  CHECK(Pattern("^\\s$").search("\xEF\xBB\xBF"));        // U+FEFF too
  CHECK_FALSE(Pattern("^\\S$").search("\xE3\x80\x80"));  // ideographic space
  CHECK(Pattern("^[\\s,]+$").search(" ,\t\xC2\xA0"));
  CHECK(Pattern("^\\u00e9$").search("\xC3\xA9"));
  CHECK(Pattern("^\\u{1F389}$").search("\xF0\x9F\x8E\x89"));
  CHECK(Pattern("^\\uD83C\\uDF89$").search("\xF0\x9F\x8E\x89"));  // surrogate pair
  CHECK(Pattern("^\\x41$").search("A"));
  CHECK(Pattern("^\\cJ$").search("\n"));
  CHECK(Pattern("^[^]$").search("\n"));
  CHECK_FALSE(Pattern("[]").search("anything"));
  CHECK(Pattern("^\\d{3}-\\w+$").search("123-abc_9"));
  CHECK_FALSE(Pattern("^\\d$").search("\xD9\xA3"));  // Arabic-Indic digit: ECMA \d is ASCII
  CHECK(Pattern("^(?<year>\\d{4})$").search("2025"));
  CHECK(Pattern("^[[]$").search("["));
  CHECK(Pattern("^[a\\]]+$").search("a]a"));
  CHECK(Pattern("^\\/$").search("/"));
  CHECK(Pattern("^\\p{L}+$").search("\xC3\xA9t\xC3\xA9"));
  CHECK(Pattern("^\\p{Script=Greek}+$").search("\xCE\xB1\xCE\xB2"));
}

TEST_CASE("features a linear-time engine cannot run are rejected with a reason", "[pattern]") {
  CHECK_THROWS_WITH(Pattern("(?=a)b"), Catch::Contains("lookahead"));
  CHECK_THROWS_WITH(Pattern("(?<!a)b"), Catch::Contains("lookbehind"));
  CHECK_THROWS_WITH(Pattern("(a)\\1"), Catch::Contains("backreferences"));
  CHECK_THROWS_WITH(Pattern("(?<n>a)\\k<n>"), Catch::Contains("backreferences"));
  CHECK_THROWS_WITH(Pattern("[a-"), Catch::Contains("unterminated"));
  CHECK_THROWS_WITH(Pattern("a{2,1}"), Catch::Contains("RE2"));
  CHECK_THROWS_WITH(Pattern("(abc"), Catch::Contains("RE2"));
  CHECK_THROWS_WITH(Pattern("\\"), Catch::Contains("lone backslash"));
  CHECK_THROWS_WITH(Pattern("\\q"), Catch::Contains("unknown escape"));
  CHECK_THROWS_WITH(Pattern("[\\S]"), Catch::Contains("\\S inside"));
  CHECK_THROWS_WITH(Pattern("\\uD800"), Catch::Contains("surrogate"));
  CHECK_THROWS_AS(Pattern("(?i)abc"), PatternError);
}

TEST_CASE("catastrophic backtracking patterns run in linear time on 1 MB input", "[pattern][hostile]") {
  // On a backtracking engine each of these takes longer than the universe has existed.
  const std::string input = std::string(1 << 20, 'a') + "!";
  CHECK_FALSE(Pattern("^(a+)+$").search(input));
  CHECK_FALSE(Pattern("^(a|a)*$").search(input));
  CHECK_FALSE(Pattern("^(a|aa)+$").search(input));
  CHECK(Pattern("(a*)*!").search(input));
}

TEST_CASE("copies share the compiled program", "[pattern]") {
  const Pattern p("^x+$");
  const Pattern copy = p;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(copy.search("xxx"));
  CHECK(copy.source() == "^x+$");
}

}  // namespace pattern_test
