// Liveness and readiness probes of a StreamableHttpServer (the operations wing): the paths a load
// balancer or Kubernetes asks whether the process lives and whether to send it work. Served as
// Routes on the server's own listener (elicit/http/routes.hpp).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "elicit/http/routes.hpp"

namespace elicit::ops {

/// One condition readiness needs, e.g. a store answering (the Redis of a RedisTaskStore).
struct ReadinessCheck {
  /// For the operator's logs only; never sent to a client.
  std::string name;
  /// True when ready. It may block (a Redis PING): it runs on the probes' own thread, never on an
  /// I/O thread, every HealthOptions::check_interval. An exception counts as not ready.
  std::function<bool()> ready;
};

/// What health_routes() serves.
struct HealthOptions {
  /// Liveness: 200 while the process serves HTTP at all (a process that cannot answer it is
  /// restarted). Empty: not served.
  std::string liveness_path = "/healthz";
  /// Readiness: 200 when the server takes new work (started, not draining: RoutesStart::accepting)
  /// and every check passed when last run; else 503. Empty: not served.
  std::string readiness_path = "/readyz";
  /// Conditions readiness needs besides the listener. Until each has run once, not ready.
  std::vector<ReadinessCheck> checks;
  /// How often the checks run, in milliseconds (also their first run: at start()).
  std::chrono::milliseconds check_interval = std::chrono::seconds(1);
  /// Told when a check's result changes (its name and the new result), e.g. to log it. Runs on the
  /// probes' thread.
  std::function<void(const std::string& name, bool ready)> on_change;
};

/// The probes as Routes for HttpServerOptions::routes. GET and HEAD only (else 405). The answer
/// is `text/plain` "ok" or "not ready" with `Cache-Control: no-store` and nothing else: no
/// authentication (a probe carries no token) and no detail an attacker could use (which check
/// failed goes to on_change, not to the client). The Host header is not checked (probes come
/// by the pod's address). The checks' thread starts at the server's start() and ends when the
/// Routes is destroyed. Throws std::invalid_argument from check() for a path that is not
/// absolute or equals the MCP endpoint's, or two equal paths.
std::shared_ptr<http::Routes> health_routes(HealthOptions options = {});

}  // namespace elicit::ops
