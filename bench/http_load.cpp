// elicit_http_load: the project's load generator for MCP servers over Streamable HTTP (loopback only).
// It starts the server under test as a child process, drives it from ONE client thread (every socket
// operation is an asynchronous Boost.Asio/Beast operation on one io_context, as C++20 coroutines), and
// prints one JSON object with the numbers. A benchmark, not a test: it never fails on speed; it exits
// non-zero only when it could not run (server did not start, bad arguments).
//
//   elicit_http_load wait --users N [options] -- SERVER COMMAND...
//     N sessions each open a tools/call of an eliciting tool and read its elicitation/create from the
//     call's SSE stream, so that all N are really waiting in a form. Then: the server's RSS
//     (/proc/PID/status VmRSS) and threads (/proc/PID/task) against a baseline taken after startup
//     and one warm-up client; p50/p99 of a NEW client's connect + initialize +
//     notifications/initialized + ping while they wait (sequential samples); then every
//     elicitation is answered (a POST of the JSON-RPC response, 64 answering connections) and the
//     calls that complete with their result are counted.
//   elicit_http_load roundtrip --in-flight K [options] -- SERVER COMMAND...
//     K callers (each with a call connection and an answer connection, over --sessions sessions) loop:
//     tools/call, read elicitation/create, POST the answer, read the result; for --seconds seconds.
//   elicit_http_load modern --in-flight K [options] -- SERVER COMMAND...
//     MCP 2026-07-28 multi round-trip requests over stateless HTTP: K callers, each on one keep-alive
//     connection, loop: POST tools/call (no session; MCP-Protocol-Version, Mcp-Method, Mcp-Name
//     headers; params._meta with protocolVersion, clientInfo, clientCapabilities {elicitation: {}}),
//     read the response (JSON or SSE) expecting resultType "input_required" with one
//     elicitation/create, POST the retry (new id, inputResponses under that key, requestState
//     echoed), expect a complete result naming the user. Round trips (2 HTTP requests each) per
//     second over --seconds after --warmup seconds (default 1; each round counted by the share of its
//     time inside the window), latency, the server's and this process's CPU time in that window, and failures (a failed
//     round is counted, reported, and its caller goes on with a new connection; "ok" is false when there was any).
//
//   elicit_http_load tasks --tasks N [options] -- SERVER COMMAND...
//     The io.modelcontextprotocol/tasks extension (SEP-2663) over stateless HTTP (MCP 2026-07-28): N
//     tools/call of --tool (default here confirm_delete, samples/task_fixtures.cpp) with the extension
//     declared in _meta clientCapabilities, each answered with a task; each task polled (tasks/get,
//     Mcp-Name = taskId) until input_required with one elicitation/create. While all N wait: the
//     server's RSS and threads against a baseline taken after startup and 3 warm-up tasks, and the
//     latency of --gets G sequential tasks/get spread over the tasks (default 1,000). Then every task is
//     answered (tasks/update, {"confirm": true}) and polled until completed, its result checked
//     ("deleted f<i>.txt"); "ok" is false unless all N completed without an error. --connections C
//     keep-alive connections (default 64) share the work; every phase is bounded (--phase-seconds,
//     default 300; --quiet without progress; --max-polls tasks/get of one task, default 2,000).
//     --paced 1: each connection polls the task it made until input_required before it makes the
//     next, so at most C tasks are working at once; default 0: tasks are made as fast as the server
//     answers, and their runs queue for its workers (a burst). --hold S: S seconds more, all waiting,
//     after the RSS is read (to look at the server from outside, e.g. gdb's call malloc_stats()).
//
// Options: --tool NAME (default github_username), --samples S (new-client samples, default 100),
//   --openers C (sessions opened at once, default 64), --sessions S (roundtrip, default 1),
//   --seconds T (roundtrip, default 3), --port-env VAR (pick a free port and pass it to the server in
//   VAR; else the server's first stdout line is its endpoint URL), --server-log FILE, --deadline S
//   (the whole run, default 600: a run past it reports what it has and stops the server), --quiet S
//   (wait: stop waiting for elicitations after S seconds without progress, default 15).
// The answer's content is {"name": "user<i>"}; a call completes when its result names that user.
//
// File descriptors: 10,000 users need about 10,100 sockets in this process and as many in the
// server, more than the usual soft limit of 1,024. The soft RLIMIT_NOFILE is raised to the hard
// limit at start (the server, a child, inherits it); a hard limit too low for the run is reported.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>  // before Boost 1.74 asio/awaitable.hpp, which uses std::exchange without it
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "json_fast.hpp"  // the runtime's JSON reader (runtime/src/jsonrpc)

extern char** environ;

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using net::awaitable;
using net::use_awaitable;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kProtocolVersion = "2025-11-25";
constexpr const char* kStatelessVersion = "2026-07-28";

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// ---------------------------------------------------------------------------------------------
// The server under test, a child process.

struct Child {
  pid_t pid = -1;
  std::string url;
};

long proc_status_kib(pid_t pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::atol(line.c_str() + key.size());
  }
  return -1;
}

long thread_count(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = opendir(dir.c_str());
  if (!d) return -1;
  long n = 0;
  while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

// CPU time of process `pid` so far, in ms: user and system apart (/proc/PID/stat fields 14 and 15),
// so a report can tell the server's own work from the kernel's (sends, receives, wake-ups).
struct ProcessCpu {
  double user_ms = -1;
  double system_ms = -1;
  double total_ms() const { return user_ms + system_ms; }
};

ProcessCpu process_cpu(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = stat.rfind(')');  // the command name may hold spaces
  if (paren == std::string::npos) return {};
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  const double tick_ms = 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  return {tick_ms * static_cast<double>(utime), tick_ms * static_cast<double>(stime)};
}

// CPU time (user + system) of this process so far, in ms.
double self_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto ms = [](const timeval& t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

int free_port() {
  net::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

// Starts `argv`; the endpoint URL is the first stdout line (within 60 s), or with `port_env` the
// server gets a free port in that variable and is ready once it accepts a connection (within 60 s).
std::optional<Child> start_server(const std::vector<std::string>& args, const std::string& port_env,
                                  const std::string& log_file, std::string& error) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  int port = 0;
  if (!port_env.empty()) {
    port = free_port();
    env_strings.push_back(port_env + "=" + std::to_string(port));
  }
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  int out[2];
  if (pipe(out) != 0) return error = "pipe failed", std::nullopt;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string log = log_file.empty() ? "/dev/null" : log_file;
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (port_env.empty()) {
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  } else {
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  }
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  posix_spawn_file_actions_addclose(&fa, out[1]);
  Child c;
  const int rc = posix_spawnp(&c.pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    return error = "cannot start " + args[0] + ": " + std::strerror(rc), std::nullopt;
  }
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  if (port_env.empty()) {
    std::string line;
    char ch;
    while (Clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      if (read(out[0], &ch, 1) != 1) break;
      if (ch == '\n') break;
      line += ch;
    }
    close(out[0]);  // the sample server writes nothing more to stdout
    if (line.rfind("http://", 0) != 0)
      return error = "no endpoint URL on the server's stdout: '" + line + "'", std::nullopt;
    c.url = line;
    return c;
  }
  close(out[0]);
  c.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  while (Clock::now() < deadline) {
    net::io_context ioc;
    tcp::socket s(ioc);
    boost::system::error_code ec;
    s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)), ec);
    if (!ec) return c;
    if (waitpid(c.pid, nullptr, WNOHANG) == c.pid) return error = "the server exited at startup", std::nullopt;
    usleep(100 * 1000);
  }
  return error = "the server did not accept connections within 60 s", std::nullopt;
}

