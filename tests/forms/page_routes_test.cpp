// The browser form pages over real loopback sockets: on a StreamableHttpServer under its prefix
// (headers, refusals, the Host check, the MCP endpoint alongside), on a forms::PageServer, and
// forms::loopback_pages() starting one on demand. Every wait is bounded by test_support::kPatience.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <elicit/forms/page_server.hpp>
#include <elicit/http/server.hpp>
#include <elicit/jsonrpc/timer_service.hpp>

#include "../support/http_client.hpp"
#include "../support/page_options.hpp"
#include "../support/patience.hpp"
#include "../support/session_initialize.hpp"
#include "../support/threads.hpp"

namespace browser_form_routes_test {

using namespace std::chrono_literals;
using http_test::bhttp::verb;
using nlohmann::json;

namespace {

const http_test::Headers kForm{{"Content-Type", "application/x-www-form-urlencoded"}};

elicit::BrowserFormPage name_page(std::string principal = "") {
  elicit::BrowserFormPage page;
  page.message = "Who are you?";
  page.requested_schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {"name": {"type": "string", "title": "Your name"}, "age": {"type": "integer", "default": 7}},
    "required": ["name"]
  })");
  page.principal = std::move(principal);
  return page;
}

test_support::PagesOptions options_with(std::shared_ptr<elicit::forms::InMemoryPageStore> store,
                                        std::string prefix = "/forms/") {
  test_support::PagesOptions o;
  o.io_threads = 1;
  o.server.session.log = [](std::string_view) {};
  o.browser_forms.prefix = std::move(prefix);
  o.browser_forms.store = std::move(store);
  o.browser_forms.max_body_bytes = 2048;
  return o;
}

std::unique_ptr<elicit::http::StreamableHttpServer> start_server(test_support::PagesOptions o) {
  auto server = std::make_unique<elicit::http::StreamableHttpServer>(
      elicit::ServerInfo{"forms-test", "1"}, [](elicit::Server&) {}, test_support::with_pages(std::move(o)));
  server->start();
  return server;
}

http_test::Response request(int port, verb method, const std::string& target, const http_test::Headers& headers = {},
                            const std::string& body = "") {
  http_test::Connection c(port);
  return c.request(method, target, headers, body);
}

// The headers every page answer carries; `language` the page's.
void check_page_headers(const http_test::Response& r, const elicit::forms::PageStore& store,
                        const std::string& language = "en") {
  CHECK(r.header("content-type") == "text/html; charset=utf-8");
  CHECK(r.header("content-language") == language);
  CHECK(r.header("vary") == "Accept-Language");
  CHECK(r.body.find("<html lang=\"" + language + "\">") != std::string::npos);
  CHECK(r.header("content-security-policy") == store.content_security_policy());
  CHECK(r.header("cache-control") == "no-store");
  CHECK(r.header("referrer-policy") == "no-referrer");
  CHECK(r.header("x-content-type-options") == "nosniff");
  CHECK(r.header("x-frame-options") == "DENY");
}

std::optional<elicit::BrowserFormAnswer> await_answer(elicit::BrowserForms& forms, const std::string& id) {
  auto promise = std::make_shared<std::promise<std::optional<elicit::BrowserFormAnswer>>>();
  auto future = promise->get_future();
  forms.await(id, 0ms, [promise](std::optional<elicit::BrowserFormAnswer> a) { promise->set_value(std::move(a)); });
  REQUIRE(future.wait_for(test_support::kPatience) == std::future_status::ready);
  return future.get();
}

// A store that answers later, as one in Redis does: handle() keeps each request until the test
// releases it, then answers it from the test's thread through an forms::InMemoryPageStore.
class HeldBrowserForms final : public elicit::forms::PageStore {
 public:
  std::shared_ptr<elicit::forms::InMemoryPageStore> pages = std::make_shared<elicit::forms::InMemoryPageStore>();

