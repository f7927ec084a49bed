// The Streamable HTTP transport at the HTTP level: sessions, header checks, SSE streams, an
// elicitation during tools/call answered by a separate POST, and every limit with its failure path.
// Loopback only; every loop is bounded in count, every wait by test_support::kPatience.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <thread>

#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/patience.hpp"
#include "../support/session_initialize.hpp"
#include "../support/stateless_meta.hpp"
#include "../support/threads.hpp"
#include "github_username.hpp"

namespace http_server_test {

using namespace std::chrono_literals;
using http_test::bhttp::verb;
using nlohmann::json;

namespace {

json initialize_body(int id = 1) { return test_support::session_initialize({{"elicitation", json::object()}}, id); }

json request(const json& id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

// What the "ask" tools saw, for tests that end a session under them.
struct Seen {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> statuses;
  void add(std::string s) {
    std::lock_guard<std::mutex> lock(mutex);
    statuses.push_back(std::move(s));
    cv.notify_all();
  }
  bool wait(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, test_support::kPatience, [&] { return statuses.size() >= n; });
  }
};

elicit::http::HttpServerOptions test_options() {
  elicit::http::HttpServerOptions o;
  o.max_request_bytes = 64 * 1024;
  o.keepalive = 100ms;
  o.io_threads = 2;
  o.server.session.log = [](std::string_view) {};
  return o;
}

struct Fixture {
  explicit Fixture(elicit::http::HttpServerOptions o = test_options()) {
    auto seen_ptr = seen;
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"http-test", "1"},
        [seen_ptr](elicit::Server& s) {
          s.add_tool(
              {"ask", "asks a username", {{"type", "object"}}, std::nullopt, [seen_ptr](elicit::RequestContext& call) {
                 auto o = call.elicit<samples::GithubUsername>();
                 seen_ptr->add(std::string(elicit::to_string(o.status)));
                 return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
               }});
          s.add_tool(
              {"ask_async",
               "asks a username, holding no thread",
               {{"type", "object"}},
               std::nullopt,
               nullptr,
               [seen_ptr](std::shared_ptr<elicit::RequestContext> call) {
                 call->elicit_async<samples::GithubUsername>([call,
                                                              seen_ptr](elicit::Outcome<samples::GithubUsername> o) {
                   seen_ptr->add(std::string(elicit::to_string(o.status)));
                   call->reply(elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status))));
                 });
               }});
          s.add_tool({"poll",
                      "lets go of its connection, then answers",
                      {{"type", "object"}},
                      std::nullopt,
                      [](elicit::RequestContext& call) {
                        call.close_sse_stream();
                        return elicit::ToolResult::text("polled");
                      }});
          s.add_tool({"chatter",
                      "sends notifications unrelated to any request",
                      {{"type", "object"}},
                      std::nullopt,
                      [](elicit::RequestContext& call) {
                        for (int i = 0; i < 200; ++i) {
                          call.state().rpc().notify("notifications/message",
                                                    {{"level", "info"}, {"data", std::string(100, 'x')}});
                        }
                        return elicit::ToolResult::text("done");
                      }});
        },
        std::move(o));
    server->start();
  }

  http_test::Connection connect() const { return http_test::Connection(server->port()); }

  http_test::Response post(const json& body, const http_test::Headers& headers = http_test::kAccept) const {
    auto c = connect();
    return c.request(verb::post, "/mcp", headers, body.dump());
  }

  static http_test::Headers with_session(const std::string& id) {
    auto h = http_test::kAccept;
    h.emplace_back("Mcp-Session-Id", id);
    return h;
  }

  std::string initialize() const {
    auto c = connect();
    c.send(verb::post, "/mcp", http_test::kAccept, initialize_body().dump());
    const auto head = c.read_head();
    REQUIRE(head.status == 200);
    REQUIRE(head.header("content-type") == "text/event-stream");
    const auto m = c.next_message();
    REQUIRE(m);
    CHECK((*m)["result"]["protocolVersion"] == "2025-11-25");
    CHECK_FALSE(c.next_message());  // the stream ends after the response
    return head.header("mcp-session-id");
  }

  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
};

}  // namespace

