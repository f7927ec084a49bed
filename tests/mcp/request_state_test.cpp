#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <sodium.h>
#include <elicit/request_state.hpp>

namespace request_state_test {

using elicit::RequestStateBinding;
using elicit::RequestStateOptions;
using elicit::RequestStateSealer;
using nlohmann::json;

namespace {

RequestStateBinding binding() {
  return {"tools/call", "book_flight", json{{"from", "CDG"}, {"to", "NRT"}, {"passengers", 2}}, "user-42"};
}

// About what a server seals after three answered forms.
json payload() {
  return {{"round", 3},
          {"answers",
           {{"contact", {{"name", "Monalisa Octocat"}, {"email", "octocat@github.com"}, {"age", 30}}},
            {"seat", {{"class", "economy"}, {"window", true}, {"meal", "vegetarian"}}},
            {"confirm", {{"accepted", true}, {"note", "secret-marker-31415 please"}}}}}};
}

// A clock the test moves by hand.
struct ManualClock {
  std::shared_ptr<std::chrono::system_clock::time_point> now = std::make_shared<std::chrono::system_clock::time_point>(
      std::chrono::system_clock::time_point() + std::chrono::hours(24 * 365 * 50));
  std::function<std::chrono::system_clock::time_point()> function() const {
    return [now = now] { return *now; };
  }
};

RequestStateOptions with_keys(std::vector<std::string> keys) {
  RequestStateOptions options;
  options.keys = std::move(keys);
  return options;
}

}  // namespace

TEST_CASE("requestState: a sealed payload opens with the same binding", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string state = sealer.seal(payload(), binding());
  CHECK(state.rfind("v1.", 0) == 0);
  CHECK(state.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 3) ==
        std::string::npos);
  const auto opened = sealer.open(state, binding());
  REQUIRE(opened);
  CHECK(*opened == payload());
  // Any JSON value, and each seal is different (random nonce).
  for (const json& value : {json(nullptr), json("text"), json(42), json::array(), json::object()}) {
    CHECK(sealer.open(sealer.seal(value, binding()), binding()) == value);
  }
  CHECK(sealer.seal(payload(), binding()) != state);
}

