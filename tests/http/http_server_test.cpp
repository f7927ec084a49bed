// The Streamable HTTP transport at the HTTP level: sessions, header checks, limits, SSE streams,
// and an elicitation during tools/call answered by a separate POST.
#include <catch2/catch.hpp>

#include <httplib.h>

#include <future>

#include <elicit/http_server.hpp>

#include "github_username.hpp"

using namespace std::chrono_literals;
using nlohmann::json;

namespace {

const httplib::Headers kAccept{{"Accept", "application/json, text/event-stream"}};

json initialize_body() {
  return {{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", {{"elicitation", json::object()}}},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
}

// The JSON-RPC messages in an SSE body ("event: message\ndata: {...}\n\n"...).
std::vector<json> sse_messages(const std::string& body) {
  std::vector<json> out;
  std::size_t pos = 0;
  while ((pos = body.find("data: ", pos)) != std::string::npos) {
    const auto end = body.find('\n', pos);
    out.push_back(json::parse(body.substr(pos + 6, end - pos - 6)));
    pos = end;
  }
  return out;
}

struct Fixture {
  Fixture() {
    elicit::HttpServerOptions o;
    o.max_request_bytes = 64 * 1024;
    o.keepalive = 100ms;
    o.server.session.log = [](std::string_view) {};
    server = std::make_unique<elicit::StreamableHttpServer>(
        elicit::ServerInfo{"http-test", "1"},
        [](elicit::Server& s) {
          s.add_tool({"ask", "asks a username", {{"type", "object"}}, std::nullopt, [](elicit::ToolCall& call) {
                        auto o = call.elicit<samples::GithubUsername>();
                        return elicit::ToolResult::text(o ? o.value->name : std::string(elicit::to_string(o.status)));
                      }});
        },
        o);
    server->start();
    client = std::make_unique<httplib::Client>("127.0.0.1", server->port());
    client->set_read_timeout(10, 0);
  }

  std::string initialize() {
    auto r = client->Post("/mcp", kAccept, initialize_body().dump(), "application/json");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    REQUIRE(r->get_header_value("Content-Type") == "text/event-stream");
    const auto messages = sse_messages(r->body);
    REQUIRE(messages.size() == 1);
    CHECK(messages[0]["result"]["protocolVersion"] == "2025-11-25");
    return r->get_header_value("Mcp-Session-Id");
  }

  httplib::Headers with_session(const std::string& id) {
    auto h = kAccept;
    h.emplace("Mcp-Session-Id", id);
    return h;
  }

  std::unique_ptr<elicit::StreamableHttpServer> server;
  std::unique_ptr<httplib::Client> client;
};

}  // namespace

TEST_CASE("initialize creates a session that later requests must name", "[http]") {
  Fixture f;
  const auto id = f.initialize();
  CHECK(id.size() == 32);
  CHECK(f.server->session_count() == 1);
  const auto ping = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}.dump();
  auto r = f.client->Post("/mcp", kAccept, ping, "application/json");
  CHECK(r->status == 400);
  auto h = f.with_session("0123456789abcdef0123456789abcdef");
  CHECK(f.client->Post("/mcp", h, ping, "application/json")->status == 404);
  r = f.client->Post("/mcp", f.with_session(id), ping, "application/json");
  REQUIRE(r->status == 200);
  CHECK(sse_messages(r->body).at(0)["result"] == json::object());
  r = f.client->Post("/mcp", f.with_session(id),
                     json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(), "application/json");
  CHECK(r->status == 202);
  CHECK(r->body.empty());
  CHECK(f.client->Delete("/mcp", f.with_session(id))->status == 200);
  CHECK(f.server->session_count() == 0);
  CHECK(f.client->Post("/mcp", f.with_session(id), ping, "application/json")->status == 404);
}

TEST_CASE("Host and Origin are checked against DNS rebinding", "[http][security]") {
  Fixture f;
  const auto body = initialize_body().dump();
  httplib::Headers evil_host{{"Host", "evil.example.com"}, {"Accept", "application/json, text/event-stream"}};
  CHECK(f.client->Post("/mcp", evil_host, body, "application/json")->status == 403);
  httplib::Headers evil_origin{{"Origin", "http://evil.example.com"}, {"Accept", "text/event-stream"}};
  CHECK(f.client->Post("/mcp", evil_origin, body, "application/json")->status == 403);
  httplib::Headers null_origin{{"Origin", "null"}, {"Accept", "text/event-stream"}};
  CHECK(f.client->Post("/mcp", null_origin, body, "application/json")->status == 403);
  httplib::Headers local_origin{{"Origin", "http://localhost:5173"}, {"Accept", "text/event-stream"}};
  CHECK(f.client->Post("/mcp", local_origin, body, "application/json")->status == 200);
  httplib::Headers v6_host{{"Host", "[::1]:8080"}, {"Accept", "text/event-stream"}};
  CHECK(f.client->Post("/mcp", v6_host, body, "application/json")->status == 200);
}

TEST_CASE("media types, protocol version and size are enforced", "[http]") {
  Fixture f;
  const auto body = initialize_body().dump();
  CHECK(f.client->Post("/mcp", kAccept, body, "text/plain")->status == 415);
  CHECK(f.client->Post("/mcp", httplib::Headers{{"Accept", "application/json"}}, body, "application/json")->status ==
        406);
  auto h = kAccept;
  h.emplace("MCP-Protocol-Version", "1999-01-01");
  CHECK(f.client->Post("/mcp", h, body, "application/json")->status == 400);
  CHECK(f.client->Post("/mcp", kAccept, std::string(100 * 1024, ' '), "application/json")->status == 413);
  auto r = f.client->Post("/mcp", kAccept, "{not json", "application/json");
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["error"]["code"] == -32700);
  CHECK(f.client->Get("/mcp", httplib::Headers{{"Accept", "text/event-stream"}})->status == 400);
}