TEST_CASE("initialize creates a session that later requests must name", "[http]") {
  Fixture f;
  const auto id = f.initialize();
  CHECK(id.size() == 32);
  CHECK(f.server->session_count() == 1);
  const auto ping = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}};
  CHECK(f.post(ping).status == 400);
  CHECK(f.post(ping, Fixture::with_session("0123456789abcdef0123456789abcdef")).status == 404);
  auto c = f.connect();
  c.send(verb::post, "/mcp", Fixture::with_session(id), ping.dump());
  REQUIRE(c.read_head().status == 200);
  CHECK((*c.next_message())["result"] == json::object());
  CHECK_FALSE(c.next_message());  // the stream ends after the response
  // The same connection serves the next request (keep-alive).
  const auto r = c.request(verb::post, "/mcp", Fixture::with_session(id),
                           json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump());
  CHECK(r.status == 202);
  CHECK(r.body.empty());
  CHECK(c.request(verb::delete_, "/mcp", Fixture::with_session(id)).status == 200);
  CHECK(f.server->session_count() == 0);
  CHECK(f.post(ping, Fixture::with_session(id)).status == 404);
}

TEST_CASE("Host and Origin are checked against DNS rebinding", "[http][security]") {
  Fixture f;
  const auto body = initialize_body();
  auto with = [](std::string name, std::string value) {
    auto h = http_test::kAccept;
    h.emplace_back(std::move(name), std::move(value));
    return h;
  };
  CHECK(f.post(body, with("Host", "evil.example.com")).status == 403);
  CHECK(f.post(body, with("Origin", "http://evil.example.com")).status == 403);
  CHECK(f.post(body, with("Origin", "null")).status == 403);
  CHECK(f.post(body, with("Origin", "http://localhost:5173")).status == 200);
  CHECK(f.post(body, with("Host", "[::1]:8080")).status == 200);
}

TEST_CASE("media types, protocol version, paths and methods are enforced", "[http]") {
  Fixture f;
  const auto body = initialize_body();
  CHECK(f.post(body, {{"Accept", "text/event-stream"}, {"Content-Type", "text/plain"}}).status == 415);
  CHECK(f.post(body, {{"Accept", "application/json"}, {"Content-Type", "application/json"}}).status == 406);
  auto h = http_test::kAccept;
  h.emplace_back("MCP-Protocol-Version", "1999-01-01");
  CHECK(f.post(body, h).status == 400);
  auto c = f.connect();
  auto r = c.request(verb::post, "/mcp", http_test::kAccept, "{not json");
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"]["code"] == -32700);
  CHECK(c.request(verb::get, "/mcp", {{"Accept", "text/event-stream"}}).status == 400);  // no session
  CHECK(c.request(verb::post, "/other", http_test::kAccept, body.dump()).status == 404);
  r = c.request(verb::put, "/mcp", http_test::kAccept, body.dump());
  CHECK(r.status == 405);
  CHECK(r.header("allow") == "GET, POST, DELETE");
}

TEST_CASE("a body that is not UTF-8 is a -32700 parse error with HTTP 400, without internals", "[http][hostile]") {
  Fixture f;
  auto c = f.connect();
  const auto r =
      c.request(verb::post, "/mcp", http_test::kAccept, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}");
  CHECK(r.status == 400);
  const auto j = json::parse(r.body);  // valid JSON (and so valid UTF-8) whatever the input was
  CHECK(j["error"]["code"] == -32700);
  CHECK(j["error"]["message"].get<std::string>().find("json.exception") == std::string::npos);
  for (const auto& [name, value] : r.headers) CHECK(name.find("exception") == std::string::npos);
  // The connection and the server keep serving.
  CHECK(c.request(verb::post, "/mcp", http_test::kAccept, initialize_body().dump()).status == 200);
}

