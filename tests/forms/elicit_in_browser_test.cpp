// forms::elicit_in_browser in both MCP eras, against a BrowserForms the test controls (the
// pages' HTML and HTTP have their own tests): what is opened, what the client is asked, how each
// way a page ends reaches the handler, and when pages are closed.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <map>
#include <mutex>

#include <elicit/browser_forms.hpp>
#include <elicit/forms/elicit_in_browser.hpp>
#include <elicit/server_session.hpp>

#include "../support/fake_client.hpp"
#include "contact_information.hpp"

namespace elicit_in_browser_test {

using namespace elicit;
using elicit::forms::BrowserFormOptions;
using elicit::forms::elicit_in_browser;
using elicit::forms::elicit_in_browser_async;
using nlohmann::json;
using samples::ContactInformation;

namespace {

// Pages kept in a map; answers given by the test; await() answers at once when it can, else waits
// for answer() or expire() (a zero wait answers "not yet" at once).
class FakeForms final : public BrowserForms {
 public:
  std::string open(const std::string& id, const BrowserFormPage& page) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& p = pages_[id];
    if (!p.opened) {
      p.opened = true;
      p.page = page;
      ++opens_;
    }
    cv_.notify_all();
    return "https://forms.example.com/forms/" + id;
  }
  void await(const std::string& id, std::chrono::milliseconds wait,
             std::function<void(std::optional<BrowserFormAnswer>)> done) override {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto it = pages_.find(id);
    if (it == pages_.end() || it->second.closed) {
      lock.unlock();
      done(BrowserFormAnswer{ElicitStatus::timed_out, nullptr});
      return;
    }
    if (it->second.answer) {
      auto a = *it->second.answer;
      lock.unlock();
      done(std::move(a));
      return;
    }
    if (wait.count() == 0) {
      lock.unlock();
      done(std::nullopt);
      return;
    }
    it->second.waiters.push_back(std::move(done));
    cv_.notify_all();
  }
  void close(const std::string& id) override {
    std::vector<std::function<void(std::optional<BrowserFormAnswer>)>> waiters;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto it = pages_.find(id);
      if (it == pages_.end()) return;
      it->second.closed = true;
      waiters.swap(it->second.waiters);
      ++closes_;
    }
    cv_.notify_all();
    for (auto& w : waiters) w(BrowserFormAnswer{ElicitStatus::aborted, nullptr});
  }

  // The page is submitted (or its buttons pressed): waiters get the answer.
  void answer(const std::string& id, BrowserFormAnswer a) {
    std::vector<std::function<void(std::optional<BrowserFormAnswer>)>> waiters;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto& p = pages_[id];
      p.answer = a;
      waiters.swap(p.waiters);
    }
    for (auto& w : waiters) w(a);
  }
  // The page's time ran out: waiters get "no answer".
  void expire(const std::string& id) {
    std::vector<std::function<void(std::optional<BrowserFormAnswer>)>> waiters;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      waiters.swap(pages_[id].waiters);
    }
    for (auto& w : waiters) w(std::nullopt);
  }
  // Waits (bounded) until someone awaits page `id`.
  bool wait_for_waiter(const std::string& id) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, test_support::kPatience, [&] { return !pages_[id].waiters.empty(); });
  }
  BrowserFormPage page(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pages_[id].page;
  }
  bool closed(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pages_[id].closed;
  }
  // Waits (bounded) until page `id` is closed: a request's pages close as its last run ends, just
  // after its result is sent.
  bool wait_closed(const std::string& id) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, test_support::kPatience, [&] { return pages_[id].closed; });
  }
  int opens() {
    std::lock_guard<std::mutex> lock(mutex_);
    return opens_;
  }

 private:
  struct Page {
    bool opened = false;
    bool closed = false;
    BrowserFormPage page;
    std::optional<BrowserFormAnswer> answer;
    std::vector<std::function<void(std::optional<BrowserFormAnswer>)>> waiters;
  };
  std::mutex mutex_;
  std::condition_variable cv_;
  std::map<std::string, Page> pages_;
  int opens_ = 0;
  int closes_ = 0;
};

