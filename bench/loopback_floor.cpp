// The floor under bench section 8 at 1 in flight: a bare loopback TCP ping-pong with no work at all.
// A round trip is two exchanges of `bytes` each way (as a 2026-07-28 round is two HTTP requests),
// blocking I/O, TCP_NODELAY, client and server in two processes. Prints one JSON object: round trips
// per second and each side's CPU time (user + system) per round trip, in microseconds.
//   elicit_loopback_floor [ROUND_TRIPS (default 20000)] [BYTES (default 700)]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool read_all(int fd, char* p, std::size_t n) {
  while (n > 0) {
    const auto r = ::read(fd, p, n);
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const auto w = ::write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

void no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

double cpu_us(const rusage& r) {
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::atol(argv[1]) : 20000;
  const std::size_t bytes = argc > 2 ? static_cast<std::size_t>(std::atol(argv[2])) : 700;
  if (rounds <= 0 || bytes == 0 || bytes > (1u << 20)) {
    std::fprintf(stderr, "usage: elicit_loopback_floor [ROUND_TRIPS] [BYTES]\n");
    return 2;
  }
  std::vector<char> buf(bytes, 'x');
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener, 1) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("listen");
    return 1;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    std::perror("fork");
    return 1;
  }
  if (child == 0) {  // the server: answers each message with as many bytes, until the client hangs up
    const int c = ::accept(listener, nullptr, nullptr);
    if (c < 0) ::_exit(1);
    no_delay(c);
    while (read_all(c, buf.data(), bytes) && write_all(c, buf.data(), bytes)) {
    }
    ::_exit(0);
  }
  ::close(listener);
  const int c = ::socket(AF_INET, SOCK_STREAM, 0);
  if (c < 0 || ::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::perror("connect");
    return 1;
  }
  no_delay(c);
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < 2 * rounds; ++i) {
    if (!write_all(c, buf.data(), bytes) || !read_all(c, buf.data(), bytes)) {
      std::fprintf(stderr, "the server went away\n");
      return 1;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::close(c);
  int status = 0;
  ::waitpid(child, &status, 0);
  rusage self{}, children{};
  ::getrusage(RUSAGE_SELF, &self);
  ::getrusage(RUSAGE_CHILDREN, &children);
  std::printf(
      "{\"round_trips\":%ld,\"bytes\":%zu,\"seconds\":%.4f,\"round_trips_per_second\":%.1f,"
      "\"client_cpu_us_per_round_trip\":%.2f,\"server_cpu_us_per_round_trip\":%.2f}\n",
      rounds, bytes, seconds, static_cast<double>(rounds) / seconds, cpu_us(self) / static_cast<double>(rounds),
      cpu_us(children) / static_cast<double>(rounds));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
