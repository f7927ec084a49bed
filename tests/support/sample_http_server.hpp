// The sample HTTP server (SAMPLE_HTTP_SERVER) as a child process on a free loopback port; its
// endpoint URL is the first line it prints. Stopped (SIGTERM) when this object goes.
#pragma once

#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <elicit/child_process.hpp>
#include "test_paths.hpp"

namespace test_support {

struct SampleHttpServer {
  /// `arguments` follow `--port 0`, e.g. {"--tls-cert", CRT, "--tls-key", KEY}.
  explicit SampleHttpServer(const std::vector<std::string>& arguments = {}) {
    elicit::ChildProcessOptions o;
    o.stderr_fd = -1;
    o.exit_grace = std::chrono::milliseconds(200);  // it does not read stdin: SIGTERM ends it
    std::vector<std::string> argv{SAMPLE_HTTP_SERVER, "--port", "0"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    process = elicit::ChildProcess::spawn(argv, o);
    char c;
    // Bounded: the line is short; a server that dies first ends the read with EOF.
    for (int i = 0; i < 4096 && ::read(process->stdout_fd(), &c, 1) == 1 && c != '\n'; ++i) url += c;
    REQUIRE((url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0));
  }

  /// The port in `url`.
  int port() const {
    const auto colon = url.rfind(':');
    return std::stoi(url.substr(colon + 1, url.find('/', colon) - colon - 1));
  }

  std::unique_ptr<elicit::ChildProcess> process;
  std::string url;
};

}  // namespace test_support