json stateless_meta(const json& caps = {{"elicitation", {{"url", json::object()}}}}) {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", caps},
          {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1"}}}};
}

std::string describe(const Outcome<ContactInformation>& o) {
  if (o) return "accepted:" + o.value->name + " <" + o.value->email + ">";
  std::string out(to_string(o.status));
  for (const auto& e : o.errors.errors) out += " " + e.pointer;
  return out;
}

// A server whose tools ask for contact details in the browser: `contact` (blocking) and
// `contact_async`, and `then_form`, which asks a form-mode question after the page.
struct Fixture {
  explicit Fixture(bool with_forms = true, std::string principal = "")
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    core = std::make_shared<Server>(ServerInfo{"browser-server", "1.0.0"});
    if (with_forms) core->set_browser_forms(forms);
    core->add_tool(Tool{"contact",
                        "Asks in the browser",
                        {{"type", "object"}},
                        std::nullopt,
                        [this](RequestContext& call) {
                          BrowserFormOptions o;
                          o.retry_wait = retry_wait;
                          return ToolResult::text(
                              describe(elicit_in_browser<ContactInformation>(call, "Your contact details, please", o)));
                        },
                        nullptr});
    core->add_tool(Tool{"contact_async",
                        "Asks in the browser, holding no thread",
                        {{"type", "object"}},
                        std::nullopt,
                        nullptr,
                        [this](std::shared_ptr<RequestContext> call) {
                          BrowserFormOptions o;
                          o.retry_wait = retry_wait;
                          elicit_in_browser_async<ContactInformation>(
                              *call, "Your contact details, please",
                              [call](Outcome<ContactInformation> out) { call->reply(ToolResult::text(describe(out))); },
                              o);
                        }});
    core->add_tool(Tool{"then_form",
                        "The browser, then a form",
                        {{"type", "object"}},
                        std::nullopt,
                        [](RequestContext& call) {
                          BrowserFormOptions o;
                          o.retry_wait = std::chrono::milliseconds(0);
                          const auto c = elicit_in_browser<ContactInformation>(call, "Contact?", o);
                          const auto again = call.elicit<ContactInformation>("And a second contact?");
                          return ToolResult::text(describe(c) + " | " + describe(again));
                        },
                        nullptr});
    // Untyped params of a browser form (an elicitgen URL-mode schema file) given to request_input.
    core->add_tool(Tool::blocking("raw_browser_params", [](RequestContext& call) {
      call.request_input({"elicitation/create",
                          {{"mode", "url"},
                           {"message", "Your API key"},
                           {"requestedSchema", {{"type", "object"}, {"properties", {{"key", {{"type", "string"}}}}}}}},
                          ""});
      return ToolResult::text("sent");
    }));
    ServerSessionOptions so;
    so.worker_threads = 2;
    so.session.log = [](std::string_view) {};
    so.principal = std::move(principal);
    server = std::make_unique<ServerSession>(*ends.first, core, so);
    server->start();
  }
  ~Fixture() { server.reset(); }

  json call(const std::string& method, const json& params) {
    const auto id = next_id++;
    client.request(id, method, params);
    auto m = client.next();
    REQUIRE(m);
    return *m;
  }
  json call_tool(const std::string& name, json extra = json::object(), const json& meta = stateless_meta()) {
    json params{{"name", name}, {"arguments", json::object()}, {"_meta", meta}};
    params.update(extra);
    return call("tools/call", params);
  }
  static std::string id_of(const std::string& url) { return url.substr(url.rfind('/') + 1); }

  std::shared_ptr<FakeForms> forms = std::make_shared<FakeForms>();
  std::shared_ptr<Server> core;
  std::chrono::milliseconds retry_wait{0};
  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<ServerSession> server;
  int next_id = 1;
};

json accept_url() { return {{"action", "accept"}}; }
std::string text_of(const json& m) { return m["result"]["content"][0]["text"].get<std::string>(); }
const BrowserFormAnswer kAda{ElicitStatus::accepted, {{"name", "Ada"}, {"email", "ada@example.com"}}};

}  // namespace

