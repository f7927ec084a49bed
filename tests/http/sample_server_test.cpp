// The sample HTTP server as a process: it prints its URL, serves, and stops cleanly on SIGTERM in
// every state, including with a user in the middle of a form and a GET stream open.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <thread>
#include <vector>

#include "../support/free_port.hpp"
#include "../support/http_client.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/patience.hpp"
#include "../support/run_command.hpp"
#include "../support/stateless_meta.hpp"
#include "../support/thread_limit.hpp"
#include "test_paths.hpp"

namespace sample_server_test {

using namespace std::chrono_literals;
using http_test::bhttp::verb;
using nlohmann::json;

namespace {

struct Child {
  pid_t pid = -1;
  int port = 0;
};

// Starts the sample server on a free port (with `args` besides) and reads the URL it prints first.
Child start_server(const std::vector<std::string>& args = {}) {
  std::vector<std::string> words = {SAMPLE_HTTP_SERVER, "--port", "0"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int out[2];
  REQUIRE(pipe(out) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execv(SAMPLE_HTTP_SERVER, argv.data());
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

TEST_CASE("the sample HTTP server with --redis and no Redis there exits 2 at start saying why", "[http][process]") {
  const int free = test_support::free_loopback_port();  // nothing listens there
  REQUIRE(free != 0);
  const auto port = std::to_string(free);
  // `timeout`: a server that started serving instead would never exit by itself.
  const auto r = test_support::run_command("timeout 60 " + std::string(SAMPLE_HTTP_SERVER) + " --port 0 --redis " +
                                           port + " 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("http://") == std::string::npos);  // it never served
  const bool checked = r.out.find("--redis " + port + ": cannot connect to 127.0.0.1:" + port) != std::string::npos;
  const bool no_redis_build = r.out.find("no Redis support") != std::string::npos;
  CHECK((checked || no_redis_build));
}

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

namespace {

json initialize_request(int id) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", {{"elicitation", json::object()}}},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
}

struct LimitedChild {
  pid_t pid = -1;
  int out = -1;       // the child's stdout and stderr
  std::string first;  // its first line: the URL, "SKIP: why", or what it said before exiting
  LimitedChild(pid_t p, int o) : pid(p), out(o) {}
  LimitedChild(const LimitedChild&) = delete;
  LimitedChild& operator=(const LimitedChild&) = delete;
  // Its exit status within `limit` (see test_support::wait_child).
  int wait(std::chrono::milliseconds limit) {
    const int status = test_support::wait_child(pid, limit);
    pid = -1;
    return status;
  }
  ~LimitedChild() {  // a failed REQUIRE leaves no server behind
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

// Starts the sample server with thread creation blocked from the start when `blocked`, and reads
// its first line. The calling process is unprivileged already (run_self's child), so it may change
// the server's limits later.
std::unique_ptr<LimitedChild> start_limited_server(bool blocked) {
  int out[2];
  REQUIRE(pipe(out) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    close(out[0]);
    close(out[1]);
    std::string why;
    if (!test_support::block_threads(why)) {
      std::printf("SKIP: %s\n", why.c_str());
      std::fflush(stdout);
      _exit(test_support::kSkipStatus);
    }
    if (!blocked && !test_support::set_thread_limit(0, false)) _exit(126);
    // LeakSanitizer needs a thread of its own at exit, which the limit forbids.
    const char* asan = std::getenv("ASAN_OPTIONS");
    setenv("ASAN_OPTIONS", (std::string(asan ? asan : "") + ":detect_leaks=0").c_str(), 1);
    execl(SAMPLE_HTTP_SERVER, SAMPLE_HTTP_SERVER, "--port", "0", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  auto c = std::make_unique<LimitedChild>(pid, out[0]);
  char ch;
  while (read(c->out, &ch, 1) == 1 && ch != '\n') c->first += ch;
  return c;
}

std::string drain(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return s;
}

[[noreturn]] void skip(const std::string& why) {
  std::printf("%s\n", why.c_str());
  std::fflush(stdout);
  std::_Exit(test_support::kSkipStatus);
}

}  // namespace

// (No commas or semicolons in test names: CTest and Catch would split the name there.)
TEST_CASE(
    "a sample HTTP server that cannot create threads exits cleanly at start or serves on and stops on "
    "SIGTERM",
    "[http][process][thread_limit]") {
  // In a process of its own that gives up root: RLIMIT_NPROC does not bind root, and the server's
  // limit can only be changed by a process of the same user (root here lacks CAP_SYS_RESOURCE).
  const auto child = test_support::run_self("[.thread_limit_http_child]", test_support::kPatience);
  if (child.status == test_support::kSkipStatus) {
    WARN("skipped: " << child.output);
    return;
  }
  INFO(child.output);
  CHECK(child.status == 0);
}

TEST_CASE("the sample HTTP server with --authorization-server accepts only that server's tokens for its resource",
          "[http][process][jwt]") {
  jwt_test::DocumentServer as;
  const jwt_test::SigningKey key("EC", "k1");
  const auto issuer = as.origin();
  as.set("/.well-known/oauth-authorization-server", json{{"issuer", issuer}, {"jwks_uri", issuer + "/jwks"}}.dump());
  as.set("/jwks", json{{"keys", {key.jwk()}}}.dump());
  const std::string resource = "http://127.0.0.1/mcp";
  auto child = start_server({"--authorization-server", issuer, "--resource", resource, "--scope", "mcp"});
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto token = [&](const std::string& aud, const std::string& scope) {
    return jwt_test::token(key, {{"iss", issuer}, {"sub", "alice"}, {"aud", aud}, {"exp", now + 600}, {"scope", scope}},
                           json::object(), "ES256");
  };
  const auto ping = json{{"jsonrpc", "2.0"},
                         {"id", 1},
                         {"method", "tools/list"},
                         {"params", {{"_meta", test_support::stateless_meta()}}}}
                        .dump();
  const auto call = [&](const std::string& bearer) {
    auto h = http_test::kAccept;
    h.emplace_back("MCP-Protocol-Version", "2026-07-28");
    h.emplace_back("Mcp-Method", "tools/list");
    if (!bearer.empty()) h.emplace_back("Authorization", "Bearer " + bearer);
    http_test::Connection c(child.port);
    return c.request(verb::post, "/mcp", h, ping);
  };
  const auto metadata = [&] {
    http_test::Connection c(child.port);
    return c.request(verb::get, "/.well-known/oauth-protected-resource/mcp", {});
  }();
  CHECK(metadata.status == 200);
  CHECK(json::parse(metadata.body)["authorization_servers"] == json::array({issuer}));
  CHECK(json::parse(metadata.body)["scopes_supported"] == json::array({"mcp"}));
  CHECK(call("").status == 401);
  CHECK(call(token("http://127.0.0.1/other", "mcp")).status == 401);
  CHECK(call(token(resource, "other")).status == 403);
  const auto ok = call(token(resource, "mcp"));
  INFO(ok.body);
  CHECK(ok.status == 200);
  // A tool with a scope of its own: 403 naming every scope the call needs, served with them.
  const auto call_tool = [&](const std::string& bearer, const std::string& name) {
    auto h = http_test::kAccept;
    h.emplace_back("MCP-Protocol-Version", "2026-07-28");
    h.emplace_back("Mcp-Method", "tools/call");
    h.emplace_back("Mcp-Name", name);
    h.emplace_back("Authorization", "Bearer " + bearer);
    json params = {{"name", name}, {"arguments", json::object()}, {"_meta", test_support::stateless_meta()}};
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {{"elicitation", {{"form", json::object()}}}};
    http_test::Connection c(child.port);
    return c.request(verb::post, "/mcp", h,
                     json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", params}}.dump());
  };
  const auto refused = call_tool(token(resource, "mcp"), "confirm_deletion");
  CHECK(refused.status == 403);
  CHECK(refused.header("www-authenticate").find("scope=\"mcp mcp:write\"") != std::string::npos);
  for (const auto& [scope, tool] : {std::pair{"mcp mcp:write", "confirm_deletion"}, {"mcp", "contact_information"}}) {
    const auto served = call_tool(token(resource, scope), tool);
    INFO(tool << ": " << served.body);
    CHECK(served.status == 200);
  }
  kill(child.pid, SIGTERM);
  CHECK(wait_exit(child.pid) == 0);
}

TEST_CASE("thread limit http child", "[.thread_limit_http_child]") {
  if (!test_support::in_child()) return;
  if (!test_support::drop_root()) skip("cannot drop root privileges (setuid to 65534)");

  SECTION("no thread at start: it says so and exits 1 (no crash)") {
    auto child = start_limited_server(true);
    if (child->first.rfind("SKIP", 0) == 0) skip(child->first);
    const auto status = child->wait(5s);
    const auto said = child->first + "\n" + drain(child->out);
    INFO(said);
    CHECK(status == 1);  // not -1 (std::terminate, a signal), not -2 (hung)
    CHECK(said.find("cannot start") != std::string::npos);
  }

  SECTION("threads gone while serving: new sessions and whole elicitations are served all the same") {
    auto child = start_limited_server(false);
    if (child->first.rfind("SKIP", 0) == 0) skip(child->first);
    const auto colon = child->first.rfind(':');
    REQUIRE(colon != std::string::npos);
    const int port = std::stoi(child->first.substr(colon + 1));
    // Once listening, the server has made every thread it will ever need (I/O threads, the worker
    // pool, the timer thread); a session makes none. So with no thread to be had it still serves
    // (it would answer 503 to an initialize whose session could not get one).
    REQUIRE(test_support::set_thread_limit(child->pid, true));
    CHECK(http_test::Connection(port).request(verb::get, "/elsewhere", http_test::kAccept).status == 404);
    http_test::Connection init(port);
    init.send(verb::post, "/mcp", http_test::kAccept, initialize_request(5).dump());
    const auto head = init.read_head();
    REQUIRE(head.status == 200);
    auto headers = http_test::kAccept;
    headers.emplace_back("Mcp-Session-Id", head.header("mcp-session-id"));
    init.read_body();
    http_test::Connection call(port);
    call.send(verb::post, "/mcp", headers,
              json{{"jsonrpc", "2.0"}, {"id", 6}, {"method", "tools/call"}, {"params", {{"name", "github_username"}}}}
                  .dump());
    REQUIRE(call.read_head().status == 200);
    const auto ask = call.next_message();
    REQUIRE(ask);
    REQUIRE((*ask)["method"] == "elicitation/create");
    http_test::Connection answer(port);
    CHECK(answer
              .request(verb::post, "/mcp", headers,
                       json{{"jsonrpc", "2.0"},
                            {"id", (*ask)["id"]},
                            {"result", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}}
                           .dump())
              .status == 202);
    const auto done = call.next_message();
    REQUIRE(done);
    CHECK((*done)["id"] == 6);
    CHECK((*done)["result"]["content"][0]["text"].get<std::string>().find("octocat") != std::string::npos);

    // SIGTERM, still without threads: it stops within 5 s, cleanly.
    REQUIRE(kill(child->pid, SIGTERM) == 0);
    const auto status = child->wait(5s);
    INFO(drain(child->out));
    CHECK(status == 0);
  }
}

}  // namespace sample_server_test