TEST_CASE("requestState: the payload cannot be read from the sealed text", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string state = sealer.seal(payload(), binding());
  CHECK(state.find("secret-marker-31415") == std::string::npos);
  CHECK(state.find("Octocat") == std::string::npos);
  // Nor from the bytes under the base64.
  const std::string body = state.substr(3);
  std::vector<unsigned char> binary(body.size());
  std::size_t n = 0;
  REQUIRE(sodium_base642bin(binary.data(), binary.size(), body.data(), body.size(), nullptr, &n, nullptr,
                            sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0);
  const std::string bytes(binary.begin(), binary.begin() + static_cast<std::ptrdiff_t>(n));
  CHECK(bytes.size() == 4 + 24 + 16 + 8 + payload().dump().size());
  CHECK(bytes.find("secret-marker-31415") == std::string::npos);
  CHECK(bytes.find("Octocat") == std::string::npos);
  CHECK(bytes.find("answers") == std::string::npos);
}

TEST_CASE("requestState: changing any byte of a sealed state makes it fail", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string state = sealer.seal(payload(), binding());
  REQUIRE(state.size() < 2000);
  for (std::size_t i = 0; i < state.size(); ++i) {
    for (const char replacement : {'A', 'x', '-', '.'}) {
      if (state[i] == replacement) continue;
      std::string changed = state;
      changed[i] = replacement;
      INFO("byte " << i << " of " << state.size() << " replaced by " << replacement);
      CHECK_FALSE(sealer.open(changed, binding()));
    }
  }
}

TEST_CASE("requestState: the text is libsodium's base64url, and only its canonical form opens", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (int extra = 0; extra < 3; ++extra) {  // every length mod 3: a last group of 4, 2 or 3 characters
    const std::string state = sealer.seal(json{{"pad", std::string(static_cast<std::size_t>(extra), 'x')}}, binding());
    REQUIRE(sealer.open(state, binding()));
    const std::string body = state.substr(3);
    std::vector<unsigned char> bytes(body.size());
    std::size_t n = 0;
    REQUIRE(sodium_base642bin(bytes.data(), bytes.size(), body.data(), body.size(), nullptr, &n, nullptr,
                              sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0);
    std::string again(sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
    sodium_bin2base64(again.data(), again.size(), bytes.data(), n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    again.pop_back();  // the NUL
    CHECK(again == body);
    if (body.size() % 4 != 0) {
      // The last character with an unused low bit set: the same bytes to a lax decoder; refused, as
      // libsodium refuses it.
      const auto v = alphabet.find(body.back());
      REQUIRE((v & 1) == 0);
      std::string changed = state;
      changed.back() = alphabet[v | 1];
      CHECK_FALSE(sealer.open(changed, binding()));
    }
  }
}

TEST_CASE("requestState: truncated, extended, garbage and empty input fail", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string state = sealer.seal(payload(), binding());
  for (std::size_t n = 0; n < state.size(); ++n) CHECK_FALSE(sealer.open(state.substr(0, n), binding()));
  CHECK_FALSE(sealer.open(state + "A", binding()));
  CHECK_FALSE(sealer.open(state + "=", binding()));
  CHECK_FALSE(sealer.open(state + " ", binding()));
  CHECK_FALSE(sealer.open("v2" + state.substr(2), binding()));
  CHECK_FALSE(sealer.open("", binding()));
  CHECK_FALSE(sealer.open("v1.", binding()));
  CHECK_FALSE(sealer.open("v1.!!!!", binding()));
  CHECK_FALSE(sealer.open(std::string("v1.\0\0\0\0", 7), binding()));
  CHECK_FALSE(sealer.open(std::string(300, 'A'), binding()));
  CHECK_FALSE(sealer.open("v1." + std::string(300, 'A'), binding()));
  CHECK_FALSE(sealer.open(R"({"round": 3})", binding()));
}

TEST_CASE("requestState: another method, name, arguments or principal fails", "[request_state]") {
  const RequestStateSealer sealer;
  const std::string state = sealer.seal(payload(), binding());
  auto other = binding();
  other.method = "prompts/get";
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.name = "book_flights";
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.arguments["passengers"] = 3;
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.arguments["extra"] = true;
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.arguments = nullptr;
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.principal = "user-43";
  CHECK_FALSE(sealer.open(state, other));
  other = binding();
  other.principal = "";
  CHECK_FALSE(sealer.open(state, other));
  // Length prefixes: moving bytes from one field to the next is another binding.
  const RequestStateBinding ab{"tools/call", "ab", json::object(), "c"};
  const RequestStateBinding a_bc{"tools/call", "a", json::object(), "bc"};
  CHECK_FALSE(sealer.open(sealer.seal(payload(), ab), a_bc));
}

TEST_CASE("requestState: argument key order does not matter, and null arguments are {}", "[request_state]") {
  const RequestStateSealer sealer;
  const auto sealed_with = binding();
  const std::string state = sealer.seal(payload(), sealed_with);
  auto reordered = binding();
  reordered.arguments = json::parse(R"({"to": "NRT", "passengers": 2, "from": "CDG"})");
  CHECK(sealer.open(state, reordered) == payload());

  RequestStateBinding no_arguments{"resources/read", "file:///tmp/x", nullptr, ""};
  const std::string state2 = sealer.seal(json(1), no_arguments);
  auto empty_object = no_arguments;
  empty_object.arguments = json::object();
  CHECK(sealer.open(state2, empty_object) == json(1));
}

TEST_CASE("requestState: a state expires after the ttl (injected clock)", "[request_state]") {
  ManualClock clock;
  RequestStateOptions options;
  options.ttl = std::chrono::minutes(5);
  options.clock = clock.function();
  const RequestStateSealer sealer(options);
  const std::string state = sealer.seal(payload(), binding());
  *clock.now += std::chrono::minutes(5) - std::chrono::milliseconds(1);
  CHECK(sealer.open(state, binding()));
  *clock.now += std::chrono::milliseconds(1);
  CHECK_FALSE(sealer.open(state, binding()));
  *clock.now += std::chrono::hours(1000);
  CHECK_FALSE(sealer.open(state, binding()));
}

TEST_CASE("requestState: a sealer with another key cannot open it", "[request_state]") {
  const RequestStateSealer a;
  const RequestStateSealer b;
  const std::string state = a.seal(payload(), binding());
  CHECK_FALSE(b.open(state, binding()));
  CHECK(a.open(state, binding()));
  // A copy shares the key.
  const RequestStateSealer copy = a;
  CHECK(copy.open(state, binding()));
  const RequestStateSealer other_fixed(with_keys({RequestStateSealer::generate_key()}));
  CHECK_FALSE(other_fixed.open(state, binding()));
}

TEST_CASE("requestState: key rotation: sealed with the old key, opened with [new, old]", "[request_state]") {
  const std::string old_key = RequestStateSealer::generate_key();
  const std::string new_key = RequestStateSealer::generate_key();
  REQUIRE(old_key != new_key);
  const RequestStateSealer before(with_keys({old_key}));
  const RequestStateSealer after(with_keys({new_key, old_key}));
  const RequestStateSealer only_new(with_keys({new_key}));
  const std::string old_state = before.seal(payload(), binding());
  CHECK(after.open(old_state, binding()) == payload());
  CHECK_FALSE(only_new.open(old_state, binding()));
  // The new sealer seals with the new key: the old-only sealer cannot open it, the new-only can.
  const std::string new_state = after.seal(payload(), binding());
  CHECK_FALSE(before.open(new_state, binding()));
  CHECK(only_new.open(new_state, binding()) == payload());
  // Two processes configured with the same key open each other's states.
  const RequestStateSealer twin(with_keys({old_key}));
  CHECK(twin.open(old_state, binding()) == payload());
}

TEST_CASE("requestState: max_bytes bounds sealing and opening", "[request_state]") {
  const std::string key = RequestStateSealer::generate_key();
  RequestStateOptions small = with_keys({key});
  small.max_bytes = 200;
  const RequestStateSealer sealer(small);
  const RequestStateSealer roomy(with_keys({key}));
  CHECK_THROWS_AS(sealer.seal(payload(), binding()), std::length_error);
  CHECK_THROWS_AS(roomy.seal(json(std::string(16 * 1024, 'x')), binding()), std::length_error);
  const std::string state = roomy.seal(payload(), binding());
  REQUIRE(state.size() > 200);
  CHECK(roomy.open(state, binding()));
  CHECK_FALSE(sealer.open(state, binding()));  // too long for it, though its key would open it
  CHECK_FALSE(roomy.open(std::string(16 * 1024 + 1, 'A'), binding()));
  const std::string fits = sealer.seal(json("short"), binding());
  CHECK(fits.size() <= 200);
  CHECK(sealer.open(fits, binding()) == json("short"));
}

TEST_CASE("requestState: seal_text seals a payload's text as seal() seals the payload", "[request_state]") {
  const std::string key = RequestStateSealer::generate_key();
  const RequestStateSealer sealer(with_keys({key}));
  const std::string state = sealer.seal_text(payload().dump(), binding());
  CHECK(state.size() == sealer.seal(payload(), binding()).size());
  CHECK(sealer.open(state, binding()) == payload());
  CHECK_FALSE(sealer.open(state, {"tools/call", "other", json::object(), "user-42"}));
  RequestStateOptions small = with_keys({key});
  small.max_bytes = 200;
  CHECK_THROWS_AS(RequestStateSealer(small).seal_text(payload().dump(), binding()), std::length_error);
}

TEST_CASE("requestState: keys must be 32 bytes and the ttl positive", "[request_state]") {
  CHECK_THROWS_AS(RequestStateSealer(with_keys({std::string(31, 'k')})), std::invalid_argument);
  CHECK_THROWS_AS(RequestStateSealer(with_keys({RequestStateSealer::generate_key(), std::string(33, 'k')})),
                  std::invalid_argument);
  CHECK_THROWS_AS(RequestStateSealer(with_keys({""})), std::invalid_argument);
  RequestStateOptions zero_ttl;
  zero_ttl.ttl = std::chrono::milliseconds(0);
  CHECK_THROWS_AS(RequestStateSealer(zero_ttl), std::invalid_argument);
  CHECK_NOTHROW(RequestStateSealer(with_keys({std::string(32, '\0')})));
}

TEST_CASE("requestState: keys in base64 for configuration", "[request_state]") {
  const std::string key = RequestStateSealer::generate_key();
  CHECK(key.size() == 32);
  CHECK(RequestStateSealer::generate_key() != key);
  const std::string text = RequestStateSealer::key_to_base64(key);
  CHECK(text.size() == 44);
  CHECK(RequestStateSealer::key_from_base64(text) == key);
  CHECK(RequestStateSealer::key_from_base64("  " + text + "\n") == key);
  CHECK(RequestStateSealer::key_from_base64(text.substr(0, 43)) == key);  // unpadded
  std::string urlsafe = text.substr(0, 43);
  for (char& c : urlsafe) c = c == '+' ? '-' : c == '/' ? '_' : c;
  CHECK(RequestStateSealer::key_from_base64(urlsafe) == key);

  // Not 32 bytes, or not base64.
  CHECK_FALSE(RequestStateSealer::key_from_base64(""));
  CHECK_FALSE(RequestStateSealer::key_from_base64(RequestStateSealer::key_to_base64(std::string(31, 'k'))));
  CHECK_FALSE(RequestStateSealer::key_from_base64(RequestStateSealer::key_to_base64(std::string(33, 'k'))));
  CHECK_FALSE(RequestStateSealer::key_from_base64(RequestStateSealer::key_to_base64(std::string(48, 'k'))));
  CHECK_FALSE(RequestStateSealer::key_from_base64(text.substr(0, 40)));
  CHECK_FALSE(RequestStateSealer::key_from_base64(text + "AAAA"));
  CHECK_FALSE(RequestStateSealer::key_from_base64("!" + text.substr(1)));
  CHECK_FALSE(RequestStateSealer::key_from_base64(text.substr(0, 20) + " " + text.substr(20)));

  // A key read from configuration seals states that a sealer with the raw key opens.
  const RequestStateSealer from_text(with_keys({*RequestStateSealer::key_from_base64(text)}));
  const RequestStateSealer from_raw(with_keys({key}));
  CHECK(from_raw.open(from_text.seal(payload(), binding()), binding()) == payload());
}

TEST_CASE("requestState: arguments that are not valid UTF-8", "[request_state]") {
  const RequestStateSealer sealer;
  auto bad = binding();
  bad.arguments = json{{"x", std::string("\xff\xfe")}};
  CHECK_THROWS_AS(sealer.seal(payload(), bad), json::type_error);
  CHECK_FALSE(sealer.open(sealer.seal(payload(), binding()), bad));
}

}  // namespace request_state_test
