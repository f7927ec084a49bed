// The cost of sealing and of opening a typical requestState (MCP 2026-07-28, Multi Round-Trip
// Requests): a payload of three answered forms, about 500 bytes of JSON, bound to a tools/call.
#include <benchmark/benchmark.h>

#include <string>

#include <elicit/request_state.hpp>

namespace {

const elicit::RequestStateBinding& binding() {
  static const elicit::RequestStateBinding b{
      "tools/call", "book_trip", {{"destination", "Tokyo"}, {"nights", 5}, {"travellers", 2}}, "user-1234"};
  return b;
}

const nlohmann::json& payload() {
  static const nlohmann::json p = {
      {"round", 3},
      {"answers",
       {{"contact",
         {{"name", "Monalisa Octocat"},
          {"email", "octocat@github.com"},
          {"phone", "+1-555-0100"},
          {"age", 30},
          {"newsletter", false}}},
        {"flight",
         {{"class", "economy"},
          {"seat", "window"},
          {"meal", "vegetarian"},
          {"luggage", 2},
          {"departure", "2026-09-14"},
          {"return", "2026-09-19"}}},
        {"hotel",
         {{"room", "double"},
          {"breakfast", true},
          {"late_checkout", false},
          {"notes", "A quiet room away from the lift, if possible; we arrive after midnight."},
          {"loyalty_number", "HX-0042-7781"}}}}},
      {"asked", {"contact", "flight", "hotel"}}};
  return p;
}

elicit::RequestStateSealer sealer() {
  elicit::RequestStateOptions options;
  options.keys = {elicit::RequestStateSealer::generate_key()};
  return elicit::RequestStateSealer(options);
}

void BM_RequestStateSeal(benchmark::State& state) {
  const auto s = sealer();
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto sealed = s.seal(payload(), binding());
    bytes = sealed.size();
    benchmark::DoNotOptimize(sealed);
  }
  state.counters["payload_bytes"] = static_cast<double>(payload().dump().size());
  state.counters["sealed_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_RequestStateSeal);

void BM_RequestStateOpen(benchmark::State& state) {
  const auto s = sealer();
  const std::string sealed = s.seal(payload(), binding());
  for (auto _ : state) {
    auto opened = s.open(sealed, binding());
    if (!opened) state.SkipWithError("the state did not open");
    benchmark::DoNotOptimize(opened);
  }
}
BENCHMARK(BM_RequestStateOpen);

// A state that fails: the cost an attacker can make the server pay per forged request.
void BM_RequestStateOpenTampered(benchmark::State& state) {
  const auto s = sealer();
  std::string sealed = s.seal(payload(), binding());
  sealed[sealed.size() / 2] = sealed[sealed.size() / 2] == 'A' ? 'B' : 'A';
  for (auto _ : state) {
    auto opened = s.open(sealed, binding());
    if (opened) state.SkipWithError("a tampered state opened");
    benchmark::DoNotOptimize(opened);
  }
}
BENCHMARK(BM_RequestStateOpenTampered);

}  // namespace

BENCHMARK_MAIN();
