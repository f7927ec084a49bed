// The sample tools (sample_tools.cpp) over Streamable HTTP, on loopback.
// Usage: elicitgen_http_server [--port N] [--state-keys FILE] [--state-ttl-ms N] [--instance NAME]
//                              [--log json] [--drain-delay-ms N] [--drain-timeout-ms N]
//                              [--redis PORT [--forms-in-redis] [--tasks-in-redis [--task-lease-ms N]]]
//                              [--public-origin URL] [--tls-cert FILE --tls-key FILE]
//                              [--authorization-server ISSUER --resource URL [--scope S]... [--ca-file FILE]
//                               [--forms-client-id ID [--forms-client-secret-file FILE] [--forms-cookie-keys FILE]]]
//   --port N          0 or absent: a free port
//   --state-keys FILE requestState keys, base64, one per line, the first sealing (several processes
//                     behind a load balancer share them); absent: a random key of this process
//   --state-ttl-ms N  how long a requestState opens (default 600000: 10 minutes)
//   --instance NAME   added to the server's title, so a client can tell processes apart
//   --redis PORT      URL-mode completions (the sign_in tool) in the Redis server on 127.0.0.1:PORT,
//                     shared by every process pointing at it (checked at start: exit 2 when it does not
//                     answer PING); absent: in this process's memory
//   --forms-in-redis  the api_key tool's browser form pages in that Redis too (forms::RedisPageStore),
//                     sealed with the --state-keys keys: a page opened by one process can be
//                     opened and submitted through any other sharing the keys
//   --tasks-in-redis  the tasks of the task tools (confirm_delete, slow_compute, ...) in that Redis
//                     too (RedisTaskStore), sealed with the --state-keys keys: a task made through
//                     one process is read, answered and cancelled through any other
//   --task-lease-ms N how long a run's lease lasts (default 10000): a task whose process stopped
//                     while it was working reads as failed that long after
//   --public-origin URL  scheme://host[:port] browsers reach the pages at (a load balancer in front
//                     of several processes): every process then gives the same page the same URL,
//                     as a 2026-07-28 retry served by another process must ask the same question
//   --tls-cert FILE   HTTPS (TLS 1.2+): the certificate chain (PEM, the server's first); with
//   --tls-key FILE    its private key (PEM). A new pair written to the files is used from the next
//                     connection on, without a restart.
//   --authorization-server ISSUER  every request needs a JWT access token (RFC 9068) issued by this
//                     OAuth authorization server (its keys found through its metadata) for
//   --resource URL    this server's canonical URI (the token's audience), e.g. https://host:8443/mcp
//   --scope S         a scope every request needs (repeatable; also advertised as scopes_supported);
//                     the tools confirm_deletion and connect_account need mcp:write and mcp:account besides
//   --ca-file FILE    CA certificates (PEM) to trust when fetching the authorization server's keys
//   --forms-client-id ID  with --authorization-server: serve the browser form pages, which sign the
//                     browser in at that server (OpenID Connect, this pre-registered client, redirect
//                     URI <origin>/forms/sign-in) and answer only the user whose call opened them
//   --forms-client-secret-file FILE  the pages' client secret (its first line): client_secret_basic;
//                     absent: a public client (PKCE alone)
//   --forms-cookie-keys FILE  the pages' cookie keys, base64, one per line, the first sealing (every
//                     process serving the pages shares them); absent: a random key of this process
//   --log json        one JSON object per request on stderr (elicit::ops::RequestLog); absent: the
//                     few lines of text below
//   --drain-delay-ms N  on SIGTERM or SIGINT, how long to go on accepting with readiness false
//                     (default 0), for a load balancer that learns of it from /readyz
//   --drain-timeout-ms N  then how long requests in flight may take to finish (default 10000), no
//                     connection accepted meanwhile
// Serves /healthz (liveness), /readyz (readiness: listening, not draining, and the --redis Redis
// answering PING) and /metrics (Prometheus), when built with prometheus-cpp (elicit::ops).
// Serves the api_key tool's browser form pages under /forms/: without --authorization-server (to
// loopback browsers only), or with it and --forms-client-id (to the signed-in user).
// Prints the endpoint URL on stdout once listening, and serves until SIGINT or SIGTERM. Exits 1
// with a message on stderr when it cannot start (the port is taken, no thread can be created).
#include <pthread.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <elicit/auth/jwt_verifier.hpp>
#include <elicit/forms/page_routes.hpp>
#include <elicit/forms/page_store.hpp>
#include <elicit/http/server.hpp>
#include <elicit/tasks.hpp>
#ifdef ELICITGEN_SAMPLE_OPS
#include <elicit/ops/health.hpp>
#include <elicit/ops/metrics.hpp>
#include <elicit/ops/observers.hpp>
#include <elicit/ops/request_log.hpp>
#endif
#ifdef ELICITGEN_SAMPLE_REDIS
#include <elicit/forms/redis_page_store.hpp>
#include <elicit/redis/check.hpp>
#include <elicit/redis/completion_store.hpp>
#include <elicit/redis/task_store.hpp>
#endif

