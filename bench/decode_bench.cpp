// Decode + validate of one accepted elicitation/create response (bench/schemas/contact_form.json:
// the spec's contact form with every property kind), from the raw bytes, side by side with:
// nlohmann's DOM parse alone (the floor of any DOM-based decoder), nlohmann's SAX parse with a
// handler that does nothing (the floor of the lexer), and a DOM parse plus hand-written extraction
// with no validation (what a user would write without elicitgen). ajv runs in bench/node/.
#include <benchmark/benchmark.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <elicit/elicitation.hpp>
#include <nlohmann/json.hpp>

#include "contact_form.hpp"

namespace {

using bench::ContactForm;

const std::string& message() {
  static const std::string text = [] {
    std::ifstream in(BENCH_MESSAGE_FILE);
    std::stringstream s;
    s << in.rdbuf();
    if (s.str().empty()) throw std::runtime_error("cannot read " BENCH_MESSAGE_FILE);
    return s.str();
  }();
  return text;
}

// What the contact form holds, read by hand from a DOM: the code elicitgen saves a user from.
struct HandContact {
  std::string name;
  std::string email;
  std::optional<double> age;
  std::optional<std::int64_t> guests;
  bool newsletter = false;
  std::optional<std::string> contact_method;
  std::optional<std::vector<std::string>> interests;
};

std::optional<HandContact> hand_extract(const std::string& text) {
  const auto j = nlohmann::json::parse(text);
  if (j.value("jsonrpc", "") != "2.0" || !j.contains("id")) return std::nullopt;
  const auto& result = j.at("result");
  if (result.value("action", "") != "accept") return std::nullopt;
  const auto& c = result.at("content");
  HandContact h;
  h.name = c.at("name").get<std::string>();
  h.email = c.at("email").get<std::string>();
  if (c.contains("age")) h.age = c["age"].get<double>();
  if (c.contains("guests")) h.guests = c["guests"].get<std::int64_t>();
  if (c.contains("newsletter")) h.newsletter = c["newsletter"].get<bool>();
  if (c.contains("contact_method")) h.contact_method = c["contact_method"].get<std::string>();
  if (c.contains("interests")) h.interests = c["interests"].get<std::vector<std::string>>();
  return h;
}

struct NullSax : nlohmann::json_sax<nlohmann::json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

void count_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * message().size()));
}

// The product path, as a server session receives an answer: the bytes read as a JSON-RPC message
// (parse_message), the ElicitResult read, and the content decoded and validated into the type.
void BM_ParseResponse(benchmark::State& state) {
  const auto& text = message();
  for (auto _ : state) {
    auto outcome = elicit::typed_outcome<ContactForm>(elicit::read_elicit_response(text));
    if (!outcome.accepted()) state.SkipWithError("not accepted");
    benchmark::DoNotOptimize(outcome);
  }
  count_bytes(state);
}
BENCHMARK(BM_ParseResponse);

// The same through a DOM: parse the message, then the generated decode() of the content.
void BM_DomDecode(benchmark::State& state) {
  const auto& text = message();
  for (auto _ : state) {
    const auto j = nlohmann::json::parse(text);
    auto decoded = elicit::decode<ContactForm>(j["result"]["content"]);
    if (!decoded.ok()) state.SkipWithError("invalid");
    benchmark::DoNotOptimize(decoded);
  }
  count_bytes(state);
}
BENCHMARK(BM_DomDecode);

void BM_DomParseOnly(benchmark::State& state) {
  const auto& text = message();
  for (auto _ : state) {
    auto j = nlohmann::json::parse(text);
    benchmark::DoNotOptimize(j);
  }
  count_bytes(state);
}
BENCHMARK(BM_DomParseOnly);

void BM_SaxLexOnly(benchmark::State& state) {
  const auto& text = message();
  NullSax sax;
  for (auto _ : state) {
    bool ok = nlohmann::json::sax_parse(text, &sax);
    benchmark::DoNotOptimize(ok);
  }
  count_bytes(state);
}
BENCHMARK(BM_SaxLexOnly);

void BM_DomParseHandExtract(benchmark::State& state) {
  const auto& text = message();
  for (auto _ : state) {
    auto h = hand_extract(text);
    if (!h) state.SkipWithError("not accepted");
    benchmark::DoNotOptimize(h);
  }
  count_bytes(state);
}
BENCHMARK(BM_DomParseHandExtract);

// validate() alone on a decoded value: the share of the product path spent on the constraints.
void BM_ValidateOnly(benchmark::State& state) {
  const auto value = *elicit::typed_outcome<ContactForm>(elicit::read_elicit_response(message())).value;
  for (auto _ : state) {
    auto errors = elicit::validate(value);
    benchmark::DoNotOptimize(errors);
  }
}
BENCHMARK(BM_ValidateOnly);

}  // namespace

BENCHMARK_MAIN();
