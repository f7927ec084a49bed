// forms::InMemoryPageStore: ids, opening, bounds, awaiting, expiry, closing, and the pages' HTTP logic
// (handle()) without a socket. The routes over real sockets are in tests/http/.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <elicit/forms/page_store.hpp>
#include "../support/form_page.hpp"
#include "../support/page_requests.hpp"
#include "test_paths.hpp"

namespace page_store_test {

using elicit::BrowserFormAnswer;
using elicit::BrowserFormPage;
using elicit::ElicitStatus;
using elicit::forms::InMemoryPageStore;
using elicit::forms::InMemoryPageStoreOptions;
using elicit::forms::PageRequest;
using namespace std::chrono_literals;
namespace forms = elicit::forms;

namespace {

constexpr auto kBase = "https://forms.example/f/";
// Bounds the wait for something that must happen: only a hang reaches it.
constexpr auto kPatience = 10s;

// A clock the test moves; read from the timer thread too, hence atomic.
struct ManualClock {
  std::shared_ptr<std::atomic<std::int64_t>> ms = std::make_shared<std::atomic<std::int64_t>>(3'600'000);
  std::function<std::chrono::steady_clock::time_point()> function() const {
    return [ms = ms] { return std::chrono::steady_clock::time_point() + std::chrono::milliseconds(ms->load()); };
  }
  void advance(std::chrono::milliseconds d) const { ms->fetch_add(d.count()); }
};

nlohmann::ordered_json sample_schema(const std::string& name) {
  std::ifstream in(std::string(SOURCE_DIR) + "/samples/schemas/" + name + ".json");
  REQUIRE(in);
  return nlohmann::ordered_json::parse(in).at("requestedSchema");
}

// sep1034_defaults: name, age (integer), score (number), status (enum), verified (boolean), all
// with defaults.
BrowserFormPage defaults_page(std::string principal = "") {
  BrowserFormPage page;
  page.message = "Check <your> details";
  page.requested_schema = sample_schema("sep1034_defaults");
  page.principal = std::move(principal);
  return page;
}

BrowserFormPage secret_page() {
  BrowserFormPage page;
  page.message = "Your API key";
  page.requested_schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "api_key": {"type": "string", "title": "API key", "minLength": 20},
      "port": {"type": "integer", "minimum": 1, "maximum": 65535}
    },
    "required": ["api_key", "port"]
  })");
  return page;
}

forms::InMemoryPageStoreOptions options_with(const ManualClock* clock = nullptr) {
  forms::InMemoryPageStoreOptions o;
  o.base_url = kBase;
  if (clock) o.clock = clock->function();
  return o;
}

// The page's requests from a loopback peer (support/page_requests.hpp).
forms::PageRequest get(const std::string& id) { return test_support::page_get(id); }
forms::PageRequest post(const std::string& id, std::string body) {
  return test_support::page_post(id, std::move(body));
}

// The value of the hidden CSRF input of a rendered page.
std::string csrf_of(const std::string& html) {
  const std::string marker = "name=\"csrf\" value=\"";
  const auto at = html.find(marker);
  REQUIRE(at != std::string::npos);
  const auto start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

// The opening tag of the control named `name` (the first one).
std::string tag_of(const std::string& html, const std::string& name) {
  const auto at = html.find("name=\"" + name + "\"");
  REQUIRE(at != std::string::npos);
  const auto start = html.rfind('<', at);
  return html.substr(start, html.find('>', at) - start + 1);
}

// application/x-www-form-urlencoded, as a browser writes it.
std::string encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '*') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string field(const std::string& name, const std::string& value) { return encode(name) + "=" + encode(value); }

// Opens the GET page and returns a body that submits `fields` with its token and `action`.
std::string body_for(forms::InMemoryPageStore& forms, const std::string& id, const std::string& action,
                     const std::vector<std::pair<std::string, std::string>>& fields = {}) {
  const auto page = forms.handle(get(id));
  REQUIRE(page.status == 200);
  std::string body = field("csrf", csrf_of(page.html)) + "&" + field("action", action);
  for (const auto& [k, v] : fields) body += "&" + field(k, v);
  return body;
}

using http_test::Awaited;