#include "sample_tools.hpp"
#include "state_options.hpp"

namespace {

#ifdef ELICITGEN_SAMPLE_REDIS
// A store in the Redis of --redis for `flag` (--forms-in-redis, --tasks-in-redis), or null after
// saying why not (no --redis, or Redis cannot be reached).
template <class Store, class Options>
std::shared_ptr<Store> in_redis(const char* flag, int redis_port, Options options) {
  if (redis_port == 0) {
    std::cerr << flag << " needs --redis PORT\n";
    return nullptr;
  }
  options.redis.port = redis_port;
  try {
    return std::make_shared<Store>(std::move(options));
  } catch (const std::exception& e) {
    std::cerr << flag << ": " << e.what() << "\n";
    return nullptr;
  }
}
#else
int no_redis(const char* flag) {
  std::cerr << flag << ": this build has no Redis support (hiredis was not found)\n";
  return 2;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  elicit::http::HttpServerOptions options;
  options.server.user_interaction.enabled = true;  // the opt-in userInteraction dialect
  std::string title = "elicitgen sample server";
  std::shared_ptr<elicit::CompletionStore> completions;
  elicit::auth::JwtVerifierOptions jwt;
  std::vector<std::string> scopes;
  elicit::forms::SignIn sign_in;
  elicit::forms::PageRoutes pages;
  [[maybe_unused]] int redis_port = 0;  // used only with Redis support
  bool forms_in_redis = false;
  bool tasks_in_redis = false;
  [[maybe_unused]] long task_lease_ms = 10000;
  bool json_log = false;
  std::string error;
#ifdef ELICITGEN_SAMPLE_OPS
  // Made first: each Redis store made below reports its failures to it (elicit_redis_errors_total).
  auto metrics = std::make_shared<elicit::ops::Metrics>();
#endif
  // RedisOptions::on_error of the Redis store `store` ("completion", "pages", "tasks").
  [[maybe_unused]] const auto redis_errors = [&](const std::string& store) -> std::function<void()> {
#ifdef ELICITGEN_SAMPLE_OPS
    return metrics->redis_errors(store);
#else
    (void)store;
    return nullptr;
#endif
  };
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--instance") == 0 && i + 1 < argc) {
      title += std::string(" (") + argv[++i] + ")";
    } else if (read_state_option(argc, argv, i, options.server.request_state, error)) {
      if (!error.empty()) {
        std::cerr << error << "\n";
        return 2;
      }
    } else if (std::strcmp(argv[i], "--forms-client-id") == 0 && i + 1 < argc) {
      sign_in.client_id = argv[++i];
    } else if (std::strcmp(argv[i], "--forms-client-secret-file") == 0 && i + 1 < argc) {
      std::ifstream in(argv[++i]);
      if (!in || !std::getline(in, sign_in.client_secret) || sign_in.client_secret.empty()) {
        std::cerr << argv[i] << ": cannot read the pages' client secret (its first line)\n";
        return 2;
      }
    } else if (std::strcmp(argv[i], "--forms-cookie-keys") == 0 && i + 1 < argc) {
      if (!read_base64_keys(argv[++i], sign_in.cookie_keys, error)) {
        std::cerr << error << "\n";
        return 2;
      }
    } else if (std::strcmp(argv[i], "--tls-cert") == 0 && i + 1 < argc) {
      options.tls_certificate_chain_file = argv[++i];
    } else if (std::strcmp(argv[i], "--tls-key") == 0 && i + 1 < argc) {
      options.tls_private_key_file = argv[++i];
    } else if (std::strcmp(argv[i], "--authorization-server") == 0 && i + 1 < argc) {
      jwt.issuer = argv[++i];
    } else if (std::strcmp(argv[i], "--resource") == 0 && i + 1 < argc) {
      jwt.audience = argv[++i];
    } else if (std::strcmp(argv[i], "--scope") == 0 && i + 1 < argc) {
      scopes.emplace_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--ca-file") == 0 && i + 1 < argc) {
      jwt.ca_file = argv[++i];
    } else if (std::strcmp(argv[i], "--redis") == 0 && i + 1 < argc) {
#ifdef ELICITGEN_SAMPLE_REDIS
      elicit::RedisOptions redis;
      redis.port = redis_port = std::atoi(argv[++i]);
      try {
        // The stores connect lazily: a wrong port would show only at the first request.
        if (const auto why = elicit::check_redis(redis)) {
          std::cerr << "--redis " << argv[i] << ": " << *why << "\n";
          return 2;
        }
        redis.on_error = redis_errors("completion");
        completions = std::make_shared<elicit::RedisCompletionStore>(redis);
      } catch (const std::exception& e) {
        std::cerr << "--redis " << argv[i] << ": " << e.what() << "\n";
        return 2;
      }
#else
      return no_redis("--redis");
#endif
    } else if (std::strcmp(argv[i], "--log") == 0 && i + 1 < argc && std::strcmp(argv[i + 1], "json") == 0) {
      json_log = true;
      ++i;
    } else if (std::strcmp(argv[i], "--drain-delay-ms") == 0 && i + 1 < argc) {
      options.drain_delay = std::chrono::milliseconds(std::atol(argv[++i]));
    } else if (std::strcmp(argv[i], "--drain-timeout-ms") == 0 && i + 1 < argc) {
      options.drain_timeout = std::chrono::milliseconds(std::atol(argv[++i]));
    } else if (std::strcmp(argv[i], "--public-origin") == 0 && i + 1 < argc) {
      pages.public_origin = argv[++i];
    } else if (std::strcmp(argv[i], "--forms-in-redis") == 0) {
      forms_in_redis = true;
    } else if (std::strcmp(argv[i], "--tasks-in-redis") == 0) {
      tasks_in_redis = true;
    } else if (std::strcmp(argv[i], "--task-lease-ms") == 0 && i + 1 < argc) {
      task_lease_ms = std::atol(argv[++i]);
    } else {
      std::cerr << "usage: " << argv[0]
                << " [--port N] [--state-keys FILE] [--state-ttl-ms N] [--instance NAME] [--log json]"
                   " [--drain-delay-ms N] [--drain-timeout-ms N]"
                   " [--redis PORT [--forms-in-redis] [--tasks-in-redis [--task-lease-ms N]]]"
                   " [--public-origin URL] [--tls-cert FILE --tls-key FILE]"
                   " [--authorization-server ISSUER --resource URL [--scope S]... [--ca-file FILE]"
                   " [--forms-client-id ID [--forms-client-secret-file FILE] [--forms-cookie-keys FILE]]]\n";
      return 2;
    }
  }
  if (!jwt.issuer.empty() || !jwt.audience.empty()) {
    if (jwt.issuer.empty() || jwt.audience.empty()) {
      std::cerr << "--authorization-server and --resource go together\n";
      return 2;
    }
    elicit::http::ResourceServerOptions a;
    a.resource = jwt.audience;
    a.authorization_servers = {jwt.issuer};
    a.scopes_supported = scopes;
    a.required_scopes = scopes;
    // Scopes per operation (MCP Authorization, "Runtime Insufficient Scope Errors"): a call of these
    // tools needs one more, and a token without it gets 403 insufficient_scope naming every scope the
    // call needs, which the client asks for in a step-up authorization. Not in scopes_supported,
    // what a client asks for at first: a user who never calls them is not asked to grant them.
    a.tool_scopes = {{"confirm_deletion", {"mcp:write"}}, {"connect_account", {"mcp:account"}}};
    try {
      a.verify = elicit::auth::jwt_verifier(jwt);
    } catch (const std::exception& e) {
      std::cerr << "--authorization-server: " << e.what() << "\n";
      return 2;
    }
    options.authorization = std::move(a);
  }
  // The api_key tool's browser form: pages on this listener under /forms/ (each process keeps its
  // own pages unless --forms-in-redis: then behind a load balancer any process serves any page;
  // otherwise route /forms/ to the process that opened the page). With authorization the pages are
  // bound to the caller, so they are served only when the pages can sign the browser in
  // (--forms-client-id).
  if (!sign_in.client_id.empty()) {
    if (!options.authorization) {
      std::cerr << "--forms-client-id goes with --authorization-server (the pages sign in there)\n";
      return 2;
    }
    // One process: a key of its own. Several: the same keys everywhere (--forms-cookie-keys).
    if (sign_in.cookie_keys.empty()) sign_in.cookie_keys = {elicit::RequestStateSealer::generate_key()};
    sign_in.ca_file = jwt.ca_file;
    pages.sign_in = sign_in;
  }
  if (!options.authorization || pages.sign_in) pages.prefix = "/forms/";
  if (forms_in_redis) {
#ifdef ELICITGEN_SAMPLE_REDIS
    // The pages sealed with the requestState keys: the processes that share one share the other
    // (the associated data tells a page from a requestState, so neither opens as the other).
    elicit::forms::RedisPageStoreOptions forms;
    forms.keys = options.server.request_state.keys;
    forms.redis.on_error = redis_errors("pages");
    pages.store = in_redis<elicit::forms::RedisPageStore>("--forms-in-redis", redis_port, std::move(forms));
    if (!pages.store) return 2;
#else
    return no_redis("--forms-in-redis");
#endif
  }
  // The task tools' tasks: in this process's memory (Server's default), or in Redis, sealed with the
  // requestState keys like the pages (the associated data tells a task record from either).
  std::shared_ptr<elicit::TaskStore> tasks;
  if (tasks_in_redis) {
#ifdef ELICITGEN_SAMPLE_REDIS
    elicit::RedisTaskStoreOptions o;
    o.redis.port = redis_port;
    o.keys = options.server.request_state.keys;
    o.lease = std::chrono::milliseconds(task_lease_ms);
    o.redis.on_error = redis_errors("tasks");
    tasks = in_redis<elicit::RedisTaskStore>("--tasks-in-redis", redis_port, std::move(o));
    if (!tasks) return 2;
#else
    return no_redis("--tasks-in-redis");
#endif
  }
  // Made here rather than left to the Server and the routes (the same default stores) so that the
  // metrics can count what they keep.
  if (!tasks) tasks = std::make_shared<elicit::InMemoryTaskStore>();
  try {
    if (!pages.prefix.empty() && !pages.store) pages.store = std::make_shared<elicit::forms::InMemoryPageStore>();
  } catch (const std::exception& e) {  // its timers' thread could not be created
    std::cerr << "elicitgen-sample-server: cannot start: " << e.what() << "\n";
    return 1;
  }
  [[maybe_unused]] const auto page_store = pages.store;  // null when no pages are served
  if (!pages.prefix.empty()) options.routes.push_back(elicit::forms::routes(std::move(pages)));
