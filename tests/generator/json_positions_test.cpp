// JsonPositions: where a JSON Pointer's value is written (line and byte column, 1-based), for
// FILE:LINE:COLUMN diagnostics; and the four shapes a diagnostic prints in.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>

#include "diagnostics.hpp"
#include "json_positions.hpp"

namespace json_positions_test {

using elicitgen::Diagnostics;
using elicitgen::JsonPositions;
using elicitgen::TextPosition;

namespace {

std::string at(const JsonPositions& p, const std::string& pointer) {
  const auto pos = p.locate(pointer);
  return std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

}  // namespace

TEST_CASE("position_at: 1-based lines and byte columns", "[positions]") {
  const std::string text =
      "ab\n\tc\xc3\xa9"
      "d\n";
  CHECK(elicitgen::position_at(text, 0).line == 1);
  CHECK(elicitgen::position_at(text, 0).column == 1);
  CHECK(elicitgen::position_at(text, 2).column == 3);  // the '\n' ends line 1
  CHECK(elicitgen::position_at(text, 3).line == 2);
  CHECK(elicitgen::position_at(text, 6).column == 4);  // the 2nd byte of "é": bytes, not characters
  CHECK(elicitgen::position_at(text, 100).line == 3);  // past the end: after the last byte
}

TEST_CASE("a pointer is placed at its member's name, an item's or the root's first byte", "[positions]") {
  const JsonPositions p(
      "\n  {\n"
      "    \"type\": \"object\",\n"
      "    \"properties\": {\n"
      "\t\"caf\xc3\xa9\": {\"type\": \"string\", \"enum\": [\"a\",  \"b\", [1, {\"x\": 2}]]},\n"
      "      \"n\": {\"minimum\": 1}\n"
      "    },\n"
      "    \"required\": [\"n\"]\n"
      "  }\n");
  CHECK(at(p, "") == "2:3");       // the root: its '{', after white space
  CHECK(at(p, "/type") == "3:5");  // the member name's opening quote
  CHECK(at(p, "/properties") == "4:5");
  CHECK(at(p, "/properties/caf\xc3\xa9") == "5:2");        // after a tab (one column)
  CHECK(at(p, "/properties/caf\xc3\xa9/type") == "5:12");  // "é" counts two bytes
  CHECK(at(p, "/properties/caf\xc3\xa9/enum/0") == "5:39");
  CHECK(at(p, "/properties/caf\xc3\xa9/enum/1") == "5:45");
  CHECK(at(p, "/properties/caf\xc3\xa9/enum/2/1/x") == "5:55");
  CHECK(at(p, "/properties/n/minimum") == "6:13");
  CHECK(at(p, "/required/0") == "8:18");
}

TEST_CASE("an absent pointer is placed at its nearest present ancestor", "[positions]") {
  const JsonPositions p(R"({"a": {"b": [10, 20]}, "c": 1})");
  CHECK(at(p, "/a/missing") == "1:2");  // a missing member: the parent's name
  CHECK(at(p, "/a/b/2") == "1:8");      // past the end of an array: the array's name
  CHECK(at(p, "/a/b/-") == "1:8");      // "-" (RFC 6901: past the end)
  CHECK(at(p, "/a/b/01") == "1:8");     // a leading zero is no index
  CHECK(at(p, "/a/b/1/deeper") == "1:18");
  CHECK(at(p, "/nothing/at/all") == "1:1");
  CHECK(at(p, "/c/0") == "1:24");     // a scalar has no children
  CHECK(at(p, "no slash") == "1:1");  // not a pointer: the root
}

TEST_CASE("member names are matched decoded, and the last of duplicates counts", "[positions]") {
  const JsonPositions p(
      R"({"q\"uote": 1, "back\\slash": 2, "a/b": 3, "t~": 4, "caf\u00e9": 5, "\ud83d\ude00": 6, "\/": 7,)"
      R"( "s": "}]\"{[", "dup": 8, "dup": 9, "": 10})");
  CHECK(at(p, "/q\"uote") == "1:2");
  CHECK(at(p, "/back\\slash") == "1:16");
  CHECK(at(p, "/a~1b") == "1:34");
  CHECK(at(p, "/t~0") == "1:44");
  CHECK(at(p, "/caf\xc3\xa9") == "1:53");
  CHECK(at(p, "/\xf0\x9f\x98\x80") == "1:69");
  CHECK(at(p, "/~1") == "1:88");
  CHECK(at(p, "/dup") == "1:122");  // strings holding brackets and quotes do not confuse the scan
  CHECK(at(p, "/") == "1:132");     // the empty name
}

TEST_CASE("any bytes are safe: malformed, truncated and deeply nested text", "[positions][hostile]") {
  for (const char* text :
       {"", "   ", "{", "{\"a\"", "{\"a\":", "{\"a\":[1,", "\"unterminated", "{\"a\\", "}}]]", "{1:2, \"b\": 3}",
        "[:::,,,]", "{\"a\" 1 \"b\": {\"c\": }}", "\xEF\xBB\xBF{\"a\": 1}", "{\"\\u12\": 1}", "{\"\\ud800\": 1}"}) {
    INFO(text);
    const JsonPositions p(text);
    for (const char* pointer : {"", "/a", "/a/0", "/b/c", "/1", "/\xef\xbf\xbd"}) {
      const auto pos = p.locate(pointer);
      CHECK(pos.line >= 1);
      CHECK(pos.column >= 1);
    }
  }
  CHECK(at(JsonPositions("\xEF\xBB\xBF{\"a\": 1}"), "/a") == "1:5");  // after a byte order mark
  CHECK(at(JsonPositions("{\"a\" 1 \"b\": {\"c\": 2}}"), "/b/c") == "1:14");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(at(JsonPositions(deep), "") == "1:1");
  CHECK(at(JsonPositions(deep), "/0/0/0") == "1:4");
  std::mt19937 rng(20260728);
  const std::string alphabet = "{}[]\":,\\ u0a1/~\n\t";
  for (int i = 0; i < 3000; ++i) {
    std::string text(rng() % 40, ' ');
    for (auto& c : text) c = alphabet[rng() % alphabet.size()];
    const JsonPositions p(text);
    CHECK(p.locate("/a/0/").line >= 1);
  }
}

TEST_CASE("diagnostics print in four shapes, placed by the registered JSON text", "[positions][format]") {
  Diagnostics d;
  d.error("a.json", "/x", "before the text is known");
  d.add_source("a.json", "{\n  \"x\": 1\n}");
  d.error("a.json", "/x", "bad x");
  d.warning("a.json", "", "about the document");
  d.error_at("t.mustache", TextPosition{3, 0}, "a line");
  d.error_at("b.json", TextPosition{}, "cannot open file");
  d.error("c.json", "/y", "no text registered");
  std::ostringstream os;
  d.print(os);
  CHECK(os.str() ==
        "a.json: error: /x: before the text is known\n"
        "a.json:2:3: error: /x: bad x\n"
        "a.json:1:1: warning: about the document\n"
        "t.mustache:3: error: a line\n"
        "b.json: error: cannot open file\n"
        "c.json: error: /y: no text registered\n");
  Diagnostics other;
  other.add_sources_of(d);
  other.warning("a.json", "/x", "again");
  CHECK(elicitgen::format_message(other.messages()[0]) == "a.json:2:3: warning: /x: again");
}

}  // namespace json_positions_test