// SIGTERM, then SIGKILL after 10 s. Returns the ms it took to exit after SIGTERM (-1: killed).
double stop_server(pid_t pid) {
  const auto t = Clock::now();
  kill(pid, SIGTERM);
  while (ms_since(t) < 10000) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return ms_since(t);
    usleep(10 * 1000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

// ---------------------------------------------------------------------------------------------
// One client connection: POSTs of JSON-RPC messages, responses read as JSON or SSE event by event.

struct Endpoint {
  tcp::endpoint address;
  std::string host;  // Host header
  std::string path;
};

Endpoint parse_url(const std::string& url) {
  // http://HOST:PORT/PATH
  const auto rest = url.substr(7);
  const auto slash = rest.find('/');
  const auto hostport = rest.substr(0, slash);
  const auto colon = hostport.rfind(':');
  Endpoint e;
  e.host = hostport;
  e.path = slash == std::string::npos ? "/" : rest.substr(slash);
  e.address = tcp::endpoint(net::ip::make_address(hostport.substr(0, colon)),
                            static_cast<unsigned short>(std::atoi(hostport.c_str() + colon + 1)));
  return e;
}

// A response's JSON is read with the runtime's parser for plain JSON (the same document as
// nlohmann's, at a fraction of the instructions: with nlohmann's alone, parsing took 40% of this
// client's CPU, so that at 1 in flight the client rather than the server set the pace).
using elicit::jsonrpc::detail::parse_json;

class Conn {
 public:
  Conn(net::any_io_executor ex, const Endpoint& ep)
      : stream_(std::make_shared<tcp::socket>(ex)), watchdog_(std::move(ex)), ep_(ep) {}

  awaitable<void> connect() {
    co_await stream_->async_connect(ep_.address, use_awaitable);
    stream_->set_option(tcp::no_delay(true));
  }

  /// POSTs one JSON-RPC message (`headers`: more header fields, e.g. a 2026-07-28 request's).
  awaitable<void> post(const std::string& body, const std::string& session,
                       std::vector<std::pair<std::string, std::string>> headers = {}) {
    // The head written as text, the body after it in the same write: Beast's request and serializer
    // took a fifth of this client's instructions for what is one string.
    std::string head;
    head.reserve(256);
    head += "POST ";
    head += ep_.path;
    head += " HTTP/1.1\r\nHost: ";
    head += ep_.host;
    head += "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";
    const auto field = [&head](std::string_view name, std::string_view value) {
      head.append(name).append(": ").append(value).append("\r\n");
    };
    if (!session.empty()) {
      field("Mcp-Session-Id", session);
      field("MCP-Protocol-Version", kProtocolVersion);
    }
    for (const auto& [name, value] : headers) field(name, value);
    field("Content-Length", std::to_string(body.size()));
    head += "\r\n";
    const std::array<net::const_buffer, 2> message{net::buffer(head), net::buffer(body)};
    co_await net::async_write(*stream_, message, use_awaitable);
  }

  /// Reads the head of the next response; its status.
  awaitable<int> read_head() {
    parser_.emplace();
    parser_->body_limit(64 * 1024 * 1024);
    pending_.clear();
    body_done_ = false;
    co_await http::async_read_header(*stream_, buffer_, *parser_, use_awaitable);
    const auto& h = parser_->get();
    session_ = std::string(h["mcp-session-id"]);
    sse_ = h[http::field::content_type].find("text/event-stream") != beast::string_view::npos;
    co_return static_cast<int>(h.result_int());
  }

  /// The next JSON-RPC message of the response being read (SSE: the next event with data; JSON: the
  /// body, once); nullopt at the end of the body.
  awaitable<std::optional<json>> next_message() {
    if (!sse_) {
      if (body_done_) co_return std::nullopt;
      co_await read_to_end();
      body_done_ = true;
      if (pending_.empty()) co_return std::nullopt;
      co_return parse_json(pending_);
    }
    while (true) {
      const auto end = pending_.find("\n\n");
      if (end != std::string::npos) {
        const std::string event = pending_.substr(0, end);
        pending_.erase(0, end + 2);
        std::string data;
        std::size_t pos = 0;
        while (pos < event.size()) {
          auto eol = event.find('\n', pos);
          if (eol == std::string::npos) eol = event.size();
          const auto line = std::string_view(event).substr(pos, eol - pos);
          if (line.rfind("data:", 0) == 0) {
            auto v = line.substr(5);
            if (!v.empty() && v[0] == ' ') v.remove_prefix(1);
            if (!data.empty()) data += '\n';
            data += v;
          }
          pos = eol + 1;
        }
        if (data.empty()) continue;  // a comment, or a priming event
        co_return parse_json(data);
      }
      if (parser_->is_done()) co_return std::nullopt;
      co_await read_some();
    }
  }

  /// Reads the rest of the body (the connection can then carry the next request).
  awaitable<void> read_to_end() {
    while (!parser_->is_done()) co_await read_some();
  }

  const std::string& session() const { return session_; }
  /// Whether the response being read is an SSE stream (else one JSON body).
  bool sse() const { return sse_; }
  /// Every operation from now on (until the next call) must end within `d`, else it fails: at the
  /// deadline the socket is closed, which fails the operation in progress and every later one. One
  /// timer per call rather than one per operation (Beast's tcp_stream).
  void deadline(std::chrono::steady_clock::duration d) {
    watchdog_.expires_after(d);  // cancels the previous wait
    watchdog_.async_wait([socket = std::weak_ptr<tcp::socket>(stream_)](boost::system::error_code ec) {
      if (ec) return;  // cancelled (a new deadline, or this connection is gone)
      if (const auto s = socket.lock()) {
        boost::system::error_code ignored;
        s->close(ignored);
      }
    });
  }
  void close() {
    boost::system::error_code ec;
    stream_->shutdown(tcp::socket::shutdown_both, ec);
    stream_->close(ec);
  }

 private:
  awaitable<void> read_some() {
    parser_->get().body().clear();
    boost::system::error_code ec;
    co_await http::async_read_some(*stream_, buffer_, *parser_, net::redirect_error(use_awaitable, ec));
    if (ec && ec != http::error::need_buffer) throw boost::system::system_error(ec);
    auto& body = parser_->get().body();
    if (sse_) {  // an SSE stream's CRLF line ends read as LF (a JSON body needs no such care)
      body.erase(std::remove(body.begin(), body.end(), '\r'), body.end());
    }
    pending_ += body;  // in bulk: a byte at a time cost this client as much CPU as the server's round trip
    body.clear();
  }

  // Shared with the watchdog's handler (weakly): a deadline that fires after the connection is gone
  // finds no socket.
  std::shared_ptr<tcp::socket> stream_;
  net::steady_timer watchdog_;
  const Endpoint& ep_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::string_body>> parser_;
  std::string pending_;
  std::string session_;
  bool sse_ = false;
  bool body_done_ = false;
};

json rpc(const json& id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

json initialize_request() {
  return rpc(0, "initialize",
             {{"protocolVersion", kProtocolVersion},
              {"capabilities", {{"elicitation", {{"form", json::object()}}}}},
              {"clientInfo", {{"name", "elicit_http_load"}, {"version", "1"}}}});
}

const std::string kInitialized = json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump();

// The response to request `id` on the stream being read, skipping the server's other messages.
awaitable<json> read_response(Conn& c, const json& id) {
  while (auto m = co_await c.next_message()) {
    if (m->contains("id") && (*m)["id"] == id && !m->contains("method")) co_return std::move(*m);
  }
  throw std::runtime_error("the stream ended without the response to " + id.dump());
}

// POSTs a request and reads its response to the end of the body.
awaitable<json> request(Conn& c, const json& req, const std::string& session) {
  co_await c.post(req.dump(), session);
  const int status = co_await c.read_head();
  if (status != 200) throw std::runtime_error(req["method"].get<std::string>() + ": HTTP " + std::to_string(status));
  auto r = co_await read_response(c, req["id"]);
  co_await c.read_to_end();
  co_return r;
}

// POSTs one 2026-07-28 request (`body`, whose id is `id`) with the headers Streamable HTTP asks for
// (Mcp-Name: the tool for tools/call, the taskId for tasks/*) and reads its response (JSON or SSE)
// to the end of the body. An HTTP status other than 200 throws, with the start of the body.
awaitable<json> stateless_post(Conn& c, int id, const std::string& method, const std::string& name, std::string body) {
  std::vector<std::pair<std::string, std::string>> headers;  // (a braced list here trips GCC's coroutines)
  headers.emplace_back("MCP-Protocol-Version", kStatelessVersion);
  headers.emplace_back("Mcp-Method", method);
  headers.emplace_back("Mcp-Name", name);
  co_await c.post(std::move(body), "", std::move(headers));
  const int status = co_await c.read_head();
  if (status != 200) {
    std::string text;
    try {
      if (auto m = co_await c.next_message()) text = " " + m->dump().substr(0, 300);
    } catch (const std::exception&) {
    }
    throw std::runtime_error(method + ": HTTP " + std::to_string(status) + text);
  }
  auto r = co_await read_response(c, id);
  co_await c.read_to_end();
  co_return r;
}

awaitable<void> notify_initialized(Conn& c, const std::string& session) {
  co_await c.post(kInitialized, session);
  const int status = co_await c.read_head();
  co_await c.read_to_end();
  if (status != 202 && status != 200)
    throw std::runtime_error("notifications/initialized: HTTP " + std::to_string(status));
}

// A new session on `c`: initialize + notifications/initialized. Its id.
awaitable<std::string> open_session(Conn& c) {
  co_await c.connect();
  const auto init = co_await request(c, initialize_request(), "");
  if (!init.contains("result")) throw std::runtime_error("initialize failed: " + init.dump());
  const std::string session = c.session();
  co_await notify_initialized(c, session);
  co_return session;
}

// The next elicitation/create on the call's stream (other notifications skipped).
awaitable<json> read_elicitation(Conn& c) {
  while (auto m = co_await c.next_message()) {
    if (m->value("method", "") == "elicitation/create") co_return *m;
    if (m->contains("result") || m->contains("error"))
      throw std::runtime_error("call ended without eliciting: " + m->dump());
  }
  throw std::runtime_error("the call's stream ended without an elicitation");
}

json answer_for(const json& elicitation, const std::string& user) {
  return {
      {"jsonrpc", "2.0"}, {"id", elicitation["id"]}, {"result", {{"action", "accept"}, {"content", {{"name", user}}}}}};
}

// True when the call succeeded and its text content names `user` ("user12", not "user123").
bool result_names(const json& response, const std::string& user) {
  if (!response.contains("result") || response["result"].value("isError", false)) return false;
  std::string text;
  for (const auto& c : response["result"].value("content", json::array())) text += c.value("text", "") + "\n";
  for (auto pos = text.find(user); pos != std::string::npos; pos = text.find(user, pos + 1)) {
    const auto after = pos + user.size();
    if (after == text.size() || !std::isdigit(static_cast<unsigned char>(text[after]))) return true;
  }
  return false;
}

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
};
Percentiles percentiles(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))]; };
  return {at(0.50), at(0.99), v.back()};
}