TEST_CASE("an elicitation rides the tools/call stream and its answer is a separate POST", "[http][elicit]") {
  Fixture f;
  const auto id = f.initialize();
  for (const char* tool : {"ask", "ask_async"}) {
    INFO(tool);
    auto call = f.connect();
    call.send(verb::post, "/mcp", Fixture::with_session(id), request("call-1", "tools/call", {{"name", tool}}).dump());
    REQUIRE(call.read_head().status == 200);
    const auto ask = call.next_message();
    REQUIRE(ask);
    CHECK((*ask)["method"] == "elicitation/create");
    CHECK((*ask)["params"]["message"] == "Please provide your GitHub username");
    const auto answer = json{{"jsonrpc", "2.0"},
                             {"id", (*ask)["id"]},
                             {"result", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}};
    CHECK(f.post(answer, Fixture::with_session(id)).status == 202);
    const auto done = call.next_message();
    REQUIRE(done);
    CHECK((*done)["id"] == "call-1");
    CHECK((*done)["result"]["content"][0]["text"] == "octocat");
    CHECK_FALSE(call.next_message());
  }
}

TEST_CASE("one GET stream per session, with keepalives, stop() ends open streams", "[http]") {
  Fixture f;
  const auto id = f.initialize();
  auto get = f.connect();
  get.send(verb::get, "/mcp", Fixture::with_session(id));
  REQUIRE(get.read_head().status == 200);
  auto second = f.connect();
  CHECK(second.request(verb::get, "/mcp", Fixture::with_session(id)).status == 409);
  const auto comment = get.next_event(true);
  REQUIRE(comment);
  CHECK(*comment == ": keepalive");  // every 100 ms while idle
  f.server->stop();
  while (get.next_event()) {
  }
  CHECK(get.closed_by_peer());
  CHECK(f.server->session_count() == 0);
}

TEST_CASE("messages for no open stream are held for the GET stream, bounded in bytes", "[http][limits]") {
  auto o = test_options();
  o.max_held_bytes = 4096;
  Fixture f(o);
  const auto id = f.initialize();
  const auto r = f.post(request(7, "tools/call", {{"name", "chatter"}}), Fixture::with_session(id));
  CHECK(r.status == 200);
  auto get = f.connect();
  get.send(verb::get, "/mcp", Fixture::with_session(id));
  REQUIRE(get.read_head().status == 200);
  // 200 notifications of ~170 bytes were sent with no GET stream open: only the newest that fit
  // in 4,096 bytes are delivered.
  std::size_t received = 0;
  while (true) {
    const auto e = get.next_event(true);
    REQUIRE(e);
    if (*e == ": keepalive") break;  // everything held has been written
    ++received;
  }
  CHECK(received > 0);
  CHECK(received < 30);
}

TEST_CASE("request bodies are bounded, chunked ones too", "[http][limits]") {
  Fixture f;  // max_request_bytes = 64 KiB
  {
    auto c = f.connect();
    CHECK(c.request(verb::post, "/mcp", http_test::kAccept, std::string(100 * 1024, ' ')).status == 413);
  }
  auto chunked = [&](std::size_t total) {
    auto c = f.connect();
    std::string head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    http_test::net::write(c.socket(), http_test::net::buffer(head));
    const std::string body = initialize_body().dump() + std::string(total, ' ');
    http_test::beast::error_code ec;
    for (std::size_t at = 0; at < body.size() && !ec; at += 8192) {
      const auto part = body.substr(at, 8192);
      char size[32];
      std::snprintf(size, sizeof size, "%zx\r\n", part.size());
      http_test::net::write(c.socket(), http_test::net::buffer(std::string(size) + part + "\r\n"), ec);
    }
    if (!ec) http_test::net::write(c.socket(), http_test::net::buffer(std::string("0\r\n\r\n")), ec);
    return c.read_head().status;
  };
  CHECK(chunked(1024) == 200);
  CHECK(chunked(1024 * 1024) == 413);  // stopped at 64 KiB, not after reading a megabyte
}

TEST_CASE("request heads are bounded in bytes and in fields", "[http][limits]") {
  Fixture f;
  auto big = http_test::kAccept;
  big.emplace_back("X-Big", std::string(32 * 1024, 'a'));
  CHECK(f.post(initialize_body(), big).status == 431);
  auto many = http_test::kAccept;
  for (int i = 0; i < 150; ++i) many.emplace_back("X-Field-" + std::to_string(i), "1");
  CHECK(f.post(initialize_body(), many).status == 431);
  CHECK(f.post(initialize_body()).status == 200);
}

