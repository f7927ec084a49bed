// Generated code for every sample schema: exact schema, round trips, one rejection per constraint.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "sample_types.hpp"
#include "test_paths.hpp"

namespace samples_test {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

ordered_json schema_file(const std::string& file, const std::string& name) {
  std::ifstream in(std::string(SAMPLES_DIR) + "/" + file);
  auto doc = ordered_json::parse(in);
  if (!name.empty()) doc = doc[name];
  return doc.contains("requestedSchema") ? doc["requestedSchema"] : doc;
}

// Every error of decoding `content` as T, as "pointer keyword" joined by ", ".
template <class T>
std::string errors_of(const std::string& content) {
  const auto d = elicit::decode<T>(json::parse(content));
  std::string out;
  for (const auto& e : d.errors.errors) out += (out.empty() ? "" : ", ") + e.pointer + " " + e.keyword;
  CHECK(d.ok() == out.empty());
  return out;
}

}  // namespace

// The schema as written, without elicitgen's own x-cpp-name (clients never see it).
nlohmann::ordered_json without_cpp_names(nlohmann::ordered_json j) {
  if (j.is_object()) {
    j.erase("x-cpp-name");
    for (auto& [key, value] : j.items()) {
      (void)key;
      value = without_cpp_names(std::move(value));
    }
  } else if (j.is_array()) {
    for (auto& value : j) value = without_cpp_names(std::move(value));
  }
  return j;
}

TEST_CASE("requested_schema() is the sample's requestedSchema, byte for byte, less x-cpp-name", "[generated]") {
  sample_types::for_each_sample([](auto sample) {
    using T = typename decltype(sample)::type;
    INFO(sample.file << " " << sample.name);
    CHECK(elicit::requested_schema<T>().dump() == without_cpp_names(schema_file(sample.file, sample.name)).dump());
  });
  CHECK(elicit::requested_schema<samples::SpecPropertyExamples>().dump().find("x-cpp-name") == std::string::npos);
}

TEST_CASE("the message of elicitation/create params becomes default_message()", "[generated]") {
  CHECK(elicit::default_message<samples::GithubUsername>() == "Please provide your GitHub username");
  CHECK(elicit::default_message<samples::ShippingAddress>() == "Where should we ship your order?");
}

TEST_CASE("members follow required / default / optional", "[generated]") {
  samples::ContactInformation c;
  static_assert(std::is_same_v<decltype(c.name), std::string>);
  static_assert(std::is_same_v<decltype(c.age), std::optional<double>>);
  samples::Sep1034Defaults d;
  static_assert(std::is_same_v<decltype(d.age), std::int64_t>);
  CHECK(d.name == "John Doe");
  CHECK(d.age == 30);
  CHECK(d.score == 95.5);
  CHECK(d.status == samples::Sep1034Defaults::Status::active);
  CHECK(d.verified);
  samples::SpecPropertyExamples s;
  CHECK(s.colors_hex ==
        std::vector<samples::SpecPropertyExamples::ColorsHex>{samples::SpecPropertyExamples::ColorsHex::red,
                                                              samples::SpecPropertyExamples::ColorsHex::green});
  static_assert(std::is_same_v<decltype(samples::Sep1330Enums{}.untitled_multi),
                               std::optional<std::vector<samples::Sep1330Enums::UntitledMulti>>>);
}

TEST_CASE("enums keep wire values and titles for all five SEP-1330 variants", "[generated][enum]") {
  using E = samples::Sep1330Enums;
  CHECK(elicit::to_string(E::TitledSingle::value1) == "value1");
  CHECK(elicit::title_of(E::TitledSingle::value1) == "First Option");
  CHECK(elicit::title_of(E::LegacyEnum::opt2) == "Option Two");
  CHECK(elicit::to_string(E::LegacyEnum::opt2) == "opt2");
  CHECK(elicit::to_string(E::UntitledSingle::option3) == "option3");
  CHECK(elicit::title_of(E::UntitledSingle::option3).empty());
  CHECK(elicit::title_of(E::TitledMulti::value3) == "Third Choice");
  E::UntitledMulti m{};
  CHECK(elicit::from_string("option2", m));
  CHECK(m == E::UntitledMulti::option2);
  CHECK_FALSE(elicit::from_string("Option Two", m));
  CHECK(elicit::enum_traits<E::TitledSingle>::options.size() == 3);
  CHECK(elicit::enum_traits<E::TitledSingle>::options[1].title == "Second Option");
}

