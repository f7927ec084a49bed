// The sample tools (sample_tools.cpp) over Streamable HTTP, on loopback.
// Usage: elicitgen_http_server [--port N] (0 or absent: a free port). Prints the endpoint URL on
// stdout once listening, and serves until SIGINT or SIGTERM. Exits 1 with a message on stderr when
// it cannot start (the port is taken, no thread can be created).
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <elicit/http_server.hpp>

#include "sample_tools.hpp"

int main(int argc, char** argv) {
  elicit::HttpServerOptions options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: " << argv[0] << " [--port N]\n";
      return 2;
    }
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts: only sigwait sees them

  elicit::StreamableHttpServer server({"elicitgen-sample-server", "0.1.0", "elicitgen sample server", std::nullopt},
                                      add_sample_tools, options);
  try {
    server.start();
  } catch (const std::exception& e) {  // cannot listen, or no thread could be created
    std::cerr << "elicitgen-sample-server: cannot start: " << e.what() << "\n";
    return 1;
  }
  std::cout << "http://127.0.0.1:" << server.port() << options.path << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "elicitgen-sample-server: stopping\n";
  server.stop();
  return 0;
}