TEST_CASE("header fields are read whole on a keep-alive connection, however many a request has", "[http][limits]") {
  // A connection keeps one block for a request's header fields and reuses it for the next: a
  // request whose fields overflow it (into more blocks) and the requests after it must each read
  // their own fields, here the ones checked against the body, sent after the filler.
  Fixture f;
  auto c = f.connect();
  const auto list = [&](int id, int filler_fields) {
    auto headers = http_test::kAccept;
    for (int i = 0; i < filler_fields; ++i) {
      headers.emplace_back("X-Filler-" + std::to_string(i), std::string(100, static_cast<char>('a' + i % 26)));
    }
    headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
    headers.emplace_back("Mcp-Method", "tools/list");
    auto body = request(id, "tools/list");
    body["params"]["_meta"] = test_support::stateless_meta();
    return c.request(verb::post, "/mcp", headers, body.dump());
  };
  for (const int filler : {0, 60, 1, 90, 0, 30}) {
    INFO(filler << " filler fields");
    const auto r = list(100 + filler, filler);
    REQUIRE(r.status == 200);
    const auto m = json::parse(r.body);
    CHECK(m["id"] == 100 + filler);
    CHECK(m["result"]["tools"].size() == 4);
  }
  // A field whose value differs from the body is still noticed after all that.
  auto headers = http_test::kAccept;
  headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
  headers.emplace_back("Mcp-Method", "prompts/list");
  auto body = request(1, "tools/list");
  body["params"]["_meta"] = test_support::stateless_meta();
  CHECK(c.request(verb::post, "/mcp", headers, body.dump()).status == 400);
}

TEST_CASE("a client trickling bytes is cut off at the request deadline, others are served meanwhile",
          "[http][limits]") {
  auto o = test_options();
  o.request_timeout = 300ms;
  Fixture f(o);
  auto slow = f.connect();
  const std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
  http_test::net::write(slow.socket(), http_test::net::buffer(head));
  // One byte every 20 ms keeps the socket busy but never finishes the request. Bounded: at most
  // 500 bytes (10 s); the server must close the connection long before.
  bool cut = false;
  for (int i = 0; i < 500 && !cut; ++i) {
    http_test::beast::error_code ec;
    http_test::net::write(slow.socket(), http_test::net::buffer("a", 1), ec);
    cut = static_cast<bool>(ec);
    if (i == 5) CHECK(f.post(initialize_body()).status == 200);  // another client is served meanwhile
    std::this_thread::sleep_for(20ms);
  }
  CHECK((cut || slow.closed_by_peer()));
}

TEST_CASE("sessions beyond max_sessions get 503 with Retry-After", "[http][limits]") {
  auto o = test_options();
  o.max_sessions = 2;
  Fixture f(o);
  const auto first = f.initialize();
  f.initialize();
  const auto r = f.post(initialize_body());
  CHECK(r.status == 503);
  CHECK_FALSE(r.header("retry-after").empty());
  CHECK(f.post(request(1, "ping"), Fixture::with_session(first)).status == 200);  // the others still work
  CHECK(f.connect().request(verb::delete_, "/mcp", Fixture::with_session(first)).status == 200);
  CHECK(f.post(initialize_body()).status == 200);  // a slot is free again
}

TEST_CASE("an idle session is reaped and its pending elicitation ends transport_closed", "[http][limits]") {
  auto o = test_options();
  o.idle_session_timeout = 200ms;
  Fixture f(o);
  const auto idle = f.initialize();
  const auto id = f.initialize();
  {
    // A tools/call whose client goes away while the form is open: the stream ends, the session
    // has nothing open, and the reaper ends it.
    auto call = f.connect();
    call.send(verb::post, "/mcp", Fixture::with_session(id), request(3, "tools/call", {{"name", "ask"}}).dump());
    REQUIRE(call.read_head().status == 200);
    REQUIRE(call.next_message());
  }
  REQUIRE(f.seen->wait(1));
  CHECK(f.seen->statuses[0] == "transport_closed");
  for (int i = 0; i < 6000 && f.server->session_count() > 0; ++i) std::this_thread::sleep_for(10ms);
  CHECK(f.server->session_count() == 0);
  CHECK(f.post(request(1, "ping"), Fixture::with_session(idle)).status == 404);
}