  std::string open(const std::string& id, const elicit::BrowserFormPage& page) override {
    return pages->open(id, page);
  }
  void await(const std::string& id, std::chrono::milliseconds wait,
             std::function<void(std::optional<elicit::BrowserFormAnswer>)> done) override {
    pages->await(id, wait, std::move(done));
  }
  void close(const std::string& id) override { pages->close(id); }
  void handle(const elicit::forms::PageRequest& request,
              std::function<void(elicit::forms::PageResponse)> done) override {
    std::lock_guard<std::mutex> lock(mutex_);
    held_.emplace_back(request, std::move(done));
    arrived_.notify_all();
  }
  void set_base_url(std::string base_url) override { pages->set_base_url(std::move(base_url)); }
  const std::string& content_security_policy() const noexcept override { return pages->content_security_policy(); }
  const elicit::forms::HtmlTemplates& templates() const noexcept override { return pages->templates(); }

  // Waits (bounded) for `n` requests held, then answers them all.
  bool release(std::size_t n) {
    std::vector<std::pair<elicit::forms::PageRequest, std::function<void(elicit::forms::PageResponse)>>> held;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!arrived_.wait_for(lock, test_support::kPatience, [&] { return held_.size() >= n; })) return false;
      held.swap(held_);
    }
    for (auto& [request, done] : held) done(pages->handle(request));
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<std::pair<elicit::forms::PageRequest, std::function<void(elicit::forms::PageResponse)>>> held_;
};

}  // namespace

TEST_CASE("browser form routes: a store that answers later holds no I/O thread", "[browser_form_routes]") {
  auto store = std::make_shared<HeldBrowserForms>();
  auto options = options_with(nullptr);
  options.browser_forms.store = store;  // one I/O thread (options_with)
  auto server = start_server(std::move(options));
  const auto port = server->port();
  const auto id = elicit::browser_form_id();
  store->open(id, name_page());

  auto page = std::async(std::launch::async, [&] { return request(port, verb::get, "/forms/" + id); });
  {
    http_test::Connection gone_away(port);  // leaves before the answer: given to nobody, without harm
    gone_away.send(verb::get, "/forms/" + id, {});
  }
  // While both wait for the store, the only I/O thread serves another request.
  CHECK(request(port, verb::get, "/elsewhere").status == 404);
  CHECK(page.wait_for(0ms) == std::future_status::timeout);
  REQUIRE(store->release(2));
  REQUIRE(page.wait_for(test_support::kPatience) == std::future_status::ready);
  const auto shown = page.get();
  CHECK(shown.status == 200);
  check_page_headers(shown, *store);
  CHECK(shown.body.find("Who are you?") != std::string::npos);
}