// ---------------------------------------------------------------------------------------------

struct Options {
  std::string mode;
  int users = 1000;
  int in_flight = 1;
  int sessions = 1;
  double seconds = 3;
  double warmup = 1;
  int samples = 100;
  int openers = 64;
  int answerers = 64;
  std::string tool = "github_username";
  std::string port_env;
  std::string server_log;
  double deadline = 600;
  int quiet = 15;
  int tasks = 10000;           // tasks mode: tasks made
  int connections = 64;        // tasks mode: keep-alive connections (one worker each)
  int gets = 1000;             // tasks mode: tasks/get latency samples while all wait
  double phase_seconds = 300;  // tasks mode: bound of each phase
  int max_polls = 2000;        // tasks mode: tasks/get of one task per phase, at most
  bool paced = false;          // tasks mode: each connection waits for its task to ask before the next
  double hold = 0;             // tasks mode: seconds to wait, all tasks waiting, before the gets
  std::vector<std::string> server;
};

class Run {
 public:
  Run(net::io_context& ioc, const Options& o, const Child& child)
      : ioc_(ioc), o_(o), child_(child), ep_(parse_url(child.url)), gate_(ioc), answers_ready_(ioc) {
    gate_.expires_at(Clock::time_point::max());
    answers_ready_.expires_at(Clock::time_point::max());
  }

  json out = json::object();

  // One new client: connect, initialize, notifications/initialized, ping. Its time in ms.
  awaitable<double> new_client_sample() {
    const auto t = Clock::now();
    Conn c(ioc_.get_executor(), ep_);
    const auto session = co_await open_session(c);
    const auto pong = co_await request(c, rpc(1, "ping"), session);
    if (!pong.contains("result")) throw std::runtime_error("ping failed: " + pong.dump());
    const double ms = ms_since(t);
    c.close();
    co_return ms;
  }

  awaitable<void> sleep(std::chrono::milliseconds d) {
    net::steady_timer t(ioc_, d);
    co_await t.async_wait(use_awaitable);
  }

  // Waits until `done()` or `limit` passes, or nothing changes in `quiet` (the count `progress()`).
  template <class Done, class Progress>
  awaitable<bool> wait_for(Done done, Progress progress, std::chrono::seconds limit, std::chrono::seconds quiet) {
    const auto end = Clock::now() + limit;
    auto last = progress();
    auto last_change = Clock::now();
    while (!done()) {
      if (Clock::now() > end || Clock::now() - last_change > quiet) co_return false;
      co_await sleep(std::chrono::milliseconds(10));
      if (progress() != last) last = progress(), last_change = Clock::now();
    }
    co_return true;
  }

  void record_error(const std::string& what) {
    if (++errors_ <= 3) out["errors_first"].push_back(what);
    out["errors"] = errors_;
  }

  json resources() const {
    return {{"rss_kib", proc_status_kib(child_.pid, "VmRSS")},
            {"hwm_kib", proc_status_kib(child_.pid, "VmHWM")},
            {"threads", thread_count(child_.pid)}};
  }

