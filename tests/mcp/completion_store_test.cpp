#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <elicit/completion_store.hpp>

#include "../support/patience.hpp"

namespace completion_store_test {

using elicit::CompletionState;
using elicit::InMemoryCompletionStore;
using elicit::InMemoryCompletionStoreOptions;
using namespace std::chrono_literals;

namespace {

struct ManualClock {
  std::shared_ptr<std::chrono::steady_clock::time_point> now =
      std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::time_point() + 1h);
  std::function<std::chrono::steady_clock::time_point()> function() const {
    return [now = now] { return *now; };
  }
};

// The in-memory store answers at once, on the calling thread.
CompletionState lookup_now(InMemoryCompletionStore& store, std::string_view id) {
  std::optional<CompletionState> result;
  const auto caller = std::this_thread::get_id();
  store.lookup(id, [&](CompletionState s) {
    CHECK(std::this_thread::get_id() == caller);
    CHECK_FALSE(result);
    result = s;
  });
  REQUIRE(result);
  return *result;
}

}  // namespace

TEST_CASE("in-memory completion store: complete, then lookup", "[completion_store]") {
  InMemoryCompletionStore store;
  CHECK(lookup_now(store, "abc") == CompletionState::pending);
  CHECK(store.complete("abc", 10min));
  CHECK(lookup_now(store, "abc") == CompletionState::complete);
  CHECK(lookup_now(store, "abd") == CompletionState::pending);
  CHECK(lookup_now(store, "") == CompletionState::pending);
  CHECK(store.complete(std::string("a\0b", 3), 10min));
  CHECK(lookup_now(store, std::string("a\0b", 3)) == CompletionState::complete);
  CHECK(lookup_now(store, "a") == CompletionState::pending);
  CHECK(store.size() == 2);
  CHECK_THROWS_AS(store.complete("x", 0ms), std::invalid_argument);
  CHECK_THROWS_AS(store.complete("x", -1ms), std::invalid_argument);
  CHECK(elicit::to_string(CompletionState::unavailable) == "unavailable");
}

TEST_CASE("in-memory completion store: marks expire after their ttl (injected clock)", "[completion_store]") {
  ManualClock clock;
  InMemoryCompletionStoreOptions options;
  options.clock = clock.function();
  InMemoryCompletionStore store(options);
  store.complete("short", 100ms);
  store.complete("long", 10s);
  *clock.now += 99ms;
  CHECK(lookup_now(store, "short") == CompletionState::complete);
  *clock.now += 1ms;
  CHECK(lookup_now(store, "short") == CompletionState::pending);
  CHECK(lookup_now(store, "long") == CompletionState::complete);
  CHECK(store.size() == 1);
  // Completing again replaces the ttl, as SET PX does.
  store.complete("long", 50ms);
  *clock.now += 50ms;
  CHECK(lookup_now(store, "long") == CompletionState::pending);
  CHECK(store.size() == 0);
  // A ttl beyond the clock's range saturates instead of overflowing.
  store.complete("forever", std::chrono::milliseconds::max());
  *clock.now += 24h * 365 * 100;
  CHECK(lookup_now(store, "forever") == CompletionState::complete);
}

TEST_CASE("in-memory completion store: bounded, the mark closest to expiry goes first", "[completion_store]") {
  ManualClock clock;
  InMemoryCompletionStoreOptions options;
  options.clock = clock.function();
  options.max_entries = 3;
  InMemoryCompletionStore store(options);
  for (const char* id : {"a", "b", "c"}) {
    store.complete(id, 1min);
    *clock.now += 1ms;
  }
  store.complete("d", 1min);  // the bound: "a", the oldest, goes
  CHECK(store.size() == 3);
  CHECK(lookup_now(store, "a") == CompletionState::pending);
  for (const char* id : {"b", "c", "d"}) CHECK(lookup_now(store, id) == CompletionState::complete);
  // Re-completing an id does not count twice.
  store.complete("d", 1min);
  CHECK(store.size() == 3);
  CHECK(lookup_now(store, "b") == CompletionState::complete);
  // With other ttls, the one expiring soonest goes, not the oldest.
  store.complete("b", 1h);
  store.complete("e", 1h);  // "c" expires first now
  CHECK(lookup_now(store, "c") == CompletionState::pending);
  for (const char* id : {"b", "d", "e"}) CHECK(lookup_now(store, id) == CompletionState::complete);
  // A large bound: many marks stay bounded.
  InMemoryCompletionStoreOptions many;
  many.max_entries = 1000;
  InMemoryCompletionStore big(many);
  for (int i = 0; i < 5000; ++i) big.complete("id-" + std::to_string(i), 1h);
  CHECK(big.size() == 1000);
  CHECK(lookup_now(big, "id-4999") == CompletionState::complete);
  CHECK(lookup_now(big, "id-3999") == CompletionState::pending);

  InMemoryCompletionStoreOptions zero;
  zero.max_entries = 0;
  CHECK_THROWS_AS(InMemoryCompletionStore(zero), std::invalid_argument);
}

TEST_CASE("in-memory completion store: concurrent marks and lookups", "[completion_store]") {
  InMemoryCompletionStoreOptions options;
  options.max_entries = 500;
  InMemoryCompletionStore store(options);
  std::atomic<int> complete{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        const std::string id = std::to_string(t) + "-" + std::to_string(i);
        store.complete(id, 1h);
        store.lookup(id, [&](CompletionState s) { complete += s == CompletionState::complete; });
      }
    });
  }
  for (auto& t : threads) t.join();
  // Each lookup follows its own mark; with 1,200 marks and room for 500 a few may have been
  // dropped by another thread's marks in between, never more than the bound allows.
  CHECK(store.size() == 500);
  CHECK(complete.load() > 0);
}

}  // namespace completion_store_test
