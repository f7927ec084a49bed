// The liveness and readiness probes (elicit/ops/health.hpp).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "elicit/http/server.hpp"
#include "elicit/ops/health.hpp"
#include "plain_reply.hpp"

namespace elicit::ops {

namespace {

class HealthRoutes final : public http::Routes {
 public:
  explicit HealthRoutes(HealthOptions options) : options_(std::move(options)) {}

  ~HealthRoutes() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ending_ = true;
    }
    cv_.notify_all();
    if (checker_.joinable()) checker_.join();
  }

  void check(const http::HttpServerOptions& server) const override {
    for (const auto* path : {&options_.liveness_path, &options_.readiness_path}) {
      if (path->empty()) continue;
      if (path->front() != '/') throw std::invalid_argument("health probe path must start with '/': " + *path);
      if (*path == server.path) throw std::invalid_argument("health probe path is the MCP endpoint's: " + *path);
    }
    if (!options_.liveness_path.empty() && options_.liveness_path == options_.readiness_path) {
      throw std::invalid_argument("liveness and readiness probes need paths of their own: " + options_.liveness_path);
    }
  }

  void start(const http::RoutesStart& start) override {
    accepting_ = start.accepting;
    if (options_.checks.empty()) {
      checks_passed_ = true;
      return;
    }
    // A check may block (a PING over the network): never on an I/O thread, so on this one.
    checker_ = std::thread([this] { run_checks(); });
  }

  std::optional<http::Reply> serve(const http::RouteRequest& request) override {
    const bool live = !options_.liveness_path.empty() && request.path == options_.liveness_path;
    const bool ready = !options_.readiness_path.empty() && request.path == options_.readiness_path;
    if (!live && !ready) return std::nullopt;
    if (auto refused = detail::refuse_unless_get(request)) return refused;
    const bool ok = live || (checks_passed_.load() && accepting_ && accepting_());
    return detail::plain_reply(request, ok ? 200 : 503, ok ? "ok\n" : "not ready\n");
  }

 private:
  void run_checks() {
    std::vector<int> last(options_.checks.size(), -1);  // -1: not run yet
    std::unique_lock<std::mutex> lock(mutex_);
    while (!ending_) {
      lock.unlock();
      bool all = true;
      for (std::size_t i = 0; i < options_.checks.size(); ++i) {
        const auto& check = options_.checks[i];
        bool ok = false;
        try {
          ok = check.ready && check.ready();
        } catch (...) {  // a check that throws is a check that failed
        }
        all = all && ok;
        if (last[i] != static_cast<int>(ok)) {
          last[i] = ok;
          if (options_.on_change) {
            try {
              options_.on_change(check.name, ok);
            } catch (...) {  // the operator's logger must not stop the probes
            }
          }
        }
      }
      checks_passed_ = all;
      lock.lock();
      cv_.wait_for(lock, options_.check_interval, [this] { return ending_; });
    }
  }

  HealthOptions options_;
  std::function<bool()> accepting_;  // set by start(), before any serve()
  std::atomic<bool> checks_passed_{false};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool ending_ = false;
  std::thread checker_;
};

}  // namespace

std::shared_ptr<http::Routes> health_routes(HealthOptions options) {
  return std::make_shared<HealthRoutes>(std::move(options));
}

}  // namespace elicit::ops
