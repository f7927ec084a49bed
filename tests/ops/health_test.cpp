// The operations wing's probes (elicit/ops/health.hpp) on a StreamableHttpServer: liveness,
// readiness following its checks and the server's drain, the methods allowed, the paths refused; and
// StreamableHttpServer::drain() itself: not ready at once, no new connection, idle connections
// closed, the request in flight answered (with Connection: close), then stopped.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <thread>

#include <elicit/ops/health.hpp>

#include "../support/session_initialize.hpp"
#include "ops_fixture.hpp"

namespace ops_test {

namespace {

elicit::http::HttpServerOptions with_health(elicit::ops::HealthOptions health) {
  elicit::http::HttpServerOptions o;
  o.routes.push_back(elicit::ops::health_routes(std::move(health)));
  return o;
}

// A probe as a route sees it, for asking the Routes directly (a new connection cannot be made
// once the server drains).
http_test::Response probe(elicit::http::Routes& routes, const std::string& path) {
  elicit::http::Request req;
  req.method(http_test::bhttp::verb::get);
  req.target(path);
  const auto reply = routes.serve({req, path, true, true});
  http_test::Response r;
  if (!reply) return r;
  r.status = static_cast<int>(reply->status);
  r.body = reply->body;
  return r;
}

}  // namespace

TEST_CASE("liveness and readiness are served on the server's listener, GET and HEAD only", "[ops][health]") {
  Server s(with_health({}));
  for (const auto* path : {"/healthz", "/readyz"}) {
    INFO(path);
    const auto r = s.get(path);
    CHECK(r.status == 200);
    CHECK(r.body == "ok\n");
    CHECK(r.header("cache-control") == "no-store");
    CHECK(r.header("content-type") == "text/plain; charset=utf-8");
    http_test::Connection c(s.server->port());
    const auto head = c.request(verb::head, path, {});
    CHECK(head.status == 200);
    const auto post = c.request(verb::post, path, {{"Content-Type", "text/plain"}}, "x");
    CHECK(post.status == 405);
    CHECK(post.header("allow") == "GET, HEAD");
  }
  // The MCP endpoint is served as before.
  const auto r = s.call(tool_call(1, "echo", {{"text", "hi"}}));
  CHECK(r.status == 200);
  // A Host a browser would be refused with is fine for a probe (it comes by the pod's address).
  http_test::Connection c(s.server->port());
  CHECK(c.request(verb::get, "/readyz", {{"Host", "10.1.2.3:8080"}}).status == 200);
}

TEST_CASE("readiness follows its checks, says nothing of them, and tells the operator", "[ops][health]") {
  std::atomic<bool> store_up{false};
  std::mutex changes_mutex;
  std::vector<std::pair<std::string, bool>> changes;
  elicit::ops::HealthOptions health;
  health.check_interval = 5ms;
  health.checks.push_back({"redis", [&] { return store_up.load(); }});
  health.checks.push_back({"flaky", [] { return true; }});
  health.on_change = [&](const std::string& name, bool ready) {
    std::lock_guard<std::mutex> lock(changes_mutex);
    changes.emplace_back(name, ready);
  };
  Server s(with_health(health));
  const auto status = [&] { return s.get("/readyz").status; };
  CHECK(status() == 503);
  const auto r = s.get("/readyz");
  CHECK(r.body == "not ready\n");          // which check failed is the operator's to know, not the client's
  CHECK(s.get("/healthz").status == 200);  // alive all the same
  store_up = true;
  CHECK(test_support::eventually([&] { return status() == 200; }));
  store_up = false;
  CHECK(test_support::eventually([&] { return status() == 503; }));
  std::lock_guard<std::mutex> lock(changes_mutex);
  REQUIRE(changes.size() >= 4);
  CHECK(changes[0] == std::make_pair(std::string("redis"), false));
  CHECK(changes[1] == std::make_pair(std::string("flaky"), true));
  CHECK(std::find(changes.begin(), changes.end(), std::make_pair(std::string("redis"), true)) != changes.end());
  CHECK(changes.back() == std::make_pair(std::string("redis"), false));
}

TEST_CASE("a readiness check that throws counts as failing", "[ops][health]") {
  elicit::ops::HealthOptions health;
  health.check_interval = 5ms;
  std::atomic<int> runs{0};
  health.checks.push_back({"throws", [&]() -> bool {
                             ++runs;
                             throw std::runtime_error("connection refused");
                           }});
  Server s(with_health(health));
  CHECK(test_support::eventually([&] { return runs >= 2; }));
  CHECK(s.get("/readyz").status == 503);
}

TEST_CASE("probe paths that are relative, equal, or the MCP endpoint's are refused at start", "[ops][health]") {
  const auto refused = [](elicit::ops::HealthOptions h) {
    elicit::http::StreamableHttpServer server(std::make_shared<elicit::Server>(elicit::ServerInfo{"t", "1"}),
                                              with_health(std::move(h)));
    CHECK_THROWS_AS(server.start(), std::invalid_argument);
  };
  elicit::ops::HealthOptions h;
  h.readiness_path = "readyz";
  refused(h);
  h.readiness_path = "/mcp";
  refused(h);
  h.readiness_path = "/healthz";
  refused(h);
  // An empty path is simply not served.
  h.readiness_path = "";
  Server s(with_health(h));
  CHECK(s.get("/healthz").status == 200);
  CHECK(s.get("/readyz").status == 404);
}

TEST_CASE("drain: not ready at once, no new connection, idle ones closed, the request in flight answered",
          "[ops][health][drain]") {
  auto health = elicit::ops::health_routes();
  elicit::http::HttpServerOptions o;
  o.routes.push_back(health);
  Server s(o);
  CHECK(probe(*health, "/readyz").status == 200);
  http_test::Connection idle(s.server->port());
  CHECK(idle.request(verb::get, "/healthz", {}).status == 200);  // kept alive, then idle

  auto in_flight = std::async(std::launch::async, [&] { return s.call(tool_call(7, "hold")); });
  REQUIRE(s.gate->wait_started(1));
  CHECK(s.server->requests_in_flight() == 1);
  auto drained = std::async(std::launch::async, [&] { s.server->drain(test_support::kPatience); });
  REQUIRE(test_support::eventually([&] { return s.server->draining(); }));
  CHECK(probe(*health, "/readyz").status == 503);
  CHECK(probe(*health, "/healthz").status == 200);
  CHECK(idle.closed_by_peer());  // it waited for a next request: nobody loses anything
  // The listener is closed: a new connection is refused (bounded: the close is posted to its loop).
  CHECK(test_support::eventually([&] {
    try {
      http_test::Connection c(s.server->port());
      return false;
    } catch (const std::exception&) {
      return true;
    }
  }));
  // Still serving what it began: the held call is answered, and the connection then closes.
  CHECK(drained.wait_for(50ms) == std::future_status::timeout);
  s.gate->release();
  const auto r = in_flight.get();
  CHECK(r.status == 200);
  CHECK(r.header("connection") == "close");
  CHECK(json::parse(r.body)["result"]["content"][0]["text"] == "released");
  drained.get();
  CHECK(s.server->requests_in_flight() == 0);
}

TEST_CASE("drain_delay: readiness false at once while new connections are still served", "[ops][health][drain]") {
  elicit::http::HttpServerOptions o;
  o.routes.push_back(elicit::ops::health_routes());
  o.drain_delay = test_support::kPatience;  // ended by stop() below, not waited out
  Server s(o);
  auto drained = std::async(std::launch::async, [&] { s.server->drain(test_support::kPatience); });
  REQUIRE(test_support::eventually([&] { return s.server->draining(); }));
  // A probe on a new connection: the listener still accepts, and says not ready.
  const auto ready = s.get("/readyz");
  CHECK(ready.status == 503);
  CHECK(ready.body == "not ready\n");
  // Work that still arrives (the load balancer has not heard yet) is served.
  CHECK(s.call(tool_call(1, "echo", {{"text", "late"}})).status == 200);
  s.server->stop();  // ends the delay
  drained.get();
}

TEST_CASE("drain tells a 2025-11-25 client still in a form: the elicitation cancelled on its stream, then the answer",
          "[ops][drain]") {
  elicit::http::HttpServerOptions o;
  o.write_timeout = test_support::kPatience;  // the handler's time to answer once told
  Server s(o);
  const auto port = s.server->port();
  auto init =
      http_test::Connection(port).request(verb::post, "/mcp", http_test::kAccept,
                                          test_support::session_initialize({{"elicitation", json::object()}}).dump());
  REQUIRE(init.status == 200);
  auto headers = http_test::kAccept;
  headers.emplace_back("Mcp-Session-Id", init.header("mcp-session-id"));
  headers.emplace_back("MCP-Protocol-Version", "2025-11-25");
  http_test::Connection stream(port);
  stream.send(verb::post, "/mcp", headers,
              json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"}, {"params", {{"name", "ask"}}}}.dump());
  REQUIRE(stream.read_head().status == 200);
  const auto ask = stream.next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "elicitation/create");
  // The person does not answer within the drain's timeout.
  auto drained = std::async(std::launch::async, [&] { s.server->drain(1ms); });
  const auto cancelled = stream.next_message();
  REQUIRE(cancelled);
  CHECK((*cancelled)["method"] == "notifications/cancelled");
  CHECK((*cancelled)["params"]["requestId"] == (*ask)["id"]);
  CHECK((*cancelled)["params"]["reason"] == "the server is shutting down");
  const auto answer = stream.next_message();
  REQUIRE(answer);
  CHECK((*answer)["id"] == 5);
  CHECK((*answer)["result"]["content"][0]["text"] == "no answer");
  drained.get();
}

TEST_CASE("drain gives up waiting at its deadline and stops", "[ops][drain]") {
  Server s({});
  auto in_flight = std::async(std::launch::async, [&] { return s.call(tool_call(8, "hold")); });
  REQUIRE(s.gate->wait_started(1));
  s.server->drain(1ms);  // returns: stopped, the held call cancelled
  const auto r = in_flight.get();
  CHECK(r.status == 0);  // the connection ended without an answer
  s.server->drain(1ms);  // after stop(): nothing happens
}

}  // namespace ops_test
