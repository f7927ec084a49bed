// The operations wing's metrics (elicit/ops/metrics.hpp): the series a run of requests moves, the
// labels a client cannot multiply, the refusals by reason, the live gauges, the scrape route, and
// the exposition checked by Prometheus's own promtool.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <elicit/ops/metrics.hpp>

#include "../support/run_command.hpp"
#include "../support/scratch_dir.hpp"
#include "../support/session_initialize.hpp"
#include "ops_fixture.hpp"

namespace ops_test {

namespace {

using Labels = std::map<std::string, std::string>;

// The value of the sample `name{labels}` in a scrape (labels exactly these), or -1 when absent.
double sample(const std::string& scrape, const std::string& name, const Labels& labels = {}) {
  std::istringstream in(scrape);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto brace = line.find('{');
    const auto space = line.rfind(' ');
    const auto metric = line.substr(0, std::min(brace, space));
    if (metric != name) continue;
    Labels found;
    if (brace != std::string::npos) {
      const auto end = line.find('}', brace);
      std::string body = line.substr(brace + 1, end - brace - 1);
      for (std::size_t pos = 0; pos < body.size();) {
        const auto eq = body.find('=', pos);
        const auto close = body.find('"', eq + 2);
        found[body.substr(pos, eq - pos)] = body.substr(eq + 2, close - eq - 2);
        pos = close + 2;  // past `",`
      }
    }
    if (found == labels) return std::stod(line.substr(space + 1));
  }
  return -1;
}

struct Metered {
  explicit Metered(elicit::http::HttpServerOptions o = {}) : metrics(std::make_shared<elicit::ops::Metrics>()) {
    o.server.observer = metrics;
    o.routes.push_back(metrics->routes());
    server = std::make_unique<Server>(std::move(o));
    metrics->track(*server->server);
  }
  std::string scrape() const { return server->get("/metrics").body; }
  // A scrape once `ready` holds of it (bounded): a request is counted just after its answer is sent,
  // so the client can read the answer a moment before the count moves.
  std::string scrape_when(const std::function<bool(const std::string&)>& ready) const {
    std::string text;
    test_support::eventually([&] { return ready(text = scrape()); });
    return text;
  }

  std::shared_ptr<elicit::ops::Metrics> metrics;
  std::unique_ptr<Server> server;
};

const elicit::jsonrpc::Answered kResult{elicit::jsonrpc::Answered::Kind::result, nullptr, false};

}  // namespace

TEST_CASE("requests are counted by method, revision and outcome, and timed", "[ops][metrics]") {
  Metered m;
  for (int i = 0; i < 2; ++i) {
    const auto done = ask_round_trip(*m.server, 10 + 2 * i, "octocat");
    CHECK(done["result"]["content"][0]["text"] == "hello octocat");
  }
  CHECK(m.server->call(stateless(20, "tools/list")).status == 200);
  const Labels call{{"method", "tools/call"}, {"revision", "2026-07-28"}};
  const auto text = m.scrape_when([&](const std::string& t) {
    return sample(t, "elicit_request_duration_seconds_count", call) == 4 &&
           sample(t, "elicit_request_duration_seconds_count", {{"method", "tools/list"}, {"revision", "2026-07-28"}}) ==
               1;
  });
  INFO(text);
  auto with = [](Labels l, const std::string& k, const std::string& v) {
    l[k] = v;
    return l;
  };
  CHECK(sample(text, "elicit_requests_total", with(call, "outcome", "input_required")) == 2);
  CHECK(sample(text, "elicit_requests_total", with(call, "outcome", "result")) == 2);
  CHECK(sample(text, "elicit_requests_total",
               {{"method", "tools/list"}, {"revision", "2026-07-28"}, {"outcome", "result"}}) == 1);
  CHECK(sample(text, "elicit_request_duration_seconds_count", call) == 4);
  CHECK(sample(text, "elicit_request_duration_seconds_bucket", with(call, "le", "+Inf")) == 4);
  CHECK(sample(text, "elicit_request_duration_seconds_sum", call) > 0);
  CHECK(sample(text, "elicit_request_states_refused_total") == 0);
  CHECK(sample(text, "elicit_http_sessions") == 0);
  CHECK(sample(text, "elicit_http_requests_in_flight") == 0);
  CHECK(sample(text, "elicit_http_draining") == 0);
}

TEST_CASE("a requestState that does not open is counted, and its error by code", "[ops][metrics]") {
  Metered m;
  const auto first = json::parse(m.server->call(tool_call(1, "ask")).body);
  auto retry = tool_call(2, "ask");
  const auto key = first["result"]["inputRequests"].begin().key();
  retry["params"]["inputResponses"][key] = {{"action", "accept"}, {"content", {{"name", "octocat"}}}};
  auto state = first["result"]["requestState"].get<std::string>();
  state[state.size() / 2] = state[state.size() / 2] == 'A' ? 'B' : 'A';  // tampered with
  retry["params"]["requestState"] = state;
  const auto refused = json::parse(m.server->call(retry).body);
  CHECK(refused["error"]["code"] == -32602);
  const auto text =
      m.scrape_when([](const std::string& t) { return sample(t, "elicit_request_states_refused_total") == 1; });
  INFO(text);
  CHECK(sample(text, "elicit_request_states_refused_total") == 1);
  CHECK(sample(text, "elicit_request_errors_total", {{"method", "tools/call"}, {"code", "-32602"}}) == 1);
}

