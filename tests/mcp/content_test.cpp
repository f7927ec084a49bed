// Content blocks (elicit/content.hpp) and Base64, against the spec's JSON shapes and RFC 4648's
// test vectors.
#include <catch2/catch.hpp>

#include <elicit/content_blocks.hpp>
#include <elicit/logging.hpp>

namespace content_test {

using namespace elicit;
using nlohmann::json;

TEST_CASE("base64_encode gives RFC 4648's test vectors, padding included", "[content]") {
  CHECK(base64_encode("") == "");
  CHECK(base64_encode("f") == "Zg==");
  CHECK(base64_encode("fo") == "Zm8=");
  CHECK(base64_encode("foo") == "Zm9v");
  CHECK(base64_encode("foob") == "Zm9vYg==");
  CHECK(base64_encode("fooba") == "Zm9vYmE=");
  CHECK(base64_encode("foobar") == "Zm9vYmFy");
  CHECK(base64_encode(std::string("\x00\xff\xfe", 3)) == "AP/+");  // binary, the standard alphabet
}

TEST_CASE("content blocks have the spec's shapes", "[content]") {
  CHECK(content::text("hi") == json{{"type", "text"}, {"text", "hi"}});
  CHECK(content::image("AAAA", "image/png") == json{{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}});
  CHECK(content::audio("AAAA", "audio/wav") == json{{"type", "audio"}, {"data", "AAAA"}, {"mimeType", "audio/wav"}});
  CHECK(content::embedded_text("test://a", "text/plain", "x") ==
        json{{"type", "resource"}, {"resource", {{"uri", "test://a"}, {"mimeType", "text/plain"}, {"text", "x"}}}});
  CHECK(content::embedded_blob("test://b", "application/octet-stream", "AP/+") ==
        json{{"type", "resource"},
             {"resource", {{"uri", "test://b"}, {"mimeType", "application/octet-stream"}, {"blob", "AP/+"}}}});
  CHECK(content::resource_link("test://c", "c") == json{{"type", "resource_link"}, {"uri", "test://c"}, {"name", "c"}});
  CHECK(content::resource_link("test://c", "c", "a file", "text/plain") == json{{"type", "resource_link"},
                                                                                {"uri", "test://c"},
                                                                                {"name", "c"},
                                                                                {"description", "a file"},
                                                                                {"mimeType", "text/plain"}});
}

TEST_CASE("logging levels: names both ways, in RFC 5424's order", "[logging]") {
  const char* names[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
  for (int i = 0; i < 8; ++i) {
    const auto level = parse_logging_level(std::string_view(names[i]));
    REQUIRE(level);
    CHECK(static_cast<int>(*level) == i);
    CHECK(to_string(*level) == names[i]);
  }
  CHECK(LoggingLevel::debug < LoggingLevel::emergency);
  CHECK_FALSE(parse_logging_level(std::string_view("INFO")));
  CHECK_FALSE(parse_logging_level(std::string_view("")));
  CHECK_FALSE(parse_logging_level(json(3)));
  CHECK_FALSE(parse_logging_level(json(nullptr)));
  CHECK(json(log_message_params(LoggingLevel::error, {{"e", 1}}, "db")) ==
        json{{"level", "error"}, {"logger", "db"}, {"data", {{"e", 1}}}});
  CHECK_FALSE(json(log_message_params(LoggingLevel::info, "x", "")).contains("logger"));
}

TEST_CASE("LogRateBucket: a burst, then the sustained rate, never more than the burst saved up", "[logging]") {
  using std::chrono::milliseconds;
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  LogRateBucket bucket(LogRateLimit{3, 10});  // 3 at once, then one per 100 ms
  CHECK(bucket.take(t0));
  CHECK(bucket.take(t0));
  CHECK(bucket.take(t0));
  CHECK_FALSE(bucket.take(t0));
  CHECK_FALSE(bucket.take(t0 + milliseconds(50)));
  CHECK(bucket.take(t0 + milliseconds(100)));  // one token back
  CHECK_FALSE(bucket.take(t0 + milliseconds(100)));
  CHECK(bucket.dropped() == 3);
  // A long quiet period refills to the burst, no further.
  const auto later = t0 + std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) CHECK(bucket.take(later));
  CHECK_FALSE(bucket.take(later));
  // Time that goes backwards adds nothing.
  CHECK_FALSE(bucket.take(t0));

  LogRateBucket none(LogRateLimit{0, 0});
  CHECK_FALSE(none.take(t0));
}

}  // namespace content_test
