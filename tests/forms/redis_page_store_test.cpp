// forms::RedisPageStore against a real redis-server each test starts on a free loopback port: two
// stores on one Redis stand for two server processes (the page opened by one, served by the
// other). Without redis-server the tests fail, saying so: CI installs it.
#include <catch2/catch.hpp>

#include <hiredis/hiredis.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <elicit/forms/redis_page_store.hpp>
#include <elicit/request_state.hpp>

#include "../redis/redis_server.hpp"
#include "../support/form_page.hpp"
#include "../support/page_requests.hpp"
#include "../support/patience.hpp"

namespace redis_page_store_test {

using elicit::BrowserFormAnswer;
using elicit::BrowserFormPage;
using elicit::ElicitStatus;
using elicit::forms::PageRequest;
using elicit::forms::PageResponse;
using elicit::forms::RedisPageStore;
using elicit::forms::RedisPageStoreOptions;
using test_support::eventually;
using test_support::kPatience;
using test_support::RedisServer;
using namespace std::chrono_literals;
namespace forms = elicit::forms;

namespace {

constexpr auto kFormPrefix = "test:form:";
constexpr auto kSecret = "sk-live-SECRET-0123456789abcdef";

forms::RedisPageStoreOptions form_options(const RedisServer& server, std::string key = test_support::shared_key()) {
  forms::RedisPageStoreOptions o;
  o.redis.port = server.port();
  o.redis.key_prefix = kFormPrefix;
  o.keys = {std::move(key)};
  o.base_url = "https://forms.example/f/";
  return o;
}

// The api_key sample's question: a service to choose and a key of at least 20 characters.
BrowserFormPage api_key_page(std::chrono::milliseconds expires_in = 10min) {
  BrowserFormPage page;
  page.message = "Your API key";
  page.requested_schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "service": {"type": "string", "title": "Service", "enum": ["openai", "github"], "default": "github"},
      "api_key": {"type": "string", "title": "API key", "minLength": 20}
    },
    "required": ["service", "api_key"]
  })");
  page.expires_in = expires_in;
  return page;
}

// The page's requests from a loopback peer (support/page_requests.hpp).
forms::PageRequest get(const std::string& id) { return test_support::page_get(id); }
forms::PageRequest post(const std::string& id, std::string body) {
  return test_support::page_post(id, std::move(body));
}

// handle() with a future: the response, `done` checked to run once.
forms::PageResponse serve(forms::RedisPageStore& forms, const forms::PageRequest& request) {
  auto promise = std::make_shared<std::promise<forms::PageResponse>>();
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto future = promise->get_future();
  forms.handle(request, [promise, calls](forms::PageResponse r) {
    if (calls->fetch_add(1) == 0) promise->set_value(std::move(r));
  });
  REQUIRE(future.wait_for(kPatience) == std::future_status::ready);
  auto r = future.get();
  CHECK(calls->load() == 1);
  return r;
}

std::string encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// A submission of the page's form with its token.
std::string body(const std::string& csrf, const std::string& action, const std::string& service = "openai",
                 const std::string& key = kSecret) {
  return "csrf=" + encode(csrf) + "&action=" + action + "&service=" + encode(service) + "&api_key=" + encode(key);
}

using http_test::Awaited;

std::optional<BrowserFormAnswer> await_for(forms::RedisPageStore& forms, const std::string& id,
                                           std::chrono::milliseconds wait) {
  Awaited a;
  forms.await(id, wait, a.done());
  return a.get();
}

// The open pages' index (a sorted set of <h>, for pages_open()): left out of dump().
const std::string kOpenIndex = std::string(kFormPrefix) + "{pages}:open";

// The members of the open pages' index.
std::vector<std::string> open_index(const RedisServer& server) {
  std::vector<std::string> out;
  redisContext* c = server.connect();
  REQUIRE(c != nullptr);
  auto* members = static_cast<redisReply*>(redisCommand(c, "ZRANGE %b 0 -1", kOpenIndex.data(), kOpenIndex.size()));
  REQUIRE(members != nullptr);
  for (std::size_t i = 0; i < members->elements; ++i)
    out.emplace_back(members->element[i]->str, members->element[i]->len);
  freeReplyObject(members);
  redisFree(c);
  return out;
}

