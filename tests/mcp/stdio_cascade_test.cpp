// The cancellation cascade over real pipes: a server on StdioTransport with one worker.
#include <catch2/catch.hpp>

#include <poll.h>
#include <unistd.h>

#include <optional>
#include <string>

#include <elicit/jsonrpc/stdio_transport.hpp>
#include <elicit/server_session.hpp>

#include "../support/patience.hpp"
#include "contact_information.hpp"

namespace stdio_cascade_test {

using namespace elicit;
using nlohmann::json;

namespace {

// The client's side of two pipes: lines to the server's stdin, lines from its stdout.
struct PipeClient {
  PipeClient() {
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
  }
  ~PipeClient() {
    for (int fd : {to_server[0], to_server[1], from_server[0], from_server[1]}) close(fd);
  }
  void send(const json& j) {
    const auto line = j.dump() + "\n";
    REQUIRE(write(to_server[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  }
  // The next line, or nullopt when nothing comes within kPatience.
  std::optional<json> next() {
    while (true) {
      if (const auto nl = buffer.find('\n'); nl != std::string::npos) {
        auto line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        return json::parse(line);
      }
      pollfd p{from_server[0], POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(test_support::kPatience.count())) <= 0) return std::nullopt;
      char chunk[4096];
      const auto n = read(from_server[0], chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer.append(chunk, static_cast<std::size_t>(n));
    }
  }
  int to_server[2];
  int from_server[2];
  std::string buffer;
};

}  // namespace

TEST_CASE("stdio: eight tool calls cancelled while their forms are open, on one worker, then a ninth",
          "[cancel][cascade][stdio]") {
  PipeClient client;
  StdioTransport transport(StdioOptions{client.to_server[0], client.from_server[1]});
  ServerSessionOptions o;
  o.worker_threads = 1;
  o.session.log = [](std::string_view) {};
  ServerSession server(transport, ServerInfo{"stdio-test", "1"}, o);
  server.add_tool(Tool{"ask",
                       "",
                       {{"type", "object"}},
                       std::nullopt,
                       [](RequestContext& call) {
                         auto r = call.elicit<samples::ContactInformation>();
                         return ToolResult::text(r ? r.value->name : std::string(to_string(r.status)));
                       },
                       nullptr});
  server.start();
  client.send({{"jsonrpc", "2.0"},
               {"id", 0},
               {"method", "initialize"},
               {"params",
                {{"protocolVersion", "2025-11-25"},
                 {"capabilities", {{"elicitation", json::object()}}},
                 {"clientInfo", {{"name", "pipe"}, {"version", "1"}}}}}});
  REQUIRE(client.next());
  for (int i = 1; i <= 8; ++i) {
    client.send({{"jsonrpc", "2.0"}, {"id", i}, {"method", "tools/call"}, {"params", {{"name", "ask"}}}});
    const auto e = client.next();
    REQUIRE(e);
    REQUIRE((*e)["method"] == "elicitation/create");
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", i}}}});
    const auto c = client.next();
    REQUIRE(c);
    CHECK((*c)["method"] == "notifications/cancelled");
    CHECK((*c)["params"]["requestId"] == (*e)["id"]);
  }
  client.send({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/call"}, {"params", {{"name", "ask"}}}});
  const auto e = client.next();
  REQUIRE(e);
  client.send({{"jsonrpc", "2.0"},
               {"id", (*e)["id"]},
               {"result", {{"action", "accept"}, {"content", {{"name", "Ann"}, {"email", "a@b.co"}}}}}});
  const auto r = client.next();
  REQUIRE(r);
  CHECK((*r)["id"] == 9);
  CHECK((*r)["result"]["content"][0]["text"] == "Ann");
  server.close();
}

}  // namespace stdio_cascade_test
