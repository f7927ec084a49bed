// The terminal form (generator/terminal_form.hpp) on string streams: each kind of field, a wrong
// value re-prompted with the runtime's message, defaults, skipping, decline, cancel (command and
// end of input), the review step, URL consent, and what is shown.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>
#include <elicit/content/schema.hpp>

#include "display_width.hpp"
#include "terminal_form.hpp"

namespace terminal_form_test {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

elicit::Form form_of(const char* schema) {
  auto parsed = elicit::parse_requested_schema(ordered_json::parse(schema));
  INFO(schema);
  REQUIRE(parsed.ok());
  return parsed.form;
}

struct Run {
  elicit::Answer answer;
  std::string screen;
};

Run fill(const elicit::Form& form, const std::string& typed, const std::string& message = "Please answer") {
  std::istringstream in(typed);
  std::ostringstream out;
  elicitgen::TerminalForm tf(in, out);
  auto answer = tf.ask_form(message, form);
  return {std::move(answer), out.str()};
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

const char* kEveryKind = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Your name", "description": "As on your passport", "minLength": 2,
             "maxLength": 5},
    "email": {"type": "string", "format": "email"},
    "score": {"type": "number", "minimum": 0, "maximum": 10},
    "age": {"type": "integer", "minimum": 18},
    "subscribe": {"type": "boolean", "title": "Subscribe?"},
    "size": {"type": "string", "title": "Size", "oneOf": [{"const": "s", "title": "Small"},
                                                      {"const": "l", "title": "Large"}]},
    "toppings": {"type": "array", "title": "Toppings", "minItems": 1, "maxItems": 2,
                 "items": {"type": "string", "enum": ["ham", "egg", "leek"]}}
  },
  "required": ["name", "email", "score", "age", "subscribe", "size", "toppings"]
})";

}  // namespace

TEST_CASE("terminal form: every kind, in the schema's order, wrong values re-prompted", "[terminal]") {
  const auto form = form_of(kEveryKind);
  // Each field gets one wrong value first, then a right one.
  const auto r = fill(form,
                      "Ada Lovelace\nAda\n"  // name: 12 code points > 5
                      "not-an-email\nada@example.com\n"
                      "eleven\n11\n9.5\n"  // score: not a number, then above the maximum
                      "17.5\n17\n40\n"     // age: a fraction, below the minimum
                      "maybe\nY\n"         // boolean
                      "3\nl\n"             // single-select: no option 3; then by wire value
                      "1,4\n1,2,3\n3,1\n"  // multi-select: no option 4; three > maxItems; ok
                      "\n");               // review: Enter sends
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content == json::parse(R"({"name":"Ada","email":"ada@example.com","score":9.5,"age":40,
                                            "subscribe":true,"size":"l","toppings":["leek","ham"]})"));
  // The order of the schema (not sorted): name before email before score...
  const auto name_at = r.screen.find("[1/7] Your name"), email_at = r.screen.find("[2/7] email"),
             score_at = r.screen.find("[3/7] score"), toppings_at = r.screen.find("[7/7] Toppings");
  CHECK(name_at < email_at);
  CHECK(email_at < score_at);
  CHECK(score_at < toppings_at);
  CHECK(toppings_at != std::string::npos);
  // What each field shows.
  CHECK(r.screen.find("As on your passport") != std::string::npos);
  CHECK(r.screen.find("text, from 2 to 5 characters") != std::string::npos);
  CHECK(r.screen.find("an email address") != std::string::npos);
  CHECK(r.screen.find("a number, from 0 to 10") != std::string::npos);
  CHECK(r.screen.find("a whole number, at least 18") != std::string::npos);
  CHECK(r.screen.find("1) Small [s]") != std::string::npos);
  CHECK(r.screen.find("3) leek") != std::string::npos);
  CHECK(r.screen.find("from 1 to 2 options") != std::string::npos);
  const auto one = fill(form_of(R"({"type":"object","properties":{"s":{"type":"string","minLength":1},
      "m":{"type":"array","maxItems":1,"items":{"type":"string","enum":["a"]}}}})"),
                        ":skip\n:cancel\n");
  CHECK(one.screen.find("text, at least 1 character\n") != std::string::npos);
  CHECK(one.screen.find("; at most 1 option\n") != std::string::npos);
  // The wrong values, each with the runtime's message for it (validate_value), then asked again.
  const auto expect_error = [&](const char* field, const json& value) {
    const auto v = elicit::validate_value(
        *std::find_if(form.fields.begin(), form.fields.end(), [&](const elicit::Field& f) { return f.name == field; }),
        value, std::string("/") + field);
    REQUIRE_FALSE(v.ok());
    CHECK(r.screen.find("error: /" + std::string(field) + ": " + v.errors[0].message) != std::string::npos);
  };
  expect_error("name", "Ada Lovelace");
  expect_error("email", "not-an-email");
  expect_error("score", 11);
  expect_error("age", 17.5);
  expect_error("age", 17);
  expect_error("toppings", json::array({"ham", "egg", "leek"}));
  CHECK(r.screen.find("error: /score: enter a number") != std::string::npos);
  CHECK(r.screen.find("error: /subscribe: answer y or n") != std::string::npos);
  CHECK(r.screen.find("error: /size: choose a number from 1 to 2") != std::string::npos);
  CHECK(r.screen.find("error: /toppings: \"4\" is not an option") != std::string::npos);
  // 7 fields + 10 re-prompts = 17 prompts.
  CHECK(count(r.screen, "\n> ") == 17);
  // The review table: the values in one column, after the widest label ("Subscribe?:").
  CHECK(r.screen.find("Review:\n  Your name:  \"Ada\"\n") != std::string::npos);
  CHECK(r.screen.find("\n  Toppings:   leek, ham\n") != std::string::npos);
  CHECK(r.screen.find("\n  Subscribe?: yes\n  Size:       Large\n") != std::string::npos);
}

