// Form elicitations round-tripped over the in-memory transport: a server-side Session sends
// elicitation/create for a generated type, a client-side Session answers accept with content,
// and the server decodes and validates it into the typed value.
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include <elicit/elicit.hpp>
#include <elicit/memory_transport.hpp>

#include "contact_information.hpp"

namespace {

struct Pair {
  Pair() : ends(elicit::MemoryTransport::pair()) {
    server = std::make_unique<elicit::Session>(*ends.first);
    client = std::make_unique<elicit::Session>(*ends.second);
    client->on_request("elicitation/create", [](const elicit::Request&, elicit::Responder r) {
      r.result({{"action", "accept"},
                {"content", {{"name", "Monalisa Octocat"}, {"email", "octocat@github.com"}, {"age", 30}}}});
    });
    server->set_client_capabilities(elicit::ClientCapabilities::from_json({{"elicitation", nlohmann::json::object()}}));
    server->start();
    client->start();
  }
  ~Pair() {
    client.reset();
    server.reset();
  }
  std::pair<std::unique_ptr<elicit::MemoryTransport>, std::unique_ptr<elicit::MemoryTransport>> ends;
  std::unique_ptr<elicit::Session> server;
  std::unique_ptr<elicit::Session> client;
};

// `window` elicitations in flight at a time, as a server with many concurrent tool calls would have.
void BM_FormElicitationRoundTrip(benchmark::State& state) {
  Pair p;
  const auto window = static_cast<int>(state.range(0));
  std::mutex m;
  std::condition_variable cv;
  int in_flight = 0;
  std::atomic<long> accepted{0};
  auto done = [&](elicit::Outcome<samples::ContactInformation> o) {
    if (o.accepted()) ++accepted;
    std::lock_guard<std::mutex> lock(m);
    --in_flight;
    cv.notify_one();
  };
  for (auto _ : state) {
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return in_flight < window; });
      ++in_flight;
    }
    elicit::elicit_async<samples::ContactInformation>(*p.server, "Please provide your contact information", done);
  }
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [&] { return in_flight == 0; });
  if (accepted != static_cast<long>(state.iterations())) state.SkipWithError("an elicitation was not accepted");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FormElicitationRoundTrip)
    ->Arg(1)
    ->Arg(64)
    ->Arg(1024)
    ->Iterations(100000)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