TEST_CASE("browser form routes: a StreamableHttpServer serves the pages under its prefix", "[browser_form_routes]") {
  auto store = std::make_shared<elicit::forms::InMemoryPageStore>();
  auto server = start_server(options_with(store));
  const auto port = server->port();
  CHECK(server->server()->browser_forms() == store);
  const auto id = elicit::browser_form_id();
  const auto url = store->open(id, name_page());
  CHECK(url == "http://127.0.0.1:" + std::to_string(port) + "/forms/" + id);
  const auto target = "/forms/" + id;

  const auto page = request(port, verb::get, target);
  REQUIRE(page.status == 200);
  check_page_headers(page, *store);
  CHECK(page.body.find("Who are you?") != std::string::npos);
  CHECK(page.body.find("Your name") != std::string::npos);
  CHECK(page.body.find("value=\"7\"") != std::string::npos);
  const auto token = http_test::csrf_of(page.body);
  REQUIRE_FALSE(token.empty());

  SECTION("a valid POST answers the store's await") {
    const auto r = request(port, verb::post, target, kForm, "csrf=" + token + "&action=accept&name=Ada&age=36");
    CHECK(r.status == 200);
    check_page_headers(r, *store);
    CHECK(r.body.find("Thank you") != std::string::npos);
    const auto answer = await_answer(*store, id);
    REQUIRE(answer);
    CHECK(answer->status == elicit::ElicitStatus::accepted);
    CHECK(answer->content == json{{"name", "Ada"}, {"age", 36}});
    CHECK(request(port, verb::post, target, kForm, "csrf=" + token + "&action=accept&name=Ada").status == 410);
  }
  SECTION("a POST with charset parameter and a query string is served") {
    const auto r = request(port, verb::post, target + "?from=mail",
                           {{"Content-Type", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"}},
                           "csrf=" + token + "&action=decline");
    CHECK(r.status == 200);
    CHECK(await_answer(*store, id)->status == elicit::ElicitStatus::declined);
  }
  SECTION("refusals") {
    const auto body = "csrf=" + token + "&action=accept&name=Ada";
    auto r = request(port, verb::post, target, {{"Content-Type", "application/json"}}, body);
    CHECK(r.status == 415);
    check_page_headers(r, *store);
    r = request(port, verb::post, target, {}, body);
    CHECK(r.status == 415);
    r = request(port, verb::post, target, kForm, body + "&pad=" + std::string(2048, 'x'));
    CHECK(r.status == 413);
    check_page_headers(r, *store);
    r = request(port, verb::put, target, kForm, body);
    CHECK(r.status == 405);
    CHECK(r.header("allow") == "GET, POST");
    check_page_headers(r, *store);
    r = request(port, verb::get, "/forms/" + elicit::browser_form_id());
    CHECK(r.status == 404);
    check_page_headers(r, *store);
    CHECK(request(port, verb::get, "/forms/").status == 404);
    CHECK(request(port, verb::get, target + "/more").status == 404);
    CHECK(request(port, verb::post, target, kForm, "csrf=wrong&action=accept&name=Ada").status == 403);
    // DNS rebinding: another Host is refused before the page.
    r = request(port, verb::get, target, {{"Host", "evil.example:" + std::to_string(port)}});
    CHECK(r.status == 403);
    CHECK(r.body.find(token) == std::string::npos);
    // A proxy's request is not a loopback peer's: a page without a principal is refused.
    r = request(port, verb::get, target, {{"X-Forwarded-For", "203.0.113.7"}});
    CHECK(r.status == 403);
    CHECK(r.body.find(token) == std::string::npos);
    CHECK(await_answer(*store, id) == std::nullopt);  // still open
  }
  SECTION("the MCP endpoint still works alongside") {
    const auto r = request(port, verb::post, "/mcp", http_test::kAccept, test_support::session_initialize().dump());
    CHECK(r.status == 200);
    CHECK(!r.header("mcp-session-id").empty());
    CHECK(request(port, verb::get, "/other").status == 404);
  }
}

TEST_CASE("browser form routes: each page in the language the browser asks for, or the one pinned",
          "[browser_form_routes][messages]") {
  auto store = std::make_shared<elicit::forms::InMemoryPageStore>();
  auto server = start_server(options_with(store));
  const auto port = server->port();
  const auto id = elicit::browser_form_id();
  store->open(id, name_page());
  const auto target = "/forms/" + id;
  const http_test::Headers korean{{"Accept-Language", "ko-KR,ko;q=0.9,en;q=0.8"}};
  const http_test::Headers korean_form{{"Accept-Language", "ko-KR,ko;q=0.9,en;q=0.8"},
                                       {"Content-Type", "application/x-www-form-urlencoded"}};

  auto page = request(port, verb::get, target, korean);
  REQUIRE(page.status == 200);
  check_page_headers(page, *store, "ko");
  CHECK(page.body.find(">수락</button>") != std::string::npos);
  CHECK(page.body.find("<span class=\"req\">*</span> 표시가 있는 항목은 필수입니다.") != std::string::npos);
  CHECK(page.body.find("Who are you?") != std::string::npos);  // the server's text as given
  CHECK(page.body.find("Accept") == std::string::npos);
  const auto token = http_test::csrf_of(page.body);

  // The errors in Korean; the store's answer (none yet) is the same whatever the language.
  auto r = request(port, verb::post, target, korean_form, "csrf=" + token + "&action=accept&age=x");
  CHECK(r.status == 422);
  check_page_headers(r, *store, "ko");
  CHECK(r.body.find("문제가 2개 있습니다") != std::string::npos);
  CHECK(r.body.find("Your name: 필수 항목입니다") != std::string::npos);
  CHECK(r.body.find("정수여야 합니다") != std::string::npos);
  CHECK(r.body.find("is required") == std::string::npos);

  // Each request by its own header: the same page in English next.
  r = request(port, verb::get, target, {{"Accept-Language", "fr-CA, de;q=0.5, *;q=0.1"}});
  CHECK(r.status == 200);
  check_page_headers(r, *store, "en");
  CHECK(r.body.find(">Accept</button>") != std::string::npos);

  // The short pages too.
  r = request(port, verb::get, "/forms/" + elicit::browser_form_id(), korean);
  CHECK(r.status == 404);
  check_page_headers(r, *store, "ko");
  CHECK(r.body.find("<h1>양식을 찾을 수 없습니다</h1>") != std::string::npos);
  r = request(port, verb::post, target, {{"Accept-Language", "ko"}, {"Content-Type", "text/plain"}}, "x");
  CHECK(r.status == 415);
  check_page_headers(r, *store, "ko");
  r = request(port, verb::get, target, {{"Accept-Language", "ko"}, {"Host", "evil.example"}});
  CHECK(r.status == 403);
  check_page_headers(r, *store, "ko");

  r = request(port, verb::post, target, korean_form, "csrf=" + token + "&action=accept&name=%EA%B9%80&age=3");
  CHECK(r.status == 200);
  check_page_headers(r, *store, "ko");
  CHECK(r.body.find("<h1>감사합니다</h1>") != std::string::npos);
  const auto answer = await_answer(*store, id);
  REQUIRE(answer);
  CHECK(answer->content == json{{"name", "김"}, {"age", 3}});

  SECTION("PageRoutes::language pins one, whatever the browser asks") {
    auto pinned_store = std::make_shared<elicit::forms::InMemoryPageStore>();
    auto o = options_with(pinned_store);
    o.browser_forms.language = "ko-KR";
    auto pinned = start_server(std::move(o));
    const auto pinned_id = elicit::browser_form_id();
    pinned_store->open(pinned_id, name_page());
    r = request(pinned->port(), verb::get, "/forms/" + pinned_id, {{"Accept-Language", "en-US"}});
    CHECK(r.status == 200);
    check_page_headers(r, *pinned_store, "ko");
    CHECK(r.body.find(">취소</button>") != std::string::npos);
  }
}

TEST_CASE("browser form routes: the server makes a store, public_origin sets the URLs", "[browser_form_routes]") {
  auto o = options_with(nullptr, "/p/forms/");
  o.browser_forms.public_origin = "https://mcp.example.com";
  o.allowed_hosts = {"mcp.example.com"};
  auto server = start_server(std::move(o));
  const auto forms = server->server()->browser_forms();
  REQUIRE(forms);
  const auto id = elicit::browser_form_id();
  CHECK(forms->open(id, name_page()) == "https://mcp.example.com/p/forms/" + id);
  // Behind a public origin, no peer is a loopback peer: development pages are refused to all.
  const auto r = request(server->port(), verb::get, "/p/forms/" + id, {{"Host", "mcp.example.com"}});
  CHECK(r.status == 403);
  CHECK(r.body.find("<form") == std::string::npos);
  // A page with a principal needs the principal hook: nobody signs in without it.
  const auto alice = elicit::browser_form_id();
  forms->open(alice, name_page(R"(["https://as.example","alice"])"));
  CHECK(request(server->port(), verb::get, "/p/forms/" + alice, {{"Host", "mcp.example.com"}}).status == 403);
}

TEST_CASE("browser form routes: the principal hook says who the browser is", "[browser_form_routes]") {
  auto store = std::make_shared<elicit::forms::InMemoryPageStore>();
  auto o = options_with(store);
  o.browser_forms.principal = [](const std::function<std::string_view(std::string_view)>& header) {
    if (header("x-test-user") == "boom") throw std::runtime_error("secret detail");
    return std::string(header("X-Test-User"));
  };
  auto server = start_server(std::move(o));
  const std::string alice = R"(["https://as.example","alice"])";
  const auto id = elicit::browser_form_id();
  store->open(id, name_page(alice));
  const auto target = "/forms/" + id;
  const auto page = request(server->port(), verb::get, target, {{"X-Test-User", alice}});
  REQUIRE(page.status == 200);
  const auto bob = request(server->port(), verb::get, target, {{"X-Test-User", R"(["https://as.example","bob"])"}});
  CHECK(bob.status == 403);
  CHECK(bob.body.find("Who are you?") == std::string::npos);
  const auto boom = request(server->port(), verb::get, target, {{"X-Test-User", "boom"}});
  CHECK(boom.status == 500);
  CHECK(boom.body.find("secret detail") == std::string::npos);
  CHECK(request(server->port(), verb::post, target, {{"X-Test-User", alice}, kForm.front()},
                "csrf=" + http_test::csrf_of(page.body) + "&action=accept&name=Alice")
            .status == 200);
  CHECK(await_answer(*store, id)->content == json{{"name", "Alice"}});
}

TEST_CASE("browser form routes: bad prefixes and origins are refused by start", "[browser_form_routes]") {
  for (const std::string prefix : {"forms/", "/forms", "/", "/mcp/", "/m/"}) {
    CAPTURE(prefix);
    auto o = options_with(nullptr, prefix);
    o.path = prefix == "/m/" ? "/m/cp" : "/mcp/x";
    elicit::http::StreamableHttpServer server(
        elicit::ServerInfo{"t", "1"}, [](elicit::Server&) {}, test_support::with_pages(std::move(o)));
    CHECK_THROWS_AS(server.start(), std::invalid_argument);
  }
  for (const std::string origin :
       {"mcp.example.com", "https://mcp.example.com/", "ftp://x", "https://", "https://mcp.example.com/path"}) {
    CAPTURE(origin);
    auto o = options_with(nullptr);
    o.browser_forms.public_origin = origin;
    elicit::http::StreamableHttpServer server(
        elicit::ServerInfo{"t", "1"}, [](elicit::Server&) {}, test_support::with_pages(std::move(o)));
    CHECK_THROWS_AS(server.start(), std::invalid_argument);
  }
  // Known callers (HttpServerOptions::principal, or authorization) bind their pages: without the
  // principal hook no browser could answer them.
  {
    auto o = options_with(nullptr);
    o.principal = [](const auto& header) { return std::string(header("x-user")); };
    elicit::http::StreamableHttpServer server(
        elicit::ServerInfo{"t", "1"}, [](elicit::Server&) {}, test_support::with_pages(o));
    CHECK_THROWS_WITH(server.start(), Catch::Contains("PageRoutes::sign_in (or principal) is needed"));
    o.browser_forms.principal = o.principal;
    elicit::http::StreamableHttpServer with_hook(
        elicit::ServerInfo{"t", "1"}, [](elicit::Server&) {}, test_support::with_pages(std::move(o)));
    CHECK_NOTHROW(with_hook.start());
    with_hook.stop();
  }
  // No prefix: no pages, and no BrowserForms on the Server.
  auto o = options_with(nullptr, "");
  auto server = start_server(std::move(o));
  CHECK(server->server()->browser_forms() == nullptr);
  CHECK(request(server->port(), verb::get, "/forms/" + elicit::browser_form_id()).status == 404);
}

TEST_CASE("browser form routes: forms::PageServer serves a store on loopback", "[browser_form_routes]") {
  elicit::forms::PageServerOptions o;
  o.max_body_bytes = 1024;
  elicit::forms::PageServer server(o);
  CHECK(server.port() == 0);
  server.start();
  CHECK_THROWS_AS(server.start(), std::logic_error);
  const auto port = server.port();
  REQUIRE(port > 0);
  const auto store = server.store();
  const auto id = elicit::browser_form_id();
  CHECK(store->open(id, name_page()) == "http://127.0.0.1:" + std::to_string(port) + "/forms/" + id);
  const auto page = request(port, verb::get, "/forms/" + id, {{"Host", "localhost:" + std::to_string(port)}});
  REQUIRE(page.status == 200);
  check_page_headers(page, *store);
  CHECK(request(port, verb::get, "/forms/" + id, {{"Host", "evil.example"}}).status == 403);
  CHECK(request(port, verb::get, "/mcp").status == 404);
  CHECK(request(port, verb::post, "/forms/" + id, kForm, std::string(1025, 'x')).status == 413);
  CHECK(request(port, verb::delete_, "/forms/" + id).status == 405);
  CHECK(request(port, verb::post, "/forms/" + id, kForm, "csrf=" + http_test::csrf_of(page.body) + "&action=cancel")
            .status == 200);
  CHECK(await_answer(*store, id)->status == elicit::ElicitStatus::cancelled);
  // stop() closes the connections it holds (not "nobody listens on the port any more": another
  // process may take a freed ephemeral port at once).
  http_test::Connection idle(port);
  CHECK(idle.request(verb::get, "/forms/" + id, {}).status == 410);  // served: so accepted before stop()
  server.stop();
  server.stop();
  CHECK(idle.closed_by_peer());

  elicit::forms::PageServerOptions bad;
  bad.prefix = "/";
  CHECK_THROWS_AS(elicit::forms::PageServer(bad), std::invalid_argument);
  bad.prefix = "/forms/";
  bad.io_threads = 0;
  CHECK_THROWS_AS(elicit::forms::PageServer(bad), std::invalid_argument);
}

TEST_CASE("browser form routes: forms::loopback_pages starts its server on the first open", "[browser_form_routes]") {
  (void)elicit::jsonrpc::TimerService::shared();  // its thread exists before the count
  const auto before = test_support::thread_count();
  auto forms = elicit::forms::loopback_pages();
  CHECK(test_support::thread_count() <= before);  // no listener, no thread yet

  const auto id = elicit::browser_form_id();
  const auto url = forms->open(id, name_page());
  std::smatch m;
  REQUIRE(std::regex_match(url, m, std::regex("http://127\\.0\\.0\\.1:([0-9]+)/forms/(.+)")));
  CHECK(m[2] == id);
  const int port = std::stoi(m[1]);
  const auto page = request(port, verb::get, "/forms/" + id);
  REQUIRE(page.status == 200);
  const auto second = elicit::browser_form_id();
  CHECK(forms->open(second, name_page()) == "http://127.0.0.1:" + std::to_string(port) + "/forms/" + second);

  CHECK(request(port, verb::post, "/forms/" + id, kForm,
                "csrf=" + http_test::csrf_of(page.body) + "&action=accept&name=Bo")
            .status == 200);
  const auto answer = await_answer(*forms, id);
  REQUIRE(answer);
  CHECK(answer->content == json{{"name", "Bo"}});
  forms->close(id);
  CHECK(request(port, verb::get, "/forms/" + id).status == 410);

  // Destroyed: the listener stops and a waiter is answered.
  auto promise = std::make_shared<std::promise<std::optional<elicit::BrowserFormAnswer>>>();
  auto future = promise->get_future();
  forms->await(second, 60s,
               [promise](std::optional<elicit::BrowserFormAnswer> a) { promise->set_value(std::move(a)); });
  forms.reset();
  REQUIRE(future.wait_for(test_support::kPatience) == std::future_status::ready);
  CHECK(future.get()->status == elicit::ElicitStatus::aborted);
  CHECK_THROWS(http_test::Connection(port));
}

}  // namespace browser_form_routes_test