  // ---- wait mode

  struct User {
    std::unique_ptr<Conn> conn;
    std::string session;
    json elicitation;
  };

  json tool_call(int id) const { return rpc(id, "tools/call", {{"name", o_.tool}, {"arguments", json::object()}}); }

  // Opens sessions for users next_user_++ until all are open; each then waits in its call.
  awaitable<void> opener() {
    while (next_user_ < o_.users) {
      const int i = next_user_++;
      try {
        auto& u = users_[i];
        u.conn = std::make_unique<Conn>(ioc_.get_executor(), ep_);
        u.session = co_await open_session(*u.conn);
        co_await u.conn->post(tool_call(1).dump(), u.session);
        ++calls_sent_;
        net::co_spawn(ioc_, user(i), net::detached);
      } catch (const std::exception& e) {
        record_error("user " + std::to_string(i) + " opening: " + e.what());
      }
    }
  }

  // One user: reads its elicitation/create, waits for the gate, has it answered, reads the result.
  awaitable<void> user(int i) {
    auto& u = users_[i];
    const std::string name = "user" + std::to_string(i);
    try {
      const int status = co_await u.conn->read_head();
      if (status != 200) throw std::runtime_error("tools/call: HTTP " + std::to_string(status));
      u.elicitation = co_await read_elicitation(*u.conn);
      ++waiting_;
      if (!answering_) {
        boost::system::error_code ec;
        co_await gate_.async_wait(net::redirect_error(use_awaitable, ec));
      }
      answer_queue_.push_back(i);
      answers_ready_.cancel_one();
      const auto done = co_await read_response(*u.conn, 1);
      if (result_names(done, name)) {
        ++completed_;
      } else {
        record_error(name + ": unexpected result " + done.dump().substr(0, 300));
      }
      u.conn->close();
    } catch (const std::exception& e) {
      record_error(name + ": " + e.what());
    }
    ++ended_;
  }

  // Posts queued answers on one keep-alive connection (a new one after a failure).
  awaitable<void> answerer() {
    std::unique_ptr<Conn> c;
    while (!finished_) {
      if (answer_queue_.empty()) {
        boost::system::error_code ec;
        co_await answers_ready_.async_wait(net::redirect_error(use_awaitable, ec));
        continue;
      }
      const int i = answer_queue_.front();
      answer_queue_.pop_front();
      auto& u = users_[i];
      try {
        if (!c) {
          c = std::make_unique<Conn>(ioc_.get_executor(), ep_);
          co_await c->connect();
        }
        co_await c->post(answer_for(u.elicitation, "user" + std::to_string(i)).dump(), u.session);
        const int status = co_await c->read_head();
        co_await c->read_to_end();
        if (status != 202 && status != 200) record_error("answer: HTTP " + std::to_string(status));
      } catch (const std::exception& e) {
        record_error(std::string("answer: ") + e.what());
        c.reset();
      }
    }
  }

  awaitable<void> wait_mode() {
    const int n = o_.users;
    users_.resize(n);
    // Warm-up: a few clients, so the baseline includes code paths and buffers every session uses.
    for (int i = 0; i < 3; ++i) co_await new_client_sample();
    co_await sleep(std::chrono::milliseconds(200));
    out["baseline"] = resources();
    const auto t_open = Clock::now();
    for (int i = 0; i < std::min(o_.openers, n); ++i) net::co_spawn(ioc_, opener(), net::detached);
    const bool all = co_await wait_for([&] { return waiting_ == n; }, [&] { return waiting_ + calls_sent_ + errors_; },
                                       std::chrono::seconds(300), std::chrono::seconds(o_.quiet));
    out["open_ms"] = ms_since(t_open);
    out["calls_sent"] = calls_sent_;
    out["waiting"] = waiting_;
    out["all_waiting"] = all;
    co_await sleep(std::chrono::milliseconds(500));  // let the server settle before measuring
    out["waiting_resources"] = resources();

    std::vector<double> samples;
    for (int i = 0; i < o_.samples; ++i) {
      try {
        samples.push_back(co_await new_client_sample());
      } catch (const std::exception& e) {
        record_error(std::string("new client: ") + e.what());
      }
    }
    const auto p = percentiles(samples);
    out["new_client"] = {{"samples", samples.size()}, {"p50_ms", p.p50}, {"p99_ms", p.p99}, {"max_ms", p.max}};
    out["after_samples_resources"] = resources();

    const auto t_answer = Clock::now();
    answering_ = true;
    gate_.cancel();
    for (int i = 0; i < o_.answerers; ++i) net::co_spawn(ioc_, answerer(), net::detached);
    // Calls that were not waiting yet (a server that queues them) keep coming: quiet bound 30 s.
    co_await wait_for([&] { return ended_ >= calls_sent_; }, [&] { return ended_; }, std::chrono::seconds(300),
                      std::chrono::seconds(30));
    finished_ = true;
    answers_ready_.cancel();
    out["answer_ms"] = ms_since(t_answer);
    out["completed"] = completed_;
    out["errors"] = errors_;
  }

  // ---- roundtrip mode

  awaitable<void> caller(int slot, const std::vector<std::string>& sessions, Clock::time_point end) {
    const auto& session = sessions[slot % sessions.size()];
    try {
      Conn call(ioc_.get_executor(), ep_), answer(ioc_.get_executor(), ep_);
      co_await call.connect();
      co_await answer.connect();
      for (long k = 0; Clock::now() < end && k < 10'000'000; ++k) {
        const auto t = Clock::now();
        const int id = ++next_id_;
        const std::string name = "user" + std::to_string(id);
        co_await call.post(tool_call(id).dump(), session);
        if (const int status = co_await call.read_head(); status != 200)
          throw std::runtime_error("tools/call: HTTP " + std::to_string(status));
        const auto ask = co_await read_elicitation(call);
        co_await answer.post(answer_for(ask, name).dump(), session);
        const int status = co_await answer.read_head();
        co_await answer.read_to_end();
        if (status != 202 && status != 200) throw std::runtime_error("answer: HTTP " + std::to_string(status));
        const auto done = co_await read_response(call, id);
        co_await call.read_to_end();
        if (!result_names(done, name)) throw std::runtime_error("unexpected result " + done.dump().substr(0, 300));
        ++completed_;
        latencies_.push_back(ms_since(t));
      }
    } catch (const std::exception& e) {
      record_error("caller " + std::to_string(slot) + ": " + e.what());
    }
    ++callers_done_;
  }

  awaitable<void> roundtrip_mode() {
    std::vector<std::string> sessions;
    std::vector<std::unique_ptr<Conn>> session_conns;
    for (int i = 0; i < o_.sessions; ++i) {
      session_conns.push_back(std::make_unique<Conn>(ioc_.get_executor(), ep_));
      sessions.push_back(co_await open_session(*session_conns.back()));
    }
    const auto start = Clock::now();
    const auto end = start + std::chrono::milliseconds(static_cast<long>(o_.seconds * 1000));
    for (int i = 0; i < o_.in_flight; ++i) net::co_spawn(ioc_, caller(i, sessions, end), net::detached);
    co_await wait_for([&] { return callers_done_ == o_.in_flight; }, [&] { return completed_ + callers_done_; },
                      std::chrono::seconds(static_cast<long>(o_.seconds) + 120), std::chrono::seconds(30));
    const double secs = ms_since(start) / 1000;
    const auto p = percentiles(latencies_);
    out["in_flight"] = o_.in_flight;
    out["sessions"] = o_.sessions;
    out["completed"] = completed_;
    out["seconds"] = secs;
    out["round_trips_per_second"] = completed_ / secs;
    out["latency_ms"] = {{"p50", p.p50}, {"p99", p.p99}, {"max", p.max}};
    out["errors"] = errors_;
    out["resources"] = resources();
  }

