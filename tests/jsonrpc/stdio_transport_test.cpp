// The stdio transport over real pipes: framing, partial reads, CRLF, over-long lines, EOF.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/jsonrpc/stdio_transport.hpp>

#include "../support/patience.hpp"

namespace stdio_transport_test {

using namespace std::chrono_literals;

namespace {

struct Pipes {
  Pipes() {
    REQUIRE(pipe(in) == 0);
    REQUIRE(pipe(out) == 0);
  }
  ~Pipes() {
    for (int fd : {in[0], in[1], out[0], out[1]})
      if (fd >= 0) close(fd);
  }
  void write_in(const std::string& s) { REQUIRE(write(in[1], s.data(), s.size()) == static_cast<ssize_t>(s.size())); }
  void close_in() {
    close(in[1]);
    in[1] = -1;
  }
  std::string read_out(std::size_t n) {
    std::string s(n, '\0');
    std::size_t got = 0;
    while (got < n) {
      const auto r = read(out[0], s.data() + got, n - got);
      REQUIRE(r > 0);
      got += static_cast<std::size_t>(r);
    }
    return s;
  }
  int in[2];
  int out[2];
};

struct Received {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> messages;
  bool closed = false;
  bool wait(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, test_support::kPatience, [&] { return messages.size() >= n; });
  }
  bool wait_closed() {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, test_support::kPatience, [&] { return closed; });
  }
};

void start(elicit::StdioTransport& t, Received& r) {
  t.start(
      [&r](std::string m) {
        std::lock_guard<std::mutex> lock(r.mutex);
        r.messages.push_back(std::move(m));
        r.cv.notify_all();
      },
      [&r] {
        std::lock_guard<std::mutex> lock(r.mutex);
        r.closed = true;
        r.cv.notify_all();
      });
}

}  // namespace

TEST_CASE("stdio: one message per line, across partial reads, CRLF tolerated, blank lines skipped", "[stdio]") {
  Pipes p;
  Received r;
  elicit::StdioTransport t({p.in[0], p.out[1], 1024});
  start(t, r);
  p.write_in("{\"a\":1}\n{\"b\"");
  p.write_in(":2}\r\n\n\n{\"c\":3}\n");
  REQUIRE(r.wait(3));
  CHECK(r.messages == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"});
  p.close_in();
  CHECK(r.wait_closed());
  CHECK(r.messages.size() == 3);
}

TEST_CASE("stdio: an over-long line is dropped whole and reading goes on", "[stdio][hostile]") {
  Pipes p;
  Received r;
  elicit::StdioTransport t({p.in[0], p.out[1], 16});
  start(t, r);
  p.write_in(std::string(40, 'x') + "\n{\"ok\":true}\n");
  REQUIRE(r.wait(1));
  CHECK(r.messages == std::vector<std::string>{"{\"ok\":true}"});
}

TEST_CASE("stdio: send writes one line, close() stops the reader without EOF", "[stdio]") {
  Pipes p;
  Received r;
  elicit::StdioTransport t({p.in[0], p.out[1], 1024});
  start(t, r);
  CHECK(t.send("{\"x\":1}", {}));
  CHECK(p.read_out(8) == "{\"x\":1}\n");
  t.close();
  CHECK(r.wait_closed());
  CHECK_FALSE(t.send("{}", {}));
}

}  // namespace stdio_transport_test
