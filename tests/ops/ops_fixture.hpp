// A StreamableHttpServer with the operations wing on it, for the ops tests: tools that answer, ask a
// form (over two 2026-07-28 rounds) and wait for the test's gate; 2026-07-28 requests posted with
// their headers. Loopback only; every wait bounded by test_support::kPatience.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include <elicit/http/server.hpp>
#include <nlohmann/json.hpp>

#include "../support/http_client.hpp"
#include "../support/patience.hpp"
#include "github_username.hpp"

namespace ops_test {

using http_test::bhttp::verb;
using nlohmann::json;
using namespace std::chrono_literals;

// A tool call waits here until the test opens it (bounded).
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  int started = 0;

  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    cv.notify_all();
  }
  bool wait_started(int n) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, test_support::kPatience, [&] { return started >= n; });
  }
};

inline std::shared_ptr<elicit::Server> make_core(const std::shared_ptr<Gate>& gate) {
  auto core = std::make_shared<elicit::Server>(elicit::ServerInfo{"ops-test", "1"});
  core->add_tool({"echo", "says what it was given", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext& c) {
                    return elicit::ToolResult::text(c.arguments().value("text", std::string()));
                  }});
  core->add_tool({"ask", "asks a username", {{"type", "object"}}, std::nullopt, [](elicit::RequestContext& call) {
                    auto o = call.elicit<samples::GithubUsername>();
                    return elicit::ToolResult::text(o ? "hello " + o.value->name : "no answer");
                  }});
  core->add_tool(
      {"hold", "waits for the test's gate", {{"type", "object"}}, std::nullopt, [gate](elicit::RequestContext& call) {
         // Ended by the gate, or by the call's end: the client cancelling, or the server stopping
         // (which runs on_cancel without marking the call cancelled()).
         auto ended = std::make_shared<bool>(false);
         call.on_cancel([gate, ended] {
           std::lock_guard<std::mutex> lock(gate->mutex);
           *ended = true;
           gate->cv.notify_all();
         });
         std::unique_lock<std::mutex> lock(gate->mutex);
         ++gate->started;
         gate->cv.notify_all();
         gate->cv.wait_for(lock, test_support::kPatience, [&] { return gate->open || *ended; });
         return elicit::ToolResult::text("released");
       }});
  return core;
}

inline json meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientInfo", {{"name", "ops-test"}, {"version", "1"}}},
          {"io.modelcontextprotocol/clientCapabilities", {{"elicitation", {{"form", json::object()}}}}}};
}

// A 2026-07-28 request.
inline json stateless(const json& id, const std::string& method, json params = json::object()) {
  params["_meta"] = meta();
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

inline json tool_call(const json& id, const std::string& tool, json arguments = json::object()) {
  return stateless(id, "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
}

struct Server {
  explicit Server(elicit::http::HttpServerOptions o) {
    o.io_threads = 2;
    o.server.session.log = [](std::string_view) {};
    server = std::make_unique<elicit::http::StreamableHttpServer>(make_core(gate), std::move(o));
    server->start();
  }

  // Posts a 2026-07-28 request with the headers that go with it (and `extra`).
  http_test::Response call(const json& body, const http_test::Headers& extra = {}) const {
    auto h = http_test::kAccept;
    h.emplace_back("MCP-Protocol-Version", "2026-07-28");
    h.emplace_back("Mcp-Method", body["method"].get<std::string>());
    if (body["params"].contains("name")) h.emplace_back("Mcp-Name", body["params"]["name"].get<std::string>());
    h.insert(h.end(), extra.begin(), extra.end());
    http_test::Connection c(server->port());
    return c.request(verb::post, "/mcp", h, body.dump());
  }

  http_test::Response get(const std::string& path) const {
    http_test::Connection c(server->port());
    return c.request(verb::get, path, {});
  }

  std::shared_ptr<Gate> gate = std::make_shared<Gate>();
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
};

// The `ask` tool over two rounds: input_required, then the retry with the answer and the state.
inline json ask_round_trip(const Server& s, int id, const std::string& name, const http_test::Headers& extra = {}) {
  const auto first = s.call(tool_call(id, "ask"), extra);
  const auto round = json::parse(first.body);
  if (round["result"].value("resultType", "") != "input_required") return round;
  const auto key = round["result"]["inputRequests"].begin().key();
  auto retry = tool_call(id + 1, "ask");
  retry["params"]["inputResponses"][key] = {{"action", "accept"}, {"content", {{"name", name}}}};
  retry["params"]["requestState"] = round["result"]["requestState"];
  return json::parse(s.call(retry, extra).body);
}

}  // namespace ops_test
