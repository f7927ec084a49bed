// elicit::Client and HttpClientTransport against a scripted loopback HTTP server:
//  - x-mcp-header (MCP 2026-07-28, server/tools "x-mcp-header"; Streamable HTTP, "Custom Headers from
//    Tool Parameters"): a tool with an invalid annotation is left out of list_tools() with a warning,
//    a valid one's arguments go as Mcp-Param-* headers, and after -32020 the tools are listed again
//    and the call retried once;
//  - HttpClientOptions::headers on every request, refused when they are the transport's own, and
//    http::BearerToken sent as is and never renewed after a 401;
//  - SSE resumption (2025-11-25, Streamable HTTP, "Resumability and Redelivery"): a request's stream
//    that ends before its response is resumed with GET and Last-Event-ID, a bounded number of times,
//    and a 2026-07-28 request's stream is not.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/http/client_authorization.hpp>
#include <elicit/http/client_transport.hpp>

#include "../support/patience.hpp"
#include "../support/scripted_http_server.hpp"

namespace client_headers_test {

using namespace elicit;
using nlohmann::json;

namespace {

using test_support::json_response;
using test_support::ScriptedServer;
using test_support::Seen;

// An SSE response carrying `events` (each already "field: value\n" lines), ended (chunked).
std::string sse_response(const std::vector<std::string>& events) {
  std::string out =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  for (const auto& e : events) {
    const auto chunk = e + "\n\n";  // the blank line ends the event
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
    out += size + chunk + "\r\n";
  }
  return out + "0\r\n\r\n";
}

std::string not_found() { return "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"; }

json result_for(const Seen& s, json result) { return {{"jsonrpc", "2.0"}, {"id", s.body["id"]}, {"result", result}}; }

// A 2026-07-28 server with `tools`: server/discover, tools/list, and tools/call answered by `call`.
std::function<std::string(const Seen&)> modern_server(json tools, std::function<std::string(const Seen&)> call) {
  return [tools = std::move(tools), call = std::move(call)](const Seen& s) {
    const auto method = s.body.value("method", std::string());
    if (method == "server/discover")
      return json_response(result_for(s, {{"resultType", "complete"},
                                          {"supportedVersions", {"2026-07-28"}},
                                          {"capabilities", {{"tools", json::object()}}},
                                          {"serverInfo", {{"name", "scripted"}, {"version", "1"}}}}));
    if (method == "tools/list") return json_response(result_for(s, {{"resultType", "complete"}, {"tools", tools}}));
    if (method == "tools/call") return call(s);
    return json_response({{"jsonrpc", "2.0"}, {"id", s.body["id"]}, {"error", {{"code", -32601}, {"message", "no"}}}});
  };
}

json tool(const std::string& name, const json& properties) {
  return {{"name", name}, {"inputSchema", {{"type", "object"}, {"properties", properties}}}};
}

// The one JSON-RPC message with `id` that `transport` delivers after sending `message`: within the
// patience bound, else null.
json exchange(http::HttpClientTransport& transport, const json& message) {
  // Shared with the transport's thread, which may still be inside the callback when this returns.
  struct Waiter {
    std::promise<json> got;
    std::once_flag once;
  };
  auto waiter = std::make_shared<Waiter>();
  auto answer = waiter->got.get_future();
  transport.start(
      [waiter, id = message["id"]](std::string text) {
        const auto m = json::parse(text, nullptr, false);
        if (m.is_object() && m.value("id", json()) == id && !m.contains("method"))
          std::call_once(waiter->once, [&] { waiter->got.set_value(m); });
      },
      [] {});
  REQUIRE(transport.send(message.dump(), {}));
  if (answer.wait_for(test_support::kPatience) != std::future_status::ready) return nullptr;
  return answer.get();
}

}  // namespace

TEST_CASE("x-mcp-header: an invalid tool is left out with a warning, a valid one's arguments go as headers",
          "[client][http][x-mcp-header]") {
  const json tools = {tool("route", {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                     {"count", {{"type", "integer"}, {"x-mcp-header", "Count"}}},
                                     {"query", {{"type", "string"}}}}),
                      tool("scored", {{"score", {{"type", "number"}, {"x-mcp-header", "Score"}}}}),
                      tool("twice", {{"a", {{"type", "string"}, {"x-mcp-header", "Same"}}},
                                     {"b", {{"type", "string"}, {"x-mcp-header", "same"}}}}),
                      tool("plain", {{"q", {{"type", "string"}}}})};
  ScriptedServer server(modern_server(tools, [](const Seen& s) {
    return json_response(result_for(s, {{"resultType", "complete"}, {"content", json::array()}}));
  }));
  http::HttpClientOptions t;
  t.url = server.url;
  ClientOptions o;
  std::vector<std::string> log;
  std::mutex log_mutex;
  o.session.log = [&](std::string_view line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    log.emplace_back(line);
  };
  Client client(std::make_unique<http::HttpClientTransport>(t), o);
  client.connect();
  const auto listed = client.list_tools();
  std::vector<std::string> names;
  for (const auto& x : listed) names.push_back(x["name"]);
  CHECK(names == std::vector<std::string>{"route", "plain"});
  {
    std::lock_guard<std::mutex> lock(log_mutex);
    REQUIRE(log.size() == 2);
    CHECK_THAT(log[0], Catch::Contains("\"scored\"") && Catch::Contains("number"));
    CHECK_THAT(log[1], Catch::Contains("\"twice\"") && Catch::Contains("already used"));
  }

  client.call_tool("route", {{"region", "eu west \xc3\xa9"}, {"count", 12}, {"query", "SELECT 1"}});
  client.call_tool("route", {{"region", nullptr}, {"query", "x"}});
  client.call_tool("plain", {{"q", "x"}});
  // A tool that was left out is not called: nothing reaches the server.
  const auto before = server.seen().size();
  try {
    client.call_tool("scored", {{"score", 1.5}});
    FAIL("a rejected tool was called");
  } catch (const ClientError& e) {
    CHECK(e.code() == 0);
    CHECK_THAT(e.what(), Catch::Contains("x-mcp-header"));
  }
  const auto seen = server.seen();
  CHECK(seen.size() == before);
  std::vector<Seen> calls;
  std::copy_if(seen.begin(), seen.end(), std::back_inserter(calls),
               [](const Seen& s) { return s.body.value("method", std::string()) == "tools/call"; });
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].header("mcp-param-region") == "=?base64?ZXUgd2VzdCDDqQ==?=");
  CHECK(calls[0].header("mcp-param-count") == "12");
  CHECK(calls[0].headers.count("mcp-param-query") == 0);
  CHECK(calls[1].headers.count("mcp-param-region") == 0);  // null: omitted
  CHECK(calls[1].headers.count("mcp-param-count") == 0);   // absent: omitted
  for (const auto& c : calls[2].headers) CHECK(c.first.rfind("mcp-param-", 0) != 0);
}

