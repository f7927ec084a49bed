// MCP 2026-07-28 requests over Streamable HTTP, served statelessly next to 2025-11-25 sessions on the
// same endpoint: every validation rule with its HTTP status, JSON-RPC code and echoed id (in the
// order tests/interop/conformance/SCENARIOS.md section 4 gives), a tool that elicits answered over two
// POSTs (input_required, then the retry with inputResponses and requestState), a session and 2026-07-28
// requests interleaved, no session made, no thread per request, cancellation by disconnect, and
// max_modern_requests. Loopback only; every loop is bounded, every wait by test_support::kPatience.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/patience.hpp"
#include "../support/threads.hpp"
#include "github_username.hpp"

namespace modern_http_test {

using namespace std::chrono_literals;
using http_test::bhttp::verb;
using nlohmann::json;

namespace {

constexpr const char* kStateless = "2026-07-28";

json meta(const json& capabilities = {{"elicitation", json::object()}}) {
  return {{"io.modelcontextprotocol/protocolVersion", kStateless},
          {"io.modelcontextprotocol/clientInfo", {{"name", "modern-test"}, {"version", "1"}}},
          {"io.modelcontextprotocol/clientCapabilities", capabilities}};
}

json rpc(const json& id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

// A well-formed 2026-07-28 request.
json stateless(const json& id, const std::string& method, json params = json::object(),
               const json& capabilities = {{"elicitation", json::object()}}) {
  params["_meta"] = meta(capabilities);
  return rpc(id, method, std::move(params));
}

// The headers a 2026-07-28 client sends (SCENARIOS.md 2.1).
http_test::Headers stateless_headers(const std::string& method, const std::string& name = "") {
  auto h = http_test::kAccept;
  h.emplace_back("MCP-Protocol-Version", kStateless);
  h.emplace_back("Mcp-Method", method);
  if (!name.empty()) h.emplace_back("Mcp-Name", name);
  return h;
}

http_test::Headers without(http_test::Headers h, const std::string& name) {
  h.erase(std::remove_if(h.begin(), h.end(), [&](const auto& kv) { return kv.first == name; }), h.end());
  return h;
}

http_test::Headers with(http_test::Headers h, const std::string& name, const std::string& value) {
  h = without(std::move(h), name);
  h.emplace_back(name, value);
  return h;
}

// A tool that waits (bounded) until the test opens its gate or the call is cancelled.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  int started = 0;
  int cancelled = 0;
  int finished = 0;

  bool wait_for(const std::function<bool()>& done) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, test_support::kPatience, done);
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    cv.notify_all();
  }
};

std::shared_ptr<elicit::Server> make_core(const std::shared_ptr<Gate>& gate) {
  auto core = std::make_shared<elicit::Server>(elicit::ServerInfo{"modern-test", "1"});
  core->add_tool({"ask", "asks a username", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext& call) {
                    auto o = call.elicit<samples::GithubUsername>();
                    return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
                  }});
  core->add_tool({"ask_async",
                  "asks a username, holding no thread",
                  {{"type", "object"}},
                  std::nullopt,
                  nullptr,
                  [](std::shared_ptr<elicit::RequestContext> call) {
                    call->elicit_async<samples::GithubUsername>([call](elicit::Outcome<samples::GithubUsername> o) {
                      call->reply(
                          elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status))));
                    });
                  }});
  core->add_tool(
      {"needs_url",
       "needs URL-mode elicitation",
       {{"type", "object"}},
       std::nullopt,
       nullptr,
       [](std::shared_ptr<elicit::RequestContext> call) {
         if (!call->client_capabilities().elicitation_url) {
           call->reply_error(elicit::missing_required_client_capability({{"elicitation", {{"url", json::object()}}}}));
           return;
         }
         call->reply(elicit::ToolResult::text("ok"));
       }});
  core->add_tool({"report",
                  "reports progress twice and logs once",
                  {{"type", "object"}},
                  std::nullopt,
                  [](elicit::RequestContext& call) {
                    std::string sent;
                    sent += call.progress(1, 2) ? "P" : "-";
                    sent += call.log(elicit::LoggingLevel::info, "halfway") ? "L" : "-";
                    sent += call.progress(2, 2) ? "P" : "-";
                    return elicit::ToolResult::text(sent);
                  }});
  core->add_tool({"hold",
                  "waits for the test's gate or a cancellation",
                  {{"type", "object"}},
                  std::nullopt,
                  [gate](elicit::RequestContext& call) {
                    call.on_cancel([gate] {
                      std::lock_guard<std::mutex> lock(gate->mutex);
                      ++gate->cancelled;
                      gate->cv.notify_all();
                    });
                    std::unique_lock<std::mutex> lock(gate->mutex);
                    ++gate->started;
                    gate->cv.notify_all();
                    gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->open || call.cancelled(); });
                    ++gate->finished;
                    gate->cv.notify_all();
                    return elicit::ToolResult::text("released");
                  }});
  // A reply of `bytes` characters of text (a letter every 4 KiB, 'x' between): written in parts.
  core->add_tool(
      {"big", "answers `bytes` of text", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext& call) {
         std::string text(call.arguments().value("bytes", std::size_t{1}), 'x');
         for (std::size_t i = 0; i < text.size(); i += 4096) text[i] = static_cast<char>('a' + i / 4096 % 26);
         return elicit::ToolResult::text(std::move(text));
       }});
  // x-mcp-header: region is mirrored in Mcp-Param-Region, count in Mcp-Param-Count.
  core->add_tool(elicit::Tool::blocking("route",
                                        [](elicit::RequestContext& call) {
                                          return elicit::ToolResult::text("routed to " +
                                                                          call.arguments().value("region", ""));
                                        })
                     .with_input_schema({{"type", "object"},
                                         {"properties",
                                          {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                           {"count", {{"type", "integer"}, {"x-mcp-header", "Count"}}}}}}));
  return core;
}