TEST_CASE("2025-11-25: elicit_in_browser opens a page, asks for consent with its URL, and returns the page's value",
          "[browser]") {
  for (const std::string tool : {"contact", "contact_async"}) {
    SECTION(tool) {
      Fixture f(true, "alice");
      f.client.initialize({{"elicitation", {{"form", json::object()}, {"url", json::object()}}}});
      f.client.request(10, "tools/call", {{"name", tool}, {"arguments", json::object()}});
      const auto ask = f.client.next();
      REQUIRE(ask);
      REQUIRE((*ask)["method"] == "elicitation/create");
      const auto& params = (*ask)["params"];
      CHECK(params["mode"] == "url");
      CHECK(params["message"] == "Your contact details, please");
      CHECK_FALSE(params.contains("requestedSchema"));
      const auto url = params["url"].get<std::string>();
      const auto id = Fixture::id_of(url);
      CHECK(id.size() == 43);  // browser_form_id(): 256 bits, base64url
      CHECK(params["elicitationId"].is_string());
      // The page: the message, the type's schema (in its order), bound to the caller.
      const auto page = f.forms->page(id);
      CHECK(page.message == "Your contact details, please");
      CHECK(page.requested_schema == requested_schema<ContactInformation>());
      CHECK(page.principal == "alice");
      CHECK(page.expires_in == std::chrono::minutes(10));

      f.client.respond((*ask)["id"], accept_url());  // consent
      REQUIRE(f.forms->wait_for_waiter(id));
      f.forms->answer(id, kAda);
      // The client hears that the interaction is complete, then gets the result: the value never
      // went through it.
      const auto complete = f.client.next();
      REQUIRE(complete);
      CHECK((*complete)["method"] == "notifications/elicitation/complete");
      CHECK((*complete)["params"]["elicitationId"] == params["elicitationId"]);
      const auto done = f.client.next();
      REQUIRE(done);
      CHECK((*done)["id"] == 10);
      CHECK(text_of(*done) == "accepted:Ada <ada@example.com>");
      CHECK(f.forms->closed(id));
    }
  }
}

TEST_CASE("2025-11-25: each way a browser form ends reaches the handler as its own outcome", "[browser]") {
  Fixture f;
  f.client.initialize({{"elicitation", {{"url", json::object()}}}});
  auto start = [&](int request_id) {
    f.client.request(request_id, "tools/call", {{"name", "contact"}, {"arguments", json::object()}});
    auto ask = f.client.next();
    REQUIRE(ask);
    return *ask;
  };
  auto result = [&](int request_id) {
    for (int i = 0; i < 4; ++i) {  // skip notifications/elicitation/complete (and nothing else)
      auto m = f.client.next();
      REQUIRE(m);
      if (m->contains("id") && (*m)["id"] == request_id) return text_of(*m);
      CHECK((*m)["method"] == "notifications/elicitation/complete");
    }
    FAIL("no result");
    return std::string();
  };

  SECTION("the client declines to open it: the page is closed, nothing waits") {
    const auto ask = start(1);
    f.client.respond(ask["id"], {{"action", "decline"}});
    CHECK(result(1) == "declined");
    CHECK(f.forms->closed(Fixture::id_of(ask["params"]["url"])));
  }
  SECTION("declined on the page") {
    const auto ask = start(2);
    const auto id = Fixture::id_of(ask["params"]["url"]);
    f.client.respond(ask["id"], accept_url());
    REQUIRE(f.forms->wait_for_waiter(id));
    f.forms->answer(id, BrowserFormAnswer{ElicitStatus::declined, nullptr});
    CHECK(result(2) == "declined");
  }
  SECTION("cancelled on the page") {
    const auto ask = start(3);
    const auto id = Fixture::id_of(ask["params"]["url"]);
    f.client.respond(ask["id"], accept_url());
    REQUIRE(f.forms->wait_for_waiter(id));
    f.forms->answer(id, BrowserFormAnswer{ElicitStatus::cancelled, nullptr});
    CHECK(result(3) == "cancelled");
  }
  SECTION("the page expires") {
    const auto ask = start(4);
    const auto id = Fixture::id_of(ask["params"]["url"]);
    f.client.respond(ask["id"], accept_url());
    REQUIRE(f.forms->wait_for_waiter(id));
    f.forms->expire(id);
    CHECK(result(4) == "timed_out");
    CHECK(f.forms->closed(id));
  }
  SECTION("content that does not decode into the type is invalid_response, by pointer") {
    const auto ask = start(5);
    const auto id = Fixture::id_of(ask["params"]["url"]);
    f.client.respond(ask["id"], accept_url());
    REQUIRE(f.forms->wait_for_waiter(id));
    f.forms->answer(id, BrowserFormAnswer{ElicitStatus::accepted, {{"name", "Ada"}}});
    CHECK(result(5) == "invalid_response /email");
  }
  SECTION("the client cancels the call while the page is open: the page is withdrawn") {
    const auto ask = start(6);
    const auto id = Fixture::id_of(ask["params"]["url"]);
    f.client.respond(ask["id"], accept_url());
    REQUIRE(f.forms->wait_for_waiter(id));
    f.client.notify("notifications/cancelled", {{"requestId", 6}});
    CHECK(f.forms->wait_closed(id));
  }
}

