// Form elicitations round-tripped over the in-memory transport: a server-side Session sends
// elicitation/create for a generated type, a client-side Session answers accept with content,
// and the server decodes and validates it into the typed value. Also: the server's heap per
// pending elicitation with 10,000 in flight.
#include <benchmark/benchmark.h>

#include <malloc.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>

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

// A client that never answers: sent messages are counted and dropped, so the heap that grows is the
// server Session's own (pending entries, callbacks, timers), not a peer's.
class SilentTransport final : public elicit::Transport {
 public:
  void start(MessageHandler, CloseHandler on_close) override { on_close_ = std::move(on_close); }
  bool send(std::string, const elicit::SendContext&) override { return ++sent, true; }
  void close() override {
    if (on_close_) std::exchange(on_close_, nullptr)();
  }
  std::atomic<long> sent{0};

 private:
  CloseHandler on_close_;
};

std::size_t heap_in_use() { return mallinfo2().uordblks; }

// Heap bytes per pending elicitation: 10,000 typed form elicitations with a 1-hour timeout (so each
// also holds a timer entry) waiting at once on one server Session.
void BM_PendingElicitationMemory(benchmark::State& state) {
  const auto pending = static_cast<int>(state.range(0));
  double per_pending = 0;
  for (auto _ : state) {
    SilentTransport transport;
    elicit::SessionOptions session_options;
    session_options.max_pending_requests = static_cast<std::size_t>(pending);  // the default (1,024) is below it
    elicit::Session server(transport, session_options);
    server.set_client_capabilities(elicit::ClientCapabilities::from_json({{"elicitation", nlohmann::json::object()}}));
    server.start();
    elicit::ElicitOptions options;
    options.timeout = std::chrono::hours(1);
    const auto before = heap_in_use();
    for (int i = 0; i < pending; ++i) {
      elicit::elicit_async<samples::ContactInformation>(
          server, "Please provide your contact information", [](elicit::Outcome<samples::ContactInformation>) {},
          options);
    }
    const auto after = heap_in_use();
    if (server.pending_requests() != static_cast<std::size_t>(pending)) state.SkipWithError("not all pending");
    per_pending = static_cast<double>(after - before) / pending;
    server.close();
  }
  state.counters["bytes_per_pending"] = per_pending;
  state.counters["pending"] = pending;
}
BENCHMARK(BM_PendingElicitationMemory)->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