elicit::http::HttpServerOptions test_options() {
  elicit::http::HttpServerOptions o;
  o.io_threads = 2;
  o.keepalive = 100ms;
  o.server.session.log = [](std::string_view) {};
  return o;
}

struct Fixture {
  explicit Fixture(elicit::http::HttpServerOptions o = test_options()) {
    server = std::make_unique<elicit::http::StreamableHttpServer>(make_core(gate), std::move(o));
    server->start();
  }

  http_test::Connection connect() const { return http_test::Connection(server->port()); }

  http_test::Response post(const json& body, const http_test::Headers& headers) const {
    auto c = connect();
    return c.request(verb::post, "/mcp", headers, body.dump());
  }

  // Posts a 2026-07-28 request with the matching headers.
  http_test::Response call(const json& body) const {
    const auto method = body["method"].get<std::string>();
    std::string name;
    if (body["params"].contains("name")) name = body["params"]["name"].get<std::string>();
    return post(body, stateless_headers(method, name));
  }

  // The 2026-07-28 request count drops once the answer is out: wait for it (bounded).
  bool idle() const {
    for (int i = 0; i < 6000 && server->stateless_request_count() > 0; ++i) std::this_thread::sleep_for(10ms);
    return server->stateless_request_count() == 0;
  }

  std::shared_ptr<Gate> gate = std::make_shared<Gate>();
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
};

// The JSON-RPC error of a reply, checked to carry `id`.
json error_of(const http_test::Response& r, const json& id) {
  INFO(r.body);
  CHECK(r.header("content-type") == "application/json");
  const auto j = json::parse(r.body);
  CHECK(j["jsonrpc"] == "2.0");
  CHECK(j["id"] == id);
  REQUIRE(j.contains("error"));
  return j["error"];
}

json initialize_body(int id = 1) {
  return rpc(id, "initialize",
             {{"protocolVersion", "2025-11-25"},
              {"capabilities", {{"elicitation", json::object()}}},
              {"clientInfo", {{"name", "legacy"}, {"version", "1"}}}});
}

}  // namespace

