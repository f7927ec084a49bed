// The Redis completion store against a real redis-server that each test starts on a free loopback
// port. Without redis-server the tests fail, saying so: CI installs it.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <elicit/jsonrpc/event_thread.hpp>
#include <elicit/redis/completion_store.hpp>

#include "../support/patience.hpp"
#include "redis_server.hpp"

namespace redis_completion_store_test {

using elicit::CompletionState;
using elicit::RedisCompletionStore;
using elicit::RedisOptions;
using test_support::kPatience;
using test_support::RedisServer;
using namespace std::chrono_literals;

namespace {

RedisOptions options_for(const RedisServer& server) {
  RedisOptions options;
  options.port = server.port();
  options.key_prefix = "test:completion:";
  return options;
}

// Looks `id` up and waits (bounded) for the answer, checking it came once, from an event thread of
// the store's.
CompletionState lookup_wait(RedisCompletionStore& store, std::string_view id) {
  auto promise = std::make_shared<std::promise<CompletionState>>();
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto future = promise->get_future();
  const auto caller = std::this_thread::get_id();
  auto thread = std::make_shared<std::thread::id>();
  auto event_thread = std::make_shared<bool>(false);
  store.lookup(id, [promise, calls, thread, event_thread](CompletionState s) {
    *thread = std::this_thread::get_id();
    *event_thread = elicit::jsonrpc::on_event_thread();
    if (++*calls == 1) promise->set_value(s);
  });
  REQUIRE(future.wait_for(kPatience) == std::future_status::ready);
  const CompletionState state = future.get();
  CHECK(*thread != caller);
  CHECK(*event_thread);  // so a blocking runtime call in `done` throws instead of stalling lookups
  CHECK(calls->load() == 1);
  return state;
}

// A reply from a direct connection (`command` with one %b argument).
long long integer_reply(const RedisServer& server, const char* command, const std::string& arg) {
  redisContext* c = server.connect();
  REQUIRE(c != nullptr);
  auto* reply = static_cast<redisReply*>(redisCommand(c, command, arg.data(), arg.size()));
  REQUIRE(reply != nullptr);
  const long long value = reply->type == REDIS_REPLY_INTEGER ? reply->integer : -1000;
  freeReplyObject(reply);
  redisFree(c);
  return value;
}

}  // namespace

TEST_CASE("redis completion store: complete in one store, complete in another", "[completion_store][redis]") {
  RedisServer server;
  RedisCompletionStore web_page(options_for(server));    // the process serving the OAuth callback
  RedisCompletionStore mcp_server(options_for(server));  // the process serving the retry
  CHECK(lookup_wait(mcp_server, "interaction-1") == CompletionState::pending);
  CHECK(web_page.complete("interaction-1", 10min));
  CHECK(lookup_wait(mcp_server, "interaction-1") == CompletionState::complete);
  CHECK(lookup_wait(web_page, "interaction-1") == CompletionState::complete);
  CHECK(lookup_wait(mcp_server, "interaction-2") == CompletionState::pending);
  // The key is the prefix and the id; its ttl is the one given (PX).
  CHECK(integer_reply(server, "EXISTS %b", "test:completion:interaction-1") == 1);
  const long long pttl = integer_reply(server, "PTTL %b", "test:completion:interaction-1");
  CHECK(pttl > 0);
  CHECK(pttl <= 600'000);
  CHECK_THROWS_AS(web_page.complete("x", 0ms), std::invalid_argument);
}

TEST_CASE("redis completion store: ids are binary-safe arguments, never command text", "[completion_store][redis]") {
  RedisServer server;
  RedisCompletionStore store(options_for(server));
  const std::string hostile = std::string("a b %s %b\r\nFLUSHALL\r\n\0z", 22);
  CHECK(store.complete("keep", 10min));
  CHECK(store.complete(hostile, 10min));
  CHECK(lookup_wait(store, hostile) == CompletionState::complete);
  CHECK(lookup_wait(store, "a") == CompletionState::pending);
  CHECK(lookup_wait(store, "keep") == CompletionState::complete);
  CHECK(integer_reply(server, "EXISTS %b", "test:completion:" + hostile) == 1);
  CHECK(integer_reply(server, "EXISTS %b", "test:completion:keep") == 1);
  CHECK(store.complete("", 10min));
  CHECK(lookup_wait(store, "") == CompletionState::complete);
}

TEST_CASE("redis completion store: a mark expires after its ttl", "[completion_store][redis]") {
  RedisServer server;
  RedisCompletionStore store(options_for(server));
  REQUIRE(store.complete("brief", 20ms));
  // Bounded poll: it may already have expired at the first lookup on a slow machine.
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  CompletionState state = CompletionState::complete;
  while (state != CompletionState::pending && std::chrono::steady_clock::now() < deadline) {
    state = lookup_wait(store, "brief");
    CHECK(state != CompletionState::unavailable);
    if (state != CompletionState::pending) std::this_thread::sleep_for(5ms);
  }
  CHECK(state == CompletionState::pending);
}

TEST_CASE("redis completion store: Redis stopped gives unavailable, and calls keep returning",
          "[completion_store][redis]") {
  RedisServer server;
  RedisOptions options = options_for(server);
  options.threads = 2;
  RedisCompletionStore store(options);
  REQUIRE(store.complete("done", 10min));
  REQUIRE(lookup_wait(store, "done") == CompletionState::complete);
  server.stop();
  CHECK(lookup_wait(store, "done") == CompletionState::unavailable);
  CHECK_FALSE(store.complete("other", 10min));
  // Many at once: every callback runs, each once, with unavailable.
  constexpr int kLookups = 20;
  std::vector<std::future<CompletionState>> answers;
  for (int i = 0; i < kLookups; ++i) {
    auto promise = std::make_shared<std::promise<CompletionState>>();
    answers.push_back(promise->get_future());
    store.lookup("done", [promise](CompletionState s) { promise->set_value(s); });
  }
  for (auto& a : answers) {
    REQUIRE(a.wait_for(kPatience) == std::future_status::ready);
    CHECK(a.get() == CompletionState::unavailable);
  }
}

TEST_CASE("redis completion store: reconnects after Redis restarts", "[completion_store][redis]") {
  RedisServer server;
  RedisCompletionStore store(options_for(server));
  REQUIRE(store.complete("before", 10min));
  REQUIRE(lookup_wait(store, "before") == CompletionState::complete);

  SECTION("a restart between two calls costs no failure: the stale connection is replaced at once") {
    server.restart();  // the store's idle connections are now closed by the peer
    CHECK(lookup_wait(store, "before") == CompletionState::pending);  // nothing is saved
    CHECK(store.complete("after", 10min));
    CHECK(lookup_wait(store, "after") == CompletionState::complete);
  }
  SECTION("calls while it is down fail, the first ones after it is back succeed") {
    server.stop();
    CHECK(lookup_wait(store, "before") == CompletionState::unavailable);
    CHECK_FALSE(store.complete("during", 10min));
    server.restart();
    CHECK(store.complete("after", 10min));
    CHECK(lookup_wait(store, "after") == CompletionState::complete);
    CHECK(lookup_wait(store, "during") == CompletionState::pending);
  }
}

TEST_CASE("redis completion store: password (AUTH)", "[completion_store][redis]") {
  RedisServer server(std::string("s3cret pass"));
  RedisOptions good = options_for(server);
  good.password = "s3cret pass";
  RedisCompletionStore store(good);
  CHECK(store.complete("id", 10min));
  CHECK(lookup_wait(store, "id") == CompletionState::complete);

  RedisCompletionStore no_password(options_for(server));  // NOAUTH error replies
  CHECK_FALSE(no_password.complete("id", 10min));
  CHECK(lookup_wait(no_password, "id") == CompletionState::unavailable);
  RedisOptions bad = options_for(server);
  bad.password = "wrong";
  RedisCompletionStore wrong(bad);  // AUTH fails: no connection
  CHECK_FALSE(wrong.complete("id", 10min));
  CHECK(lookup_wait(wrong, "id") == CompletionState::unavailable);
}

TEST_CASE("redis completion store: destroying it answers the lookups still queued", "[completion_store][redis]") {
  RedisServer server;
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto complete = std::make_shared<std::atomic<int>>(0);
  constexpr int kLookups = 50;
  {
    RedisCompletionStore store(options_for(server));
    REQUIRE(store.complete("x", 10min));
    for (int i = 0; i < kLookups; ++i) {
      store.lookup("x", [calls, complete](CompletionState s) {  // (no Catch assertion off the test's thread)
        ++*calls;
        *complete += s == CompletionState::complete;
      });
    }
  }
  CHECK(calls->load() == kLookups);
  CHECK(complete->load() == kLookups);
}

TEST_CASE("redis completion store: bad options", "[completion_store][redis]") {
  RedisOptions options;
  options.port = 0;
  CHECK_THROWS_AS(RedisCompletionStore(options), std::invalid_argument);
  options.port = 70000;
  CHECK_THROWS_AS(RedisCompletionStore(options), std::invalid_argument);
  options.port = 6379;
  options.command_timeout = 0ms;
  CHECK_THROWS_AS(RedisCompletionStore(options), std::invalid_argument);
  options.command_timeout = 1s;
  options.connect_timeout = -1ms;
  CHECK_THROWS_AS(RedisCompletionStore(options), std::invalid_argument);
}

TEST_CASE("redis completion store: no Redis at the address is unavailable, not a hang or a throw",
          "[completion_store][redis]") {
  RedisOptions options;
  options.port = test_support::free_loopback_port();  // nothing listens there
  REQUIRE(options.port != 0);
  RedisCompletionStore store(options);
  CHECK_FALSE(store.complete("id", 1min));
  CHECK(lookup_wait(store, "id") == CompletionState::unavailable);
}

}  // namespace redis_completion_store_test