  // ---- 2026-07-28 mode: MCP 2026-07-28 multi round-trip requests over stateless HTTP

  // A 2026-07-28 tools/call: no session; the era, the client and its capabilities in params._meta (as the
  // conformance suite sends them, tests/interop/conformance/SCENARIOS.md 2.1); `extra` adds members to
  // params (the retry's inputResponses and requestState). Built by hand: the client thread is shared
  // with JSON parsing of every response and must not be what limits the rate.
  std::string stateless_call(int id, const std::string& extra) const {
    static const std::string meta =
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + std::string(kStatelessVersion) +
        R"(","io.modelcontextprotocol/clientInfo":{"name":"elicit_http_load","version":"1"},)"
        R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}})";
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":)" +
           json(o_.tool).dump() + R"(,"arguments":{})" + extra + "," + meta + "}}";
  }

  // A tools/call of the tool under test (stateless_post), counted as a JSON or an SSE response.
  awaitable<json> stateless_request(Conn& c, int id, const std::string& extra) {
    auto r = co_await stateless_post(c, id, "tools/call", o_.tool, stateless_call(id, extra));
    ++(c.sse() ? sse_responses_ : json_responses_);  // how this response came (read_head set it)
    co_return r;
  }

  // The first round's answer must be input_required with exactly one elicitation/create: its key,
  // and the requestState to echo (if any).
  struct Asked {
    std::string key;
    std::optional<std::string> state;
  };
  Asked input_required_of(const json& r) {
    const auto bad = [&](const std::string& why) {
      return std::runtime_error("first round: " + why + ": " + r.dump().substr(0, 300));
    };
    if (!r.contains("result")) throw bad("not a result");
    const auto& result = r["result"];
    if (result.value("resultType", "") != "input_required") throw bad("resultType is not input_required");
    const auto requests = result.find("inputRequests");
    if (requests == result.end() || !requests->is_object() || requests->size() != 1)
      throw bad("not exactly one inputRequest");
    if (requests->begin().value().value("method", "") != "elicitation/create") throw bad("not an elicitation/create");
    Asked a{requests->begin().key(), std::nullopt};
    if (const auto state = result.find("requestState"); state != result.end()) {
      if (!state->is_string()) throw bad("requestState is not a string");
      a.state = state->get<std::string>();
      state_bytes_ = std::max<long>(state_bytes_, static_cast<long>(a.state->size()));
    }
    return a;
  }

  // The retry's additions to params: the answer under the asked key, the state echoed verbatim.
  static std::string retry_extra(const Asked& a, const std::string& user) {
    std::string extra =
        R"(,"inputResponses":{)" + json(a.key).dump() + R"(:{"action":"accept","content":{"name":")" + user + R"("}}})";
    if (a.state) extra += R"(,"requestState":)" + json(*a.state).dump();
    return extra;
  }

  // One caller: on one keep-alive connection, round trip after round trip until `end` (a failed round
  // is counted, its connection dropped and a new one made after 10 ms).
  awaitable<void> stateless_caller(int slot, Clock::time_point end) {
    std::unique_ptr<Conn> c;
    while (Clock::now() < end) {
      const auto t = Clock::now();
      try {
        if (!c) {
          c = std::make_unique<Conn>(ioc_.get_executor(), ep_);
          co_await c->connect();
        }
        c->deadline(std::chrono::seconds(30));  // one round's bound
        const int id = ++next_id_;
        const std::string user = "user" + std::to_string(id);
        const auto asked = input_required_of(co_await stateless_request(*c, id, ""));
        const int retry_id = ++next_id_;
        const auto done = co_await stateless_request(*c, retry_id, retry_extra(asked, user));
        if (!done.contains("result") || done["result"].value("resultType", "") != "complete" ||
            !result_names(done, user))
          throw std::runtime_error("retry: not a complete result naming " + user + ": " + done.dump().substr(0, 300));
        ++completed_;
        latencies_.push_back(ms_since(t));
        rounds_.emplace_back(t, Clock::now());
      } catch (const std::exception& e) {
        ++failures_;
        record_error("caller " + std::to_string(slot) + ": " + e.what());
        if (c) c->close();
        c.reset();
      }
      if (!c) co_await sleep(std::chrono::milliseconds(10));
    }
    ++callers_done_;
  }

  awaitable<void> stateless_mode() {
    const auto start = Clock::now();
    const auto warm_end = start + std::chrono::milliseconds(static_cast<long>(o_.warmup * 1000));
    const auto end = warm_end + std::chrono::milliseconds(static_cast<long>(o_.seconds * 1000));
    for (int i = 0; i < o_.in_flight; ++i) net::co_spawn(ioc_, stateless_caller(i, end), net::detached);
    // The measured window: after the warm-up (connections made, a JIT warmed), up to `end`; the
    // counts and CPU times are read at its two ends.
    struct Mark {
      Clock::time_point at;
      int completed;
      std::size_t latencies;
      ProcessCpu server_cpu;
      double client_cpu_ms;
    };
    const auto mark = [&] {
      return Mark{Clock::now(), completed_, latencies_.size(), process_cpu(child_.pid), self_cpu_ms()};
    };
    net::steady_timer timer(ioc_, warm_end);
    co_await timer.async_wait(use_awaitable);
    const Mark a = mark();
    timer.expires_at(end);
    co_await timer.async_wait(use_awaitable);
    const Mark b = mark();
    co_await wait_for([&] { return callers_done_ == o_.in_flight; },
                      [&] { return completed_ + failures_ + callers_done_; }, std::chrono::seconds(60),
                      std::chrono::seconds(35));
    const double secs = std::chrono::duration<double>(b.at - a.at).count();
    const int measured = b.completed - a.completed;
    // Round trips done in the window, each counted by the share of its time that fell inside it: with
    // many callers in flight their rounds move in waves (a slow server answers them together), and a
    // plain count of completions would depend on where the window cuts the waves.
    double share = 0;
    for (const auto& [from, to] : rounds_) {
      const auto lo = std::max(from, a.at), hi = std::min(to, b.at);
      if (hi <= lo) continue;
      share += to == from ? 1.0 : std::chrono::duration<double>(hi - lo) / std::chrono::duration<double>(to - from);
    }
    const auto p = percentiles(std::vector<double>(latencies_.begin() + static_cast<long>(a.latencies),
                                                   latencies_.begin() + static_cast<long>(b.latencies)));
    out["in_flight"] = o_.in_flight;
    out["warmup_seconds"] = o_.warmup;
    out["seconds"] = secs;
    out["completed"] = measured;
    out["completed_total"] = completed_;
    out["round_trips_in_window"] = share;
    out["round_trips_per_second"] = share / secs;
    out["completions_per_second"] = measured / secs;
    out["http_requests_per_second"] = 2 * share / secs;
    out["latency_ms"] = {{"p50", p.p50}, {"p99", p.p99}, {"max", p.max}};
    const auto per_round_trip_us = [&](double ms) { return share > 0 ? 1000 * ms / share : 0.0; };
    out["server_cpu_ms"] = b.server_cpu.total_ms() - a.server_cpu.total_ms();
    out["client_cpu_ms"] = b.client_cpu_ms - a.client_cpu_ms;
    out["server_cpu_us_per_round_trip"] = per_round_trip_us(b.server_cpu.total_ms() - a.server_cpu.total_ms());
    // The same apart: user time is the server's own code, system time the kernel's part.
    out["server_user_us_per_round_trip"] = per_round_trip_us(b.server_cpu.user_ms - a.server_cpu.user_ms);
    out["server_system_us_per_round_trip"] = per_round_trip_us(b.server_cpu.system_ms - a.server_cpu.system_ms);
    out["failures"] = failures_;
    out["ok"] = failures_ == 0 && completed_ > 0 && callers_done_ == o_.in_flight;
    out["callers_finished"] = callers_done_;
    out["responses"] = {{"json", json_responses_}, {"sse", sse_responses_}};
    out["request_state_bytes"] = state_bytes_;
    out["errors"] = errors_;
    out["resources"] = resources();
  }

  // ---- tasks mode: N tasks of the io.modelcontextprotocol/tasks extension waiting in input_required

  // The _meta of every 2026-07-28 request of this mode: the extension declared in the client's
  // capabilities (tasks.md, "Capability Negotiation"; tasks/* without it get -32021).
  static const std::string& tasks_meta() {
    static const std::string meta =
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + std::string(kStatelessVersion) +
        R"(","io.modelcontextprotocol/clientInfo":{"name":"elicit_http_load","version":"1"},)"
        R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}})";
    return meta;
  }

  // POSTs one 2026-07-28 request (`params` without its closing brace: the _meta is appended) with
  // the headers Streamable HTTP asks for (Mcp-Name: the tool for tools/call, the taskId for tasks/*),
  // and reads its response (JSON or SSE) to the end of the body. Every request is bounded by 30 s.
  awaitable<json> task_request(Conn& c, const std::string& method, const std::string& name, const std::string& params) {
    const int id = ++next_id_;
    c.deadline(std::chrono::seconds(30));
    auto r = co_await stateless_post(c, id, method, name,
                                     R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method +
                                         R"(","params":{)" + params + "," + tasks_meta() + "}}");
    if (!r.contains("result") || !r["result"].is_object())
      throw std::runtime_error(method + ": not a result: " + r.dump().substr(0, 300));
    co_return r;
  }

  awaitable<json> tasks_get(Conn& c, const std::string& task_id) {
    co_return co_await task_request(c, "tasks/get", task_id, R"("taskId":)" + json(task_id).dump());
  }
  // tools/call of the tool for `file`: a CreateTaskResult when the server runs it as a task.
  awaitable<json> task_call(Conn& c, const std::string& file) {
    co_return co_await task_request(
        c, "tools/call", o_.tool,
        R"("name":)" + json(o_.tool).dump() + R"(,"arguments":{"filename":)" + json(file).dump() + "}");
  }
  // tasks/update answering the question under `key` with {"confirm": true}.
  awaitable<json> tasks_update(Conn& c, const std::string& task_id, const std::string& key) {
    co_return co_await task_request(c, "tasks/update", task_id,
                                    R"("taskId":)" + json(task_id).dump() + R"(,"inputResponses":{)" +
                                        json(key).dump() + R"(:{"action":"accept","content":{"confirm":true}}})");
  }

  struct TaskSlot {
    std::string id;
    std::string key;  // the inputRequests key to answer
    bool waiting = false;
    bool answered = false;
    bool completed = false;
  };

  static std::string task_file(int i) {
    std::string name = "f";  // appended: GCC 12 -O2 warned a false -Wrestrict on "f" + std::to_string(i)
    name += std::to_string(i);
    name += ".txt";
    return name;
  }

  // One phase of the tasks mode: `o_.connections` workers, each on its own keep-alive connection (a
  // new one after a failure), take task indexes from `queue`; `step(conn, i)` answers true when task
  // i is done with, false to queue it again (polled later). Bounded: `limit` overall, `quiet` without
  // progress, at most `max_polls` steps of one task, 30 s per request.
  using TaskStep = std::function<awaitable<bool>(Conn&, int)>;
  struct Phase {
    std::string name;
    TaskStep step;
    int max_polls = 1;
    std::deque<int> queue;
    std::vector<int> polls;
    int busy = 0;
    int done = 0;
    int workers = 0;
    long repolls = 0;
    bool stop = false;
  };

  awaitable<void> phase_worker(std::shared_ptr<Phase> s, int slot) {
    std::unique_ptr<Conn> c;
    while (!s->stop && !(s->queue.empty() && s->busy == 0)) {
      if (s->queue.empty()) {  // others hold the last tasks: one may come back
        co_await sleep(std::chrono::milliseconds(2));
        continue;
      }
      const int i = s->queue.front();
      s->queue.pop_front();
      ++s->busy;
      bool finished = true;
      try {
        if (!c) {
          c = std::make_unique<Conn>(ioc_.get_executor(), ep_);
          c->deadline(std::chrono::seconds(30));
          co_await c->connect();
        }
        finished = co_await s->step(*c, i);
      } catch (const std::exception& e) {
        record_error(s->name + " task " + std::to_string(i) + " (worker " + std::to_string(slot) + "): " + e.what());
        if (c) c->close();
        c.reset();
      }
      if (!finished) {
        ++s->repolls;
        if (++s->polls[static_cast<std::size_t>(i)] >= s->max_polls) {
          record_error(s->name + " task " + std::to_string(i) + ": not there after " + std::to_string(s->max_polls) +
                       " polls");
          finished = true;
        }
      }
      --s->busy;
      if (finished) {
        ++s->done;
      } else {
        s->queue.push_back(i);
        // Few left, each polled again at once: give the server's runs a moment.
        if (s->queue.size() < static_cast<std::size_t>(o_.connections)) co_await sleep(std::chrono::milliseconds(5));
      }
    }
    if (c) c->close();
    --s->workers;
  }

  // Runs a phase to its end (or its bounds); true when every task in it was done with. Its count of
  // polls that found a task not there yet goes to out[name + "_repolls"].
  awaitable<bool> task_phase(const std::string& name, std::deque<int> queue, TaskStep step, int max_polls) {
    auto s = std::make_shared<Phase>();
    s->name = name;
    s->step = std::move(step);
    s->max_polls = max_polls;
    s->queue = std::move(queue);
    s->polls.assign(tasks_.size(), 0);
    const int total = static_cast<int>(s->queue.size());
    s->workers = o_.connections;
    for (int k = 0; k < o_.connections; ++k) net::co_spawn(ioc_, phase_worker(s, k), net::detached);
    const bool all =
        co_await wait_for([&] { return s->done == total; }, [&] { return s->done; },
                          std::chrono::seconds(static_cast<long>(o_.phase_seconds)), std::chrono::seconds(o_.quiet));
    if (!all)
      record_error(name + ": stopped with " + std::to_string(total - s->done) + " of " + std::to_string(total) +
                   " tasks not done (time bound)");
    s->stop = true;
    // The workers end within one request's bound (30 s).
    co_await wait_for([&] { return s->workers == 0; }, [&] { return s->workers; }, std::chrono::seconds(40),
                      std::chrono::seconds(40));
    out[name + "_repolls"] = s->repolls;
    co_return all;
  }

  // The status of a tasks/get response ("" when it has none).
  static std::string task_status(const json& r) { return r["result"].value("status", std::string()); }

  awaitable<void> tasks_mode() {
    const int n = o_.tasks;
    tasks_.assign(static_cast<std::size_t>(n), TaskSlot{});
    const auto all_indexes = [&](auto keep) {
      std::deque<int> q;
      for (int i = 0; i < n; ++i)
        if (keep(tasks_[i])) q.push_back(i);
      return q;
    };

    // Step: tasks/get until input_required with one elicitation/create; its key.
    auto until_waiting = [this](Conn& c, int i) -> awaitable<bool> {
      auto& t = tasks_[i];
      const auto r = co_await tasks_get(c, t.id);
      const auto status = task_status(r);
      if (status == "working") co_return false;
      if (status != "input_required") throw std::runtime_error("status " + status + ": " + r.dump().substr(0, 300));
      const auto& requests = r["result"].value("inputRequests", json::object());
      if (!requests.is_object() || requests.size() != 1 ||
          requests.begin().value().value("method", "") != "elicitation/create")
        throw std::runtime_error("not one elicitation/create in inputRequests: " + r.dump().substr(0, 300));
      t.key = requests.begin().key();
      t.waiting = true;
      ++waiting_;
      co_return true;
    };
    // Step: tools/call of the tool with the extension declared -> a CreateTaskResult.
    // With --paced, the connection then polls its task until input_required before it makes the next
    // (at most --connections tasks working at once); else tasks are made as fast as the server answers
    // and their runs queue for the server's workers.
    auto create = [this, until_waiting](Conn& c, int i) -> awaitable<bool> {
      const auto r = co_await task_call(c, task_file(i));
      const auto& result = r["result"];
      if (result.value("resultType", "") != "task" || !result.contains("taskId") || !result["taskId"].is_string())
        throw std::runtime_error("tools/call: not a CreateTaskResult: " + r.dump().substr(0, 300));
      tasks_[i].id = result["taskId"].get<std::string>();
      ++created_;
      // (Not `paced && !co_await ...` in a loop condition: GCC 12 ran the co_await with paced false.)
      if (!o_.paced) co_return true;
      for (int poll = 1;; ++poll) {
        const bool asked = co_await until_waiting(c, i);
        if (asked) break;
        if (poll >= o_.max_polls)
          throw std::runtime_error("not input_required after " + std::to_string(poll) + " polls");
        co_await sleep(std::chrono::milliseconds(1));
      }
      co_return true;
    };
    // Step: tasks/update with the answer (confirm: true).
    auto answer = [this](Conn& c, int i) -> awaitable<bool> {
      auto& t = tasks_[i];
      co_await tasks_update(c, t.id, t.key);
      t.answered = true;
      co_return true;
    };
    // Step: tasks/get until completed, with the result the handler gives a confirmed delete.
    auto until_completed = [this](Conn& c, int i) -> awaitable<bool> {
      auto& t = tasks_[i];
      const auto r = co_await tasks_get(c, t.id);
      const auto status = task_status(r);
      if (status == "working" || status == "input_required") co_return false;
      if (status != "completed") throw std::runtime_error("status " + status + ": " + r.dump().substr(0, 300));
      const auto& result = r["result"].value("result", json::object());
      std::string text;
      for (const auto& block : result.value("content", json::array())) text += block.value("text", "");
      if (result.value("isError", false) || text != "deleted " + task_file(i))
        throw std::runtime_error("completed with an unexpected result: " + r.dump().substr(0, 300));
      t.completed = true;
      ++completed_;
      co_return true;
    };

    // Warm-up: a few tasks through their whole life on the code paths every task takes, so the
    // baseline includes them. Their records stay in the store (ttl): counted in the baseline.
    {
      Conn c(ioc_.get_executor(), ep_);
      c.deadline(std::chrono::seconds(30));
      co_await c.connect();
      for (int w = 0; w < 3; ++w) {
        auto r = co_await task_call(c, "warm.txt");
        const auto id = r["result"].value("taskId", std::string());
        std::string key;
        for (int k = 0; k < 1000 && key.empty(); ++k) {
          r = co_await tasks_get(c, id);
          if (task_status(r) == "input_required")
            key = r["result"]["inputRequests"].begin().key();
          else
            co_await sleep(std::chrono::milliseconds(5));
        }
        if (key.empty()) throw std::runtime_error("warm-up: the task never asked: " + r.dump().substr(0, 300));
        co_await tasks_update(c, id, key);
        for (int k = 0; k < 1000 && task_status(r) != "completed"; ++k) {
          co_await sleep(std::chrono::milliseconds(5));
          r = co_await tasks_get(c, id);
        }
        if (task_status(r) != "completed")
          throw std::runtime_error("warm-up: not completed: " + r.dump().substr(0, 300));
      }
      c.close();
    }
    co_await sleep(std::chrono::milliseconds(500));
    out["baseline"] = resources();

    const auto t_create = Clock::now();
    co_await task_phase("create", all_indexes([](const TaskSlot&) { return true; }), create, 1);
    out["create_ms"] = ms_since(t_create);
    out["created"] = created_;
    co_await task_phase("wait", all_indexes([](const TaskSlot& t) { return !t.id.empty() && !t.waiting; }),
                        until_waiting, o_.max_polls);
    out["waiting_ms"] = ms_since(t_create);
    out["waiting"] = waiting_;
    out["all_waiting"] = waiting_ == n;
    co_await sleep(std::chrono::milliseconds(500));  // let the server settle before measuring
    out["waiting_resources"] = resources();
    if (o_.hold > 0) {  // time to look at the server from outside (gdb: call malloc_stats())
      std::cerr << "elicit_http_load: all tasks wait; server pid " << child_.pid << ", holding " << o_.hold << " s\n";
      co_await sleep(std::chrono::milliseconds(static_cast<long>(o_.hold * 1000)));
    }

    // tasks/get latency while all wait: sequential on one keep-alive connection, spread over the tasks.
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
      if (tasks_[i].waiting) ready.push_back(i);
    std::vector<double> samples;
    if (!ready.empty()) {
      Conn c(ioc_.get_executor(), ep_);
      c.deadline(std::chrono::seconds(30));
      co_await c.connect();
      for (int s = 0; s < o_.gets; ++s) {
        const int i = ready[(static_cast<std::size_t>(s) * 7919) % ready.size()];
        try {
          const auto t = Clock::now();
          const auto r = co_await tasks_get(c, tasks_[i].id);
          samples.push_back(ms_since(t));
          if (task_status(r) != "input_required")
            record_error("get sample: task " + std::to_string(i) + " is " + task_status(r));
        } catch (const std::exception& e) {
          record_error(std::string("get sample: ") + e.what());
          c.close();
          break;
        }
      }
      c.close();
    }
    const auto p = percentiles(samples);
    out["get"] = {{"samples", samples.size()}, {"p50_ms", p.p50}, {"p99_ms", p.p99}, {"max_ms", p.max}};
    out["after_gets_resources"] = resources();

    const auto t_answer = Clock::now();
    co_await task_phase("answer", all_indexes([](const TaskSlot& t) { return t.waiting; }), answer, 1);
    out["answer_ms"] = ms_since(t_answer);
    co_await task_phase("complete", all_indexes([](const TaskSlot& t) { return t.answered; }), until_completed,
                        o_.max_polls);
    out["complete_ms"] = ms_since(t_answer);
    out["completed"] = completed_;
    co_await sleep(std::chrono::milliseconds(500));
    out["completed_resources"] = resources();
    out["errors"] = errors_;
    out["ok"] = completed_ == n && errors_ == 0;
  }

  awaitable<void> main() {
    try {
      if (o_.mode == "wait") {
        co_await wait_mode();
      } else if (o_.mode == "modern") {
        co_await stateless_mode();
      } else if (o_.mode == "tasks") {
        co_await tasks_mode();
      } else {
        co_await roundtrip_mode();
      }
    } catch (const std::exception& e) {
      record_error(std::string("run: ") + e.what());
    }
    done_ = true;
    ioc_.stop();
  }

  bool done() const { return done_; }

 private:
  net::io_context& ioc_;
  const Options& o_;
  const Child& child_;
  Endpoint ep_;
  std::vector<User> users_;
  int next_user_ = 0;
  int calls_sent_ = 0;
  int waiting_ = 0;
  int completed_ = 0;
  int ended_ = 0;
  int errors_ = 0;
  int next_id_ = 0;
  int callers_done_ = 0;
  int failures_ = 0;
  long json_responses_ = 0;
  long sse_responses_ = 0;
  long state_bytes_ = 0;
  bool answering_ = false;
  bool finished_ = false;
  bool done_ = false;
  net::steady_timer gate_;
  net::steady_timer answers_ready_;
  std::deque<int> answer_queue_;
  std::vector<double> latencies_;
  std::vector<std::pair<Clock::time_point, Clock::time_point>> rounds_;  // 2026-07-28: start and end of each
  std::vector<TaskSlot> tasks_;                                          // tasks mode
  int created_ = 0;
};

