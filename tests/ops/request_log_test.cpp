// The operations wing's request log (elicit/ops/request_log.hpp): one JSON line per request with who,
// what and how it ended; refusals; the level; what a client sends kept bounded; and a run that sends
// a bearer token, a cookie, a requestState, arguments and form contents leaves none of them in it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include <elicit/ops/observers.hpp>
#include <elicit/ops/request_log.hpp>

#include "ops_fixture.hpp"

namespace ops_test {

namespace {

struct Lines {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::function<void(std::string_view)> sink() {
    return [this](std::string_view line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.emplace_back(line);
    };
  }
  std::vector<json> parsed() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<json> out;
    for (const auto& l : lines) out.push_back(json::parse(l));  // every line is one JSON object
    return out;
  }
  std::string all() {
    std::lock_guard<std::mutex> lock(mutex);
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }
};

elicit::http::HttpServerOptions logged(Lines& lines, elicit::ops::RequestLogOptions o = {}) {
  o.write = lines.sink();
  elicit::http::HttpServerOptions options;
  options.server.observer = std::make_shared<elicit::ops::RequestLog>(std::move(o));
  elicit::http::ResourceServerOptions a;
  a.resource = "http://127.0.0.1/mcp";
  a.authorization_servers = {"https://as.example"};
  a.verify = [](std::string_view token) {
    if (token.rfind("tok-", 0) == 0) return elicit::AccessToken{"https://as.example", "alice", {"mcp"}};
    throw elicit::http::InvalidToken("unknown token");
  };
  options.authorization = a;
  return options;
}

// Every request line has been written once its request is over (the last line can trail the
// response by a moment: the observer runs after the answer is sent).
bool lines_reach(Lines& lines, std::size_t n) {
  return test_support::eventually([&] {
    std::lock_guard<std::mutex> lock(lines.mutex);
    return lines.lines.size() >= n;
  });
}

}  // namespace

TEST_CASE("one JSON line per request: when, who, what, how it ended, how long", "[ops][log]") {
  Lines lines;
  Server s(logged(lines));
  const http_test::Headers bearer{{"Authorization", "Bearer tok-alice"}};
  const auto done = ask_round_trip(s, 41, "octocat", bearer);
  REQUIRE(done["result"]["content"][0]["text"] == "hello octocat");
  REQUIRE(lines_reach(lines, 2));
  auto log = lines.parsed();
  REQUIRE(log.size() == 2);
  // Each line is written just after its answer is sent: in the order the requests end, mostly.
  std::sort(log.begin(), log.end(), [](const json& a, const json& b) { return a["id"] < b["id"]; });
  const std::regex rfc3339(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& l = log[i];
    INFO(l.dump());
    CHECK(std::regex_match(l["time"].get<std::string>(), rfc3339));
    CHECK(l["level"] == "info");
    CHECK(l["event"] == "request");
    CHECK(l["id"] == 41 + static_cast<int>(i));
    CHECK(l["revision"] == "2026-07-28");
    CHECK(l["method"] == "tools/call");
    CHECK(l["tool"] == "ask");
    CHECK(l["principal"] == json{{"iss", "https://as.example"}, {"sub", "alice"}});
    CHECK(l["latency_ms"].is_number());
    CHECK(l["latency_ms"].get<double>() >= 0);
    CHECK_FALSE(l.contains("task_run"));
  }
  CHECK(log[0]["outcome"] == "input_required");
  CHECK(log[1]["outcome"] == "result");
  // The member order is fixed, for people reading it raw.
  CHECK(lines.all().rfind(R"({"time":)", 0) == 0);
}

