// The tools as `elicitgen client` shows them (generator/tool_table.hpp): the table's columns and
// alignment, titles from `title` or `annotations.title`, whatever a server sends in place of a
// tool, and the unknown-tool message.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tool_table.hpp"

namespace tool_table_test {

using nlohmann::json;

TEST_CASE("tool table: name and description, no TITLE column when no tool has a title", "[cli][tools]") {
  const auto tools = json::parse(R"([
    {"name":"book","description":"Books a room\nfor a meeting","inputSchema":{"type":"object"}},
    {"name":"cancel_booking","description":"Cancels it","inputSchema":{"type":"object"}},
    {"name":"ping","inputSchema":{"type":"object"}}])");
  CHECK(elicitgen::tool_table(tools) ==
        "NAME            DESCRIPTION\n"
        "book            Books a room\n"  // the first line of the description only
        "cancel_booking  Cancels it\n"
        "ping\n");  // no description: no trailing blanks
  CHECK(elicitgen::tool_table(json::array()).empty());
  CHECK(elicitgen::tool_table(json::object()).empty());
}

TEST_CASE("tool table: titles from title, else annotations.title, aligned by code points", "[cli][tools]") {
  const auto tools = json::parse(R"([
    {"name":"a","title":"Réserver","annotations":{"title":"ignored"},"description":"one"},
    {"name":"bb","annotations":{"title":"From annotations"},"description":"two"},
    {"name":"c","description":"three"}])");
  CHECK(elicitgen::tool_table(tools) ==
        "NAME  TITLE             DESCRIPTION\n"
        "a     Réserver          one\n"
        "bb    From annotations  two\n"
        "c     -                 three\n");
}

TEST_CASE("tool table: what a server sends instead of a tool cannot break it or the terminal", "[cli][tools]") {
  const auto tools = json::parse(R"([
    42, {"name":7,"title":["x"],"annotations":"no","description":{"a":1}},
    {"name":"evil\u001b]0;x\u0007","title":"T\u001b[2J","description":"d\u009b2J"}])");
  const auto table = elicitgen::tool_table(tools);
  CHECK(table ==
        "NAME              TITLE     DESCRIPTION\n"
        "?                 -\n"
        "?                 -\n"
        "evil\\x1b]0;x\\x07  T\\x1b[2J  d\\u{9b}2J\n");
  CHECK(table.find('\x1b') == std::string::npos);
  CHECK(elicitgen::tool_names(tools) == std::vector<std::string>{"evil\x1b]0;x\x07"});
}

TEST_CASE("unknown tool: the message lists the tools that exist, in the server's order", "[cli][tools]") {
  const auto tools = json::parse(R"([{"name":"b"},{"name":"a"},{"title":"no name"},{"name":"c"}])");
  CHECK(elicitgen::unknown_tool_message("x", tools) == std::string("unknown tool 'x'; available: b, a, c"));
  CHECK_FALSE(elicitgen::unknown_tool_message("a", tools));  // it exists: the server's error stands
  CHECK(elicitgen::unknown_tool_message("x", json::array()) ==
        std::string("unknown tool 'x'; the server offers no tools"));
  CHECK(elicitgen::unknown_tool_message("x\x1b[2J", tools) ==
        std::string("unknown tool 'x\\x1b[2J'; available: b, a, c"));
}

}  // namespace tool_table_test
