// ChildProcess: posix_spawn with the child's stdin and stdout on pipes (child_process.hpp).
#include "elicit/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <thread>

extern char** environ;

namespace elicit {
namespace {

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// A pipe whose ends are not inherited by other children this process starts meanwhile.
void make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv, ChildProcessOptions options) {
  if (argv.empty() || argv[0].empty()) throw std::invalid_argument("ChildProcess::spawn: no program to run");
  int to_child[2] = {-1, -1};
  int from_child[2] = {-1, -1};
  int devnull = -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const auto cleanup = [&] {
    posix_spawn_file_actions_destroy(&actions);
    close_fd(to_child[0]);
    close_fd(to_child[1]);
    close_fd(from_child[0]);
    close_fd(from_child[1]);
    close_fd(devnull);
  };
  try {
    make_pipe(to_child);
    make_pipe(from_child);
    int err_fd = options.stderr_fd;
    if (err_fd < 0) {
      devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (devnull < 0) throw std::system_error(errno, std::generic_category(), "/dev/null");
      err_fd = devnull;
    }
    // dup2 clears close-on-exec on the copies, so only these three reach the child.
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    if (err_fd != 2) posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  } catch (...) {
    cleanup();
    throw;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  if (rc != 0) {
    cleanup();
    throw std::system_error(rc, std::generic_category(), "cannot start " + argv[0]);
  }
  const int in = to_child[1];
  const int out = from_child[0];
  to_child[1] = -1;
  from_child[0] = -1;
  cleanup();  // this process's copies of the child's ends
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, in, out, options));
}

int ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  if (reaped_) return status_;
  // Polled: a child process has no descriptor to wait on here; 5 ms steps, bounded by `timeout`.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      reaped_ = true;
      status_ = r == pid_ ? status : -1;
      return status_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int ChildProcess::close_and_wait(std::chrono::milliseconds timeout) {
  close_fd(stdin_fd_);
  return wait_for(timeout);
}

ChildProcess::~ChildProcess() {
  close_fd(stdin_fd_);
  if (!reaped_ && wait_for(options_.exit_grace) == -1 && !reaped_) {
    ::kill(pid_, SIGTERM);
    if (wait_for(options_.exit_grace) == -1 && !reaped_) {
      ::kill(pid_, SIGKILL);
      wait_for(std::chrono::hours(1));  // SIGKILL cannot be refused
    }
  }
  close_fd(stdout_fd_);
}

}  // namespace elicit