TEST_CASE("a burst of connections is accepted and served", "[http][limits]") {
  Fixture f;
  std::vector<std::unique_ptr<http_test::Connection>> burst;
  for (int i = 0; i < 200; ++i) burst.push_back(std::make_unique<http_test::Connection>(f.server->port()));
  std::size_t ok = 0;
  for (auto& c : burst)
    ok += c->request(verb::post, "/mcp", http_test::kAccept, initialize_body().dump()).status == 200;
  CHECK(ok == 200);
}

namespace {

using test_support::thread_count;

json accept_answer(const json& id, const std::string& name) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"action", "accept"}, {"content", {{"name", name}}}}}};
}

}  // namespace

TEST_CASE("a cancelled tools/call cancels its form: 8 cancelled on one worker, then a 9th completes",
          "[http][cancel]") {
  auto o = test_options();
  o.server.worker_threads = 1;
  Fixture f(o);
  const auto id = f.initialize();
  auto get = f.connect();
  get.send(verb::get, "/mcp", Fixture::with_session(id));
  REQUIRE(get.read_head().status == 200);
  for (int i = 0; i < 8; ++i) {
    auto call = f.connect();
    call.send(verb::post, "/mcp", Fixture::with_session(id), request(100 + i, "tools/call", {{"name", "ask"}}).dump());
    REQUIRE(call.read_head().status == 200);
    const auto ask = call.next_message();
    REQUIRE(ask);
    REQUIRE((*ask)["method"] == "elicitation/create");
    CHECK(f.post({{"jsonrpc", "2.0"},
                  {"method", "notifications/cancelled"},
                  {"params", {{"requestId", 100 + i}, {"reason", "user gave up"}}}},
                 Fixture::with_session(id))
              .status == 202);
    // The form is withdrawn on the session's stream, and the call's stream ends without a response.
    const auto withdrawn = get.next_message();
    REQUIRE(withdrawn);
    CHECK((*withdrawn)["method"] == "notifications/cancelled");
    CHECK((*withdrawn)["params"]["requestId"] == (*ask)["id"]);
    CHECK_FALSE(call.next_message());
  }
  REQUIRE(f.seen->wait(8));
  for (const auto& status : f.seen->statuses) CHECK(status == "aborted");
  // The single worker is free: a ninth call runs and completes.
  auto call = f.connect();
  call.send(verb::post, "/mcp", Fixture::with_session(id), request(200, "tools/call", {{"name", "ask"}}).dump());
  REQUIRE(call.read_head().status == 200);
  const auto ask = call.next_message();
  REQUIRE(ask);
  CHECK(f.post(accept_answer((*ask)["id"], "octocat"), Fixture::with_session(id)).status == 202);
  const auto done = call.next_message();
  REQUIRE(done);
  CHECK((*done)["id"] == 200);
  CHECK((*done)["result"]["content"][0]["text"] == "octocat");
}