std::optional<BrowserFormAnswer> await_now(forms::InMemoryPageStore& forms, const std::string& id,
                                           std::chrono::milliseconds wait = 0ms) {
  Awaited a;
  forms.await(id, wait, a.done());
  return a.get();
}

}  // namespace

TEST_CASE("browser_form_id: 43 characters of base64url, unique", "[browser_forms]") {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) {
    const auto id = elicit::browser_form_id();
    REQUIRE(id.size() == 43);
    for (const char c : id) {
      const bool ok =
          (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      REQUIRE(ok);
    }
    ids.insert(id);
  }
  CHECK(ids.size() == 1000);
}

TEST_CASE("browser forms: open answers the base URL and the id, and a reopen keeps the page", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  CHECK(forms.open(id, defaults_page()) == kBase + id);
  CHECK(forms.size() == 1);
  const auto first = forms.handle(get(id));
  REQUIRE(first.status == 200);

  // The same id again (a 2026-07-28 retry): the same page, the same token, even with another message.
  auto other = defaults_page();
  other.message = "another question";
  CHECK(forms.open(id, other) == kBase + id);
  CHECK(forms.size() == 1);
  const auto again = forms.handle(get(id));
  CHECK(csrf_of(again.html) == csrf_of(first.html));
  CHECK(again.html.find("another question") == std::string::npos);
}