TEST_CASE("2025-11-25: elicit_in_browser without URL mode or without BrowserForms", "[browser]") {
  SECTION("a client without elicitation.url: unsupported, no page opened") {
    Fixture f;
    f.client.initialize({{"elicitation", {{"form", json::object()}}}});
    f.client.request(1, "tools/call", {{"name", "contact"}, {"arguments", json::object()}});
    const auto done = f.client.next();
    REQUIRE(done);
    CHECK(text_of(*done) == "unsupported");
    CHECK(f.forms->opens() == 0);
  }
  SECTION("a server without BrowserForms: a tool error that says what to configure") {
    Fixture f(false);
    f.client.initialize({{"elicitation", {{"url", json::object()}}}});
    f.client.request(1, "tools/call", {{"name", "contact"}, {"arguments", json::object()}});
    const auto done = f.client.next();
    REQUIRE(done);
    CHECK((*done)["result"]["isError"] == true);
    CHECK_THAT(text_of(*done), Catch::Contains("no BrowserForms") && Catch::Contains("browser_forms"));
  }
}

TEST_CASE("a browser form's untyped params given to request_inputs are refused before anything is sent", "[browser]") {
  const json all{{"elicitation", {{"form", json::object()}, {"url", json::object()}}}};
  SECTION("2025-11-25") {
    Fixture f;
    f.client.initialize(all);
    f.client.request(1, "tools/call", {{"name", "raw_browser_params"}, {"arguments", json::object()}});
    const auto done = f.client.next();  // the tool's result: no elicitation/create came before it
    REQUIRE(done);
    REQUIRE(done->contains("result"));
    CHECK((*done)["result"]["isError"] == true);
    CHECK_THAT(text_of(*done), Catch::Contains("are a browser form") && Catch::Contains("elicit_in_browser"));
  }
  SECTION("2026-07-28") {
    Fixture f;
    const auto done = f.call_tool("raw_browser_params", json::object(), stateless_meta(all));
    REQUIRE(done.contains("result"));
    CHECK_FALSE(done["result"].contains("inputRequests"));
    CHECK(done["result"]["isError"] == true);
    CHECK_THAT(text_of(done), Catch::Contains("are a browser form") && Catch::Contains("elicit_in_browser"));
  }
}