TEST_CASE("terminal form: Enter takes the default or skips an optional field, a required one cannot be skipped",
          "[terminal]") {
  const auto form = form_of(R"({"type":"object","properties":{
      "name":{"type":"string","default":"John Doe"},
      "age":{"type":"integer","default":30},
      "verified":{"type":"boolean","default":true},
      "status":{"type":"string","enum":["active","inactive"],"default":"inactive"},
      "tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["b"]},
      "nickname":{"type":"string"},
      "city":{"type":"string"}},
    "required":["city"]})");
  const auto r = fill(form, "\n\n\n\n\n\n:skip\n\nParis\ny\n");
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content == json::parse(R"({"name":"John Doe","age":30,"verified":true,"status":"inactive",
                                            "tags":["b"],"city":"Paris"})"));
  CHECK(r.screen.find("default: \"John Doe\"") != std::string::npos);
  CHECK(r.screen.find("default: yes") != std::string::npos);
  CHECK(r.screen.find("error: /city: required: it cannot be left out") != std::string::npos);
  CHECK(r.screen.find("error: /city: required: enter a value") != std::string::npos);
  CHECK(r.screen.find("  nickname: (left out)") != std::string::npos);
}

TEST_CASE("terminal form: decline and cancel at any prompt, and the end of input", "[terminal]") {
  const auto form = form_of(kEveryKind);
  CHECK(fill(form, "Ada\n:decline\n").answer.action == elicit::ElicitAction::decline);
  CHECK(fill(form, "Ada\nada@example.com\n :cancel \n").answer.action == elicit::ElicitAction::cancel);
  const auto eof = fill(form, "Ada\n");  // Ctrl-D
  CHECK(eof.answer.action == elicit::ElicitAction::cancel);
  CHECK(eof.screen.find("(end of input: cancel)") != std::string::npos);
  // At the review too.
  const auto simple = form_of(R"({"type":"object","properties":{"x":{"type":"string"}}})");
  CHECK(fill(simple, "hi\n:decline\n").answer.action == elicit::ElicitAction::decline);
  CHECK(fill(simple, "hi\n").answer.action == elicit::ElicitAction::cancel);
  // An unknown command is not taken as a value; "::" types a leading colon.
  const auto colon = fill(simple, ":oops\n::oops\ny\n");
  INFO(colon.screen);
  CHECK(colon.screen.find("error: unknown command :oops") != std::string::npos);
  CHECK(colon.answer.content == json{{"x", ":oops"}});
  // The header says how.
  CHECK(eof.screen.find(":decline declines the form; :cancel or Ctrl-D cancels it") != std::string::npos);
  CHECK(eof.screen.find("Please answer") != std::string::npos);
}