TEST_CASE("labels a client could make up are recorded as other", "[ops][metrics]") {
  elicit::ops::Metrics metrics;
  const elicit::RequestId id{std::int64_t{1}};
  const elicit::RpcError not_found{elicit::error_code::method_not_found, "Method not found", std::nullopt};
  const elicit::jsonrpc::Answered unknown{elicit::jsonrpc::Answered::Kind::error, &not_found, false};
  for (int i = 0; i < 100; ++i) {
    const auto method = "made/up/" + std::to_string(i);
    const auto revision = "v" + std::to_string(i);
    metrics.request_ended({id, method, "", revision, nullptr, unknown, 1ms});
  }
  metrics.request_ended({id, "tools/list", "", "2025-11-25", nullptr, kResult, 1ms});
  const auto text = metrics.scrape();
  INFO(text);
  CHECK(sample(text, "elicit_requests_total", {{"method", "other"}, {"revision", "other"}, {"outcome", "error"}}) ==
        100);
  CHECK(sample(text, "elicit_requests_total",
               {{"method", "tools/list"}, {"revision", "2025-11-25"}, {"outcome", "result"}}) == 1);
  CHECK(text.find("made/up") == std::string::npos);
}

TEST_CASE("bearer tokens refused are counted by reason", "[ops][metrics]") {
  elicit::http::HttpServerOptions o;
  elicit::http::ResourceServerOptions a;
  a.resource = "http://127.0.0.1/mcp";
  a.authorization_servers = {"https://as.example"};
  a.required_scopes = {"mcp"};
  a.verify = [](std::string_view token) {
    if (token == "good") return elicit::AccessToken{"https://as.example", "alice", {"mcp"}};
    if (token == "narrow") return elicit::AccessToken{"https://as.example", "bob", {}};
    throw elicit::http::InvalidToken("unknown token");
  };
  o.authorization = a;
  Metered m(o);
  CHECK(m.server->call(tool_call(1, "echo")).status == 401);
  CHECK(m.server->call(tool_call(2, "echo"), {{"Authorization", "Bearer forged"}}).status == 401);
  CHECK(m.server->call(tool_call(3, "echo"), {{"Authorization", "Bearer forged"}}).status == 401);
  CHECK(m.server->call(tool_call(4, "echo"), {{"Authorization", "Bearer narrow"}}).status == 403);
  CHECK(m.server->call(tool_call(5, "echo"), {{"Authorization", "Bearer no good"}}).status == 400);
  CHECK(m.server->call(tool_call(6, "echo"), {{"Authorization", "Bearer good"}}).status == 200);
  const auto text = m.scrape_when([](const std::string& t) {
    return sample(t, "elicit_requests_total",
                  {{"method", "tools/call"}, {"revision", "2026-07-28"}, {"outcome", "result"}}) == 1;
  });
  INFO(text);
  CHECK(sample(text, "elicit_http_refusals_total", {{"reason", "no_token"}}) == 1);
  CHECK(sample(text, "elicit_http_refusals_total", {{"reason", "invalid_token"}}) == 2);
  CHECK(sample(text, "elicit_http_refusals_total", {{"reason", "insufficient_scope"}}) == 1);
  CHECK(sample(text, "elicit_http_refusals_total", {{"reason", "invalid_request"}}) == 1);
  CHECK(sample(text, "elicit_requests_total",
               {{"method", "tools/call"}, {"revision", "2026-07-28"}, {"outcome", "result"}}) == 1);
}

