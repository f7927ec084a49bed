// The floor under bench section 8 at 1 in flight: a bare loopback TCP ping-pong with no work at all.
// A round trip is two exchanges of `bytes` each way (as a 2026-07-28 round is two HTTP requests),
// TCP_NODELAY, client and server in two processes, the client with blocking I/O. The server answers
// with blocking read(2)/write(2) (`blocking`, the default), or (`asio`) the way the runtime's HTTP
// server does: one thread running a Boost.Asio io_context, an asynchronous read of each message and
// an asynchronous write of its answer, so the reactor's epoll_wait and wake-ups are in the figure.
// Prints one JSON object: round trips per second and each side's CPU time (user + system) per round
// trip, in microseconds, and the server's user and system time apart.
//   elicit_loopback_floor [ROUND_TRIPS (default 20000)] [BYTES (default 700)] [blocking|asio]
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
#include <cstring>
#include <vector>

#ifdef ELICIT_FLOOR_WITH_ASIO
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#endif

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

#ifdef ELICIT_FLOOR_WITH_ASIO
// The server side on Asio: read a message, write it back, until the client hangs up.
struct AsioEcho {
  boost::asio::ip::tcp::socket socket;
  std::vector<char>& buf;

  void read() {
    boost::asio::async_read(socket, boost::asio::buffer(buf), [this](boost::system::error_code ec, std::size_t) {
      if (!ec) write();
    });
  }
  void write() {
    boost::asio::async_write(socket, boost::asio::buffer(buf), [this](boost::system::error_code ec, std::size_t) {
      if (!ec) read();
    });
  }
};

bool serve_asio(int fd, std::vector<char>& buf) {
  boost::asio::io_context io(1);
  AsioEcho echo{boost::asio::ip::tcp::socket(io), buf};
  boost::system::error_code ec;
  echo.socket.assign(boost::asio::ip::tcp::v4(), fd, ec);
  if (ec) return false;
  echo.read();
  io.run();
  return true;
}
#endif

double us(const timeval& t) { return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_usec); }
double cpu_us(const rusage& r) { return us(r.ru_utime) + us(r.ru_stime); }

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::atol(argv[1]) : 20000;
  const std::size_t bytes = argc > 2 ? static_cast<std::size_t>(std::atol(argv[2])) : 700;
  const bool asio = argc > 3 && std::strcmp(argv[3], "asio") == 0;
  if (rounds <= 0 || bytes == 0 || bytes > (1u << 20) || (argc > 3 && !asio && std::strcmp(argv[3], "blocking") != 0)) {
    std::fprintf(stderr, "usage: elicit_loopback_floor [ROUND_TRIPS] [BYTES] [blocking|asio]\n");
    return 2;
  }
#ifndef ELICIT_FLOOR_WITH_ASIO
  if (asio) {
    std::fprintf(stderr, "elicit_loopback_floor: built without Boost.Asio\n");
    return 2;
  }
#endif
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
#ifdef ELICIT_FLOOR_WITH_ASIO
    if (asio) ::_exit(serve_asio(c, buf) ? 0 : 1);
#endif
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
      "{\"server\":\"%s\",\"round_trips\":%ld,\"bytes\":%zu,\"seconds\":%.4f,\"round_trips_per_second\":%.1f,"
      "\"client_cpu_us_per_round_trip\":%.2f,\"server_cpu_us_per_round_trip\":%.2f,"
      "\"server_user_us_per_round_trip\":%.2f,\"server_system_us_per_round_trip\":%.2f}\n",
      asio ? "asio" : "blocking", rounds, bytes, seconds, static_cast<double>(rounds) / seconds,
      cpu_us(self) / static_cast<double>(rounds), cpu_us(children) / static_cast<double>(rounds),
      us(children.ru_utime) / static_cast<double>(rounds), us(children.ru_stime) / static_cast<double>(rounds));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