TEST_CASE("terminal form: n at the review fills the form in again with the values kept", "[terminal]") {
  const auto form = form_of(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},
                                 "required":["a","b"]})");
  const auto r = fill(form, "one\n1\nn\n\n2\nyes\n");
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content == json{{"a", "one"}, {"b", 2}});
  CHECK(r.screen.find("current: \"one\"") != std::string::npos);
  CHECK(count(r.screen, "Review:") == 2);
}

TEST_CASE("terminal form: multi-select by values, :none, and the item count from validate_value", "[terminal]") {
  const auto form = form_of(R"({"type":"object","properties":{"t":{"type":"array","minItems":1,
      "items":{"anyOf":[{"const":"v1","title":"First"},{"const":"v2","title":"Second"}]}}},"required":["t"]})");
  const auto r = fill(form, ":none\nv2 v1\n\n");
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content == json{{"t", {"v2", "v1"}}});
  const auto none = elicit::validate_value(form.fields[0], json::array(), "/t");
  REQUIRE_FALSE(none.ok());
  CHECK(r.screen.find("error: /t: " + none.errors[0].message) != std::string::npos);
}

TEST_CASE("terminal form: a multi-select is a set, an option chosen twice is refused and asked again", "[terminal]") {
  const auto form = form_of(kEveryKind);
  // 3,3 is within maxItems (2) yet refused; 1,ham names option 1 by number and by value.
  const auto r = fill(form, "Ada\nada@example.com\n5\n40\ny\n1\n3,3\n1,ham\n3 ,1\n\n");
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content["toppings"] == json::array({"leek", "ham"}));
  CHECK(r.screen.find("error: /toppings: option 3 (leek) is chosen twice: name each option once\n") !=
        std::string::npos);
  CHECK(r.screen.find("error: /toppings: option 1 (ham) is chosen twice: name each option once\n") !=
        std::string::npos);
  CHECK(r.screen.find("any options, each once:") != std::string::npos);
  CHECK(count(r.screen, "\n> ") == 9);  // 7 fields + 2 re-prompts
  // Titled options are named by title and value; the repeat may come after other options.
  const auto titled = form_of(R"({"type":"object","properties":{"t":{"type":"array",
      "items":{"anyOf":[{"const":"v1","title":"First"},{"const":"v2","title":"Second"}]}}}})");
  const auto t = fill(titled, "v1,2,1\n2\n\n");
  INFO(t.screen);
  REQUIRE(t.answer.action == elicit::ElicitAction::accept);
  CHECK(t.answer.content == json{{"t", {"v2"}}});
  CHECK(t.screen.find("error: /t: option 1 (First [v1]) is chosen twice") != std::string::npos);
}

