// Which browser `elicitgen ask --browser` tries to open (only one plausibly there), and starting one
// detached without waiting for it.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "../support/patience.hpp"
#include "browser_launch.hpp"

namespace browser_launch_test {

using elicitgen::browser_commands;
using elicitgen::BrowserEnvironment;
using Commands = std::vector<std::vector<std::string>>;

namespace {

const std::string kUrl = "http://127.0.0.1:4711/forms/abc";

BrowserEnvironment env(std::optional<std::string> browser, bool display, bool xdg_open) {
  BrowserEnvironment e;
  e.browser = std::move(browser);
  e.display = display;
  e.xdg_open = xdg_open;
  return e;
}

}  // namespace

TEST_CASE("browser_commands: xdg-open only with a display, $BROWSER first", "[browser][cli]") {
  // Nothing plausible: no $BROWSER, and xdg-open without a display (it would start a text browser
  // on a terminal) or a display without xdg-open.
  CHECK(browser_commands(env(std::nullopt, false, false), kUrl).empty());
  CHECK(browser_commands(env(std::nullopt, false, true), kUrl).empty());
  CHECK(browser_commands(env(std::nullopt, true, false), kUrl).empty());
  CHECK(browser_commands(env(std::nullopt, true, true), kUrl) == Commands{{"xdg-open", kUrl}});
  // $BROWSER: ':'-separated commands, words split on white space, "%s" for the URL (else it is
  // appended); then xdg-open when it is plausible.
  CHECK(browser_commands(env("firefox", false, false), kUrl) == Commands{{"firefox", kUrl}});
  CHECK(browser_commands(env("w3m:firefox  --new-tab %s::", true, true), kUrl) ==
        Commands{{"w3m", kUrl}, {"firefox", "--new-tab", kUrl}, {"xdg-open", kUrl}});
  CHECK(browser_commands(env("open --url=%s", false, false), kUrl) == Commands{{"open", "--url=" + kUrl}});
  CHECK(browser_commands(env(" : ", false, false), kUrl).empty());
}

TEST_CASE("launch_browser starts the first command that exists, without waiting for it", "[browser][cli]") {
  CHECK(elicitgen::launch_browser({}) == -1);
  CHECK(elicitgen::launch_browser({{"/nonexistent/elicitgen-browser", kUrl}}) == -1);
  const auto pid = elicitgen::launch_browser({{"/nonexistent/elicitgen-browser", kUrl}, {"true", kUrl}});
  REQUIRE(pid > 0);
  // Reaped here (bounded), so that the test leaves no zombie behind; reap_browser never waits.
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + test_support::kPatience;
  pid_t reaped = 0;
  while ((reaped = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(reaped == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  elicitgen::reap_browser(-1);  // a no-op
}

}  // namespace browser_launch_test