TEST_CASE("1,000 users waiting in a form hold no thread, and a new client is served meanwhile", "[http][load]") {
  constexpr int kUsers = 1000;
  Fixture f;
  const auto threads_before = thread_count();
  std::vector<std::unique_ptr<http_test::Connection>> calls;
  std::vector<std::string> sessions;
  std::vector<json> asks;
  for (int i = 0; i < kUsers; ++i) {
    auto c = std::make_unique<http_test::Connection>(f.server->port());
    c->send(verb::post, "/mcp", http_test::kAccept, initialize_body().dump());
    const auto head = c->read_head();
    REQUIRE(head.status == 200);
    REQUIRE(c->next_message());
    REQUIRE_FALSE(c->next_message());
    sessions.push_back(head.header("mcp-session-id"));
    // The same keep-alive connection now carries the tools/call and its stream.
    c->send(verb::post, "/mcp", Fixture::with_session(sessions.back()),
            request(1, "tools/call", {{"name", "ask_async"}}).dump());
    REQUIRE(c->read_head().status == 200);
    const auto ask = c->next_message();
    REQUIRE(ask);
    asks.push_back(*ask);
    calls.push_back(std::move(c));
  }
  CHECK(f.server->session_count() == kUsers);
  // No thread per waiting user (the pool, timer and I/O threads were there before).
  CHECK(thread_count() <= threads_before + 4);
  // A new client initializes and pings while they all wait.
  const auto newcomer = f.initialize();
  auto ping = f.connect();
  ping.send(verb::post, "/mcp", Fixture::with_session(newcomer), request(2, "ping").dump());
  REQUIRE(ping.read_head().status == 200);
  CHECK((*ping.next_message())["result"] == json::object());
  // Every user answers, on one keep-alive connection, and every call completes with its answer.
  auto answers = f.connect();
  for (int i = 0; i < kUsers; ++i) {
    CHECK(answers
              .request(verb::post, "/mcp", Fixture::with_session(sessions[i]),
                       accept_answer(asks[i]["id"], "user" + std::to_string(i)).dump())
              .status == 202);
  }
  int completed = 0;
  for (int i = 0; i < kUsers; ++i) {
    const auto done = calls[i]->next_message();
    completed += done && (*done)["result"]["content"][0]["text"] == "user" + std::to_string(i);
  }
  CHECK(completed == kUsers);
}

TEST_CASE("a request reusing the id of an open one is refused on its own response", "[http]") {
  Fixture f;
  const auto id = f.initialize();
  auto first = f.connect();
  first.send(verb::post, "/mcp", Fixture::with_session(id), request(5, "tools/call", {{"name", "ask"}}).dump());
  REQUIRE(first.read_head().status == 200);
  const auto ask = first.next_message();
  REQUIRE(ask);
  const auto dup = f.post(request(5, "ping"), Fixture::with_session(id));
  CHECK(dup.status == 200);
  CHECK(json::parse(dup.body)["error"]["code"] == -32600);
  // The first request still gets its answer on its own stream.
  CHECK(f.post(accept_answer((*ask)["id"], "octocat"), Fixture::with_session(id)).status == 202);
  const auto done = first.next_message();
  REQUIRE(done);
  CHECK((*done)["id"] == 5);
  CHECK((*done)["result"]["content"][0]["text"] == "octocat");
}

namespace {

// The `id:` field of a raw SSE event, "" when it has none.
std::string event_id(const std::string& event) {
  const auto pos = event.find("id: ");
  if (pos == std::string::npos || (pos > 0 && event[pos - 1] != '\n')) return "";
  return event.substr(pos + 4, event.find('\n', pos) - pos - 4);
}

// The JSON-RPC message of a raw SSE event.
json event_message(const std::string& event) {
  const auto pos = event.find("data: ");
  return json::parse(event.substr(pos + 6, event.find('\n', pos) - pos - 6));
}

}  // namespace

TEST_CASE("SSE events carry ids, a 2025-11-25 client's POST stream starts with a priming event", "[http][resume]") {
  Fixture f;
  auto c = f.connect();
  c.send(verb::post, "/mcp", http_test::kAccept, initialize_body().dump());
  REQUIRE(c.read_head().status == 200);
  const auto priming = c.next_event();
  REQUIRE(priming);
  CHECK(*priming == "id: 1-0\nretry: 1000\ndata: ");
  const auto response = c.next_event();
  REQUIRE(response);
  CHECK(event_id(*response) == "1-1");
  CHECK(event_message(*response)["result"]["protocolVersion"] == "2025-11-25");
}

