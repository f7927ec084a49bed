// CancelOnSignal (cancel_on_signal.hpp): a self-pipe. The handler only writes the signal's number
// (write(2) is async-signal-safe); a thread reads it and cancels the scope, which may take locks.
#include "cancel_on_signal.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace elicitgen {

namespace {

int g_pipe[2] = {-1, -1};
struct sigaction g_old_int, g_old_term;

extern "C" void on_signal(int signo) {
  const int saved = errno;
  const unsigned char s = static_cast<unsigned char>(signo);
  [[maybe_unused]] const auto n = ::write(g_pipe[1], &s, 1);
  errno = saved;
}

}  // namespace

CancelOnSignal::CancelOnSignal(std::shared_ptr<elicit::CancelScope> scope) : scope_(std::move(scope)) {
  if (::pipe2(g_pipe, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  watcher_ = std::thread([this] {
    unsigned char s = 0;
    for (;;) {
      const auto n = ::read(g_pipe[0], &s, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n != 1) return;  // the write end closed: the destructor
      int expected = 0;
      if (signal_.compare_exchange_strong(expected, s)) scope_->cancel();
    }
  });
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;  // the second signal: the default action
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

CancelOnSignal::~CancelOnSignal() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  ::close(g_pipe[1]);
  watcher_.join();
  ::close(g_pipe[0]);
  g_pipe[0] = g_pipe[1] = -1;
}

}  // namespace elicitgen