// Every key in Redis with its raw value (strings only: the store writes nothing else but the open
// pages' index).
std::vector<std::pair<std::string, std::string>> dump(const RedisServer& server) {
  std::vector<std::pair<std::string, std::string>> out;
  redisContext* c = server.connect();
  REQUIRE(c != nullptr);
  auto* keys = static_cast<redisReply*>(redisCommand(c, "KEYS *"));
  REQUIRE(keys != nullptr);
  REQUIRE(keys->type == REDIS_REPLY_ARRAY);
  for (std::size_t i = 0; i < keys->elements; ++i) {
    const std::string key(keys->element[i]->str, keys->element[i]->len);
    if (key == kOpenIndex) continue;
    auto* value = static_cast<redisReply*>(redisCommand(c, "GET %b", key.data(), key.size()));
    REQUIRE(value != nullptr);
    // Nil: the key expired between KEYS and GET.
    CHECK((value->type == REDIS_REPLY_STRING || value->type == REDIS_REPLY_NIL));
    if (value->type == REDIS_REPLY_STRING) out.emplace_back(key, std::string(value->str, value->len));
    freeReplyObject(value);
  }
  freeReplyObject(keys);
  redisFree(c);
  return out;
}

// The keys whose name starts with `prefix + kind`.
std::vector<std::string> keys_of(const RedisServer& server, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& [k, v] : dump(server)) {
    if (k.rfind(kFormPrefix + kind, 0) == 0) out.push_back(k);
  }
  return out;
}

// How many connections subscribe to the stores' answers channel.
long long subscribers(const RedisServer& server) {
  redisContext* c = server.connect();
  if (c == nullptr) return -1;
  const std::string channel = std::string(kFormPrefix) + "answers";
  auto* reply = static_cast<redisReply*>(redisCommand(c, "PUBSUB NUMSUB %b", channel.data(), channel.size()));
  long long n = -1;
  if (reply != nullptr && reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
      reply->element[1]->type == REDIS_REPLY_INTEGER) {
    n = reply->element[1]->integer;
  }
  if (reply != nullptr) freeReplyObject(reply);
  redisFree(c);
  return n;
}

}  // namespace

TEST_CASE("redis browser forms: a page opened in one process is answered through another", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));  // the process whose tool call waits
  forms::RedisPageStore b(form_options(server));  // the process the browser reaches
  const auto id = elicit::browser_form_id();
  CHECK(a.open(id, api_key_page()) == "https://forms.example/f/" + id);
  CHECK(a.open(id, api_key_page()) == "https://forms.example/f/" + id);  // a retry keeps the page

  // A waits first (its wait far longer than the test): only the published answer can wake it.
  Awaited waiting;
  a.await(id, 24h, waiting.done());
  Awaited also_waiting;
  a.await(id, 24h, also_waiting.done());
  REQUIRE(eventually([&] { return subscribers(server) >= 1; }));
  CHECK(subscribers(server) == 1);  // one subscriber connection for the store, however many waiters

  const auto page = serve(b, get(id));
  REQUIRE(page.status == 200);
  CHECK(page.html.find("Your API key") != std::string::npos);
  CHECK(page.html.find("API key") != std::string::npos);
  const auto csrf = http_test::csrf_of(page.html);
  REQUIRE(csrf.size() == 43);
  CHECK(http_test::csrf_of(serve(a, get(id)).html) == csrf);  // one page, whichever process shows it

  const auto thanks = serve(b, post(id, body(csrf, "accept")));
  CHECK(thanks.status == 200);
  CHECK(thanks.html.find("Thank you") != std::string::npos);

  const auto answer = waiting.get();
  REQUIRE(answer);
  CHECK(also_waiting.get()->content == answer->content);
  CHECK(answer->status == ElicitStatus::accepted);
  CHECK(answer->content == nlohmann::json{{"service", "openai"}, {"api_key", kSecret}});
  // Read again (a 2026-07-28 handler that runs again): still there until close().
  const auto again = await_for(b, id, 0ms);
  REQUIRE(again);
  CHECK(again->content.at("api_key") == kSecret);

  SECTION("a second submission is refused through either process") {
    CHECK(serve(b, post(id, body(csrf, "accept"))).status == 410);
    CHECK(serve(a, post(id, body(csrf, "decline"))).status == 410);
    const auto shown = serve(a, get(id));
    CHECK(shown.status == 410);
    CHECK(shown.html.find("already answered") != std::string::npos);
    CHECK(await_for(a, id, 0ms)->status == ElicitStatus::accepted);  // the first answer stands
  }
  SECTION("close() deletes page and answer: what stays says only that the id is gone") {
    a.close(id);
    REQUIRE(eventually([&] { return keys_of(server, "page:").empty() && keys_of(server, "answer:").empty(); }));
    const auto left = dump(server);
    REQUIRE(left.size() == 1);
    CHECK(left.front().first.rfind(std::string(kFormPrefix) + "gone:", 0) == 0);
    CHECK(left.front().second == "closed");
    const auto closed = serve(b, get(id));
    CHECK(closed.status == 410);
    CHECK(closed.html.find("no longer available") != std::string::npos);
    // The id's marker tells any process it was closed (forms::InMemoryPageStore, which keeps no
    // marker for await(), answers timed_out, as for an unknown id).
    CHECK(await_for(b, id, 0ms)->status == ElicitStatus::aborted);
    CHECK(await_for(b, elicit::browser_form_id(), 0ms)->status == ElicitStatus::timed_out);
  }
}