#ifdef ELICITGEN_SAMPLE_OPS
  // The operator's view: probes, metrics and (--log json) a structured request log.
  std::shared_ptr<elicit::ops::RequestLog> log;
  if (json_log) log = std::make_shared<elicit::ops::RequestLog>();
  options.server.observer = elicit::ops::observers({metrics, log});
  elicit::ops::HealthOptions health;
#ifdef ELICITGEN_SAMPLE_REDIS
  if (redis_port != 0) {
    elicit::RedisOptions redis;
    redis.port = redis_port;
    // The stores' Redis answering: without it no task, page or URL completion can be served.
    health.checks.push_back({"redis", [redis] { return !elicit::check_redis(redis).has_value(); }});
  }
#endif
  health.on_change = [log](const std::string& name, bool ready) {
    if (log) {
      log->event(ready ? elicit::LoggingLevel::info : elicit::LoggingLevel::warning, "readiness_check",
                 {{"check", name}, {"ready", ready}});
    } else {
      std::cerr << "elicitgen-sample-server: readiness check " << name << (ready ? " passes\n" : " fails\n");
    }
  };
  options.routes.push_back(elicit::ops::health_routes(std::move(health)));
  options.routes.push_back(metrics->routes());
#else
  if (json_log) {
    std::cerr << "--log json: this build has no operations wing (prometheus-cpp was not found)\n";
    return 2;
  }
