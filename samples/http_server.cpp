// The sample tools (sample_tools.cpp) over Streamable HTTP, on loopback.
// Usage: elicitgen_http_server [--port N] [--state-keys FILE] [--instance NAME] [--redis PORT]
//                              [--tls-cert FILE --tls-key FILE]
//   --port N          0 or absent: a free port
//   --state-keys FILE requestState keys, base64, one per line, the first sealing (several processes
//                     behind a load balancer share them); absent: a random key of this process
//   --instance NAME   added to the server's title, so a client can tell processes apart
//   --redis PORT      URL-mode completions (the sign_in tool) in the Redis server on 127.0.0.1:PORT,
//                     shared by every process pointing at it; absent: in this process's memory
//   --tls-cert FILE   HTTPS (TLS 1.2+): the certificate chain (PEM, the server's first); with
//   --tls-key FILE    its private key (PEM). A new pair written to the files is used from the next
//                     connection on, without a restart.
// Prints the endpoint URL on stdout once listening, and serves until SIGINT or SIGTERM. Exits 1
// with a message on stderr when it cannot start (the port is taken, no thread can be created).
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <elicit/http/server.hpp>
#ifdef ELICITGEN_SAMPLE_REDIS
#include <elicit/redis/completion_store.hpp>
#endif

#include "sample_tools.hpp"

int main(int argc, char** argv) {
  elicit::HttpServerOptions options;
  options.server.user_interaction.enabled = true;  // the opt-in userInteraction dialect
  std::string title = "elicitgen sample server";
  std::shared_ptr<elicit::CompletionStore> completions;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--instance") == 0 && i + 1 < argc) {
      title += std::string(" (") + argv[++i] + ")";
    } else if (std::strcmp(argv[i], "--state-keys") == 0 && i + 1 < argc) {
      std::ifstream in(argv[++i]);
      if (!in) {
        std::cerr << argv[i] << ": cannot read the requestState keys\n";
        return 2;
      }
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        const auto key = elicit::RequestStateSealer::key_from_base64(line);
        if (!key) {
          std::cerr << argv[i] << ":" << n << ": not a base64 32-byte key\n";
          return 2;
        }
        options.server.request_state.keys.push_back(*key);
      }
    } else if (std::strcmp(argv[i], "--tls-cert") == 0 && i + 1 < argc) {
      options.tls_certificate_chain_file = argv[++i];
    } else if (std::strcmp(argv[i], "--tls-key") == 0 && i + 1 < argc) {
      options.tls_private_key_file = argv[++i];
    } else if (std::strcmp(argv[i], "--redis") == 0 && i + 1 < argc) {
#ifdef ELICITGEN_SAMPLE_REDIS
      elicit::RedisOptions redis;
      redis.port = std::atoi(argv[++i]);
      try {
        completions = std::make_shared<elicit::RedisCompletionStore>(redis);
      } catch (const std::exception& e) {
        std::cerr << "--redis " << argv[i] << ": " << e.what() << "\n";
        return 2;
      }
#else
      std::cerr << "--redis: this build has no Redis support (hiredis was not found)\n";
      return 2;
#endif
    } else {
      std::cerr
          << "usage: " << argv[0]
          << " [--port N] [--state-keys FILE] [--instance NAME] [--redis PORT] [--tls-cert FILE --tls-key FILE]\n";
      return 2;
    }
  }
  elicit::StreamableHttpServer server(
      {"elicitgen-sample-server", "0.1.0", title, std::nullopt},
      [completions](elicit::Server& s) { add_sample_tools(s, completions); }, options);
  try {
    server.start();
  } catch (const std::exception& e) {  // cannot listen, no thread could be created, bad TLS files
    std::cerr << "elicitgen-sample-server: cannot start: " << e.what() << "\n";
    return 1;
  }
  const bool tls = !options.tls_certificate_chain_file.empty();
  std::cout << (tls ? "https" : "http") << "://127.0.0.1:" << server.port() << options.path << std::endl;
  server.wait();  // until SIGINT or SIGTERM
  std::cerr << "elicitgen-sample-server: stopped\n";
  return 0;
}