TEST_CASE("terminal form: URL consent shows the URL, the host marked, the warnings", "[terminal]") {
  const auto request = elicit::read_elicitation_request(json{{"mode", "url"},
                                                             {"message", "Connect your account"},
                                                             {"url", "https://XN--80AK6AA92E.com/connect?x=1"},
                                                             {"elicitationId", "e1"}});
  REQUIRE(request.url_review.allowed);
  REQUIRE_FALSE(request.url_review.warnings.empty());
  const auto ask = [&](const std::string& typed) {
    std::istringstream in(typed);
    std::ostringstream out;
    elicitgen::TerminalForm tf(in, out);
    auto answer = tf.ask(request);
    return Run{std::move(answer), out.str()};
  };
  const auto yes = ask("maybe\ny\n");
  INFO(yes.screen);
  CHECK(yes.answer.action == elicit::ElicitAction::accept);
  CHECK(yes.screen.find("Connect your account") != std::string::npos);
  // The carets sit under the host: 8 columns of "  URL:  ", 8 of "https://", 18 of the host.
  CHECK(yes.screen.find("  URL:  https://XN--80AK6AA92E.com/connect?x=1\n" + std::string(16, ' ') +
                        std::string(18, '^') + "\n") != std::string::npos);
  CHECK(yes.screen.find("  Host: xn--80ak6aa92e.com\n") != std::string::npos);
  for (const auto& w : request.url_review.warnings) CHECK(yes.screen.find("  warning: " + w) != std::string::npos);
  CHECK(yes.screen.find("answer y or n") != std::string::npos);
  CHECK(yes.screen.find("Open it yourself: https://XN--80AK6AA92E.com/connect?x=1") != std::string::npos);
  CHECK(ask("\n").answer.action == elicit::ElicitAction::decline);  // N is the default
  CHECK(ask("no\n").answer.action == elicit::ElicitAction::decline);
  CHECK(ask(":cancel\n").answer.action == elicit::ElicitAction::cancel);
  CHECK(ask("").answer.action == elicit::ElicitAction::cancel);
  // With highlighting, the host is in reverse video.
  std::istringstream in("n\n");
  std::ostringstream out;
  elicitgen::TerminalForm(in, out, true).ask(request);
  CHECK(out.str().find("https://\x1b[1;7mXN--80AK6AA92E.com\x1b[0m/connect") != std::string::npos);
}

TEST_CASE("terminal form: text from the server cannot drive the terminal", "[terminal]") {
  CHECK(elicitgen::terminal_safe("a\x1b]0;pwned\x07z") == "a\\x1b]0;pwned\\x07z");
  CHECK(elicitgen::terminal_safe("line\nnext", true) == "line\nnext");
  CHECK(elicitgen::terminal_safe("line\nnext") == "line\\x0anext");
  CHECK(elicitgen::terminal_safe("\xc2\x9b"
                                 "2J caf\xc3\xa9") == "\\u{9b}2J caf\xc3\xa9");
  const auto form = form_of(R"({"type":"object","properties":{"x":{"type":"string","title":"T\u001b[2J"}}})");
  const auto r = fill(form, ":cancel\n", "Hi\x1b[31m");
  CHECK(r.screen.find('\x1b') == std::string::npos);
  CHECK(r.screen.find("T\\x1b[2J") != std::string::npos);
}

TEST_CASE("terminal form: a form outside the subset is cancelled, saying why", "[terminal]") {
  const auto request = elicit::read_elicitation_request(
      json{{"message", "m"}, {"requestedSchema", {{"type", "object"}, {"properties", {{"x", {{"type", "object"}}}}}}}});
  REQUIRE_FALSE(request.form);
  std::istringstream in;
  std::ostringstream out;
  elicitgen::TerminalForm tf(in, out);
  CHECK(tf.ask(request).action == elicit::ElicitAction::cancel);
  CHECK(out.str().find("/requestedSchema/properties/x") != std::string::npos);
}

namespace {

// A Korean server's form: Korean titles (two columns a syllable), options of different widths.
const char* kKorean = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "이름", "minLength": 2},
    "age": {"type": "integer", "title": "나이", "minimum": 14},
    "plan": {"type": "string", "title": "요금제", "oneOf": [{"const": "basic", "title": "기본"},
                                                         {"const": "premium", "title": "프리미엄 요금제"},
                                                         {"const": "pro", "title": "Pro"}]},
    "news": {"type": "boolean", "title": "소식 받기"}
  },
  "required": ["name", "age", "plan", "news"]
})";