#endif
  elicit::http::StreamableHttpServer server(
      {"elicitgen-sample-server", "0.1.0", title, std::nullopt},
      [completions, tasks](elicit::Server& s) {
        if (tasks) s.set_task_store(tasks);
        add_sample_tools(s, completions);
      },
      options);
  // SIGINT and SIGTERM are blocked in every thread (start() creates them with this thread's mask)
  // and taken with sigwait below: a signal sent as soon as the URL is printed, before the main
  // thread reaches any wait, stays pending instead of ending the process uncleanly.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  try {
    server.start();
#ifdef ELICITGEN_SAMPLE_OPS
    // Tasks by status and pages open, counted every 5 s on a thread of the metrics' (a count in Redis
    // blocks: never on an I/O thread), started with the server's threads.
    metrics->track_tasks(tasks);
    if (page_store) metrics->track_pages(page_store);
#endif
  } catch (const std::exception& e) {  // cannot listen, no thread could be created, bad TLS files
    std::cerr << "elicitgen-sample-server: cannot start: " << e.what() << "\n";
    return 1;
  }
#ifdef ELICITGEN_SAMPLE_OPS
  metrics->track(server);
#endif
  const bool tls = !options.tls_certificate_chain_file.empty();
  std::cout << (tls ? "https" : "http") << "://127.0.0.1:" << server.port() << options.path << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
#ifdef ELICITGEN_SAMPLE_OPS
  if (log) log->event(elicit::LoggingLevel::notice, "draining", {{"in_flight", server.requests_in_flight()}});
#endif
  // Not ready at once, no new connection; what is in flight finishes (up to --drain-timeout-ms).
  server.drain(options.drain_timeout);
#ifdef ELICITGEN_SAMPLE_OPS
  if (log) log->event(elicit::LoggingLevel::notice, "stopped");
#endif
  std::cerr << "elicitgen-sample-server: stopped\n";
  return 0;
}