TEST_CASE("2026-07-28: elicit_in_browser asks with a stable URL, waits on the retry, and asks again until answered",
          "[browser]") {
  for (const std::string tool : {"contact", "contact_async"}) {
    SECTION(tool) {
      Fixture f;
      const auto r1 = f.call_tool(tool)["result"];
      REQUIRE(r1["resultType"] == "input_required");
      const auto& q = r1["inputRequests"]["elicitation-1"];
      CHECK(q["method"] == "elicitation/create");
      CHECK(q["params"]["mode"] == "url");
      CHECK_FALSE(q["params"].contains("elicitationId"));  // none in 2026-07-28
      const auto url = q["params"]["url"].get<std::string>();
      const auto id = Fixture::id_of(url);
      CHECK(id.size() == 32);  // interaction_id(): from the requestState's seed
      CHECK(f.forms->opens() == 1);

      // Consent, the page not submitted yet (no wait): asked again, same URL, and it says so.
      const json consent{{"elicitation-1", accept_url()}};
      const auto r2 = f.call_tool(tool, {{"inputResponses", consent}, {"requestState", r1["requestState"]}})["result"];
      REQUIRE(r2["resultType"] == "input_required");
      CHECK(r2["inputRequests"]["elicitation-1"]["params"]["url"] == url);
      CHECK_THAT(r2["inputRequests"]["elicitation-1"]["params"]["message"].get<std::string>(),
                 Catch::Contains("not been completed"));
      CHECK(f.forms->opens() == 1);  // the same page

      // The retry waits for the page: answered while it waits.
      f.retry_wait = std::chrono::minutes(1);
      f.client.request(99, "tools/call",
                       {{"name", tool},
                        {"arguments", json::object()},
                        {"_meta", stateless_meta()},
                        {"inputResponses", consent},
                        {"requestState", r2["requestState"]}});
      REQUIRE(f.forms->wait_for_waiter(id));
      f.forms->answer(id, kAda);
      const auto done = f.client.next();
      REQUIRE(done);
      CHECK((*done)["id"] == 99);
      CHECK((*done)["result"]["resultType"] == "complete");
      CHECK(text_of(*done) == "accepted:Ada <ada@example.com>");
      CHECK(f.forms->wait_closed(id));  // the request ended
    }
  }
}

TEST_CASE("2026-07-28: a browser form's answer is read again by later runs, and the page closes when the request ends",
          "[browser]") {
  Fixture f;
  auto r1 = f.call_tool("then_form")["result"];
  REQUIRE(r1["resultType"] == "input_required");
  const auto id = Fixture::id_of(r1["inputRequests"]["elicitation-1"]["params"]["url"]);
  f.forms->answer(id, kAda);
  const json consent{{"elicitation-1", accept_url()}};
  const auto both = stateless_meta({{"elicitation", {{"form", json::object()}, {"url", json::object()}}}});
  auto r2 =
      f.call_tool("then_form", {{"inputResponses", consent}, {"requestState", r1["requestState"]}}, both)["result"];
  REQUIRE(r2["resultType"] == "input_required");
  REQUIRE(r2["inputRequests"].contains("elicitation-2"));
  CHECK_FALSE(f.forms->closed(id));  // the request goes on: the next run reads the page again
  const auto done =
      f.call_tool("then_form",
                  {{"inputResponses",
                    {{"elicitation-2", {{"action", "accept"}, {"content", {{"name", "Bo"}, {"email", "bo@x.org"}}}}}}},
                   {"requestState", r2["requestState"]}},
                  both);
  CHECK(text_of(done) == "accepted:Ada <ada@example.com> | accepted:Bo <bo@x.org>");
  CHECK(f.forms->wait_closed(id));
}

TEST_CASE("2026-07-28: declined consent, an expired page, and a client without URL mode", "[browser]") {
  Fixture f;
  const auto r1 = f.call_tool("contact")["result"];
  const auto id = Fixture::id_of(r1["inputRequests"]["elicitation-1"]["params"]["url"]);
  const auto declined = f.call_tool("contact", {{"inputResponses", {{"elicitation-1", {{"action", "decline"}}}}},
                                                {"requestState", r1["requestState"]}});
  CHECK(text_of(declined) == "declined");
  CHECK(f.forms->closed(id));

  // The store no longer has the page (closed here; expired alike): timed_out.
  const auto late = f.call_tool(
      "contact", {{"inputResponses", {{"elicitation-1", accept_url()}}}, {"requestState", r1["requestState"]}});
  CHECK(text_of(late) == "timed_out");

  const auto no_url =
      f.call_tool("contact", json::object(), stateless_meta({{"elicitation", {{"form", json::object()}}}}));
  CHECK(no_url["error"]["code"] == -32021);
}

}  // namespace elicit_in_browser_test