TEST_CASE("tokens, cookies, requestStates, arguments and form contents never reach the log", "[ops][log]") {
  Lines lines;
  Server s(logged(lines));
  const std::string token = "tok-SECRET-token-1";
  const http_test::Headers sent{{"Authorization", "Bearer " + token}, {"Cookie", "session=SECRET-cookie-2"}};
  // Form contents and the requestState that carries the first round.
  const auto first = json::parse(s.call(tool_call(1, "ask"), sent).body);
  const auto state = first["result"]["requestState"].get<std::string>();
  const auto key = first["result"]["inputRequests"].begin().key();
  auto retry = tool_call(2, "ask");
  retry["params"]["inputResponses"][key] = {{"action", "accept"}, {"content", {{"name", "secret-form-3"}}}};
  retry["params"]["requestState"] = state;
  CHECK(json::parse(s.call(retry, sent).body)["result"]["content"][0]["text"] == "hello secret-form-3");
  // Arguments.
  CHECK(s.call(tool_call(3, "echo", {{"text", "SECRET-argument-4"}}), sent).status == 200);
  // A tampered requestState: its error's message is not logged either (messages may quote input).
  auto tampered = retry;
  tampered["id"] = 4;
  tampered["params"]["requestState"] = state.substr(0, state.size() - 4) + "AAAA";
  CHECK(json::parse(s.call(tampered, sent).body)["error"]["code"] == -32602);
  // A token refused.
  CHECK(s.call(tool_call(5, "echo"), {{"Authorization", "Bearer SECRET-refused-5"}}).status == 401);
  REQUIRE(lines_reach(lines, 5));
  const auto text = lines.all();
  INFO(text);
  for (const std::string& secret :
       {token, std::string("SECRET-cookie-2"), state, std::string("secret-form-3"), std::string("SECRET-argument-4"),
        std::string("SECRET-refused-5"), std::string("SECRET")}) {
    CHECK(text.find(secret) == std::string::npos);
  }
  // ...and what it does say about them.
  const auto log = lines.parsed();
  REQUIRE(log.size() == 5);
  // Found by content: each line is written just after its answer is sent, so not surely in order.
  const auto tampered_line =
      std::find_if(log.begin(), log.end(), [](const json& l) { return l.value("id", json()) == 4; });
  REQUIRE(tampered_line != log.end());
  CHECK((*tampered_line)["outcome"] == "error");
  CHECK((*tampered_line)["error_code"] == -32602);
  CHECK((*tampered_line)["level"] == "warning");
  CHECK_FALSE(tampered_line->contains("message"));
  const auto refused =
      std::find_if(log.begin(), log.end(), [](const json& l) { return l.value("event", "") == "refused"; });
  REQUIRE(refused != log.end());
  CHECK((*refused)["status"] == 401);
  CHECK((*refused)["reason"] == "invalid_token");
}

TEST_CASE("the level filters lines, and what a client sends is cut to 128 bytes", "[ops][log]") {
  Lines lines;
  elicit::ops::RequestLogOptions o;
  o.level = elicit::LoggingLevel::warning;
  Server s(logged(lines, o));
  const http_test::Headers bearer{{"Authorization", "Bearer tok-alice"}};
  CHECK(s.call(tool_call(1, "echo"), bearer).status == 200);  // info: not written
  const std::string long_id(10000, 'i');
  const auto r = json::parse(s.call(tool_call(long_id, "nope"), bearer).body);  // an unknown tool: -32602
  CHECK(r["error"]["code"] == -32602);
  REQUIRE(lines_reach(lines, 1));
  const auto log = lines.parsed();
  REQUIRE(log.size() == 1);
  CHECK(log[0]["id"] == std::string(128, 'i'));
  CHECK(log[0]["tool"] == "nope");
}

TEST_CASE("observers() tells each observer, even when one throws", "[ops][log]") {
  struct Throws : elicit::ServerObserver {
    void request_ended(const elicit::RequestRecord&) override { throw std::runtime_error("broken"); }
  };
  Lines lines;
  elicit::ops::RequestLogOptions o;
  o.write = lines.sink();
  auto both =
      elicit::ops::observers({std::make_shared<Throws>(), nullptr, std::make_shared<elicit::ops::RequestLog>(o)});
  const elicit::RequestId id{std::string("x")};
  const elicit::jsonrpc::Answered ok{elicit::jsonrpc::Answered::Kind::result, nullptr, false};
  both->request_ended({id, "ping", "", "2025-11-25", nullptr, ok, 1ms});
  both->request_refused(503, "capacity");
  const auto log = lines.parsed();
  REQUIRE(log.size() == 2);
  CHECK(log[0]["method"] == "ping");
  CHECK(log[1]["reason"] == "capacity");
}

}  // namespace ops_test