TEST_CASE("redis browser forms: without markers close() leaves no key in Redis", "[browser_forms][redis]") {
  RedisServer server;
  auto options = form_options(server);
  options.gone_for = 0ms;
  forms::RedisPageStore a(options);
  forms::RedisPageStore b(options);
  const auto id = elicit::browser_form_id();
  a.open(id, api_key_page());
  CHECK(dump(server).size() == 1);  // the page alone
  const auto csrf = http_test::csrf_of(serve(b, get(id)).html);
  REQUIRE(serve(b, post(id, body(csrf, "accept"))).status == 200);
  CHECK(dump(server).size() == 2);  // and its answer
  CHECK(await_for(a, id, 0ms)->status == ElicitStatus::accepted);
  a.close(id);
  REQUIRE(eventually([&] { return dump(server).empty(); }));
  CHECK(serve(b, get(id)).status == 404);  // nothing says it was there
  CHECK(await_for(b, id, 0ms)->status == ElicitStatus::timed_out);
}

TEST_CASE("redis browser forms: the submitted secret and the id are never in Redis in plain text",
          "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  forms::RedisPageStore b(form_options(server));
  const auto id = elicit::browser_form_id();
  a.open(id, api_key_page());
  const auto csrf = http_test::csrf_of(serve(b, get(id)).html);
  REQUIRE(serve(b, post(id, body(csrf, "accept"))).status == 200);
  const auto keys = dump(server);
  CHECK(keys.size() == 3);  // page, answer, gone
  for (const auto& [key, value] : keys) {
    CHECK(key.find(id) == std::string::npos);
    CHECK(value.find(id) == std::string::npos);
    CHECK(value.find(kSecret) == std::string::npos);
    CHECK(value.find("SECRET") == std::string::npos);
    CHECK(value.find(csrf) == std::string::npos);
    CHECK(value.find("Your API key") == std::string::npos);  // the page record is sealed too
  }
  CHECK(await_for(a, id, 0ms)->content.at("api_key") == kSecret);
}

TEST_CASE("redis browser forms: errors are shown by their field and the page stays open", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  forms::RedisPageStore b(form_options(server));
  const auto id = elicit::browser_form_id();
  a.open(id, api_key_page());
  const auto csrf = http_test::csrf_of(serve(b, get(id)).html);

  const auto short_key = serve(b, post(id, body(csrf, "accept", "openai", "sk-short")));
  CHECK(short_key.status == 422);
  CHECK(short_key.html.find("aria-invalid=\"true\"") != std::string::npos);
  CHECK(short_key.html.find("sk-short") == std::string::npos);  // a secret-looking field is not echoed
  CHECK(!await_for(a, id, 0ms));                                // no answer yet
  CHECK(serve(a, post(id, "csrf=wrong&action=accept")).status == 403);
  CHECK(serve(a, post(id, "csrf=%zz")).status == 400);  // not form-urlencoded
  CHECK(serve(a, post(id, body(csrf, "launch"))).status == 400);

  CHECK(serve(a, post(id, body(csrf, "decline"))).status == 200);
  const auto answer = await_for(a, id, 0ms);
  REQUIRE(answer);
  CHECK(answer->status == ElicitStatus::declined);
  CHECK(answer->content.is_null());
}

