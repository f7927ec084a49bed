// The message catalog: every language has every English message with the same arguments, English is
// said where a language lacks one, arguments are formatted by the language's rules.
#include <catch2/catch.hpp>

#include <unicode/messagepattern.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <elicit/messages/catalog.hpp>

namespace catalog_test {

using elicit::messages::Message;
using elicit::messages::text;

namespace {

// The names of the arguments a MessageFormat pattern uses (ICU's own parser of the syntax).
std::set<std::string> argument_names(const std::string& pattern) {
  UErrorCode e = U_ZERO_ERROR;
  icu::MessagePattern parsed(icu::UnicodeString::fromUTF8(pattern), nullptr, e);
  REQUIRE(U_SUCCESS(e));
  std::set<std::string> names;
  for (int32_t i = 0; i < parsed.countParts(); ++i) {
    const auto& part = parsed.getPart(i);
    if (part.getType() == UMSGPAT_PART_TYPE_ARG_NAME) {
      std::string name;
      parsed.getSubstring(part).toUTF8String(name);
      names.insert(name);
    }
  }
  return names;
}

}  // namespace

TEST_CASE("catalog: English and Korean, English first, compiled in", "[messages]") {
  const auto& languages = elicit::messages::languages();
  REQUIRE(languages.size() >= 2);
  CHECK(languages.front() == "en");
  CHECK(std::find(languages.begin(), languages.end(), "ko") != languages.end());
  CHECK(elicit::messages::ids().size() >= 20);
}

TEST_CASE("catalog: every language has every English message, with the same arguments", "[messages]") {
  const auto ids = elicit::messages::ids();
  REQUIRE_FALSE(ids.empty());
  for (const auto& language : elicit::messages::languages()) {
    for (const auto& id : ids) {
      const auto english = elicit::messages::pattern("en", id);
      const auto own = elicit::messages::pattern(language, id);
      INFO(language << " " << id);
      CHECK_FALSE(english.empty());
      CHECK_FALSE(own.empty());
      if (!own.empty()) CHECK(argument_names(own) == argument_names(english));
    }
  }
}

TEST_CASE("catalog: arguments by name, plural forms by the language's rules", "[messages]") {
  CHECK(text("en", "validation.min_length", {{"limit", std::int64_t{1}}}) == "must be at least 1 character long");
  CHECK(text("en", "validation.min_length", {{"limit", std::int64_t{20}}}) == "must be at least 20 characters long");
  CHECK(text("ko", "validation.min_length", {{"limit", std::int64_t{20}}}) == "20자 이상이어야 합니다");
  CHECK(text("ko", "validation.min_length", {{"limit", std::int64_t{1}}}) == "1자 이상이어야 합니다");
  // Digits grouped as the language groups them.
  CHECK(text("en", "validation.max_items", {{"limit", std::int64_t{1000}}}) == "must select at most 1,000 options");
  // Text arguments go in as they are, braces and quotes included (never read as a pattern).
  CHECK(text("en", "validation.pattern", {{"pattern", std::string("^'{a}'$")}}) == "must match the pattern ^'{a}'$");
  // In any order; a Message as plain data says the same.
  const Message m{"validation.repeated", {{"first", std::string("/tags/0")}, {"value", std::string("\"red\"")}}};
  CHECK(text("en", m) == "\"red\" is selected twice (also at /tags/0)");
  CHECK(text("ko", m) == "\"red\"이(가) 두 번 선택되었습니다 (/tags/0에도 있음)");
}

TEST_CASE("catalog: a language without a catalog, or without a message, is said in English, never empty",
          "[messages]") {
  const auto english = text("en", "validation.required");
  CHECK(english == "is required");
  CHECK(text("fr", "validation.required") == english);
  CHECK(text("", "validation.required") == english);
  CHECK(text("zz-Latn-ZZ", "validation.required") == english);
  CHECK(text("ko-KR", "validation.required") == "필수 항목입니다");
  CHECK(text("ko_KR", "validation.required") == "필수 항목입니다");
  // An id no language has: the id itself.
  CHECK(text("ko", "no.such.message") == "no.such.message");
  // A missing argument stays visible rather than vanishing.
  CHECK(text("en", "validation.minimum").find("{limit}") != std::string::npos);
  CHECK(elicit::messages::pattern("fr", "validation.required") ==
        elicit::messages::pattern("en", "validation.required"));
}

TEST_CASE("catalog: said from many threads at once", "[messages]") {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const auto language = (t + i) % 2 ? "ko" : "en";
        const auto s = text(language, "validation.max_length", {{"limit", std::int64_t{i}}});
        if (s.empty() || s.find(std::to_string(i)) == std::string::npos) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(wrong == 0);
}

}  // namespace catalog_test
