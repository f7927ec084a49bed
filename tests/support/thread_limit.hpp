// Processes that cannot create threads, for the tests of what the runtime does then (issue 11,
// item 9). RLIMIT_NPROC bounds the threads of a user, and a soft limit of 0 makes every further
// clone() fail with EAGAIN (std::thread throws std::system_error), while what already runs goes on.
// Root is exempt from it (as is any process with CAP_SYS_RESOURCE or CAP_SYS_ADMIN), so a process
// running as root first becomes the unprivileged user `nobody` (65534). Where that is impossible, or
// the limit does not bind after all, the test is skipped, saying why.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace test_support {

/// Exit status a child uses to say "this machine cannot run the test" (as in Automake).
inline constexpr int kSkipStatus = 77;

/// Makes this process unprivileged when it runs as root. False when it cannot.
inline bool drop_root() {
  if (geteuid() != 0) return true;
  constexpr gid_t kNobody = 65534;
  return setgroups(0, nullptr) == 0 && setgid(kNobody) == 0 && setuid(kNobody) == 0 && geteuid() != 0;
}

/// Sets the soft RLIMIT_NPROC of process `pid` (0: this one): 0 blocks thread creation, `unblocked`
/// restores the hard limit.
inline bool set_thread_limit(pid_t pid, bool blocked) {
  rlimit now{};
  if (prlimit(pid, RLIMIT_NPROC, nullptr, &now) != 0) return false;
  rlimit next = now;
  next.rlim_cur = blocked ? 0 : now.rlim_max;
  return prlimit(pid, RLIMIT_NPROC, &next, nullptr) == 0;
}

/// True when this process can create a thread right now.
inline bool can_create_thread() {
  try {
    std::thread([] {}).join();
    return true;
  } catch (const std::system_error&) {
    return false;
  }
}

/// Blocks thread creation in this process, after dropping root. False (and a reason) when the
/// limit cannot be made to bind here.
inline bool block_threads(std::string& why) {
  if (!drop_root()) {
    why = "cannot drop root privileges (setuid to 65534), and RLIMIT_NPROC does not bind root";
    return false;
  }
  if (!set_thread_limit(0, true)) {
    why = std::string("setrlimit(RLIMIT_NPROC) failed: ") + std::strerror(errno);
    return false;
  }
  if (can_create_thread()) {
    why = "a thread could still be created with RLIMIT_NPROC at 0 (capabilities?)";
    return false;
  }
  return true;
}

struct ChildResult {
  int status = -1;     ///< exit status; -1 when killed by a signal, -2 when it outlived the time limit
  std::string output;  ///< its stdout and stderr
};

/// Waits for `pid` up to `limit`, then kills it. Its exit status as ChildResult::status.
inline int wait_child(pid_t pid, std::chrono::milliseconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < give_up) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -2;
}

/// Runs this test program again, in a fresh process, on the test cases that `tag` selects (hidden
/// ones, "[.name]"), with ELICIT_TEST_CHILD=1 in its environment; gives up after `limit`. A fresh
/// process starts with one thread and none of this process's state (e.g. jsonrpc::TimerService::shared()).
inline ChildResult run_self(const std::string& tag, std::chrono::milliseconds limit) {
  ChildResult r;
  char exe[4096];
  const auto n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return r;
  exe[n] = '\0';
  char out_path[] = "/tmp/elicit-child-XXXXXX";
  const int out = mkstemp(out_path);
  if (out < 0) return r;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    setenv("ELICIT_TEST_CHILD", "1", 1);
    execl(exe, exe, tag.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  r.status = pid < 0 ? -1 : wait_child(pid, limit);
  lseek(out, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t got; (got = read(out, buf, sizeof buf)) > 0;) r.output.append(buf, static_cast<std::size_t>(got));
  close(out);
  unlink(out_path);
  return r;
}

/// True in a process started by run_self.
inline bool in_child() { return std::getenv("ELICIT_TEST_CHILD") != nullptr; }

}  // namespace test_support
