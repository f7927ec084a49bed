// RequestMeta: the members of params._meta the server reads, from the params' document or from the
// text of _meta alone (how Streamable HTTP reads a 2026-07-28 request). Both give read_request_era
// the same answers: the same fields, or the same error.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <elicit/protocol/protocol_era.hpp>

namespace request_meta_test {

using namespace elicit;
using nlohmann::json;

namespace {

void check_same_era(const json& meta) {
  INFO("_meta: " << meta.dump());
  const auto from_text = RequestMeta::of_text(meta.dump());
  REQUIRE(from_text);
  CHECK(from_text->present);
  const auto a = read_request_era(json{{"_meta", meta}});
  const auto b = read_request_era(*from_text);
  REQUIRE(a.error.has_value() == b.error.has_value());
  REQUIRE(a.stateless.has_value() == b.stateless.has_value());
  if (a.error) {
    CHECK(a.error->code == b.error->code);
    CHECK(a.error->message == b.error->message);
    CHECK(a.error->data == b.error->data);
  }
  if (a.stateless) {
    CHECK(a.stateless->protocol_version == b.stateless->protocol_version);
    CHECK(a.stateless->capabilities.raw == b.stateless->capabilities.raw);
    CHECK(a.stateless->capabilities.elicitation_form == b.stateless->capabilities.elicitation_form);
    CHECK(a.stateless->capabilities.elicitation_url == b.stateless->capabilities.elicitation_url);
    CHECK(a.stateless->log_level == b.stateless->log_level);
    CHECK(a.stateless->progress_token == b.stateless->progress_token);
    CHECK(b.stateless->meta_json.empty());  // set by the transport that read _meta apart, not here
  }
}

const std::string kVersion(meta_key::protocol_version);
const std::string kCapabilities(meta_key::client_capabilities);
const std::string kLogLevel(meta_key::log_level);

}  // namespace

TEST_CASE("RequestMeta from _meta's text gives read_request_era what the params' document gives", "[protocol][meta]") {
  const json caps = {{"elicitation", {{"url", json::object()}}}};
  const std::vector<json> metas{
      json::object(),
      {{"progressToken", 7}},
      {{kVersion, "2026-07-28"}, {kCapabilities, caps}},
      {{kVersion, "2026-07-28"}, {kCapabilities, caps}, {kLogLevel, "warning"}, {"progressToken", "p-1"}},
      {{kVersion, "2026-07-28"}, {kCapabilities, caps}, {"progressToken", 1.5}},  // not a token: no progress
      {{kVersion, "2026-07-28"},
       {kCapabilities, caps},
       {"io.modelcontextprotocol/clientInfo", {{"name", "x"}}},
       {"other", {1, 2, {{"deep", nullptr}}}}},
      {{kVersion, "2025-11-25"}, {kCapabilities, caps}},
      {{kVersion, 20260728}, {kCapabilities, caps}},
      {{kVersion, "2026-07-28"}},
      {{kVersion, "2026-07-28"}, {kCapabilities, "form"}},
      {{kVersion, "2026-07-28"}, {kCapabilities, caps}, {kLogLevel, "loud"}},
  };
  for (const auto& meta : metas) check_same_era(meta);

  const auto progress = read_request_era(*RequestMeta::of_text(metas[3].dump()));
  REQUIRE(progress.stateless);
  CHECK(progress.stateless->progress_token == "p-1");
  CHECK(progress.stateless->log_level == LoggingLevel::warning);
  CHECK(progress.stateless->capabilities.elicitation_url);
}

TEST_CASE("RequestMeta reads a repeated member as nlohmann does (the last one) and refuses what is not an object",
          "[protocol][meta]") {
  const std::string text =
      R"({"io.modelcontextprotocol\/protocolVersion":"2025-11-25",)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":1,"progressToken":2})";
  const auto m = RequestMeta::of_text(text);
  REQUIRE(m);
  REQUIRE(m->protocol_version);
  CHECK(*m->protocol_version == "2026-07-28");
  CHECK(m->progress_token == json(2));
  CHECK_FALSE(m->client_capabilities);

  CHECK_FALSE(RequestMeta::of_text("[]"));
  CHECK_FALSE(RequestMeta::of_text("{"));
  CHECK_FALSE(RequestMeta::of_text(R"({"a":1} x)"));
  // What the fast reader leaves to nlohmann is still read.
  const std::string big = R"({"progressToken":1e400,"io.modelcontextprotocol/logLevel":"info"})";
  CHECK(RequestMeta::of_text(big).has_value() == !json::parse(big, nullptr, false).is_discarded());
  const auto deep = RequestMeta::of_text(std::string(70, '[').insert(0, R"({"x":)") + std::string(70, ']') +
                                         R"(,"progressToken":"t"})");
  REQUIRE(deep);
  CHECK(deep->progress_token == json("t"));

  const auto none = RequestMeta::of_params(json{{"_meta", "text"}});
  CHECK_FALSE(none.present);
  CHECK_FALSE(RequestMeta::of_params(nullptr).present);
}

}  // namespace request_meta_test