TEST_CASE("browser forms: the options and bad ids and schemas are refused", "[browser_forms]") {
  {
    forms::InMemoryPageStoreOptions o;
    o.max_pages = 0;
    CHECK_THROWS_AS(forms::InMemoryPageStore(o), std::invalid_argument);
  }
  {
    forms::InMemoryPageStoreOptions o;
    o.max_bytes = 0;
    CHECK_THROWS_AS(forms::InMemoryPageStore(o), std::invalid_argument);
  }
  {
    forms::InMemoryPageStoreOptions o;
    o.base_url = "https://forms.example/f";
    CHECK_THROWS_AS(forms::InMemoryPageStore(o), std::invalid_argument);
  }
  forms::InMemoryPageStore no_base;
  CHECK_THROWS_AS(no_base.open(elicit::browser_form_id(), defaults_page()), std::runtime_error);
  CHECK_THROWS_AS(no_base.set_base_url("http://127.0.0.1:1/forms"), std::invalid_argument);
  no_base.set_base_url("http://127.0.0.1:1/forms/");
  const auto id = elicit::browser_form_id();
  CHECK(no_base.open(id, defaults_page()) == "http://127.0.0.1:1/forms/" + id);

  forms::InMemoryPageStore forms(options_with());
  for (const std::string& bad :
       std::vector<std::string>{"", "short", "0123456789abcde", std::string(129, 'a'), "0123456789abcdef/",
                                "0123456789abcdef.", "0123456789abcdef%41", "0123456789abcdéf0"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(forms.open(bad, defaults_page()), std::invalid_argument);
    CHECK(forms.handle(get(bad)).status == 404);
  }
  CHECK(forms.open(std::string(16, 'a'), defaults_page()) == kBase + std::string(16, 'a'));
  CHECK(forms.open(std::string(128, '_'), defaults_page()) == kBase + std::string(128, '_'));

  auto page = defaults_page();
  page.requested_schema = nlohmann::ordered_json::parse(R"({"type":"object","properties":{"x":{"type":"object"}}})");
  CHECK_THROWS_AS(forms.open(elicit::browser_form_id(), page), std::invalid_argument);
  page = defaults_page();
  page.expires_in = 0ms;
  CHECK_THROWS_AS(forms.open(elicit::browser_form_id(), page), std::invalid_argument);
  page.expires_in = std::chrono::milliseconds::max();
  CHECK_THROWS_AS(forms.open(elicit::browser_form_id(), page), std::invalid_argument);
  CHECK(forms.size() == 2);
}

TEST_CASE("browser forms: max_pages and max_bytes bound the store", "[browser_forms]") {
  SECTION("pages") {
    auto o = options_with();
    o.max_pages = 3;
    forms::InMemoryPageStore forms(o);
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(elicit::browser_form_id());
    for (const auto& id : ids) forms.open(id, defaults_page());
    CHECK_THROWS_AS(forms.open(elicit::browser_form_id(), defaults_page()), std::length_error);
    CHECK(forms.open(ids[1], defaults_page()) == kBase + ids[1]);  // a reopen takes no room
    forms.close(ids[0]);
    CHECK_NOTHROW(forms.open(elicit::browser_form_id(), defaults_page()));
  }
  SECTION("bytes: message, schema and answer count") {
    auto page = defaults_page();
    const auto schema_bytes = page.requested_schema.dump().size();
    auto o = options_with();
    const std::string id1(20, 'a'), id2(20, 'b');
    // Room for exactly two pages of this size.
    const auto one = id1.size() + page.message.size() + schema_bytes;
    o.max_bytes = 2 * one;
    forms::InMemoryPageStore forms(o);
    forms.open(id1, page);
    forms.open(id2, page);
    CHECK_THROWS_AS(forms.open(std::string(20, 'c'), page), std::length_error);
    forms.close(id2);

    // An answer takes room too: with id1 answered, a page of id2's size no longer fits. (A new id
    // each time: a closed page's id is not opened again.)
    const auto body = body_for(forms, id1, "accept", {{"name", "Ada"}});
    REQUIRE(forms.handle(post(id1, body)).status == 200);
    CHECK_THROWS_AS(forms.open(std::string(20, 'e'), page), std::length_error);
    forms.close(id1);
    CHECK_NOTHROW(forms.open(std::string(20, 'f'), page));

    auto big = page;
    big.message = std::string(3 * one, 'm');
    CHECK_THROWS_AS(forms.open(std::string(20, 'd'), big), std::length_error);
  }
}

TEST_CASE("browser forms: GET shows the message, every field and its default", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  const auto r = forms.handle(get(id));
  REQUIRE(r.status == 200);
  CHECK(r.allow.empty());
  const auto& html = r.html;
  CHECK(html.find("Check &lt;your&gt; details") != std::string::npos);  // escaped, never markup
  CHECK(html.find("<your>") == std::string::npos);
  CHECK(tag_of(html, "name").find("value=\"John Doe\"") != std::string::npos);
  CHECK(tag_of(html, "age").find("value=\"30\"") != std::string::npos);
  CHECK(tag_of(html, "score").find("value=\"95.5\"") != std::string::npos);
  CHECK(tag_of(html, "status") == R"(<input id="f3-0" name="status" type="radio" value="active" checked>)");
  CHECK(html.find("User status") != std::string::npos);
  CHECK(html.find("type=\"checkbox\" value=\"true\" checked") != std::string::npos);
  // Schema order: name, age, score, status, verified.
  CHECK(html.find("name=\"name\"") < html.find("name=\"age\""));
  CHECK(html.find("name=\"age\"") < html.find("name=\"score\""));
  CHECK(html.find("name=\"score\"") < html.find("name=\"status\""));
  CHECK(html.find("name=\"status\"") < html.find("name=\"verified\""));
  CHECK(csrf_of(html).size() == 43);
  CHECK(html.find("action=\"" + id + "\"") != std::string::npos);  // posts to its own URL
  CHECK(forms.content_security_policy() == elicit::forms::form_page_csp());
}

TEST_CASE("browser forms: a valid POST answers accepted with typed content", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  Awaited waiting;
  forms.await(id, 60s, waiting.done());
  const auto body =
      body_for(forms, id, "accept",
               {{"name", "Ada"}, {"age", "36"}, {"score", "99.25"}, {"status", "pending"}, {"verified", "false"}});
  const auto r = forms.handle(post(id, body));
  CHECK(r.status == 200);
  CHECK(r.html.find("Thank you; you can close this tab and return to your application") != std::string::npos);
  const auto answer = waiting.get();
  REQUIRE(answer);
  CHECK(answer->status == ElicitStatus::accepted);
  CHECK(answer->content ==
        nlohmann::json::parse(R"({"name":"Ada","age":36,"score":99.25,"status":"pending","verified":false})"));
  CHECK(answer->content["age"].is_number_integer());
  CHECK(answer->content["verified"].is_boolean());

  // The answer stays until close(): a handler that runs again reads it again.
  for (int i = 0; i < 2; ++i) {
    const auto again = await_now(forms, id, 50ms);
    REQUIRE(again);
    CHECK(again->status == ElicitStatus::accepted);
    CHECK(again->content == answer->content);
  }
  // Single use: a second submission, and a GET, are 410.
  CHECK(forms.handle(post(id, body)).status == 410);
  CHECK(forms.handle(get(id)).status == 410);
  forms.close(id);
  const auto gone = forms.handle(get(id));
  CHECK(gone.status == 410);
  CHECK(gone.html.find("no longer available") != std::string::npos);
  CHECK(await_now(forms, id)->status == ElicitStatus::timed_out);
  CHECK(forms.size() == 0);
}

TEST_CASE("browser forms: a POST with errors is 422 with the errors by their fields", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, secret_page());
  const std::string secret = "sk_short_secret";
  const auto r = forms.handle(post(id, body_for(forms, id, "accept", {{"api_key", secret}, {"port", "12x"}})));
  REQUIRE(r.status == 422);
  CHECK(tag_of(r.html, "api_key").find("aria-invalid=\"true\"") != std::string::npos);
  CHECK(tag_of(r.html, "port").find("aria-invalid=\"true\"") != std::string::npos);
  CHECK(r.html.find("must be an integer") != std::string::npos);
  CHECK(tag_of(r.html, "port").find("value=\"12x\"") != std::string::npos);  // the values kept
  CHECK(r.html.find(secret) == std::string::npos);                           // but never a secret
  CHECK(await_now(forms, id) == std::nullopt);                               // still open

  // Corrected, it is accepted.
  const std::string key = "sk_live_0123456789abcdef";
  CHECK(forms.handle(post(id, body_for(forms, id, "accept", {{"api_key", key}, {"port", "443"}}))).status == 200);
  const auto answer = await_now(forms, id);
  REQUIRE(answer);
  CHECK(answer->content == nlohmann::json{{"api_key", key}, {"port", 443}});
}

