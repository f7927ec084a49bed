#include <catch2/catch.hpp>

#include <elicit/content/formats.hpp>

namespace formats_test {

using namespace elicit;

TEST_CASE("code points, not bytes, are what minLength and maxLength count", "[formats]") {
  CHECK(code_point_length("") == 0);
  CHECK(code_point_length("hello") == 5);
  CHECK(code_point_length("h\xC3\xA9llo") == 5);       // é is 2 bytes
  CHECK(code_point_length("\xE2\x82\xAC") == 1);       // € is 3 bytes
  CHECK(code_point_length("\xF0\x9F\x8E\x89!") == 2);  // 🎉 is 4 bytes
  CHECK(code_point_length(std::string_view("a\0b", 3)) == 3);
}

TEST_CASE("email follows RFC 5321 mailboxes", "[formats][email]") {
  for (const char* ok : {"octocat@github.com", "a@b", "first.last@example.co.uk", "user+tag@example.com",
                         "\"john doe\"@example.com", "\"a\\\"b\"@example.com", "x@[192.168.0.1]", "x@[IPv6:::1]",
                         "!#$%&'*+-/=?^_`{|}~@example.org", "a@xn--bcher-kva.example"}) {
    INFO(ok);
    CHECK(is_email(ok));
  }
  for (const char* bad : {"", "plain", "@example.com", "user@", ".user@example.com", "user.@example.com",
                          "us..er@example.com", "user@-example.com", "user@example-.com", "user@exa mple.com",
                          "user@example..com", "us er@example.com", "octocat at github", "a@b@c", "x@[300.1.1.1]",
                          "x@[IPv6:1::2::3]", "\"unterminated@example.com", "caf\xC3\xA9@example.com"}) {
    INFO(bad);
    CHECK_FALSE(is_email(bad));
  }
  CHECK(is_email(std::string(64, 'a') + "@example.com"));
  CHECK_FALSE(is_email(std::string(65, 'a') + "@example.com"));
  CHECK_FALSE(is_email("a@" + std::string(64, 'b') + ".com"));  // label over 63
  CHECK_FALSE(is_email("a@" + std::string(60, 'b') + "." + std::string(60, 'c') + "." + std::string(60, 'd') + "." +
                       std::string(60, 'e') + ".example.com"));  // 257 octets: over 254 in all
}

TEST_CASE("uri is an absolute RFC 3986 URI", "[formats][uri]") {
  for (const char* ok :
       {"https://example.com", "http://example.com/a/b?c=d&e#f", "mailto:octocat@github.com", "urn:isbn:0451450523",
        "file:///etc/hosts", "https://user:pw@host:8080/p", "http://[::1]:3000/", "http://[v7.fe80::a+en1]/",
        "https://example.com/%20space", "tag:example.com,2005:x", "x:", "HTTP://EXAMPLE.COM"}) {
    INFO(ok);
    CHECK(is_uri(ok));
  }
  for (const char* bad : {"", "example.com", "/relative/path", "//example.com", "1http://x", "ht tp://x",
                          "https://exa mple.com", "https://example.com/%zz", "https://example.com/%2", "http://[::1/",
                          "http://[1::2::3]/", "https://example.com:80a/", "https://ex\xC3\xA4mple.com",
                          "https://example.com/a b", "https://example.com/<>", ":no-scheme"}) {
    INFO(bad);
    CHECK_FALSE(is_uri(bad));
  }
}

TEST_CASE("date is an RFC 3339 full-date with real month lengths", "[formats][date]") {
  for (const char* ok : {"2025-11-25", "2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01", "2025-04-30"}) {
    INFO(ok);
    CHECK(is_date(ok));
  }
  for (const char* bad : {"2023-02-29", "1900-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00",
                          "2025-1-01", "25-11-25", "2025/11/25", "2025-11-25T00:00:00Z", "２０２５-11-25", ""}) {
    INFO(bad);
    CHECK_FALSE(is_date(bad));
  }
}

TEST_CASE("date-time is an RFC 3339 date-time with offsets and leap seconds", "[formats][date-time]") {
  for (const char* ok : {"2025-11-25T10:00:00Z", "2025-11-25t10:00:00z", "2025-11-25T10:00:00.123456Z",
                         "2025-11-25T10:00:00+05:30", "2025-11-25T10:00:00-08:00", "2016-12-31T23:59:60Z",
                         "2016-12-31T15:59:60-08:00", "2017-01-01T00:29:60+00:30", "2024-02-29T23:59:59+14:00"}) {
    INFO(ok);
    CHECK(is_date_time(ok));
  }
  for (const char* bad :
       {"2025-11-25", "2025-11-25T10:00:00", "2025-11-25 10:00:00Z", "2025-11-25T24:00:00Z", "2025-11-25T10:60:00Z",
        "2025-11-25T10:00:61Z", "2016-12-31T22:59:60Z", "2025-11-25T10:00:00.Z", "2025-11-25T10:00:00+5:30",
        "2025-11-25T10:00:00+24:00", "2025-11-25T10:00:00+05:60", "2023-02-29T10:00:00Z", "2025-11-25T10:00Z",
        "2025-11-25T10:00:00ZZ"}) {
    INFO(bad);
    CHECK_FALSE(is_date_time(bad));
  }
}

TEST_CASE("matches_format dispatches and names formats as JSON Schema does", "[formats]") {
  CHECK(matches_format("anything", StringFormat::none));
  CHECK_FALSE(matches_format("nope", StringFormat::email));
  CHECK(format_name(StringFormat::date_time) == "date-time");
  CHECK(format_name(StringFormat::uri) == "uri");
}

}  // namespace formats_test