Run fill_in(const std::string& language, const elicit::Form& form, const std::string& typed, std::size_t columns = 0,
            const std::string& message = "가입 정보를 입력해 주세요") {
  std::istringstream in(typed);
  std::ostringstream out;
  elicitgen::TerminalForm tf(in, out, false, language, columns);
  auto answer = tf.ask_form(message, form);
  return {std::move(answer), out.str()};
}

}  // namespace

TEST_CASE("terminal form in Korean: its own words, the validation messages, columns by display width",
          "[terminal][messages]") {
  const auto r = fill_in("ko", form_of(kKorean), "A\n홍길동\n열\n10\n30\n9\n2\n아마도\n네\n예\n");
  INFO(r.screen);
  REQUIRE(r.answer.action == elicit::ElicitAction::accept);
  CHECK(r.answer.content == json{{"name", "홍길동"}, {"age", 30}, {"plan", "premium"}, {"news", true}});
  CHECK(r.screen.find("== 서버가 정보를 요청합니다 ==") != std::string::npos);
  CHECK(r.screen.find("[1/4] 이름  (필수)") != std::string::npos);
  CHECK(r.screen.find("텍스트, 2자 이상") != std::string::npos);
  CHECK(r.screen.find("오류: /name: 2자 이상이어야 합니다") != std::string::npos);      // the runtime's check
  CHECK(r.screen.find("오류: /age: 정수를 입력하세요 (예: 42)") != std::string::npos);  // the form's reading
  CHECK(r.screen.find("오류: /age: 14 이상이어야 합니다") != std::string::npos);
  CHECK(r.screen.find("오류: /plan: 1부터 3까지의 번호나 값 중 하나를 고르세요") != std::string::npos);
  CHECK(r.screen.find("오류: /news: y 또는 n으로 답하세요") != std::string::npos);
  // The options: the wire values in one column after the widest title ("프리미엄 요금제", 15 columns).
  CHECK(r.screen.find("    1) 기본            [basic]\n"
                      "    2) 프리미엄 요금제 [premium]\n"
                      "    3) Pro             [pro]\n") != std::string::npos);
  // The review table: values in one column after the widest label ("소식 받기:", 10 columns).
  CHECK(r.screen.find("확인:\n"
                      "  이름:      \"홍길동\"\n"
                      "  나이:      30\n"
                      "  요금제:    프리미엄 요금제\n"
                      "  소식 받기: 예\n"
                      "이대로 보낼까요? [Y/n] (n: 다시 입력) > ") != std::string::npos);
}

TEST_CASE("terminal form: a language without a catalog is English, and English words work in every language",
          "[terminal][messages]") {
  const auto fr = fill_in("fr", form_of(kKorean), "홍길동\n30\n1\ny\n\n");
  INFO(fr.screen);
  CHECK(fr.answer.action == elicit::ElicitAction::accept);
  CHECK(fr.screen.find("== The server asks for information ==") != std::string::npos);
  CHECK(fr.screen.find("[1/4] 이름  (required)") != std::string::npos);
  // y/n in a Korean form too; :decline is a command whatever the language.
  const auto ko = fill_in("ko", form_of(kKorean), "홍길동\n30\n3\nn\nyes\n");
  CHECK(ko.answer.content == json{{"name", "홍길동"}, {"age", 30}, {"plan", "pro"}, {"news", false}});
  CHECK(fill_in("ko", form_of(kKorean), ":decline\n").answer.action == elicit::ElicitAction::decline);
}

TEST_CASE("terminal form: paragraphs wrapped at the terminal's width, Korean between words", "[terminal][messages]") {
  const auto r = fill_in("ko", form_of(kKorean), ":cancel\n", 30,
                         "서버가 가입 정보를 요청합니다 이름과 나이와 요금제를 입력해 주세요");
  INFO(r.screen);
  CHECK(r.screen.find("서버가 가입 정보를 요청합니다\n"
                      "이름과 나이와 요금제를 입력해\n"
                      "주세요\n") != std::string::npos);
  // No line of the screen is wider than 30 columns but for a word longer than a line.
  std::istringstream lines(r.screen);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(elicitgen::display_width(line) <= 30);
  }
}

}  // namespace terminal_form_test