TEST_CASE("a stream whose connection dropped is resumed with Last-Event-ID", "[http][resume]") {
  Fixture f;
  const auto id = f.initialize();
  std::string stream;
  json ask;
  {
    auto call = f.connect();
    call.send(verb::post, "/mcp", Fixture::with_session(id), request(9, "tools/call", {{"name", "ask"}}).dump());
    REQUIRE(call.read_head().status == 200);
    const auto priming = call.next_event();
    REQUIRE(priming);
    stream = event_id(*priming).substr(0, event_id(*priming).find('-'));
    const auto e = call.next_event();
    REQUIRE(e);
    CHECK(event_id(*e) == stream + "-1");
    ask = event_message(*e);
  }  // the connection drops: not a cancellation, the call goes on
  CHECK(f.post(accept_answer(ask["id"], "octocat"), Fixture::with_session(id)).status == 202);
  REQUIRE(f.seen->wait(1));
  CHECK(f.seen->statuses[0] == "accepted");

  auto headers = Fixture::with_session(id);
  headers.emplace_back("Last-Event-ID", stream + "-0");
  // The server notices the dropped connection as soon as its socket reports the close; a GET that
  // overtakes that finds the stream still in use (409) and, like the SDK clients, tries again.
  std::unique_ptr<http_test::Connection> resumed;
  int status = 409;
  for (int i = 0; i < 6000 && status == 409; ++i) {
    resumed = std::make_unique<http_test::Connection>(f.server->port());
    resumed->send(verb::get, "/mcp", headers);
    status = resumed->read_head().status;
    if (status == 409) std::this_thread::sleep_for(10ms);
  }
  REQUIRE(status == 200);
  // Everything after event 0: the elicitation again, then the result held while nobody listened.
  const auto again = resumed->next_event();
  REQUIRE(again);
  CHECK(event_id(*again) == stream + "-1");
  CHECK(event_message(*again)["method"] == "elicitation/create");
  const auto result = resumed->next_event();
  REQUIRE(result);
  CHECK(event_id(*result) == stream + "-2");
  CHECK(event_message(*result)["id"] == 9);
  CHECK(event_message(*result)["result"]["content"][0]["text"] == "octocat");
  CHECK_FALSE(resumed->next_event());  // the stream ends after the response
  // Delivered: nothing is left to resume. (The server finishes the stream's bookkeeping just after
  // the last bytes leave, so a GET racing it may still find the stream in use: 409.)
  status = 409;
  for (int i = 0; i < 6000 && status == 409; ++i) {
    status = f.connect().request(verb::get, "/mcp", headers).status;
    if (status == 409) std::this_thread::sleep_for(10ms);
  }
  CHECK(status == 404);
}

TEST_CASE("Last-Event-ID that names nothing held is 404, a stream still being read is 409", "[http][resume]") {
  Fixture f;
  const auto id = f.initialize();
  auto get = [&](const std::string& last) {
    auto h = Fixture::with_session(id);
    h.emplace_back("Last-Event-ID", last);
    return f.connect().request(verb::get, "/mcp", h).status;
  };
  CHECK(get("99-0") == 404);
  CHECK(get("garbage") == 404);
  CHECK(get("1-") == 404);
  auto call = f.connect();
  call.send(verb::post, "/mcp", Fixture::with_session(id), request(3, "tools/call", {{"name", "ask"}}).dump());
  REQUIRE(call.read_head().status == 200);
  const auto priming = call.next_event();
  REQUIRE(priming);
  CHECK(get(event_id(*priming)) == 409);
}

TEST_CASE("a tool can let go of its connection, the client resumes to get the result", "[http][resume]") {
  Fixture f;
  const auto id = f.initialize();
  auto call = f.connect();
  call.send(verb::post, "/mcp", Fixture::with_session(id), request(4, "tools/call", {{"name", "poll"}}).dump());
  REQUIRE(call.read_head().status == 200);
  std::string last;
  int results = 0;
  while (const auto e = call.next_event()) {
    last = event_id(*e);
    if (e->find("data: {") != std::string::npos) results += event_message(*e)["id"] == 4;
  }
  if (results == 0) {  // the response ended before the result: resume after the last event seen
    auto headers = Fixture::with_session(id);
    headers.emplace_back("Last-Event-ID", last);
    auto resumed = f.connect();
    resumed.send(verb::get, "/mcp", headers);
    REQUIRE(resumed.read_head().status == 200);
    while (const auto m = resumed.next_message()) results += (*m)["id"] == 4;
  }
  CHECK(results == 1);
  // The same connection serves the next request: the HTTP response ended cleanly.
  CHECK(call.request(verb::post, "/mcp", Fixture::with_session(id), request(5, "ping").dump()).status == 200);
}

}  // namespace http_server_test
