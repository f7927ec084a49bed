// A child process whose standard input and output are pipes to this one: how an MCP client runs a
// server over stdio (MCP 2025-11-25 and 2026-07-28, Transports, "stdio": the client launches the
// server as a subprocess; the server MAY write logs to stderr).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace elicit {

struct ChildProcessOptions {
  /// Where the child's stderr goes: a file descriptor of this process (duplicated into the child),
  /// or -1 for /dev/null. Default 2: this process's own stderr, kept apart from the protocol
  /// stream on stdout.
  int stderr_fd = 2;
  /// How long the destructor waits for the child to exit after closing its stdin before it sends
  /// SIGTERM, and again before SIGKILL (milliseconds).
  std::chrono::milliseconds exit_grace{2000};
};

/// A running child process. Not copyable; the destructor ends it (closes its stdin, waits up to
/// exit_grace, then SIGTERM, then SIGKILL) and reaps it. Thread rules: one owner.
class ChildProcess {
 public:
  /// Starts argv[0] (searched in PATH when it has no '/') with `argv` as its arguments. Throws
  /// std::invalid_argument for an empty argv and std::system_error when the pipes or the process
  /// cannot be made (e.g. the program does not exist: ENOENT).
  static std::unique_ptr<ChildProcess> spawn(const std::vector<std::string>& argv, ChildProcessOptions options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Write end of the child's stdin and read end of its stdout; both owned by this object until it
  /// is destroyed (hand them to a StdioTransport, which does not close them).
  int stdin_fd() const noexcept { return stdin_fd_; }
  int stdout_fd() const noexcept { return stdout_fd_; }
  pid_t pid() const noexcept { return pid_; }

  /// Closes the child's stdin (it sees end of input: an MCP server's cue to exit) and waits up to
  /// `timeout` for it to exit; returns its wait status (as waitpid gives it), or -1 when it is
  /// still running.
  int close_and_wait(std::chrono::milliseconds timeout);

 private:
  ChildProcess(pid_t pid, int in, int out, ChildProcessOptions options) noexcept
      : pid_(pid), stdin_fd_(in), stdout_fd_(out), options_(options) {}
  int wait_for(std::chrono::milliseconds timeout);

  pid_t pid_;
  int stdin_fd_;
  int stdout_fd_;
  ChildProcessOptions options_;
  int status_ = -1;
  bool reaped_ = false;
};

}  // namespace elicit