TEST_CASE("redis browser forms: who may see a page, and ids that are not pages", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  forms::RedisPageStore b(form_options(server));
  forms::RedisPageStore other(form_options(server, elicit::RequestStateSealer::generate_key()));
  auto page = api_key_page();
  page.principal = R"(["https://as.example","alice"])";
  const auto id = elicit::browser_form_id();
  a.open(id, page);

  auto as = [&](std::string principal, forms::PageRequest r) {
    r.principal = std::move(principal);
    r.loopback_peer = false;
    return r;
  };
  CHECK(serve(b, as(page.principal, get(id))).status == 200);
  const auto mallory = serve(b, as(R"(["https://as.example","mallory"])", get(id)));
  CHECK(mallory.status == 403);
  CHECK(http_test::csrf_of(mallory.html).empty());
  CHECK(serve(b, as("", get(id))).status == 403);

  // Another key: the record does not open, so the page is not there (404), nor its answer.
  CHECK(serve(other, as(page.principal, get(id))).status == 404);
  CHECK(await_for(other, id, 0ms)->status == ElicitStatus::timed_out);

  CHECK(serve(b, get(elicit::browser_form_id())).status == 404);
  CHECK(serve(b, get("short")).status == 404);
  forms::PageRequest put = get(id);
  put.method = "PUT";
  const auto refused = serve(b, put);
  CHECK(refused.status == 405);
  CHECK(refused.allow == "GET, POST");
}

TEST_CASE("redis browser forms: a record moved to another id does not open", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  const auto first = elicit::browser_form_id();
  a.open(first, api_key_page());
  const auto first_keys = keys_of(server, "page:");
  REQUIRE(first_keys.size() == 1);
  const auto second = elicit::browser_form_id();
  a.open(second, api_key_page());
  std::string second_key;
  for (const auto& k : keys_of(server, "page:")) {
    if (k != first_keys.front()) second_key = k;
  }
  REQUIRE(!second_key.empty());
  redisContext* c = server.connect();
  REQUIRE(c != nullptr);
  auto* copied =
      static_cast<redisReply*>(redisCommand(c, "COPY %b %b REPLACE", first_keys.front().data(),
                                            first_keys.front().size(), second_key.data(), second_key.size()));
  REQUIRE(copied != nullptr);
  const bool ok = copied->type == REDIS_REPLY_INTEGER && copied->integer == 1;
  freeReplyObject(copied);
  redisFree(c);
  REQUIRE(ok);
  CHECK(serve(a, get(second)).status == 404);
  CHECK(serve(a, get(first)).status == 200);
}

TEST_CASE("redis browser forms: a page expires", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  forms::RedisPageStore b(form_options(server));

  SECTION("its waiter learns it at the page's deadline, and the page says so") {
    const auto id = elicit::browser_form_id();
    a.open(id, api_key_page(300ms));
    CHECK(await_for(a, id, 24h)->status == ElicitStatus::timed_out);
    REQUIRE(eventually([&] { return keys_of(server, "page:").empty(); }));  // Redis expired it (PX)
    const auto expired = serve(b, get(id));
    CHECK(expired.status == 410);
    CHECK(expired.html.find("expired") != std::string::npos);
    // A 2026-07-28 retry opens the id again, from any process: the page stays gone.
    b.open(id, api_key_page(300ms));
    CHECK(keys_of(server, "page:").empty());
    CHECK(serve(a, get(id)).status == 410);
    CHECK(await_for(b, id, 0ms)->status == ElicitStatus::timed_out);
  }
  SECTION("past its deadline by the clock of the process serving it") {
    auto options = form_options(server);
    options.clock = [] { return std::chrono::system_clock::now() + std::chrono::hours(1); };
    forms::RedisPageStore late(std::move(options));
    const auto id = elicit::browser_form_id();
    a.open(id, api_key_page(30min));
    const auto csrf = http_test::csrf_of(serve(b, get(id)).html);
    CHECK(serve(late, get(id)).status == 410);
    CHECK(serve(late, post(id, body(csrf, "accept"))).status == 410);
    CHECK(await_for(late, id, 0ms)->status == ElicitStatus::timed_out);
    CHECK(!await_for(a, id, 0ms));  // still open for the others
  }
}

TEST_CASE("redis browser forms: close() in one process ends the waiters of another", "[browser_forms][redis]") {
  RedisServer server;
  forms::RedisPageStore a(form_options(server));
  forms::RedisPageStore b(form_options(server));
  const auto id = elicit::browser_form_id();
  a.open(id, api_key_page());
  Awaited here;
  Awaited there;
  a.await(id, 24h, here.done());
  b.await(id, 24h, there.done());
  a.close(id);
  CHECK(here.get()->status == ElicitStatus::aborted);   // at once, locally
  CHECK(there.get()->status == ElicitStatus::aborted);  // through the channel
  // Opening the id again (a 2026-07-28 retry whose result was lost) does not bring a page back.
  b.open(id, api_key_page());
  CHECK(keys_of(server, "page:").empty());
  CHECK(serve(a, get(id)).status == 410);
}

TEST_CASE("redis browser forms: bounds", "[browser_forms][redis]") {
  RedisServer server;
  auto options = form_options(server);
  options.max_waiters = 1;
  options.max_page_bytes = 4096;
  forms::RedisPageStore a(options);
  const auto id = elicit::browser_form_id();
  a.open(id, api_key_page());
  Awaited first;
  a.await(id, std::chrono::milliseconds::max(), first.done());  // however long: no overflow
  CHECK_THROWS_AS(a.await(id, 24h, [](std::optional<BrowserFormAnswer>) {}), std::length_error);
  a.close(id);
  CHECK(first.get()->status == ElicitStatus::aborted);
  CHECK(await_for(a, elicit::browser_form_id(), 0ms)->status == ElicitStatus::timed_out);  // its place is free again

  auto big = api_key_page();
  big.message = std::string(5000, 'x');
  CHECK_THROWS_AS(a.open(elicit::browser_form_id(), big), std::length_error);
  CHECK_THROWS_AS(a.open("bad id", api_key_page()), std::invalid_argument);
  CHECK_THROWS_AS(a.open(elicit::browser_form_id(), api_key_page(0ms)), std::invalid_argument);

  const auto other = elicit::browser_form_id();
  a.open(other, api_key_page());
  const auto csrf = http_test::csrf_of(serve(a, get(other)).html);
  CHECK(serve(a, post(other, body(csrf, "accept", "openai", std::string(5000, 'k')))).status == 413);

  forms::RedisPageStoreOptions bad = form_options(server);
  bad.keys = {"too short"};
  CHECK_THROWS_AS(forms::RedisPageStore(bad), std::invalid_argument);
  bad = form_options(server);
  bad.gone_for = -1ms;
  CHECK_THROWS_AS(forms::RedisPageStore(bad), std::invalid_argument);
  bad = form_options(server);
  bad.base_url = "https://forms.example/f";
  CHECK_THROWS_AS(forms::RedisPageStore(bad), std::invalid_argument);
  forms::RedisPageStore no_base(forms::RedisPageStoreOptions{});
  CHECK_THROWS_AS(no_base.open(elicit::browser_form_id(), api_key_page()), std::runtime_error);
}

TEST_CASE("redis browser forms: Redis unreachable, then restarted", "[browser_forms][redis]") {
  RedisServer server;
  auto options = form_options(server);
  options.redis.connect_timeout = 500ms;
  options.redis.command_timeout = 500ms;
  forms::RedisPageStore a(options);
  forms::RedisPageStore b(options);

  SECTION("restarted without its data mid-wait: the waiter ends, and the stores work again") {
    const auto id = elicit::browser_form_id();
    a.open(id, api_key_page());
    Awaited waiting;
    a.await(id, 24h, waiting.done());
    // The store subscribes once it has read the page for its waiter: from then on the waiter
    // knows the page was there, so its vanishing is news (not an unknown id).
    REQUIRE(eventually([&] { return subscribers(server) == 1; }));
    server.restart();
    // The subscriber reconnects, checks its waiters again: the page is gone with Redis's data.
    CHECK(waiting.get()->status == ElicitStatus::aborted);

    const auto next = elicit::browser_form_id();
    a.open(next, api_key_page());
    Awaited answered;
    a.await(next, 24h, answered.done());
    const auto csrf = http_test::csrf_of(serve(b, get(next)).html);
    CHECK(serve(b, post(next, body(csrf, "cancel"))).status == 200);
    CHECK(answered.get()->status == ElicitStatus::cancelled);
  }
  SECTION("down: open() throws, pages answer 503, a wait ends without an answer") {
    const auto id = elicit::browser_form_id();
    a.open(id, api_key_page());
    server.stop();
    CHECK_THROWS_AS(a.open(elicit::browser_form_id(), api_key_page()), std::runtime_error);
    CHECK(serve(b, get(id)).status == 503);
    CHECK(!await_for(a, id, 50ms));
    Awaited closed_meanwhile;
    a.await(id, 24h, closed_meanwhile.done());
    a.close(id);  // no Redis to delete in: the local waiter is answered all the same
    CHECK(closed_meanwhile.get()->status == ElicitStatus::aborted);
  }
}

TEST_CASE("redis browser forms: destroying a store answers its waiters, which may call it back",
          "[browser_forms][redis]") {
  RedisServer server;
  auto forms = std::make_unique<forms::RedisPageStore>(form_options(server));
  const auto id = elicit::browser_form_id();
  forms->open(id, api_key_page());
  // As RequestContext::elicit_in_browser does: the answer's callback closes the page.
  Awaited waiting;
  auto* store = forms.get();
  forms->await(id, 24h, [store, id, done = waiting.done()](std::optional<BrowserFormAnswer> a) {
    store->close(id);
    done(std::move(a));
  });
  Awaited queued;  // a look without waiting, perhaps still queued when the store goes
  forms->await(id, 0ms, [store, id, done = queued.done()](std::optional<BrowserFormAnswer> a) {
    store->close(id);
    done(std::move(a));
  });
  forms.reset();
  CHECK(waiting.get()->status == ElicitStatus::aborted);
  // Looked before the first callback's close() reached Redis: open, unanswered (nullopt); after:
  // closed (aborted). Either way exactly once (Awaited checks it).
  const auto looked = queued.get();
  CHECK((!looked || looked->status == ElicitStatus::aborted));
}

TEST_CASE("redis browser forms: pages open are counted across processes, without a scan", "[browser_forms][redis]") {
  RedisServer server;
  auto options = form_options(server);
  std::atomic<int> errors{0};
  options.redis.on_error = [&errors] { ++errors; };
  forms::RedisPageStore a(options);
  forms::RedisPageStore b(options);
  CHECK(b.pages_open() == 0u);

  const auto answered = elicit::browser_form_id();
  const auto closed = elicit::browser_form_id();
  a.open(answered, api_key_page());
  a.open(closed, api_key_page());
  CHECK(b.pages_open() == 2u);       // opened in A, counted in B
  a.open(answered, api_key_page());  // a retry keeps the page: counted once
  CHECK(a.pages_open() == 2u);
  // The index holds the pages' hashes only, never an id (a page's URL).
  const auto index = open_index(server);
  CHECK(index.size() == 2);
  for (const auto& h : index) {
    CHECK(h.size() == 32);
    CHECK(h != answered);
    CHECK(h != closed);
  }

  // Answered through B: no longer open (written before the thank-you page is given).
  const auto csrf = http_test::csrf_of(serve(b, get(answered)).html);
  REQUIRE(serve(b, post(answered, body(csrf, "accept"))).status == 200);
  CHECK(a.pages_open() == 1u);
  a.open(answered, api_key_page());  // a retry of the answered page's request: not open again
  CHECK(a.pages_open() == 1u);
  // Closed: the deletion runs on a thread of A's.
  a.close(closed);
  CHECK(eventually([&] { return b.pages_open() == 0u; }));
  // Expired: not counted once its deadline passes; the next open prunes it from the index.
  a.open(elicit::browser_form_id(), api_key_page(300ms));
  CHECK(b.pages_open() <= 1u);
  CHECK(eventually([&] { return b.pages_open() == 0u; }));
  a.open(elicit::browser_form_id(), api_key_page());
  CHECK(open_index(server).size() == 1);
  CHECK(a.pages_open() == 1u);
  CHECK(errors == 0);

  // Redis down: the count throws, and the failure is reported.
  server.stop();
  CHECK_THROWS_AS(a.pages_open(), std::runtime_error);
  CHECK(errors >= 1);
}

}  // namespace redis_page_store_test