TEST_CASE("browser forms: Decline and Cancel end the page", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  for (const auto& [action, status] : {std::pair{std::string("decline"), ElicitStatus::declined},
                                       std::pair{std::string("cancel"), ElicitStatus::cancelled}}) {
    CAPTURE(action);
    const auto id = elicit::browser_form_id();
    forms.open(id, secret_page());
    Awaited waiting;
    forms.await(id, 60s, waiting.done());
    // Without the required fields: Decline and Cancel do not validate.
    const auto body = body_for(forms, id, action);
    const auto r = forms.handle(post(id, body));
    CHECK(r.status == 200);
    CHECK(r.html.find("you can close this tab") != std::string::npos);
    const auto answer = waiting.get();
    REQUIRE(answer);
    CHECK(answer->status == status);
    CHECK(answer->content.is_null());
    CHECK(forms.handle(post(id, body)).status == 410);
  }
  const auto id = elicit::browser_form_id();
  forms.open(id, secret_page());
  CHECK(forms.handle(post(id, body_for(forms, id, "approve"))).status == 400);
  CHECK(forms.handle(post(id, "csrf=%zz")).status == 400);
  CHECK(await_now(forms, id) == std::nullopt);
}

TEST_CASE("browser forms: a missing or wrong CSRF token is 403", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  const auto token = csrf_of(forms.handle(get(id)).html);
  auto wrong = token;
  wrong[5] = wrong[5] == 'A' ? 'B' : 'A';
  for (const auto& body : {field("action", "accept"), field("csrf", "") + "&" + field("action", "accept"),
                           field("csrf", wrong) + "&" + field("action", "accept"),
                           field("csrf", token + "x") + "&" + field("action", "accept")}) {
    CAPTURE(body);
    CHECK(forms.handle(post(id, body)).status == 403);
  }
  // Another page's token does not open this one.
  const auto other = elicit::browser_form_id();
  forms.open(other, defaults_page());
  CHECK(forms.handle(post(id, field("csrf", csrf_of(forms.handle(get(other)).html)) + "&action=accept")).status == 403);
  CHECK(await_now(forms, id) == std::nullopt);
  CHECK(forms.handle(post(id, field("csrf", token) + "&action=accept")).status == 200);
}