TEST_CASE("valid content round-trips through decode, to_json and from_json", "[generated]") {
  using S = samples::SpecPropertyExamples;
  const auto content = json::parse(R"({"display_name":"ann@example.com","letters_only":"Ann","percentage":12.5,
      "count":7,"flag":true,"color":"Blue","color_hex":"#0000FF","colors":["Blue","Red"],"colors_hex":["#0000FF"],
      "when":"2024-02-29","starts_at":"2025-11-25T09:30:00.5+01:00","homepage":"https://example.com/a?b#c"})");
  const auto d = elicit::decode<S>(content);
  INFO(d.errors.to_string());
  REQUIRE(d.ok());
  CHECK(d.value->color == S::Color::blue);
  CHECK(d.value->colors == std::vector<S::Colors>{S::Colors::blue, S::Colors::red});
  CHECK(json(*d.value) == content);
  CHECK(content.get<S>() == *d.value);
  CHECK(elicit::validate(*d.value).ok());
  // Absent optionals are omitted, never null; defaults are filled in.
  const auto minimal = elicit::decode<S>(json::parse(R"({"display_name":"ann@example.com"})"));
  REQUIRE(minimal.ok());
  const json out = *minimal.value;
  CHECK_FALSE(out.contains("letters_only"));
  CHECK(out["percentage"] == 50.0);
  CHECK(out["colors_hex"] == json::array({"#FF0000", "#00FF00"}));
  for (const auto& [key, value] : out.items()) CHECK_FALSE(value.is_null());
}

TEST_CASE("ordered_json works both ways and keeps property order", "[generated]") {
  samples::ContactInformation c;
  c.name = "Ann";
  c.email = "ann@example.com";
  c.age = 30;
  const ordered_json j = c;
  CHECK(j.dump() == R"({"name":"Ann","email":"ann@example.com","age":30.0})");
  CHECK(j.get<samples::ContactInformation>() == c);
}

TEST_CASE("one rejection per constraint", "[generated][constraints]") {
  using S = samples::SpecPropertyExamples;
  const auto with = [](const std::string& member) { return R"({"display_name":"ann@example.com",)" + member + "}"; };
  CHECK(errors_of<S>(R"({"display_name":"ann@example.com"})").empty());
  CHECK(errors_of<S>(R"({})") == "/display_name required");
  CHECK(errors_of<S>(R"({"display_name":"a@"})") == "/display_name minLength, /display_name format");
  CHECK(errors_of<S>(R"({"display_name":")" + std::string(40, 'a') + R"(@example.com"})") == "/display_name maxLength");
  CHECK(errors_of<S>(R"({"display_name":"not-an-email"})") == "/display_name format");
  CHECK(errors_of<S>(R"({"display_name":42})") == "/display_name type");
  CHECK(errors_of<S>(with(R"("letters_only":"Ann1")")) == "/letters_only pattern");
  CHECK(errors_of<S>(with(R"("percentage":-0.5)")) == "/percentage minimum");
  CHECK(errors_of<S>(with(R"("percentage":100.5)")) == "/percentage maximum");
  CHECK(errors_of<S>(with(R"("percentage":"50")")) == "/percentage type");
  CHECK(errors_of<S>(with(R"("count":30.5)")) == "/count type");
  CHECK(errors_of<S>(with(R"("count":-1)")) == "/count minimum");
  CHECK(errors_of<S>(with(R"("count":101)")) == "/count maximum");
  CHECK(errors_of<S>(with(R"("flag":"true")")) == "/flag type");
  CHECK(errors_of<S>(with(R"("color":"Purple")")) == "/color enum");
  CHECK(errors_of<S>(with(R"("color_hex":"Red")")) == "/color_hex enum");  // the title is not a value
  CHECK(errors_of<S>(with(R"("colors":[])")) == "/colors minItems");
  CHECK(errors_of<S>(with(R"("colors":["Red","Green","Blue"])")) == "/colors maxItems");
  CHECK(errors_of<S>(with(R"("colors":["Pink"])")) == "/colors/0 enum");
  CHECK(errors_of<S>(with(R"("colors":"Red")")) == "/colors type");
  CHECK(errors_of<S>(with(R"("colors_hex":["Red"])")) == "/colors_hex/0 enum");
  // A multi-select is a set: a repeated option is an error at the later item (content_rules.hpp).
  CHECK(errors_of<S>(with(R"("colors":["Red","Red"])")) == "/colors/1 uniqueItems");
  CHECK(errors_of<S>(with(R"("colors":["Red","Blue","Red","Red"])")) ==
        "/colors/2 uniqueItems, /colors/3 uniqueItems, /colors maxItems");
  CHECK(elicit::decode<S>(json::parse(with(R"("colors":["Red","Red"])"))).errors.to_string() ==
        "/colors/1: \"Red\" is selected twice (also at /colors/0)\n");
  CHECK(errors_of<S>(with(R"("when":"2023-02-29")")) == "/when format");
  CHECK(errors_of<S>(with(R"("starts_at":"2025-11-25T25:00:00Z")")) == "/starts_at format");
  CHECK(errors_of<S>(with(R"("homepage":"example.com")")) == "/homepage format");
  CHECK(errors_of<S>(with(R"("homepage":null)")) == "/homepage type");
  CHECK(errors_of<S>("[]") == " type");
  CHECK(errors_of<samples::ShippingAddress>(R"({"recipient":"A","street":"B","postalCode":"1234"})") ==
        "/postalCode pattern");
  // maxLength 100 counts code points: 100 x "é" is 200 bytes and fits; 101 does not.
  std::string e100;
  for (int i = 0; i < 100; ++i) e100 += "\xC3\xA9";
  CHECK(errors_of<samples::ShippingAddress>(R"({"recipient":")" + e100 + R"(","street":"B","postalCode":"12345"})")
            .empty());
  CHECK(errors_of<samples::ShippingAddress>(R"({"recipient":")" + e100 +
                                            R"(\u00e9","street":"B","postalCode":"12345"})") == "/recipient maxLength");
  CHECK(errors_of<samples::DeliveryWindow>(R"({"day":"2026-12-24","attempts":4})") == "/attempts maximum");
}

