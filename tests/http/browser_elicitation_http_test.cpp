// The api_key tool of the sample HTTP server (a child process on loopback) end to end, in both MCP
// eras: elicit::Client consents to the URL, a "browser" (plain HTTP requests on loopback) opens the
// page, submits a key that is too short and sees the error by its field, then a valid one; the
// tool's result names the service and the key's length, and the key never reaches the client.
#include <catch2/catch.hpp>

#include <future>
#include <string>

#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

#include "../support/http_client.hpp"
#include "../support/sample_http_server.hpp"
#include "../support/tool_text.hpp"

namespace browser_elicitation_http_test {

using namespace elicit;
using http_test::bhttp::verb;
using nlohmann::json;
using test_support::text_of;

namespace {

const http_test::Headers kForm{{"Content-Type", "application/x-www-form-urlencoded"}};
const std::string kKey = "sk-test-0123456789abcdefghij";  // 28 characters

// What the user does in the browser: open the page, submit a key too short, then a good one.
// Returns "" when all went as a browser would see it, else what did not.
std::string fill_in_page(int port, const std::string& url) {
  const auto path = url.substr(url.find('/', url.find("://") + 3));
  auto page = http_test::Connection(port).request(verb::get, path, {});
  if (page.status != 200) return "GET " + std::to_string(page.status);
  if (page.body.find("API key") == std::string::npos || page.body.find("GitHub") == std::string::npos)
    return "the page lacks the fields' titles";
  const auto csrf = http_test::csrf_of(page.body);
  if (csrf.empty()) return "no CSRF token";
  auto short_key = http_test::Connection(port).request(verb::post, path, kForm,
                                                       "service=openai&api_key=short&action=accept&csrf=" + csrf);
  if (short_key.status != 422) return "short key: " + std::to_string(short_key.status);
  if (short_key.body.find("aria-invalid=\"true\"") == std::string::npos) return "no field marked invalid";
  auto done = http_test::Connection(port).request(verb::post, path, kForm,
                                                  "service=openai&api_key=" + kKey + "&action=accept&csrf=" + csrf);
  if (done.status != 200) return "valid key: " + std::to_string(done.status);
  auto again = http_test::Connection(port).request(verb::post, path, kForm,
                                                   "service=github&api_key=" + kKey + "&action=accept&csrf=" + csrf);
  if (again.status != 410) return "second submission: " + std::to_string(again.status);
  return "";
}

}  // namespace

TEST_CASE("api_key over HTTP: the key is asked in the browser and never reaches the client, in both eras",
          "[browser][http]") {
  test_support::SampleHttpServer server;
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    http::HttpClientOptions t;
    t.url = server.url;
    t.protocol_version = version;
    ClientOptions o;
    o.protocol_version = version;
    o.url_elicitation = true;
    o.session.log = [](std::string_view) {};
    Client client(std::make_unique<http::HttpClientTransport>(t), o);
    std::future<std::string> browser;
    std::string seen;  // everything the client was shown
    client.on_elicitation([&](const ElicitationRequest& r) {
      seen += r.message + " " + r.url + "\n";
      REQUIRE(r.url_mode);
      CHECK(r.url_review.host == "127.0.0.1");
      // The user consents and the browser opens the page (2026-07-28: once; a retry that finds
      // the page answered does not ask again).
      if (!browser.valid()) browser = std::async(std::launch::async, fill_in_page, server.port(), r.url);
      return Answer::accept();
    });
    client.connect();
    const auto result = client.call_tool("api_key");
    CHECK(text_of(result) == "connected openai with a key of 28 characters");
    REQUIRE(browser.valid());
    CHECK(browser.get() == "");
    CHECK(seen.find(kKey) == std::string::npos);
    CHECK(result.dump().find(kKey) == std::string::npos);
  }
}

}  // namespace browser_elicitation_http_test