TEST_CASE("a 2025-11-25 elicitation waiting for a person shows in the gauge until it is answered", "[ops][metrics]") {
  Metered m;
  const auto port = m.server->server->port();
  http_test::Connection c(port);
  auto init = c.request(verb::post, "/mcp", http_test::kAccept,
                        test_support::session_initialize({{"elicitation", json::object()}}).dump());
  REQUIRE(init.status == 200);
  const auto session = init.header("mcp-session-id");
  auto headers = http_test::kAccept;
  headers.emplace_back("Mcp-Session-Id", session);
  headers.emplace_back("MCP-Protocol-Version", "2025-11-25");
  http_test::Connection(port).request(verb::post, "/mcp", headers,
                                      json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump());
  const auto waiting_before = sample(m.scrape(), "elicit_elicitations_waiting");
  http_test::Connection stream(port);
  stream.send(verb::post, "/mcp", headers,
              json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {{"name", "ask"}}}}.dump());
  REQUIRE(stream.read_head().status == 200);
  const auto ask = stream.next_message();
  REQUIRE(ask);
  REQUIRE((*ask)["method"] == "elicitation/create");
  auto text = m.scrape();
  CHECK(sample(text, "elicit_elicitations_waiting") == waiting_before + 1);
  CHECK(sample(text, "elicit_http_sessions") == 1);
  CHECK(sample(text, "elicit_http_requests_in_flight") == 1);
  const json answer{
      {"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"result", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}};
  CHECK(http_test::Connection(port).request(verb::post, "/mcp", headers, answer.dump()).status == 202);
  const auto done = stream.next_message();
  REQUIRE(done);
  CHECK((*done)["result"]["content"][0]["text"] == "hello octocat");
  CHECK(test_support::eventually([&] { return sample(m.scrape(), "elicit_elicitations_waiting") == waiting_before; }));
  text = m.scrape_when([](const std::string& t) {
    return sample(t, "elicit_requests_total",
                  {{"method", "tools/call"}, {"revision", "2025-11-25"}, {"outcome", "result"}}) == 1;
  });
  CHECK(sample(text, "elicit_requests_total",
               {{"method", "tools/call"}, {"revision", "2025-11-25"}, {"outcome", "result"}}) == 1);
  CHECK(sample(text, "elicit_requests_total", {{"method", "initialize"}, {"revision", ""}, {"outcome", "result"}}) ==
        1);
}

TEST_CASE("gauges of the application's own are read at each scrape, bad names refused", "[ops][metrics]") {
  elicit::ops::Metrics metrics;
  std::atomic<int> pages{3};
  metrics.add_gauge("myapp_form_pages_open", "Browser form pages open", {}, [&] { return pages.load(); });
  metrics.add_gauge("myapp_tasks", "Tasks by status", {{"status", "working"}}, [] { return 2.0; });
  metrics.add_gauge("myapp_tasks", "Tasks by status", {{"status", "completed"}}, [] { return 5.0; });
  metrics.add_gauge("myapp_broken", "A gauge that cannot be read", {},
                    []() -> double { throw std::runtime_error("x"); });
  auto text = metrics.scrape();
  CHECK(sample(text, "myapp_form_pages_open") == 3);
  pages = 4;
  text = metrics.scrape();
  INFO(text);
  CHECK(sample(text, "myapp_form_pages_open") == 4);
  CHECK(sample(text, "myapp_tasks", {{"status", "working"}}) == 2);
  CHECK(sample(text, "myapp_tasks", {{"status", "completed"}}) == 5);
  CHECK(text.find("myapp_broken") == std::string::npos);
  CHECK_THROWS_AS(metrics.add_gauge("1bad", "", {}, [] { return 0.0; }), std::invalid_argument);
  CHECK_THROWS_AS(metrics.add_gauge("ok_name", "", {{"bad-label", "x"}}, [] { return 0.0; }), std::invalid_argument);
  CHECK_THROWS_AS(metrics.add_gauge("elicit_requests_total", "", {}, [] { return 0.0; }), std::invalid_argument);
  elicit::ops::MetricsOptions unordered;
  unordered.duration_buckets = {1, 0.5};
  CHECK_THROWS_AS(elicit::ops::Metrics(unordered), std::invalid_argument);
}

TEST_CASE("the scrape route: GET and HEAD, the exposition format's type, its path checked", "[ops][metrics]") {
  Metered m;
  http_test::Connection c(m.server->server->port());
  const auto r = c.request(verb::get, "/metrics", {});
  CHECK(r.status == 200);
  CHECK(r.header("content-type") == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(r.body.find("# TYPE elicit_request_states_refused_total counter") != std::string::npos);
  CHECK(c.request(verb::head, "/metrics", {}).status == 200);
  const auto post = c.request(verb::post, "/metrics", {{"Content-Type", "text/plain"}}, "x");
  CHECK(post.status == 405);
  elicit::ops::MetricsOptions bad;
  bad.path = "/mcp";
  elicit::ops::Metrics metrics(bad);
  elicit::http::HttpServerOptions o;
  o.routes.push_back(metrics.routes());
  elicit::http::StreamableHttpServer server(std::make_shared<elicit::Server>(elicit::ServerInfo{"t", "1"}), o);
  CHECK_THROWS_AS(server.start(), std::invalid_argument);
}

TEST_CASE("promtool check metrics accepts the exposition", "[ops][metrics][promtool]") {
  Metered m;
  ask_round_trip(*m.server, 1, "octocat");
  m.metrics->add_gauge("myapp_tasks", "Tasks by status", {{"status", "working"}}, [] { return 1.0; });
  test_support::ScratchDir dir("promtool");
  const auto file = dir.write("scrape.txt", m.scrape());
  const auto r = test_support::run_command(std::string(PROMTOOL) + " check metrics < " + file + " 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());  // no lint finding either (names, units, help)
}

}  // namespace ops_test