TEST_CASE("validate() checks a value built in code", "[generated]") {
  samples::SpecPropertyExamples s;
  s.display_name = "x";
  s.count = 500;
  s.colors.clear();
  s.letters_only = "no digits 1";
  const auto r = elicit::validate(s);
  std::string got;
  for (const auto& e : r.errors) got += e.pointer + " " + e.keyword + "; ";
  CHECK(got ==
        "/display_name minLength; /display_name format; /letters_only pattern; /count maximum; /colors minItems; ");
}

TEST_CASE("validate() reports an option chosen twice in code, as decode() does on the wire", "[generated][set]") {
  using S = samples::SpecPropertyExamples;
  S s;
  s.display_name = "ann@example.com";
  s.colors = {S::Colors::green, S::Colors::green};
  CHECK(elicit::validate(s).to_string() == "/colors/1: \"Green\" is selected twice (also at /colors/0)\n");
  // from_json reads types only (constraints are validate()'s), so the repeat reaches validate().
  const auto read = json::parse(R"({"display_name":"ann@example.com","colors":["Green","Green"]})").get<S>();
  CHECK(read.colors == s.colors);
  CHECK(elicit::validate(read).to_string() == elicit::validate(s).to_string());
  s.colors = {S::Colors::green, S::Colors::red};
  CHECK(elicit::validate(s).ok());
}

TEST_CASE("from_json reports shape errors with every pointer and leaves constraints to validate()", "[generated]") {
  using C = samples::ContactInformation;
  try {
    json::parse(R"({"email":7,"age":"x"})").get<C>();
    FAIL("from_json accepted bad content");
  } catch (const elicit::ContentError& e) {
    REQUIRE(e.result().errors.size() == 3);
    CHECK(e.result().errors[0].pointer == "/name");
    CHECK(e.result().errors[1].pointer == "/email");
    CHECK(e.result().errors[2].pointer == "/age");
    CHECK_THAT(std::string(e.what()), Catch::Contains("/name: is required (and 2 more)"));
  }
  const auto c = json::parse(R"({"name":"A","email":"not an email","age":3})").get<C>();  // constraints not checked
  CHECK(elicit::validate(c).errors.size() == 2);
}

}  // namespace samples_test