TEST_CASE("2026-07-28 requests are validated in the conformance suite's order, each error with its id",
          "[http][modern]") {
  Fixture f;
  const auto discover = [](const json& id) { return stateless(id, "server/discover"); };

  SECTION("1. MCP-Protocol-Version missing on a request with 2026-07-28 _meta: 400, -32020") {
    const auto r = f.post(discover(11), without(stateless_headers("server/discover"), "MCP-Protocol-Version"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 11)["code"] == -32020);
  }
  SECTION("2. _meta missing, or its protocolVersion or clientCapabilities missing: 400, -32602") {
    auto r = f.post(rpc(101, "server/discover"), stateless_headers("server/discover"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 101)["code"] == -32602);
    auto body = discover(102);
    body["params"]["_meta"].erase("io.modelcontextprotocol/protocolVersion");
    r = f.post(body, stateless_headers("server/discover"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 102)["code"] == -32602);  // not -32020: presence comes before the match
    body = discover(104);
    body["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
    r = f.post(body, stateless_headers("server/discover"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 104)["code"] == -32602);
    // A string id is echoed as well.
    r = f.post(rpc("req-a", "tools/list"), stateless_headers("tools/list"));
    CHECK(r.status == 400);
    CHECK(error_of(r, "req-a")["code"] == -32602);
  }
  SECTION("clientInfo is optional") {
    auto body = discover(105);
    body["params"]["_meta"].erase("io.modelcontextprotocol/clientInfo");
    const auto r = f.post(body, stateless_headers("server/discover"));
    CHECK(r.status == 200);
    const auto j = json::parse(r.body);
    CHECK(j["id"] == 105);
    CHECK(j["result"]["supportedVersions"][0] == kStateless);
    CHECK(j["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "modern-test");
  }
  SECTION("3. header and _meta name different versions: 400, -32020 (before the version's support)") {
    auto body = discover(302);
    body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "v999.0.0";
    const auto r = f.post(body, stateless_headers("server/discover"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 302)["code"] == -32020);
  }
  SECTION("4. a version not served: 400, -32022 with data.supported and data.requested") {
    auto body = discover(301);
    body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "v999.0.0";
    const auto r = f.post(body, with(stateless_headers("server/discover"), "MCP-Protocol-Version", "v999.0.0"));
    CHECK(r.status == 400);
    const auto e = error_of(r, 301);
    CHECK(e["code"] == -32022);
    CHECK(e["data"]["requested"] == "v999.0.0");
    REQUIRE(e["data"]["supported"].is_array());
    CHECK(e["data"]["supported"][0] == kStateless);
  }
  SECTION("5. Mcp-Method and Mcp-Name must mirror the body: 400, -32020") {
    auto r = f.post(discover(21), without(stateless_headers("server/discover"), "Mcp-Method"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 21)["code"] == -32020);
    r = f.post(discover(22), stateless_headers("tools/list"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 22)["code"] == -32020);
    const auto call = stateless(23, "tools/call", {{"name", "needs_url"}, {"arguments", json::object()}});
    r = f.post(call, stateless_headers("tools/call"));  // no Mcp-Name
    CHECK(r.status == 400);
    CHECK(error_of(r, 23)["code"] == -32020);
    r = f.post(call, stateless_headers("tools/call", "ask"));
    CHECK(r.status == 400);
    CHECK(error_of(r, 23)["code"] == -32020);
    r = f.post(call, stateless_headers("tools/call", "=?base64?not base64!?="));
    CHECK(r.status == 400);
    CHECK(error_of(r, 23)["code"] == -32020);
    // The Base64 sentinel form is decoded before comparing ("needs_url").
    r = f.post(call, stateless_headers("tools/call", "=?base64?bmVlZHNfdXJs?="));
    CHECK(r.status == 400);
    CHECK(error_of(r, 23)["code"] == -32021);  // past the headers: the tool's own answer
  }
  SECTION("methods not in the 2026-07-28 era, and unknown ones: 404, -32601") {
    for (const char* method :
         {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"}) {
      INFO(method);
      const auto r = f.post(stateless(500, method), stateless_headers(method));
      CHECK(r.status == 404);
      CHECK(error_of(r, 500)["code"] == -32601);
    }
  }
  SECTION("-32021 from a handler is 400; other answers 200") {
    auto r =
        f.call(stateless(401, "tools/call", {{"name", "needs_url"}, {"arguments", json::object()}}, json::object()));
    CHECK(r.status == 400);
    const auto e = error_of(r, 401);
    CHECK(e["code"] == -32021);
    CHECK(e["data"]["requiredCapabilities"]["elicitation"]["url"] == json::object());
    r = f.call(stateless(402, "tools/call", {{"name", "needs_url"}, {"arguments", json::object()}},
                         {{"elicitation", {{"url", json::object()}}}}));
    CHECK(r.status == 200);
    CHECK(json::parse(r.body)["result"]["resultType"] == "complete");
    // An unknown tool is the handler's -32602: a JSON-RPC error with HTTP 200.
    r = f.call(stateless(403, "tools/call", {{"name", "nope"}, {"arguments", json::object()}}));
    CHECK(r.status == 200);
    CHECK(error_of(r, 403)["code"] == -32602);
  }
  SECTION("Accept must allow application/json; notifications are 202, responses 400") {
    auto r = f.post(discover(31), with(stateless_headers("server/discover"), "Accept", "text/event-stream"));
    CHECK(r.status == 406);
    r = f.post({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 1}}}},
               stateless_headers("notifications/cancelled"));
    CHECK(r.status == 202);
    CHECK(r.body.empty());
    r = f.post({{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}}, stateless_headers("x"));
    CHECK(r.status == 400);
  }
  CHECK(f.server->session_count() == 0);
  CHECK(f.idle());
}

TEST_CASE("x-mcp-header: a 2026-07-28 tools/call's Mcp-Param headers must agree with its arguments (400, -32020)",
          "[http][modern][x-mcp-header]") {
  Fixture f;
  const auto call = [&](const json& id, const json& arguments, const http_test::Headers& extra) {
    auto headers = stateless_headers("tools/call", "route");
    for (const auto& [k, v] : extra) headers.emplace_back(k, v);
    return f.post(stateless(id, "tools/call", {{"name", "route"}, {"arguments", arguments}}), headers);
  };
  auto r =
      call(1, {{"region", "us-west1"}, {"count", 3}}, {{"Mcp-Param-Region", "us-west1"}, {"mcp-param-count", "3.0"}});
  CHECK(r.status == 200);
  CHECK(r.body.find("routed to us-west1") != std::string::npos);
  r = call(2, {{"region", "Hello"}}, {{"Mcp-Param-Region", "=?base64?SGVsbG8=?="}});
  CHECK(r.status == 200);
  r = call(3, json::object(), {});  // no values, no headers
  CHECK(r.status == 200);

  r = call(4, {{"region", "us-west1"}}, {{"Mcp-Param-Region", "eu-west1"}});
  CHECK(r.status == 400);
  CHECK(error_of(r, 4)["code"] == -32020);
  CHECK_THAT(error_of(r, 4)["message"].get<std::string>(), Catch::Contains("Mcp-Param-Region"));
  r = call(5, {{"region", "us-west1"}}, {});
  CHECK(r.status == 400);
  CHECK(error_of(r, 5)["code"] == -32020);
  r = call(6, {{"region", "Hello"}}, {{"Mcp-Param-Region", "=?base64?SGVsbG8?="}});  // padding missing
  CHECK(r.status == 400);
  CHECK(error_of(r, 6)["code"] == -32020);
  r = call(7, {{"region", "x"}, {"count", 3}}, {{"Mcp-Param-Region", "x"}, {"Mcp-Param-Count", "4"}});
  CHECK(r.status == 400);
  CHECK(error_of(r, 7)["code"] == -32020);
  CHECK(f.idle());
}

TEST_CASE("a 2026-07-28 tools/call that elicits: input_required, then the retry completes", "[http][modern][elicit]") {
  Fixture f;
  for (const char* tool : {"ask", "ask_async"}) {
    INFO(tool);
    const auto first = f.call(stateless(1, "tools/call", {{"name", tool}, {"arguments", json::object()}}));
    REQUIRE(first.status == 200);
    CHECK(first.header("mcp-session-id").empty());
    CHECK(first.header("content-type") == "application/json");
    const auto round = json::parse(first.body);
    CHECK(round["id"] == 1);
    const auto& result = round["result"];
    CHECK(result["resultType"] == "input_required");
    REQUIRE(result["inputRequests"].is_object());
    REQUIRE(result["inputRequests"].size() == 1);
    const auto key = result["inputRequests"].begin().key();
    const auto& ask = result["inputRequests"][key];
    CHECK(ask["method"] == "elicitation/create");
    CHECK(ask["params"]["message"] == "Please provide your GitHub username");
    CHECK(ask["params"]["requestedSchema"]["properties"].contains("name"));
    REQUIRE(result["requestState"].is_string());

    // The retry: a new id, the answer under its key, the state echoed.
    const auto retry =
        f.call(stateless(2, "tools/call",
                         {{"name", tool},
                          {"arguments", json::object()},
                          {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}},
                          {"requestState", result["requestState"]}}));
    REQUIRE(retry.status == 200);
    const auto done = json::parse(retry.body);
    CHECK(done["id"] == 2);
    CHECK(done["result"]["resultType"] == "complete");
    CHECK(done["result"]["content"][0]["text"] == "octocat");
    CHECK(done["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "modern-test");
  }
  CHECK(f.server->session_count() == 0);
  CHECK(f.idle());
}

TEST_CASE("HttpServerOptions::principal binds each requestState to the principal it names",
          "[http][modern][elicit][principal]") {
  auto options = test_options();
  options.principal = [](const std::function<std::string_view(std::string_view)>& header) -> std::string {
    const auto user = header("x-test-user");  // case-insensitive: sent as X-Test-User
    if (user == "mallory") throw std::runtime_error("a reason that must not reach the client");
    return std::string(user);
  };
  Fixture f(std::move(options));
  const auto as = [&](const std::string& user, const json& body) {
    const auto method = body["method"].get<std::string>();
    auto headers = stateless_headers(method, body["params"].value("name", std::string()));
    if (!user.empty()) headers.emplace_back("X-Test-User", user);
    return f.post(body, headers);
  };
  const auto first = as("alice", stateless(1, "tools/call", {{"name", "ask"}, {"arguments", json::object()}}));
  REQUIRE(first.status == 200);
  const auto result = json::parse(first.body)["result"];
  REQUIRE(result["resultType"] == "input_required");
  const auto key = result["inputRequests"].begin().key();
  const auto retry = [&](int id) {
    return stateless(id, "tools/call",
                     {{"name", "ask"},
                      {"arguments", json::object()},
                      {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}},
                      {"requestState", result["requestState"]}});
  };
  // Another principal, or none, cannot use alice's state.
  for (const std::string user : {"bob", ""}) {
    INFO("as " << (user.empty() ? "nobody" : user));
    const auto r = as(user, retry(2));
    CHECK(r.status == 200);
    const auto e = error_of(r, 2);
    CHECK(e["code"] == -32602);
    CHECK(e["message"] == "Invalid or expired requestState");
  }
  // A hook that throws refuses the request, without its reason.
  const auto refused = as("mallory", retry(3));
  CHECK(refused.status == 401);
  const auto e = error_of(refused, 3);
  CHECK(e["code"] == -32600);
  CHECK(refused.body.find("must not reach") == std::string::npos);
  // alice's own retry completes.
  const auto done = as("alice", retry(4));
  REQUIRE(done.status == 200);
  CHECK(json::parse(done.body)["result"]["content"][0]["text"] == "octocat");
  CHECK(f.idle());
}

TEST_CASE("a 2026-07-28 request's progress and log messages come first, on an SSE reply the client accepts",
          "[http][modern][progress]") {
  Fixture f;
  auto body = stateless(1, "tools/call", {{"name", "report"}, {"arguments", json::object()}});
  body["params"]["_meta"]["progressToken"] = "tok";
  body["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = "info";
  http_test::Connection c(f.server->port());
  c.send(verb::post, "/mcp", stateless_headers("tools/call", "report"), body.dump());
  const auto head = c.read_head();
  REQUIRE(head.status == 200);
  CHECK(head.header("content-type") == "text/event-stream");
  CHECK(head.header("mcp-session-id").empty());
  std::vector<json> seen;
  for (int i = 0; i < 8; ++i) {
    const auto m = c.next_message();
    REQUIRE(m);
    seen.push_back(*m);
    if (m->contains("id")) break;
  }
  REQUIRE(seen.size() == 4);
  CHECK(seen[0] == json{{"jsonrpc", "2.0"},
                        {"method", "notifications/progress"},
                        {"params", {{"progressToken", "tok"}, {"progress", 1.0}, {"total", 2.0}}}});
  CHECK(seen[1]["method"] == "notifications/message");
  CHECK(seen[1]["params"]["data"] == "halfway");
  CHECK(seen[2]["params"]["progress"] == 2.0);
  CHECK(seen[3]["id"] == 1);
  CHECK(seen[3]["result"]["resultType"] == "complete");
  CHECK(seen[3]["result"]["content"][0]["text"] == "PLP");

  // A client that accepts only JSON gets the response alone: the notifications are not sent.
  const auto plain = f.post(body, with(stateless_headers("tools/call", "report"), "Accept", "application/json"));
  CHECK(plain.status == 200);
  CHECK(plain.header("content-type") == "application/json");
  CHECK(json::parse(plain.body)["result"]["content"][0]["text"] == "---");
  // Without a token or a log level nothing goes out, and the reply stays plain JSON.
  const auto r = f.call(stateless(2, "tools/call", {{"name", "report"}, {"arguments", json::object()}}));
  CHECK(r.header("content-type") == "application/json");
  CHECK(json::parse(r.body)["result"]["content"][0]["text"] == "---");
  CHECK(f.idle());
}

TEST_CASE("a 2025-11-25 session and 2026-07-28 requests interleave on one server", "[http][modern]") {
  Fixture f;
  // The session opens; its tools/call waits in a form on its SSE stream.
  auto init = f.connect();
  init.send(verb::post, "/mcp", http_test::kAccept, initialize_body().dump());
  const auto head = init.read_head();
  REQUIRE(head.status == 200);
  const auto session = head.header("mcp-session-id");
  REQUIRE(session.size() == 32);
  REQUIRE(init.next_message());
  auto session_era = http_test::kAccept;
  session_era.emplace_back("Mcp-Session-Id", session);
  auto call = f.connect();
  call.send(verb::post, "/mcp", session_era, rpc("legacy-1", "tools/call", {{"name", "ask"}}).dump());
  REQUIRE(call.read_head().status == 200);
  const auto form = call.next_message();
  REQUIRE(form);
  CHECK((*form)["method"] == "elicitation/create");

  // Meanwhile, 2026-07-28 requests: no session is made, the tools are the same.
  const auto list = f.call(stateless(7, "tools/list"));
  REQUIRE(list.status == 200);
  CHECK(list.header("mcp-session-id").empty());
  const auto tools = json::parse(list.body)["result"];
  CHECK(tools["tools"].size() == 7);  // the fixture's tools, route and big among them
  CHECK(tools["resultType"] == "complete");
  CHECK(tools.contains("ttlMs"));
  const auto stateless_call = f.call(stateless(8, "tools/call", {{"name", "ask"}, {"arguments", json::object()}}));
  REQUIRE(stateless_call.status == 200);
  CHECK(json::parse(stateless_call.body)["result"]["resultType"] == "input_required");
  CHECK(f.server->session_count() == 1);

  // A 2025-11-25 ping keeps today's rules: its header names a 2025-11-25 version, or none.
  CHECK(f.post(rpc(9, "ping"), session_era).status == 200);
  CHECK(f.post(rpc(10, "ping"), with(session_era, "MCP-Protocol-Version", kStateless)).status == 400);
  // Without a session, a 2025-11-25 request is refused as before.
  CHECK(f.post(rpc(11, "ping"), http_test::kAccept).status == 400);

  // The session's form is answered; its call completes on its own stream.
  const auto answer = json{
      {"jsonrpc", "2.0"}, {"id", (*form)["id"]}, {"result", {{"action", "accept"}, {"content", {{"name", "hubot"}}}}}};
  CHECK(f.post(answer, session_era).status == 202);
  const auto done = call.next_message();
  REQUIRE(done);
  CHECK((*done)["id"] == "legacy-1");
  CHECK((*done)["result"]["content"][0]["text"] == "hubot");
  CHECK_FALSE((*done)["result"].contains("resultType"));  // a 2025-11-25 result
  CHECK(f.server->session_count() == 1);
  CHECK(f.idle());
}

TEST_CASE("1,000 2026-07-28 requests in a row make no session and no thread", "[http][modern][load]") {
  Fixture f;
  auto c = f.connect();
  // One round first, so whatever starts lazily (the shared timer thread) has started.
  REQUIRE(c.request(verb::post, "/mcp", stateless_headers("tools/list"), stateless(0, "tools/list").dump()).status ==
          200);
  const auto threads_before = test_support::thread_count();
  int ok = 0;
  for (int i = 1; i <= 1000; ++i) {
    // Alternately a blocking tool (answered from a worker) and a list (answered at once), on one
    // keep-alive connection.
    const auto body = i % 2 ? stateless(i, "tools/call", {{"name", "ask"}, {"arguments", json::object()}})
                            : stateless(i, "tools/list");
    const auto r =
        c.request(verb::post, "/mcp", i % 2 ? stateless_headers("tools/call", "ask") : stateless_headers("tools/list"),
                  body.dump());
    ok += r.status == 200 && json::parse(r.body)["id"] == i && r.header("mcp-session-id").empty();
  }
  CHECK(ok == 1000);
  CHECK(test_support::thread_count() <= threads_before);
  CHECK(f.server->session_count() == 0);
  CHECK(f.idle());
}

TEST_CASE("a client that disconnects cancels its 2026-07-28 request", "[http][modern][cancel]") {
  Fixture f;
  {
    auto c = f.connect();
    c.send(verb::post, "/mcp", stateless_headers("tools/call", "hold"),
           stateless(1, "tools/call", {{"name", "hold"}, {"arguments", json::object()}}).dump());
    REQUIRE(f.gate->wait_for([&] { return f.gate->started == 1; }));
    CHECK(f.server->stateless_request_count() == 1);
  }  // the connection closes with the handler still running
  REQUIRE(f.gate->wait_for([&] { return f.gate->cancelled == 1 && f.gate->finished == 1; }));
  CHECK(f.idle());
  // The server goes on serving.
  CHECK(f.call(stateless(2, "tools/list")).status == 200);
}

TEST_CASE("an answer that comes later from a worker is written when it comes", "[http][modern]") {
  Fixture f;
  auto c = f.connect();
  c.send(verb::post, "/mcp", stateless_headers("tools/call", "hold"),
         stateless("later", "tools/call", {{"name", "hold"}, {"arguments", json::object()}}).dump());
  REQUIRE(f.gate->wait_for([&] { return f.gate->started == 1; }));
  f.gate->release();
  const auto head = c.read_head();
  REQUIRE(head.status == 200);
  const auto j = json::parse(c.read_body());
  CHECK(j["id"] == "later");
  CHECK(j["result"]["content"][0]["text"] == "released");
  CHECK(f.gate->cancelled == 0);
  // The keep-alive connection serves the next request.
  CHECK(c.request(verb::post, "/mcp", stateless_headers("tools/list"), stateless(3, "tools/list").dump()).status ==
        200);
}

TEST_CASE("a reply larger than the socket takes at once is written in parts, holding up no other client",
          "[http][modern][limits]") {
  auto o = test_options();
  o.io_threads = 1;  // the one I/O thread must not wait for the slow reader
  // The slow client is left unread while the other is served (up to kPatience), and idle on its
  // keep-alive connection while it parses and checks the megabytes of the first reply: neither the
  // server's write timeout nor its keep-alive wait (request_timeout), each tested on its own, may
  // run out first on a loaded machine. Under ThreadSanitizer at load average 10 the keep-alive
  // wait's 30 s default did: the second request found the connection closed.
  o.write_timeout = 2 * test_support::kPatience;
  o.request_timeout = 2 * test_support::kPatience;
  Fixture f(std::move(o));
  auto slow = f.connect();
  // A bounded receive buffer (by default it may grow to net.ipv4.tcp_rmem's maximum), and a reply
  // larger than it and the most the server's send buffer may grow to (net.ipv4.tcp_wmem's maximum,
  // 4 MiB by default) together: the server must write it in parts. Not smaller than a few loopback
  // segments (64 KiB), or the transfer crawls.
  slow.socket().set_option(http_test::net::socket_base::receive_buffer_size(256 * 1024));
  std::size_t bytes = std::size_t{8} << 20;
  std::ifstream wmem("/proc/sys/net/ipv4/tcp_wmem");
  std::size_t min_buffer = 0, default_buffer = 0, max_buffer = 0;
  if (wmem >> min_buffer >> default_buffer >> max_buffer) bytes = std::max(bytes, max_buffer + (std::size_t{4} << 20));
  const auto body = stateless(1, "tools/call", {{"name", "big"}, {"arguments", {{"bytes", bytes}}}}).dump();
  slow.send(verb::post, "/mcp", stateless_headers("tools/call", "big"), body);
  // Not read yet: another client is served meanwhile on the same I/O thread (waited for in bounds;
  // the slow client reads next in any case, which would free a thread stuck writing to it).
  auto other = std::async(std::launch::async, [&f] { return f.call(stateless(2, "tools/list")); });
  const bool served_meanwhile = other.wait_for(test_support::kPatience) == std::future_status::ready;
  // The slow client reads the whole reply, then its keep-alive connection serves the next request.
  for (int round = 0; round < 2; ++round) {
    if (round == 1) slow.send(verb::post, "/mcp", stateless_headers("tools/call", "big"), body);
    const auto head = slow.read_head();
    REQUIRE(head.status == 200);
    // Parsed without exceptions, checked without printing: a failure must not print megabytes.
    const auto reply = json::parse(slow.read_body(), nullptr, false);
    REQUIRE_FALSE(reply.is_discarded());
    const json::json_pointer at("/result/content/0/text");
    REQUIRE(reply.contains(at));
    REQUIRE(reply.at(at).is_string());
    const auto& text = reply.at(at).get_ref<const std::string&>();
    REQUIRE(text.size() == bytes);
    bool intact = true;
    for (std::size_t i = 0; i + 1 < text.size() && intact; i += 4096) {
      intact = text[i] == static_cast<char>('a' + i / 4096 % 26) && text[i + 1] == 'x';
    }
    CHECK(intact);
  }
  CHECK(served_meanwhile);
  const auto listed = other.get();
  CHECK(listed.status == 200);
  CHECK(json::parse(listed.body)["result"]["tools"].is_array());
  CHECK(f.idle());
}

TEST_CASE("2026-07-28 requests beyond max_modern_requests get 503 with Retry-After", "[http][modern][limits]") {
  auto o = test_options();
  o.max_stateless_requests = 2;
  Fixture f(o);
  std::vector<std::unique_ptr<http_test::Connection>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<http_test::Connection>(f.server->port()));
    held.back()->send(verb::post, "/mcp", stateless_headers("tools/call", "hold"),
                      stateless(i, "tools/call", {{"name", "hold"}, {"arguments", json::object()}}).dump());
  }
  REQUIRE(f.gate->wait_for([&] { return f.gate->started == 2; }));
  CHECK(f.server->stateless_request_count() == 2);
  const auto r = f.call(stateless(9, "tools/list"));
  CHECK(r.status == 503);
  CHECK(r.header("retry-after") == "1");
  CHECK(error_of(r, 9)["code"] == -32603);
  // A request refused by the checks does not need a slot.
  CHECK(f.post(rpc(10, "tools/list"), stateless_headers("tools/list")).status == 400);
  f.gate->release();
  for (auto& c : held) {
    CHECK(c->read_head().status == 200);
    CHECK(json::parse(c->read_body())["result"]["content"][0]["text"] == "released");
  }
  CHECK(f.idle());
  CHECK(f.call(stateless(11, "tools/list")).status == 200);
}

