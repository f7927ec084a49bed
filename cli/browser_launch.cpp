// Opening a URL in the user's browser (browser_launch.hpp).
#include "browser_launch.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

extern char** environ;

namespace elicitgen {

namespace {

std::optional<std::string> non_empty_env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

bool on_path(const std::string& program) {
  const auto path = non_empty_env("PATH");
  if (!path) return false;
  std::stringstream dirs(*path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) dir = ".";  // an empty entry is the current directory (POSIX)
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace

BrowserEnvironment BrowserEnvironment::current() {
  BrowserEnvironment env;
  env.browser = non_empty_env("BROWSER");
  env.display = non_empty_env("DISPLAY") || non_empty_env("WAYLAND_DISPLAY");
#ifdef __linux__
  env.xdg_open = on_path("xdg-open");
#endif
  return env;
}

std::vector<std::vector<std::string>> browser_commands(const BrowserEnvironment& env, const std::string& url) {
  std::vector<std::vector<std::string>> commands;
  if (env.browser) {
    // The convention Python's webbrowser module and xdg-utils follow: a ':'-separated list of
    // commands, "%s" standing for the URL.
    std::stringstream entries(*env.browser);
    for (std::string entry; std::getline(entries, entry, ':');) {
      std::vector<std::string> argv;
      bool placed = false;
      std::istringstream words(entry);
      for (std::string word; words >> word;) {
        for (auto at = word.find("%s"); at != std::string::npos; at = word.find("%s", at + url.size())) {
          word.replace(at, 2, url);
          placed = true;
        }
        argv.push_back(std::move(word));
      }
      if (argv.empty()) continue;
      if (!placed) argv.push_back(url);
      commands.push_back(std::move(argv));
    }
  }
  if (env.xdg_open && env.display) commands.push_back({"xdg-open", url});
  return commands;
}

pid_t launch_browser(const std::vector<std::vector<std::string>>& commands) {
  for (const auto& command : commands) {
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&files) != 0) return -1;
    if (posix_spawnattr_init(&attr) != 0) {
      posix_spawn_file_actions_destroy(&files);
      return -1;
    }
    // Nothing of the browser's reaches this command's output (stdout carries the answer only), and
    // it reads nothing of this terminal.
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);  // its own group: Ctrl-C here must not close the browser
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    std::vector<char*> argv;
    for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, argv[0], &files, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
    // glibc reports a program that cannot be executed (ENOENT, EACCES) here; elsewhere it may exit
    // 127 instead, which is as harmless: the URL was printed.
    if (rc == 0) return pid;
  }
  return -1;
}

void reap_browser(pid_t pid) {
  if (pid <= 0) return;
  int status = 0;
  ::waitpid(pid, &status, WNOHANG);
}

}  // namespace elicitgen