TEST_CASE("browser forms: only the page's principal sees it, and without one only loopback peers", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const std::string alice = R"(["https://as.example","alice"])";
  const auto id = elicit::browser_form_id();
  auto page = defaults_page(alice);
  page.message = "Alice's private question";
  forms.open(id, page);
  auto as = [&](forms::PageRequest r, std::string principal, bool loopback) {
    r.principal = std::move(principal);
    r.loopback_peer = loopback;
    return r;
  };
  const auto token = csrf_of(forms.handle(as(get(id), alice, false)).html);
  for (const auto& who : {std::string(R"(["https://as.example","bob"])"), std::string()}) {
    CAPTURE(who);
    for (const auto& r : {forms.handle(as(get(id), who, true)),
                          forms.handle(as(post(id, field("csrf", token) + "&action=accept"), who, true))}) {
      CHECK(r.status == 403);
      CHECK(r.html.find("belongs to another user") != std::string::npos);
      CHECK(r.html.find("Sign in as the user") != std::string::npos);
      CHECK(r.html.find("Alice") == std::string::npos);  // nothing of the page
      CHECK(r.html.find(token) == std::string::npos);
      CHECK(r.html.find("<form") == std::string::npos);
    }
  }
  CHECK(await_now(forms, id) == std::nullopt);

  // No principal (development): loopback peers only, whatever principal they claim.
  const auto dev = elicit::browser_form_id();
  forms.open(dev, defaults_page());
  const auto refused = forms.handle(as(get(dev), alice, false));
  CHECK(refused.status == 403);
  CHECK(refused.html.find("<form") == std::string::npos);
  CHECK(forms.handle(as(post(dev, "action=decline"), "", false)).status == 403);
  CHECK(forms.handle(as(get(dev), "", true)).status == 200);

  // Alice is answered, from anywhere.
  CHECK(forms.handle(as(post(id, field("csrf", token) + "&action=decline"), alice, false)).status == 200);
  CHECK(await_now(forms, id)->status == ElicitStatus::declined);
}

TEST_CASE("browser forms: unknown ids are 404, methods other than GET and POST 405", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto unknown = forms.handle(get(elicit::browser_form_id()));
  CHECK(unknown.status == 404);
  CHECK(await_now(forms, elicit::browser_form_id(), 50ms)->status == ElicitStatus::timed_out);
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  auto put = get(id);
  put.method = "PUT";
  const auto r = forms.handle(put);
  CHECK(r.status == 405);
  CHECK(r.allow == "GET, POST");
  forms.close(elicit::browser_form_id());  // no-op
}

TEST_CASE("browser forms: an expired page answers timed_out and 410", "[browser_forms]") {
  ManualClock clock;
  forms::InMemoryPageStore forms(options_with(&clock));
  const auto id = elicit::browser_form_id();
  auto page = defaults_page();
  page.expires_in = 10min;
  forms.open(id, page);
  const auto body = body_for(forms, id, "accept");

  SECTION("await after expiry") {
    clock.advance(10min);
    CHECK(forms.size() == 0);
    CHECK(await_now(forms, id, 50ms)->status == ElicitStatus::timed_out);
    const auto r = forms.handle(get(id));
    CHECK(r.status == 410);
    CHECK(r.html.find("This form has expired") != std::string::npos);
    CHECK(forms.handle(post(id, body)).status == 410);
  }
  SECTION("opening the id again does not bring the page back") {
    // A 2026-07-28 retry opens its page's id again: the page expired, so the call ends timed_out.
    clock.advance(10min);
    CHECK(forms.open(id, page) == std::string(kBase) + id);
    CHECK(forms.size() == 0);
    CHECK(forms.handle(get(id)).status == 410);
    CHECK(await_now(forms, id, 50ms)->status == ElicitStatus::timed_out);
  }
  SECTION("a waiter learns of the expiry when its timer fires") {
    Awaited waiting;
    forms.await(id, 30ms, waiting.done());
    clock.advance(11min);
    const auto answer = waiting.get();
    REQUIRE(answer);
    CHECK(answer->status == ElicitStatus::timed_out);
    CHECK(forms.handle(post(id, body)).status == 410);
  }
  SECTION("a waiter on a page swept by open() gets timed_out") {
    Awaited waiting;
    forms.await(id, 60s, waiting.done());
    clock.advance(11min);
    forms.open(elicit::browser_form_id(), page);
    const auto answer = waiting.get();
    REQUIRE(answer);
    CHECK(answer->status == ElicitStatus::timed_out);
    CHECK(forms.size() == 1);
    CHECK(forms.handle(get(id)).status == 410);
  }
  SECTION("a waiter on a page swept by an open() that throws still gets timed_out") {
    Awaited waiting;
    forms.await(id, 60s, waiting.done());
    clock.advance(11min);
    auto huge = page;
    huge.message = std::string(65 * 1024 * 1024, 'm');  // past the default max_bytes
    CHECK_THROWS_AS(forms.open(elicit::browser_form_id(), huge), std::length_error);
    const auto answer = waiting.get();
    REQUIRE(answer);
    CHECK(answer->status == ElicitStatus::timed_out);
  }
  SECTION("an answer is kept for expires_in after it came") {
    clock.advance(9min);
    REQUIRE(forms.handle(post(id, body)).status == 200);
    clock.advance(9min);
    CHECK(await_now(forms, id)->status == ElicitStatus::accepted);
    clock.advance(1min);
    CHECK(await_now(forms, id)->status == ElicitStatus::timed_out);
    CHECK(forms.handle(get(id)).status == 410);
  }
}

TEST_CASE("browser forms: a waiter gets timed_out at the page's deadline, not later", "[browser_forms]") {
  // The real clock: a page of 30 ms, a wait of a minute.
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  auto page = defaults_page();
  page.expires_in = 30ms;
  forms.open(id, page);
  Awaited waiting;
  forms.await(id, 60s, waiting.done());
  const auto answer = waiting.get();  // within kPatience, far below the minute
  REQUIRE(answer);
  CHECK(answer->status == ElicitStatus::timed_out);
}

TEST_CASE("browser forms: await times out with nullopt and the page stays open", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  CHECK(await_now(forms, id, 20ms) == std::nullopt);
  // A wait longer than the page lives ends at its deadline: no overflow, no answer yet.
  Awaited forever;
  forms.await(id, std::chrono::milliseconds::max(), forever.done());
  forms.close(id);
  CHECK(forever.get()->status == ElicitStatus::aborted);
  const auto other = elicit::browser_form_id();
  forms.open(other, defaults_page());
  CHECK(await_now(forms, other, 0ms) == std::nullopt);
  CHECK(await_now(forms, other, -5ms) == std::nullopt);
  CHECK(forms.size() == 1);
  CHECK(forms.handle(get(other)).status == 200);
}

TEST_CASE("browser forms: close wakes a waiter with aborted", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  const auto body = body_for(forms, id, "accept");
  Awaited first, second;
  forms.await(id, 60s, first.done());
  forms.await(id, 60s, second.done());
  forms.close(id);
  CHECK(first.get()->status == ElicitStatus::aborted);
  CHECK(second.get()->status == ElicitStatus::aborted);
  CHECK(forms.handle(post(id, body)).status == 410);
  // Opening the id again does not bring a page back: the old token meets 410, not a new form.
  forms.open(id, defaults_page());
  CHECK(forms.handle(post(id, body)).status == 410);
}

TEST_CASE("browser forms: destroying the store answers its waiters aborted", "[browser_forms]") {
  Awaited waiting;
  {
    forms::InMemoryPageStore forms(options_with());
    const auto id = elicit::browser_form_id();
    forms.open(id, defaults_page());
    forms.await(id, 60s, waiting.done());
  }
  CHECK(waiting.get()->status == ElicitStatus::aborted);
}

TEST_CASE("browser forms: done may call back into the store", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  std::promise<void> closed;
  forms.await(id, 60s, [&](std::optional<BrowserFormAnswer> a) {
    CHECK(a->status == ElicitStatus::declined);
    forms.close(id);  // the store's mutex is not held here
    closed.set_value();
  });
  CHECK(forms.handle(post(id, body_for(forms, id, "decline"))).status == 200);
  REQUIRE(closed.get_future().wait_for(kPatience) == std::future_status::ready);
  CHECK(forms.size() == 0);
}

TEST_CASE("browser forms: concurrent submissions, waits and closes deliver each answer once", "[browser_forms]") {
  forms::InMemoryPageStore forms(options_with());
  constexpr int kPages = 24;
  std::vector<std::string> ids;
  std::vector<std::string> bodies;
  for (int i = 0; i < kPages; ++i) {
    ids.push_back(elicit::browser_form_id());
    forms.open(ids.back(), defaults_page());
    bodies.push_back(body_for(forms, ids.back(), "accept", {{"age", std::to_string(i)}}));
  }
  std::vector<Awaited> waits(kPages * 3);
  std::atomic<int> accepted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < kPages; i += 4) {
        // Each page: two waiters (one short), two submissions racing, a close racing them.
        forms.await(ids[i], 60s, waits[3 * i].done());
        forms.await(ids[i], 1ms, waits[3 * i + 1].done());
        std::thread rival([&, i] {
          if (forms.handle(post(ids[i], bodies[i])).status == 200) ++accepted;
        });
        if (forms.handle(post(ids[i], bodies[i])).status == 200) ++accepted;
        forms.await(ids[i], 5ms, waits[3 * i + 2].done());
        if (i % 2 == 0) forms.close(ids[i]);
        rival.join();
        (void)forms.size();
      }
    });
  }
  for (auto& t : threads) t.join();
  // At most one submission of a page wins; a page closed first has none.
  CHECK(accepted.load() <= kPages);
  CHECK(accepted.load() >= kPages / 2);  // the odd pages are never closed: one of their two wins
  for (int i = 0; i < kPages; ++i) {
    CAPTURE(i);
    const auto long_wait = waits[3 * i].get();  // exactly once (Awaited::get checks)
    REQUIRE(long_wait);
    const bool ok = long_wait->status == ElicitStatus::accepted || long_wait->status == ElicitStatus::aborted;
    CHECK(ok);
    if (long_wait->status == ElicitStatus::accepted) CHECK(long_wait->content["age"] == i);
    (void)waits[3 * i + 1].get();
    (void)waits[3 * i + 2].get();
  }
  for (int i = 1; i < kPages; i += 2) CHECK(await_now(forms, ids[i])->status == ElicitStatus::accepted);
}