TEST_CASE("the ServerSetup constructor runs setup once, whatever the number of sessions", "[http][modern]") {
  std::atomic<int> setups{0};
  auto o = test_options();
  elicit::http::StreamableHttpServer server(
      {"setup-once", "1"},
      [&](elicit::Server& s) {
        ++setups;
        s.add_tool({"hello", "says hello", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext&) {
                      return elicit::ToolResult::text("hello");
                    }});
      },
      o);
  server.start();
  CHECK(setups == 1);
  REQUIRE(server.server());
  CHECK(server.server()->find_tool("hello"));
  for (int i = 0; i < 3; ++i) {
    http_test::Connection c(server.port());
    CHECK(c.request(verb::post, "/mcp", http_test::kAccept, initialize_body().dump()).status == 200);
  }
  CHECK(server.session_count() == 3);
  http_test::Connection c(server.port());
  const auto r = c.request(verb::post, "/mcp", stateless_headers("tools/call", "hello"),
                           stateless(1, "tools/call", {{"name", "hello"}, {"arguments", json::object()}}).dump());
  CHECK(r.status == 200);
  CHECK(json::parse(r.body)["result"]["content"][0]["text"] == "hello");
  CHECK(setups == 1);
}

TEST_CASE("subscriptions/listen holds an SSE reply open for the changes it asked for, until the client leaves",
          "[http][modern][listen]") {
  Fixture f;
  const auto core = f.server->server();
  auto c = std::make_unique<http_test::Connection>(f.server->port());
  c->send(verb::post, "/mcp", stateless_headers("subscriptions/listen"),
          stateless("L", "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}).dump());
  const auto head = c->read_head();
  REQUIRE(head.status == 200);
  CHECK(head.header("content-type") == "text/event-stream");
  const auto ack = c->next_message();
  REQUIRE(ack);
  CHECK((*ack)["method"] == "notifications/subscriptions/acknowledged");
  CHECK((*ack)["params"]["notifications"] == json{{"toolsListChanged", true}});
  CHECK((*ack)["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L");
  CHECK(f.server->stateless_request_count() == 1);

  // Other requests go on meanwhile; a change reaches the stream, tagged.
  CHECK(f.call(stateless(2, "tools/list")).status == 200);
  core->add_tool({"late", "added while served", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext&) {
                    return elicit::ToolResult::text("late");
                  }});
  const auto changed = c->next_message();
  REQUIRE(changed);
  CHECK(*changed == json{{"jsonrpc", "2.0"},
                         {"method", "notifications/tools/list_changed"},
                         {"params", {{"_meta", {{"io.modelcontextprotocol/subscriptionId", "L"}}}}}});
  CHECK(json::parse(f.call(stateless(3, "tools/call", {{"name", "late"}, {"arguments", json::object()}}))
                        .body)["result"]["content"][0]["text"] == "late");

  // A client that accepts only JSON cannot listen: there is no stream to send on.
  const auto plain = f.post(stateless(4, "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}),
                            with(stateless_headers("subscriptions/listen"), "Accept", "application/json"));
  CHECK(error_of(plain, 4)["code"] == -32600);

  // Leaving the stream ends the subscription: no request is left, nothing more is sent.
  c.reset();
  CHECK(f.idle());
  CHECK(core->remove_tool("late"));
  CHECK(f.call(stateless(5, "tools/list")).status == 200);
}

// The server reads a 2026-07-28 request's _meta apart from its params (RequestMeta::of_text); a
// task keeps the whole request and replays it, so its _meta must be put back: the replay reads its
// capabilities and log level from there.
TEST_CASE("a 2026-07-28 tools/call over HTTP becomes a task that replays it with its _meta", "[http][modern][tasks]") {
  auto core = std::make_shared<elicit::Server>(elicit::ServerInfo{"modern-tasks", "1"});
  core->add_tool(elicit::Tool::blocking("quick", [](elicit::RequestContext& call) {
                   const auto caps = call.client_capabilities();
                   return elicit::ToolResult::text("quick " + call.arguments().value("x", std::string()) +
                                                   (caps.elicitation_form ? " form" : " no-form"));
                 }).with_task_support(elicit::TaskSupport::optional));
  core->add_tool(elicit::Tool::blocking("later", [](elicit::RequestContext& call) {
                   const auto n = call.elicit_keyed<samples::GithubUsername>("user", "Name?");
                   if (!n) return elicit::ToolResult::text("no name");
                   call.start_task();
                   return elicit::ToolResult::text("Hello, " + n.value->name +
                                                   (call.task_id().empty() ? "" : " (task)"));
                 }).with_task_support(elicit::TaskSupport::required, false));
  elicit::http::StreamableHttpServer server(core, test_options());
  server.start();
  const json caps = {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}},
                     {"elicitation", {{"form", json::object()}}}};
  auto post = [&](const json& body) {
    const auto method = body["method"].get<std::string>();
    const auto name = body["params"].value(method == "tasks/get" ? "taskId" : "name", std::string());
    http_test::Connection c(server.port());
    const auto r = c.request(verb::post, "/mcp", stateless_headers(method, name), body.dump());
    INFO(r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
  };
  auto until_done = [&](const std::string& id) {
    json r;
    for (int i = 0; i < 2000; ++i) {  // bounded: 2,000 polls 5 ms apart
      r = post(stateless(100 + i, "tasks/get", {{"taskId", id}}, caps))["result"];
      if (r.value("status", "") == "completed") return r;
      std::this_thread::sleep_for(5ms);
    }
    FAIL("task " << id << " never completed; last: " << r.dump());
    return r;
  };

  SECTION("a task at once") {
    const auto created =
        post(stateless(1, "tools/call", {{"name", "quick"}, {"arguments", {{"x", "b"}}}}, caps))["result"];
    REQUIRE(created["resultType"] == "task");
    const auto done = until_done(created["taskId"].get<std::string>());
    CHECK(done["result"]["content"][0]["text"] == "quick b form");
  }
  SECTION("a task started after an answer") {
    const auto first = post(stateless(1, "tools/call", {{"name", "later"}, {"arguments", json::object()}}, caps));
    const auto& round = first["result"];
    REQUIRE(round["resultType"] == "input_required");
    const auto created =
        post(stateless(2, "tools/call",
                       {{"name", "later"},
                        {"arguments", json::object()},
                        {"inputResponses", {{"user", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}},
                        {"requestState", round["requestState"]}},
                       caps))["result"];
    REQUIRE(created["resultType"] == "task");
    const auto done = until_done(created["taskId"].get<std::string>());
    CHECK(done["result"]["content"][0]["text"] == "Hello, octocat (task)");
  }
}

TEST_CASE("a 2026-07-28 request's _meta read apart keeps nlohmann's rules: escaped keys, repeats, the last one wins",
          "[http][modern]") {
  Fixture f;
  // An escaped key names the same member; a repeated _meta counts by its last occurrence.
  const std::string escaped =
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"needs_url","arguments":{},)"
      R"("_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}}}})";
  auto c = f.connect();
  auto r = c.request(verb::post, "/mcp", stateless_headers("tools/call", "needs_url"), escaped);
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body)["result"]["content"][0]["text"] == "ok");  // the later capabilities count

  const std::string repeated =
      R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"needs_url","arguments":{},)"
      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}},"_meta":"not an object"}})";
  r = c.request(verb::post, "/mcp", stateless_headers("tools/call", "needs_url"), repeated);
  CHECK(r.status == 400);
  CHECK(error_of(r, 8)["message"] == "Invalid params: params._meta is required");
}

}  // namespace modern_http_test
