// `elicitgen ask --browser` as a child process: the test reads the page's URL from its stderr and
// acts as the browser (plain HTTP on loopback: GET the form, POST the submission with its CSRF
// token), then checks what the command printed on stdout and its exit code. Accept (pretty content,
// and the --jsonl line), decline, a page that expires unanswered, a bad schema (nothing served), the
// options refused without --browser, and a $BROWSER that is started with the URL. Every wait is
// bounded by test_support::kPatience; nothing depends on the machine's speed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <elicit/child_process.hpp>

#include "../support/http_client.hpp"
#include "../support/patience.hpp"
#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace ask_browser_test {

using http_test::bhttp::verb;
using Clock = std::chrono::steady_clock;

namespace {

const http_test::Headers kForm{{"Content-Type", "application/x-www-form-urlencoded"}};
const std::string kKey = "sk-test-0123456789abcdefghij";  // 28 characters: api_key takes 20 to 200
const std::string kApiKey = std::string(SAMPLE_SCHEMAS_DIR) + "/api_key.json";

// Reads what `fd` gives until `done(text)` or its end, at most until `deadline`.
template <class Done>
void read_until(int fd, std::string& text, Clock::time_point deadline, Done done) {
  while (!done(text)) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    char buf[4096];
    const auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return;  // the end: the child exited (or closed its end)
    text.append(buf, static_cast<std::size_t>(n));
  }
}

// `elicitgen ask --browser ...` running, its stderr on a pipe of ours.
class AskChild {
 public:
  // `prefix`: words before the elicitgen binary (e.g. /usr/bin/env VAR=value).
  explicit AskChild(const std::vector<std::string>& args, const std::vector<std::string>& prefix = {}) {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    err_fd_ = fds[0];
    std::vector<std::string> argv = prefix;
    argv.push_back(ELICITGEN_BIN);
    argv.push_back("ask");
    argv.insert(argv.end(), args.begin(), args.end());
    elicit::ChildProcessOptions o;
    o.stderr_fd = fds[1];  // duplicated into the child
    try {
      child_ = elicit::ChildProcess::spawn(argv, o);
    } catch (...) {
      ::close(fds[1]);
      throw;
    }
    ::close(fds[1]);  // the child's copy only: its end of stderr is the pipe's end
  }
  ~AskChild() { ::close(err_fd_); }
  AskChild(const AskChild&) = delete;
  AskChild& operator=(const AskChild&) = delete;

  // The URL the command printed on stderr ("" when none came, bounded).
  std::string url() {
    const std::string marker = "http://127.0.0.1:";
    read_until(err_fd_, err_, Clock::now() + test_support::kPatience, [&](const std::string& text) {
      const auto at = text.find(marker);
      return at != std::string::npos && text.find_first_of(" \n", at) != std::string::npos;
    });
    const auto at = err_.find(marker);
    if (at == std::string::npos) return "";
    return err_.substr(at, err_.find_first_of(" \n", at) - at);
  }

  struct Ended {
    int exit_code = -1;  ///< -1: it did not exit (within the patience), or not normally
    std::string out, err;
  };
  // Waits (bounded) for the command to end; its stdout and all of its stderr.
  Ended end() {
    Ended e;
    const auto deadline = Clock::now() + test_support::kPatience;
    read_until(child_->stdout_fd(), e.out, deadline, [](const std::string&) { return false; });
    read_until(err_fd_, err_, deadline, [](const std::string&) { return false; });
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    const int status = child_->close_and_wait(std::max(left, std::chrono::milliseconds(1)));
    if (status != -1 && WIFEXITED(status)) e.exit_code = WEXITSTATUS(status);
    e.err = err_;
    return e;
  }

 private:
  std::unique_ptr<elicit::ChildProcess> child_;
  int err_fd_ = -1;
  std::string err_;
};

int port_of(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }
std::string path_of(const std::string& url) { return url.substr(url.find('/', url.find("://") + 3)); }

// The browser: opens the page at `url` and submits `fields` (without the token) with its CSRF
// token. The status of the submission, or of the GET when that failed (0: no answer).
int submit(const std::string& url, const std::string& fields) {
  const auto page = http_test::Connection(port_of(url)).request(verb::get, path_of(url), {});
  if (page.status != 200) return page.status;
  const auto csrf = http_test::csrf_of(page.body);
  REQUIRE_FALSE(csrf.empty());
  return http_test::Connection(port_of(url)).request(verb::post, path_of(url), kForm, fields + "&csrf=" + csrf).status;
}

}  // namespace

TEST_CASE("elicitgen ask --browser: the page's accepted content on stdout, in the form's order", "[browser][cli]") {
  AskChild ask({"--browser", "--no-open", kApiKey});
  const auto url = ask.url();
  REQUIRE(url.rfind("http://127.0.0.1:", 0) == 0);
  CHECK(url.find("/forms/") != std::string::npos);
  // The page shows the schema file's message.
  const auto page = http_test::Connection(port_of(url)).request(verb::get, path_of(url), {});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("Connect a service") != std::string::npos);
  // A key too short is refused by the page (422); the command goes on waiting.
  CHECK(submit(url, "service=openai&api_key=short&action=accept") == 422);
  CHECK(submit(url, "service=openai&api_key=" + kKey + "&action=accept") == 200);
  const auto r = ask.end();
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "{\n  \"service\": \"openai\",\n  \"api_key\": \"" + kKey + "\"\n}\n");
}

