// Opening a URL in the user's browser, only when one is plausibly there (`elicitgen ask --browser`):
// a command never blocks on it, and a browser that cannot be started is not an error (the URL is
// printed for the user to open either way).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace elicitgen {

/// What decides whether (and how) a browser can be opened.
struct BrowserEnvironment {
  std::optional<std::string> browser;  ///< $BROWSER (nullopt when unset or empty)
  bool display = false;                ///< $DISPLAY or $WAYLAND_DISPLAY is set and not empty
  bool xdg_open = false;               ///< an executable xdg-open is on $PATH

  /// This process's environment. On systems other than Linux xdg_open is false.
  static BrowserEnvironment current();
};

/// The commands to try, in order, each an argv: every entry of $BROWSER (entries separated by ':',
/// words by white space, no shell quoting; "%s" in a word is replaced by the URL, else the URL is
/// the last word), then `xdg-open URL` when xdg-open is there and a display is set (xdg-open
/// without a display would start a text browser on the terminal the form is not on). Empty: no
/// browser is plausibly there.
std::vector<std::vector<std::string>> browser_commands(const BrowserEnvironment& env, const std::string& url);

/// Starts the first of `commands` that can be started (posix_spawnp), detached: stdin, stdout and
/// stderr on /dev/null, in a process group of its own (Ctrl-C on this terminal does not reach it),
/// default signal dispositions and an empty signal mask. Never waits for it. Returns its pid, or -1
/// when none could be started. The caller reaps it (reap_browser) or leaves it to init at exit.
pid_t launch_browser(const std::vector<std::vector<std::string>>& commands);

/// Reaps `pid` if it has exited (waitpid WNOHANG): no zombie left while this process goes on.
/// No-op for -1.
void reap_browser(pid_t pid);

}  // namespace elicitgen
