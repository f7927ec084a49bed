// The sample HTTP server (samples/http_server.cpp: every sample tool, same command line, endpoint URL
// on the first stdout line) plus one tool for the load benchmarks: `github_username_async`, the
// sample's github_username form asked with the asynchronous API, so a waiting user holds no worker.
// (The sample's github_username is a blocking handler: a call holds one of the shared pool's
// `worker_threads` (4) workers while its user fills in the form; more calls wait in FIFO order.)
// Usage: elicit_bench_http_server [--port N] [--minimal]; serves until SIGINT or SIGTERM. With
// --minimal a session has only github_username_async (what the sample tools cost each session).
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <elicit/http/server.hpp>

#include "github_username.hpp"
#include "sample_tools.hpp"

int main(int argc, char** argv) {
  elicit::http::HttpServerOptions options;
  bool minimal = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--minimal") == 0) {
      minimal = true;
    } else {
      std::cerr << "usage: " << argv[0] << " [--port N] [--minimal]\n";
      return 2;
    }
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts: only sigwait sees them

  auto setup = [minimal](elicit::Server& server) {
    if (!minimal) add_sample_tools(server);
    server.add_tool(
        elicit::Tool{"github_username_async",
                     "Asks for a GitHub username, holding no thread while the user answers",
                     {{"type", "object"}},
                     std::nullopt,
                     nullptr,
                     [](std::shared_ptr<elicit::RequestContext> call) {
                       call->elicit_async<bench::GithubUsername>([call](elicit::Outcome<bench::GithubUsername> o) {
                         if (o) {
                           call->reply(elicit::ToolResult::text("accept: " + nlohmann::json(*o.value).dump()));
                         } else {
                           call->reply(elicit::ToolResult::error(std::string(elicit::to_string(o.status))));
                         }
                       });
                     }});
  };
  elicit::http::StreamableHttpServer server(
      {"elicitgen-bench-server", "0.1.0", "elicitgen sample server + async tool", std::nullopt}, setup, options);
  server.start();
  std::cout << "http://127.0.0.1:" << server.port() << options.path << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  server.stop();
  return 0;
}