TEST_CASE("x-mcp-header: after -32020 the tools are listed again and the call retried once with the new headers",
          "[client][http][x-mcp-header]") {
  // The first listing has no annotation; the server then wants Mcp-Param-Region (its tool changed).
  std::mutex m;
  int listings = 0;
  const auto handler = modern_server(json::array(), nullptr);
  ScriptedServer server([&](const Seen& s) {
    const auto method = s.body.value("method", std::string());
    if (method == "tools/list") {
      std::lock_guard<std::mutex> lock(m);
      const json props = ++listings == 1 ? json{{"region", {{"type", "string"}}}}
                                         : json{{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}};
      return json_response(result_for(s, {{"resultType", "complete"}, {"tools", {tool("route", props)}}}));
    }
    if (method == "tools/call") {
      if (s.header("mcp-param-region") != "us-west1")
        return json_response(
            {{"jsonrpc", "2.0"}, {"id", s.body["id"]}, {"error", {{"code", -32020}, {"message", "Header mismatch"}}}},
            400);
      return json_response(result_for(s, {{"resultType", "complete"}, {"content", json::array()}}));
    }
    return handler(s);
  });
  http::HttpClientOptions t;
  t.url = server.url;
  ClientOptions o;
  o.session.log = [](std::string_view) {};
  Client client(std::make_unique<http::HttpClientTransport>(t), o);
  client.connect();
  // Never listed by the host: the client lists first, then finds the annotation only after -32020.
  CHECK(client.call_tool("route", {{"region", "us-west1"}})["content"].is_array());
  std::lock_guard<std::mutex> lock(m);
  CHECK(listings == 2);
}