int usage() {
  std::cerr << "usage: elicit_http_load wait|roundtrip|modern|tasks [--users N] [--in-flight K] [--sessions S]\n"
               "       [--seconds T] [--warmup W] [--samples S] [--openers C] [--tool NAME] [--port-env VAR]\n"
               "       [--server-log FILE] [--deadline S] [--quiet S]\n"
               "       [--tasks N] [--connections C] [--gets G] [--phase-seconds T] [--max-polls P] [--paced 0|1] "
               "[--hold S]\n"
               "       -- SERVER COMMAND...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc < 2) return usage();
  o.mode = argv[1];
  if (o.mode != "wait" && o.mode != "roundtrip" && o.mode != "modern" && o.mode != "tasks") return usage();
  bool tool_given = false;
  int i = 2;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    if (a == "--users")
      o.users = std::atoi(v.c_str());
    else if (a == "--in-flight")
      o.in_flight = std::atoi(v.c_str());
    else if (a == "--sessions")
      o.sessions = std::atoi(v.c_str());
    else if (a == "--seconds")
      o.seconds = std::atof(v.c_str());
    else if (a == "--warmup")
      o.warmup = std::atof(v.c_str());
    else if (a == "--samples")
      o.samples = std::atoi(v.c_str());
    else if (a == "--openers")
      o.openers = std::atoi(v.c_str());
    else if (a == "--tool")
      o.tool = v, tool_given = true;
    else if (a == "--port-env")
      o.port_env = v;
    else if (a == "--server-log")
      o.server_log = v;
    else if (a == "--deadline")
      o.deadline = std::atof(v.c_str());
    else if (a == "--quiet")
      o.quiet = std::atoi(v.c_str());
    else if (a == "--tasks")
      o.tasks = std::atoi(v.c_str());
    else if (a == "--connections")
      o.connections = std::atoi(v.c_str());
    else if (a == "--gets")
      o.gets = std::atoi(v.c_str());
    else if (a == "--phase-seconds")
      o.phase_seconds = std::atof(v.c_str());
    else if (a == "--max-polls")
      o.max_polls = std::atoi(v.c_str());
    else if (a == "--hold")
      o.hold = std::atof(v.c_str());
    else if (a == "--paced")
      o.paced = v == "1" || v == "yes" || v == "true";
    else
      return usage();
  }
  for (; i < argc; ++i) o.server.emplace_back(argv[i]);
  if (o.mode == "tasks" && !tool_given) o.tool = "confirm_delete";
  if (o.server.empty() || o.users < 1 || o.in_flight < 1 || o.sessions < 1 || o.samples < 0 || o.seconds <= 0 ||
      o.warmup < 0 || o.tasks < 1 || o.connections < 1 || o.gets < 0 || o.phase_seconds <= 0 || o.max_polls < 1)
    return usage();

  // Raise the soft descriptor limit to the hard one (the server, started below, inherits it).
  rlimit nofile{};
  getrlimit(RLIMIT_NOFILE, &nofile);
  nofile.rlim_cur = nofile.rlim_max;
  setrlimit(RLIMIT_NOFILE, &nofile);
  const long needed = (o.mode == "wait"     ? o.users + o.answerers
                       : o.mode == "modern" ? o.in_flight
                       : o.mode == "tasks"  ? o.connections + 1
                                            : 2L * o.in_flight + o.sessions) +
                      64;
  if (nofile.rlim_cur != RLIM_INFINITY && static_cast<long>(nofile.rlim_cur) < needed) {
    std::cerr << "elicit_http_load: needs about " << needed << " file descriptors, the hard limit is "
              << nofile.rlim_cur << " (raise it: ulimit -Hn)\n";
    return 1;
  }
  signal(SIGPIPE, SIG_IGN);

  std::string error;
  const auto child = start_server(o.server, o.port_env, o.server_log, error);
  if (!child) {
    std::cerr << "elicit_http_load: " << error << "\n";
    return 1;
  }
  net::io_context ioc(1);
  Run run(ioc, o, *child);
  run.out["mode"] = o.mode;
  run.out["url"] = child->url;
  if (o.mode == "tasks") {
    run.out["tasks"] = o.tasks;
    run.out["connections"] = o.connections;
    run.out["paced"] = o.paced;
  } else {
    run.out["users"] = o.users;
  }
  run.out["tool"] = o.tool;
  run.out["nofile_limit"] = nofile.rlim_cur;
  net::co_spawn(ioc, run.main(), net::detached);
  // The whole run is bounded: past the deadline, report what there is.
  net::steady_timer watchdog(ioc, std::chrono::milliseconds(static_cast<long>(o.deadline * 1000)));
  watchdog.async_wait([&](boost::system::error_code ec) {
    if (ec) return;
    run.out["deadline_passed"] = true;
    ioc.stop();
  });
  ioc.run();
  run.out["server_stop_ms"] = stop_server(child->pid);
  std::cout << run.out.dump() << std::endl;
  // Skip destructors of thousands of half-finished coroutines: the process ends here.
  std::_Exit(0);
}
