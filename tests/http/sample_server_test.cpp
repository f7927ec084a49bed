// The sample HTTP server as a process: it prints its URL, serves, and stops cleanly on SIGTERM in
// every state, including with a user in the middle of a form and a GET stream open.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "http_client.hpp"

using namespace std::chrono_literals;
using http_test::bhttp::verb;
using nlohmann::json;

namespace {

struct Child {
  pid_t pid = -1;
  int port = 0;
};

// Starts the sample server on a free port and reads the URL it prints first.
Child start_server() {
  int out[2];
  REQUIRE(pipe(out) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execl(SAMPLE_HTTP_SERVER, SAMPLE_HTTP_SERVER, "--port", "0", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string line;
  char c;
  while (read(out[0], &c, 1) == 1 && c != '\n') line += c;  // blocks until printed (or EOF)
  close(out[0]);
  // http://127.0.0.1:PORT/mcp
  const auto colon = line.rfind(':');
  REQUIRE(colon != std::string::npos);
  return {pid, std::stoi(line.substr(colon + 1))};
}

// Waits (bounded) for the child to exit; its exit status, or -1 if it did not exit normally.
int wait_exit(pid_t pid) {
  for (int i = 0; i < 6000; ++i) {  // up to kPatience
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(10ms);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -2;
}

}  // namespace

TEST_CASE("SIGTERM stops the sample HTTP server with a form open and a GET stream open", "[http][process]") {
  const auto child = start_server();
  http_test::Connection init(child.port);
  init.send(verb::post, "/mcp", http_test::kAccept,
            json{{"jsonrpc", "2.0"},
                 {"id", 1},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-11-25"},
                   {"capabilities", {{"elicitation", json::object()}}},
                   {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}}
                .dump());
  const auto head = init.read_head();
  REQUIRE(head.status == 200);
  const auto session = head.header("mcp-session-id");
  auto headers = http_test::kAccept;
  headers.emplace_back("Mcp-Session-Id", session);

  http_test::Connection call(child.port);
  call.send(
      verb::post, "/mcp", headers,
      json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {{"name", "github_username"}}}}.dump());
  REQUIRE(call.read_head().status == 200);
  const auto ask = call.next_message();
  REQUIRE(ask);
  CHECK((*ask)["method"] == "elicitation/create");  // a worker is now blocked waiting for the user

  http_test::Connection get(child.port);
  get.send(verb::get, "/mcp", headers);
  REQUIRE(get.read_head().status == 200);

  REQUIRE(kill(child.pid, SIGTERM) == 0);
  CHECK(wait_exit(child.pid) == 0);
  // The open streams ended with the process.
  while (call.next_message()) {
  }
  CHECK(call.closed_by_peer());
}