TEST_CASE("elicitgen ask --browser --jsonl: one ElicitResult line", "[browser][cli]") {
  AskChild ask({"--browser", "--no-open", "--jsonl", kApiKey});
  const auto url = ask.url();
  REQUIRE_FALSE(url.empty());
  CHECK(submit(url, "service=stripe&api_key=" + kKey + "&action=accept") == 200);
  const auto r = ask.end();
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == R"({"action":"accept","content":{"service":"stripe","api_key":")" + kKey + "\"}}\n");
}

TEST_CASE("elicitgen ask --browser: decline and cancel on the page exit 1", "[browser][cli]") {
  for (const char* action : {"decline", "cancel"}) {
    INFO(action);
    AskChild ask({"--browser", "--no-open", kApiKey});
    const auto url = ask.url();
    REQUIRE_FALSE(url.empty());
    CHECK(submit(url, std::string("action=") + action) == 200);
    const auto r = ask.end();
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out == std::string("{\"action\":\"") + action + "\"}\n");
  }
}

TEST_CASE("elicitgen ask --browser --timeout: a page that expires unanswered is a cancel", "[browser][cli]") {
  // Only the outcome is checked, never how long it took. The words on stderr are the locale's.
  AskChild ask({"--browser", "--no-open", "--timeout", "50", kApiKey}, {"/usr/bin/env", "LC_ALL=C"});
  const auto r = ask.end();
  CHECK(r.exit_code == 1);
  CHECK(r.out == "{\"action\":\"cancel\"}\n");
  CHECK(r.err.find("Open http://127.0.0.1:") != std::string::npos);
  CHECK(r.err.find(" in your browser to answer (the page expires in 50 ms; Ctrl-C to stop)") != std::string::npos);
  CHECK(r.err.find("the page expired unanswered") != std::string::npos);

  // In Korean (only the environment's names are read: no locale need be installed), the URL still
  // followed by a space, as scripts find it.
  AskChild korean({"--browser", "--no-open", "--timeout", "2000", kApiKey}, {"/usr/bin/env", "LC_ALL=ko_KR.UTF-8"});
  CHECK(korean.url().rfind("http://127.0.0.1:", 0) == 0);
  const auto k = korean.end();
  CHECK(k.exit_code == 1);
  CHECK(k.out == "{\"action\":\"cancel\"}\n");
  CHECK(k.err.find("브라우저에서 http://127.0.0.1:") != std::string::npos);
  CHECK(k.err.find(" 페이지를 열어 답하세요 (페이지는 2초 뒤 만료됩니다. 멈추려면 Ctrl-C)") != std::string::npos);
  CHECK(k.err.find("elicitgen ask: 페이지가 응답 없이 만료되었습니다") != std::string::npos);
}

TEST_CASE("elicitgen ask --browser: a bad schema is reported as without it, and nothing is served", "[browser][cli]") {
  const auto bad = std::string(TEST_TMP_DIR) + "/" + std::to_string(getpid()) + "-ask-browser-bad.json";
  std::ofstream(bad) << R"({"type":"object","properties":{"x":{"type":"strin"}}})";
  AskChild ask({"--browser", "--no-open", bad});
  const auto r = ask.end();
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind(bad + ":1:37: error: /properties/x/type: ", 0) == 0);
  CHECK(r.err.find("http://") == std::string::npos);
  // The options of --browser need it; --timeout takes 1 ms to 30 days.
  CHECK(test_support::run_elicitgen("ask --no-open '" + kApiKey + "' < /dev/null").exit_code == 2);
  CHECK(test_support::run_elicitgen("ask --timeout 50 '" + kApiKey + "' < /dev/null").exit_code == 2);
  CHECK(test_support::run_elicitgen("ask --browser --no-open --timeout 0 '" + kApiKey + "'").exit_code == 2);
}

TEST_CASE("elicitgen ask --browser starts $BROWSER with the page's URL", "[browser][cli]") {
  // A "browser" that writes what it was given to a file (whole: written aside, then renamed).
  const auto dir = std::filesystem::path(TEST_TMP_DIR) / ("ask-browser-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto seen = dir / "seen.txt";
  std::filesystem::remove(seen);
  const auto script = dir / "browser.sh";
  std::ofstream(script) << "#!/bin/sh\necho \"$*\" > '" << seen.string() << ".tmp' && mv '" << seen.string()
                        << ".tmp' '" << seen.string() << "'\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  // The first entry of $BROWSER does not exist: the next is tried, "%s" replaced by the URL.
  AskChild ask({"--browser", kApiKey},
               {"/usr/bin/env", "BROWSER=/nonexistent/elicitgen-browser:" + script.string() + " --new-tab %s"});
  const auto url = ask.url();
  REQUIRE_FALSE(url.empty());
  const auto deadline = Clock::now() + test_support::kPatience;
  while (!std::filesystem::exists(seen) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(test_support::read_file(seen) == "--new-tab " + url + "\n");
  CHECK(submit(url, "action=decline") == 200);
  const auto r = ask.end();
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out == "{\"action\":\"decline\"}\n");
}

}  // namespace ask_browser_test
