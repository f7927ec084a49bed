// Differential test of the DOM-free paths: T::parse(text) must equal T::decode(json::parse(text)),
// and T::parse_response(message) must equal what the Session path (read_elicit_response +
// typed_outcome) gives, on every mutated content, in many textual shapes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <elicit/elicit.hpp>
#include <nlohmann/json.hpp>

#include "content_corpus.hpp"
#include "sample_types.hpp"

using nlohmann::json;

namespace {

// Texts of one content that a DOM reads the same way but a streaming reader sees differently.
std::vector<std::string> content_texts(const json& content) {
  std::vector<std::string> texts{content.dump(), content.dump(2)};
  if (content.is_object()) {
    std::string extra = content.dump();
    const std::string unknown = R"("zz_unknown":{"a":[1,{"b":[[],{}]}],"c":null},"aa_unknown":[[{"x":1}]])";
    texts.push_back("{" + unknown + (content.empty() ? "}" : "," + extra.substr(1)));
    // Each property repeated: first with a wrong-typed value, then with the real one, and the
    // reverse. The DOM keeps the last.
    for (const auto& [name, value] : content.items()) {
      const std::string key = json(name).dump();
      for (const auto* other : {"null", "[\"x\"]", "{\"a\":1}", "7", "\"Red\""}) {
        texts.push_back("{" + key + ":" + other + "," + extra.substr(1));
        texts.push_back(extra.substr(0, extra.size() - 1) + "," + key + ":" + other + "}");
      }
    }
  }
  return texts;
}

std::vector<std::string> response_texts(const std::string& content) {
  return {
      R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":)" + content + "}}",
      R"({"result":{"content":)" + content +
          R"(,"action":"accept","_meta":{"k":[1,{"x":null}]}},"jsonrpc":"2.0","id":"a"})",
      R"({"jsonrpc":"2.0","id":-5,"result":{"action":"decline","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":2,"result":{"action":"cancel","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":2,"result":{"action":"accept","action":"decline","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":2,"result":{"action":"decline","action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{},"content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":)" + content + R"(,"content":null}})",
      R"({"jsonrpc":"2.0","id":2.5,"result":{"action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":18446744073709551615,"result":{"action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":null,"result":{"action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"1.0","id":3,"result":{"action":"accept","content":)" + content + "}}",
      R"({"id":3,"result":{"action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":3,"method":"x","result":{"action":"accept","content":)" + content + "}}",
      R"({"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"},"result":{"action":"accept","content":)" + content +
          "}}",
      R"({"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":)" + content + R"(},"result":{}})",
      R"([{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":)" + content + "}}]",
      R"({"jsonrpc":"2.0","id":4,"result":{"action":"accept","content":)" + content + "}",
      R"({"jsonrpc":"2.0","id":4,"result":{"action":"accept","content":)" + content + "}} x",
  };
}

}  // namespace

TEST_CASE("parse() from text gives what decode() of the DOM gives", "[differential][text]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    for (const auto& content : content_corpus::corpus(T::requested_schema())) {
      for (const auto& text : content_texts(content)) {
        INFO(sample.file << " " << sample.name << ": " << text);
        const auto expected = T::decode(json::parse(text));
        const auto actual = T::parse(text);
        CHECK(actual.errors.errors == expected.errors.errors);
        CHECK(actual.value == expected.value);
        ++compared;
      }
    }
  });
  CHECK(compared > 10000);
}

TEST_CASE("parse() throws what json::parse throws for malformed text", "[text]") {
  using samples::ContactInformation;
  for (const auto* text : {"", "{", R"({"name":"a",})", R"({"name":"\ud800"})", "{} {}", "{\"age\":1e400}"}) {
    INFO(text);
    CHECK_THROWS_AS(ContactInformation::parse(text), json::exception);
  }
  CHECK(ContactInformation::parse(R"({"name":"Ann","email":"ann@example.com"})").ok());
}

TEST_CASE("parse_response() gives the Session's outcome for every response shape", "[differential][text]") {
  std::size_t compared = 0;
  std::size_t accepted = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    auto contents = content_corpus::corpus(T::requested_schema());
    contents.emplace_back(nullptr);
    for (const auto& content : contents) {
      const auto messages = response_texts(content.dump());
      for (const auto& message : messages) {
        INFO(sample.file << " " << sample.name << ": " << message);
        const auto expected = elicit::typed_outcome<T>(elicit::read_elicit_response(message));
        const auto actual = T::parse_response(message);
        CHECK(actual.status == expected.status);
        CHECK(actual.value == expected.value);
        CHECK(actual.errors.errors == expected.errors.errors);
        CHECK(actual.problem == expected.problem);
        CHECK(actual.error.has_value() == expected.error.has_value());
        if (actual.status == elicit::ElicitStatus::accepted) {
          ++accepted;
          // The DOM-free path took it (it leaves the raw result null): the first two shapes are
          // plain accepted responses with a content object and must never need the DOM.
          if (content.is_object() && (&message == &messages[0] || &message == &messages[1]))
            CHECK(actual.result.is_null());
        } else {
          CHECK(actual.result == expected.result);
        }
        ++compared;
      }
    }
  });
  CHECK(compared > 10000);
  CHECK(accepted > 500);
}

TEST_CASE("parse_response() never throws on what a peer sends", "[text]") {
  using samples::ContactInformation;
  for (const auto* text : {"", "{", "[]", "null", R"({"jsonrpc":"2.0","method":"ping","id":1})",
                           R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}})",
                           R"({"jsonrpc":"2.0","id":1,"result":[]})", R"({"jsonrpc":"2.0","id":1,"result":{}})"}) {
    INFO(text);
    const auto o = ContactInformation::parse_response(text);
    CHECK_FALSE(o.accepted());
    CHECK_FALSE(o.value.has_value());
  }
  const auto err =
      ContactInformation::parse_response(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}})");
  CHECK(err.status == elicit::ElicitStatus::rpc_error);
  REQUIRE(err.error);
  CHECK(err.error->code == -32602);
  const auto ok = ContactInformation::parse_response(
      R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ann","email":"ann@example.com","age":30}}})");
  REQUIRE(ok.accepted());
  CHECK(ok.value->name == "Ann");
  CHECK(ok.value->age == 30.0);
}
