// Choosing a language: Accept-Language (RFC 9110 section 12.5.4, RFC 4647 lookup) and the POSIX
// locale environment (LC_ALL, LC_MESSAGES, LANG).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include <elicit/messages/language.hpp>

namespace language_test {

using elicit::messages::from_accept_language;
using elicit::messages::from_locale_name;

TEST_CASE("language: Accept-Language by quality, each range by RFC 4647 lookup", "[messages]") {
  CHECK(from_accept_language("ko") == "ko");
  CHECK(from_accept_language("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7") == "ko");
  CHECK(from_accept_language("en-US,en;q=0.9,ko;q=0.8") == "en");
  // Quality orders, not position; ties keep their order; q=0 means "not this".
  CHECK(from_accept_language("en;q=0.5, ko;q=0.8") == "ko");
  CHECK(from_accept_language("ko;q=0.5, en;q=0.5") == "ko");
  CHECK(from_accept_language("ko;q=0, en") == "en");
  CHECK(from_accept_language("ko;q=0") == "en");
  // Lookup truncates the range, never widens it: "ko-Kore-KR" finds "ko"; a language we lack is skipped.
  CHECK(from_accept_language("ko-Kore-KR") == "ko");
  CHECK(from_accept_language("KO-kr") == "ko");
  CHECK(from_accept_language("fr-CH, fr;q=0.9, ko;q=0.8, *;q=0.5") == "ko");
  CHECK(from_accept_language("fr-CH, fr;q=0.9, *;q=0.5, ko;q=0.4") == "en");
  CHECK(from_accept_language("de") == "en");
  CHECK(from_accept_language("") == "en");
  CHECK(from_accept_language("  ,ko , ") == "ko");
  CHECK(from_accept_language("ko;Q=1.000") == "ko");
}

TEST_CASE("language: a malformed or oversized Accept-Language is English", "[messages]") {
  CHECK(from_accept_language("ko;q=2") == "en");
  CHECK(from_accept_language("ko;q=0.1234") == "en");
  CHECK(from_accept_language("ko;level=1") == "en");
  CHECK(from_accept_language("k o") == "en");
  CHECK(from_accept_language("ko-") == "en");
  CHECK(from_accept_language("toolonglanguage") == "en");
  CHECK(from_accept_language(std::string(5000, 'k')) == "en");
  CHECK(from_accept_language("ko\r\nX-Injected: 1") == "en");
}

TEST_CASE("language: POSIX locale names", "[messages]") {
  CHECK(from_locale_name("ko_KR.UTF-8") == "ko");
  CHECK(from_locale_name("ko_KR.utf8@euro") == "ko");
  CHECK(from_locale_name("ko") == "ko");
  CHECK(from_locale_name("en_US.UTF-8") == "en");
  CHECK(from_locale_name("C") == "en");
  CHECK(from_locale_name("C.UTF-8") == "en");
  CHECK(from_locale_name("POSIX") == "en");
  CHECK(from_locale_name("") == "en");
  CHECK(from_locale_name("fr_FR.UTF-8") == "en");
}

TEST_CASE("language: the environment in the POSIX order (LC_ALL, LC_MESSAGES, LANG)", "[messages]") {
  const auto set = [](const char* name, const char* value) {
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  };
  set("LC_ALL", nullptr);
  set("LC_MESSAGES", nullptr);
  set("LANG", nullptr);
  CHECK(elicit::messages::from_environment() == "en");
  set("LANG", "ko_KR.UTF-8");
  CHECK(elicit::messages::from_environment() == "ko");
  set("LC_MESSAGES", "C");
  CHECK(elicit::messages::from_environment() == "en");
  set("LC_ALL", "ko_KR.UTF-8");
  CHECK(elicit::messages::from_environment() == "ko");
  set("LC_ALL", "");  // empty is unset
  CHECK(elicit::messages::from_environment() == "en");
  set("LC_ALL", nullptr);
  set("LC_MESSAGES", nullptr);
  set("LANG", nullptr);
}

}  // namespace language_test