TEST_CASE("browser forms: a closed page's id is not opened again", "[browser_forms]") {
  // A 2026-07-28 retry after the request's result was lost: the page was read and closed, the
  // answer is gone; the call ends timed_out at once rather than showing a new page under the URL.
  forms::InMemoryPageStore forms(options_with());
  const auto id = elicit::browser_form_id();
  forms.open(id, defaults_page());
  forms.close(id);
  CHECK(forms.open(id, defaults_page()) == std::string(kBase) + id);
  CHECK(forms.size() == 0);
  CHECK(forms.handle(get(id)).status == 410);
  CHECK(await_now(forms, id, 50ms)->status == ElicitStatus::timed_out);
}

TEST_CASE("browser forms: pages_open counts the pages opened and not yet answered, closed or expired",
          "[browser_forms]") {
  ManualClock clock;
  forms::InMemoryPageStore forms(options_with(&clock));
  CHECK(forms.pages_open() == 0u);
  const auto answered = elicit::browser_form_id();
  const auto declined = elicit::browser_form_id();
  const auto closed = elicit::browser_form_id();
  const auto expiring = elicit::browser_form_id();
  forms.open(answered, defaults_page());
  forms.open(declined, defaults_page());
  forms.open(closed, defaults_page());
  auto short_page = defaults_page();
  short_page.expires_in = 1min;
  forms.open(expiring, short_page);
  forms.open(answered, defaults_page());  // a reopen keeps the page: counted once
  CHECK(forms.pages_open() == 4u);

  REQUIRE(forms.handle(post(answered, body_for(forms, answered, "accept"))).status == 200);
  CHECK(forms.pages_open() == 3u);
  CHECK(forms.size() == 4);  // answered, its answer kept until close()
  REQUIRE(forms.handle(post(declined, body_for(forms, declined, "decline"))).status == 200);
  CHECK(forms.pages_open() == 2u);
  forms.close(closed);
  CHECK(forms.pages_open() == 1u);
  clock.advance(1min);
  CHECK(forms.pages_open() == 0u);
  // Through the MCP layer's seam, as a metrics thread reads it.
  elicit::BrowserForms& seam = forms;
  CHECK(seam.pages_open() == 0u);
}

}  // namespace page_store_test