TEST_CASE("SSE: a request's stream closed before its response is resumed with GET and Last-Event-ID",
          "[client][http][sse]") {
  ScriptedServer server([](const Seen& s) {
    if (s.method == "POST")  // priming event with an id and a short retry, then the connection ends
      return sse_response({"id: call-1\nretry: 10\ndata: "});
    if (s.header("last-event-id") != "call-1") return not_found();
    const json response = {{"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"content", json::array()}}}};
    return sse_response({"id: call-2\ndata: " + response.dump()});
  });
  http::HttpClientOptions t;
  t.url = server.url;
  t.protocol_version = "2025-11-25";
  http::HttpClientTransport transport(t);
  const auto answer =
      exchange(transport, {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"}, {"params", {{"name", "x"}}}});
  CHECK(answer.contains("result"));
  transport.close();
  const auto seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].method == "GET");
  CHECK(seen[1].header("last-event-id") == "call-1");
  CHECK(seen[1].header("accept") == "text/event-stream");
}

TEST_CASE("SSE: resumption is bounded, and a 2026-07-28 request's stream is not resumed", "[client][http][sse]") {
  ScriptedServer server([](const Seen& s) {
    if (s.method == "POST") return sse_response({"id: call-1\nretry: 1\ndata: "});
    return not_found();  // the stream cannot be resumed
  });
  http::HttpClientOptions t;
  t.url = server.url;
  t.protocol_version = "2025-11-25";
  {
    http::HttpClientTransport transport(t);
    const auto answer = exchange(transport, {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}});
    REQUIRE(answer.contains("error"));
    CHECK(answer["error"]["code"] == -32000);
    transport.close();
    const auto seen = server.seen();
    CHECK(std::count_if(seen.begin(), seen.end(), [](const Seen& s) { return s.method == "GET"; }) == 3);
  }
  const auto before = server.seen().size();
  http::HttpClientTransport modern(t);
  const auto answer =
      exchange(modern, {{"jsonrpc", "2.0"},
                        {"id", 2},
                        {"method", "tools/call"},
                        {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}});
  REQUIRE(answer.contains("error"));
  modern.close();
  CHECK(server.seen().size() == before + 1);  // the POST only
}

TEST_CASE("HttpClientOptions::headers go with every request, and a BearerToken is sent and never renewed",
          "[client][http][headers]") {
  std::atomic<int> unauthorized{0};
  ScriptedServer server([&](const Seen& s) {
    if (s.body.value("method", std::string()) == "tools/call") {
      ++unauthorized;
      return std::string(
          "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer error=\"invalid_token\"\r\n"
          "Connection: close\r\nContent-Length: 0\r\n\r\n");
    }
    return modern_server(json::array(), nullptr)(s);
  });
  http::HttpClientOptions t;
  t.url = server.url;
  t.headers = {{"X-Gateway-Key", "k 1"}, {"X-Tenant", "acme"}};
  t.authorization = std::make_shared<http::BearerToken>("tok.en-_~+/==");
  ClientOptions o;
  o.session.log = [](std::string_view) {};
  Client client(std::make_unique<http::HttpClientTransport>(t), o);
  client.connect();
  client.list_tools();
  try {
    client.call_tool("x", json::object());
    FAIL("a refused token was taken");
  } catch (const ClientError& e) {
    CHECK_THAT(e.what(), Catch::Contains("the server refused the bearer token given (HTTP 401; WWW-Authenticate: "
                                         "Bearer error=\"invalid_token\")"));
    CHECK(e.data().value(jsonrpc::kTransportFailure, std::string()) == "authorization");
    CHECK(std::string(e.what()).find("tok.en") == std::string::npos);
  }
  CHECK(unauthorized == 1);  // never sent again with the same token
  const auto seen = server.seen();
  REQUIRE(seen.size() >= 3);
  for (const auto& s : seen) {
    INFO(s.method << " " << s.body.dump());
    CHECK(s.header("x-gateway-key") == "k 1");
    CHECK(s.header("x-tenant") == "acme");
    CHECK(s.header("authorization") == "Bearer tok.en-_~+/==");
  }
  // The transport's own fields, Mcp-*, and what could split a request are refused up front.
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{{"Host", "x"},
                                                                          {"content-type", "x"},
                                                                          {"Authorization", "Bearer y"},
                                                                          {"Mcp-Session-Id", "1"},
                                                                          {"MCP-Protocol-Version", "1"},
                                                                          {"X Bad", "v"},
                                                                          {"X-Split", "a\r\nX-Evil: 1"}}) {
    INFO(bad.first);
    http::HttpClientOptions b;
    b.url = server.url;
    b.headers = {bad};
    CHECK_THROWS_AS(http::HttpClientTransport(b), std::invalid_argument);
  }
  CHECK_THROWS_AS(http::BearerToken(""), std::invalid_argument);
  CHECK_THROWS_AS(http::BearerToken("a b"), std::invalid_argument);
  CHECK_THROWS_AS(http::BearerToken("ab=c"), std::invalid_argument);
  CHECK_NOTHROW(http::BearerToken("abc=="));
}

}  // namespace client_headers_test