TEST_CASE("an elicitation rides the tools/call stream and its answer is a separate POST", "[http][elicit]") {
  Fixture f;
  const auto id = f.initialize();
  const auto call = json{{"jsonrpc", "2.0"}, {"id", "call-1"}, {"method", "tools/call"}, {"params", {{"name", "ask"}}}};
  auto pending = std::async(std::launch::async, [&] {
    httplib::Client c("127.0.0.1", f.server->port());
    c.set_read_timeout(10, 0);
    return c.Post("/mcp", f.with_session(id), call.dump(), "application/json");
  });
  // The session's first request to the client has id 1; answer it until the call completes.
  const auto answer =
      json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}};
  while (pending.wait_for(50ms) != std::future_status::ready) {
    CHECK(f.client->Post("/mcp", f.with_session(id), answer.dump(), "application/json")->status == 202);
  }
  const auto r = pending.get();
  REQUIRE(r);
  const auto messages = sse_messages(r->body);
  REQUIRE(messages.size() == 2);
  CHECK(messages[0]["method"] == "elicitation/create");
  CHECK(messages[0]["params"]["message"] == "Please provide your GitHub username");
  CHECK(messages[1]["id"] == "call-1");
  CHECK(messages[1]["result"]["content"][0]["text"] == "octocat");
}

TEST_CASE("one GET stream per session; stop() ends open streams", "[http]") {
  Fixture f;
  const auto id = f.initialize();
  auto get = std::async(std::launch::async, [&] {
    httplib::Client c("127.0.0.1", f.server->port());
    c.set_read_timeout(10, 0);
    auto h = f.with_session(id);
    return c.Get("/mcp", h);
  });
  std::this_thread::sleep_for(200ms);
  auto h = f.with_session(id);
  CHECK(f.client->Get("/mcp", h)->status == 409);
  f.server->stop();
  REQUIRE(get.wait_for(5s) == std::future_status::ready);
  const auto r = get.get();
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.find(": keepalive") != std::string::npos);  // 100 ms keepalive comments while idle
}
