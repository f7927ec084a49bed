// Form elicitations round-tripped over the in-memory transport: a server-side jsonrpc::Connection sends
// elicitation/create for a generated type, a client-side jsonrpc::Connection answers accept with content,
// and the server decodes and validates it into the typed value. Also: the server's heap per
// pending elicitation with 10,000 in flight.
//
// Each round-trip benchmark runs kRoundTrips elicitations (ELICIT_BENCH_ROUND_TRIPS overrides it,
// e.g. for a profiler) with `window` in flight at a time, and reports round trips per second of
// wall time and the process's CPU time (every thread: server, client, driver) per round trip.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <utility>

#include <elicit/elicitation.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>

#include "contact_information.hpp"

namespace {

using Contact = samples::ContactInformation;

long round_trips() {
  static const long n = [] {
    const char* env = std::getenv("ELICIT_BENCH_ROUND_TRIPS");
    const long v = env ? std::atol(env) : 0;
    return v > 0 ? v : 100000L;
  }();
  return n;
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Pair {
  Pair() : ends(elicit::MemoryTransport::pair()) {
    elicit::jsonrpc::ConnectionOptions options;
    options.max_pending_requests = 4096;  // above every window measured
    server_rpc = std::make_unique<elicit::jsonrpc::Connection>(*ends.first, options);
    server = std::make_unique<elicit::SessionState>(*server_rpc);
    client = std::make_unique<elicit::jsonrpc::Connection>(*ends.second);
    // The client answers every request with a document it builds afresh, member by member (nested
    // initializer lists would make nlohmann build each member twice, as a two-element array first:
    // half of this stand-in client's allocations, which no runtime change can touch).
    client->on_request("elicitation/create", [](const elicit::Request&, elicit::Responder r) {
      nlohmann::json content = nlohmann::json::object();
      content["name"] = "Monalisa Octocat";
      content["email"] = "octocat@github.com";
      content["age"] = 30;
      nlohmann::json result = nlohmann::json::object();
      result["action"] = "accept";
      result["content"] = std::move(content);
      r.result(std::move(result));
    });
    server->set_client_capabilities(elicit::ClientCapabilities::from_json({{"elicitation", nlohmann::json::object()}}));
    server_rpc->start();
    client->start();
  }
  ~Pair() {
    client.reset();
    server.reset();
    server_rpc.reset();
  }
  std::pair<std::unique_ptr<elicit::MemoryTransport>, std::unique_ptr<elicit::MemoryTransport>> ends;
  std::unique_ptr<elicit::jsonrpc::Connection> server_rpc;
  std::unique_ptr<elicit::SessionState> server;  // the MCP state (capabilities) over server_rpc
  std::unique_ptr<elicit::jsonrpc::Connection> client;
};

// Counts completions and wakes the benchmark thread once all have arrived.
struct Completion {
  std::mutex mutex;
  std::condition_variable cv;
  long done = 0;
  std::atomic<long> accepted{0};

  void add(const elicit::Outcome<Contact>& o, long total) {
    if (o.accepted() && o.value && o.value->age == 30.0) ++accepted;
    std::lock_guard<std::mutex> lock(mutex);
    if (++done == total) cv.notify_one();
  }
  void wait(long total) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return done == total; });
  }
};

void report(benchmark::State& state, long total, double cpu_seconds, long accepted) {
  if (accepted != total) state.SkipWithError("an elicitation was not accepted");
  state.SetItemsProcessed(total);
  state.counters["cpu_us_per_round_trip"] = cpu_seconds * 1e6 / static_cast<double>(total);
}

// `window` elicitations in flight at a time, as a server with many concurrent asynchronous tool
// calls has them: the benchmark thread starts the first `window`; from then on each completion
// callback (on the server session's dispatch thread, where an async tool handler's elicit_async
// callback runs) starts the next one, until kRoundTrips have been started.
void BM_FormElicitationRoundTrip(benchmark::State& state) {
  const long total = round_trips();
  const auto window = static_cast<long>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto p = std::make_unique<Pair>();
    Completion completion;
    std::atomic<long> started{0};
    std::function<void(elicit::Outcome<Contact>)> done;
    auto start_one = [&] {
      if (started.fetch_add(1) < total)
        elicit::elicit_async<Contact>(*p->server, "Please provide your contact information", done);
    };
    done = [&](elicit::Outcome<Contact> o) {
      completion.add(o, total);
      start_one();
    };
    const double cpu_before = process_cpu_seconds();
    state.ResumeTiming();
    for (long i = 0; i < window && i < total; ++i) start_one();
    completion.wait(total);
    state.PauseTiming();
    const double cpu = process_cpu_seconds() - cpu_before;
    report(state, total, cpu, completion.accepted);
    p.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_FormElicitationRoundTrip)
    ->Arg(1)
    ->Arg(64)
    ->Arg(1024)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The same, but every elicitation is started from the benchmark thread, which waits for a free
// slot: a third thread on each round trip's path (as when blocking handlers on worker threads make
// the calls), so each completion also wakes that thread.
void BM_FormElicitationFromAnotherThread(benchmark::State& state) {
  const long total = round_trips();
  const auto window = static_cast<long>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto p = std::make_unique<Pair>();
    std::mutex m;
    std::condition_variable cv;
    long in_flight = 0;
    std::atomic<long> accepted{0};
    auto done = [&](elicit::Outcome<Contact> o) {
      if (o.accepted() && o.value && o.value->age == 30.0) ++accepted;
      std::lock_guard<std::mutex> lock(m);
      --in_flight;
      cv.notify_one();
    };
    const double cpu_before = process_cpu_seconds();
    state.ResumeTiming();
    for (long i = 0; i < total; ++i) {
      {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return in_flight < window; });
        ++in_flight;
      }
      elicit::elicit_async<Contact>(*p->server, "Please provide your contact information", done);
    }
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return in_flight == 0; });
    }
    state.PauseTiming();
    report(state, total, process_cpu_seconds() - cpu_before, accepted);
    p.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_FormElicitationFromAnotherThread)
    ->Arg(1)
    ->Arg(64)
    ->Arg(1024)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A client that never answers: sent messages are counted and dropped, so the heap that grows is the
// server jsonrpc::Connection's own (pending entries, callbacks, timers), not a peer's.
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
// also holds a timer entry) waiting at once on one server jsonrpc::Connection.
void BM_PendingElicitationMemory(benchmark::State& state) {
  const auto pending = static_cast<int>(state.range(0));
  double per_pending = 0;
  for (auto _ : state) {
    SilentTransport transport;
    elicit::jsonrpc::ConnectionOptions session_options;
    session_options.max_pending_requests = static_cast<std::size_t>(pending);  // the default (1,024) is below it
    elicit::jsonrpc::Connection rpc(transport, session_options);
    elicit::SessionState server(rpc);
    server.set_client_capabilities(elicit::ClientCapabilities::from_json({{"elicitation", nlohmann::json::object()}}));
    rpc.start();
    elicit::ElicitOptions options;
    options.timeout = std::chrono::hours(1);
    const auto before = heap_in_use();
    for (int i = 0; i < pending; ++i) {
      elicit::elicit_async<Contact>(
          server, "Please provide your contact information", [](elicit::Outcome<Contact>) {}, options);
    }
    const auto after = heap_in_use();
    if (rpc.pending_requests() != static_cast<std::size_t>(pending)) state.SkipWithError("not all pending");
    per_pending = static_cast<double>(after - before) / pending;
    rpc.close();
  }
  state.counters["bytes_per_pending"] = per_pending;
  state.counters["pending"] = pending;
}
BENCHMARK(BM_PendingElicitationMemory)->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
