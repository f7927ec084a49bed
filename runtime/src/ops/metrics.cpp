// Prometheus metrics of an MCP server (elicit/ops/metrics.hpp), on prometheus-cpp's registry and
// text serializer. The counters and histograms live in the registry; the gauges that are read at
// scrape time (waiting elicitations, the tracked server, add_gauge) are one Collectable of ours.
#include "elicit/ops/metrics.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <prometheus/check_names.h>
#include <prometheus/collectable.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/metric_family.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "elicit/browser_forms.hpp"
#include "elicit/http/server.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/request_state.hpp"
#include "elicit/tasks.hpp"
#include "plain_reply.hpp"

namespace elicit::ops {

namespace {

// A method the server knows (it did not answer -32601) is one of its table's, a bounded set; any
// other name is the client's invention.
std::string method_label(const RequestRecord& r) {
  if (r.answered.error && r.answered.error->code == error_code::method_not_found) return "other";
  return std::string(r.method);
}

std::string revision_label(std::string_view revision) {
  if (revision.empty()) return "";
  const auto& known = all_protocol_versions();
  return std::find(known.begin(), known.end(), revision) != known.end() ? std::string(revision) : "other";
}

// A gauge read at scrape time.
struct LiveGauge {
  std::string name;
  std::string help;
  std::vector<prometheus::ClientMetric::Label> labels;
  std::function<double()> value;
};

// A gauge's value as last read by the refresh thread.
struct Sample {
  std::string name;
  std::string help;
  std::vector<prometheus::ClientMetric::Label> labels;
  double value = 0;
};

void add_sample(std::vector<prometheus::MetricFamily>& out, const std::string& name, const std::string& help,
                const std::vector<prometheus::ClientMetric::Label>& labels, double value) {
  auto it = std::find_if(out.begin(), out.end(), [&](const auto& f) { return f.name == name; });
  if (it == out.end()) {
    prometheus::MetricFamily f;
    f.name = name;
    f.help = help;
    f.type = prometheus::MetricType::Gauge;
    out.push_back(std::move(f));
    it = out.end() - 1;
  }
  prometheus::ClientMetric m;
  m.label = labels;
  m.gauge.value = value;
  it->metric.push_back(std::move(m));
}

// Names of the series of ours: add_gauge() refuses them.
constexpr std::string_view kTaken[] = {"elicit_requests_total",       "elicit_request_duration_seconds",
                                       "elicit_request_errors_total", "elicit_request_states_refused_total",
                                       "elicit_http_refusals_total",  "elicit_tasks",
                                       "elicit_form_pages_open",      "elicit_redis_errors_total"};

}  // namespace

struct Metrics::Impl : prometheus::Collectable {
  explicit Impl(MetricsOptions o)
      : options(std::move(o)),
        registry(std::make_shared<prometheus::Registry>()),
        requests(prometheus::BuildCounter()
                     .Name("elicit_requests_total")
                     .Help("MCP requests served, by JSON-RPC method, protocol revision and outcome")
                     .Register(*registry)),
        durations(prometheus::BuildHistogram()
                      .Name("elicit_request_duration_seconds")
                      .Help("Time from dispatch to the end of an MCP request, seconds")
                      .Register(*registry)),
        errors(prometheus::BuildCounter()
                   .Name("elicit_request_errors_total")
                   .Help("JSON-RPC errors answered, by method and error code")
                   .Register(*registry)),
        states_refused(prometheus::BuildCounter()
                           .Name("elicit_request_states_refused_total")
                           .Help("2026-07-28 retries whose requestState did not open (expired, tampered, "
                                 "another principal's)")
                           .Register(*registry)
                           .Add({})),
        refusals(prometheus::BuildCounter()
                     .Name("elicit_http_refusals_total")
                     .Help("HTTP requests refused before any server saw them, by reason (bearer token, capacity)")
                     .Register(*registry)),
        redis_errors(prometheus::BuildCounter()
                         .Name("elicit_redis_errors_total")
                         .Help("Failures talking to Redis (no connection, a broken one, an error reply), by store")
                         .Register(*registry)) {
    if (!std::is_sorted(options.duration_buckets.begin(), options.duration_buckets.end()) ||
        std::adjacent_find(options.duration_buckets.begin(), options.duration_buckets.end()) !=
            options.duration_buckets.end()) {
      throw std::invalid_argument("MetricsOptions::duration_buckets must be strictly increasing");
    }
    gauges.push_back(
        {"elicit_elicitations_waiting", "2025-11-25 elicitations of this process awaiting a person's answer", {}, [] {
           return static_cast<double>(waiting_elicitations());
         }});
  }

  std::vector<prometheus::MetricFamily> Collect() const override {
    std::vector<prometheus::MetricFamily> out;
    std::lock_guard<std::mutex> lock(gauges_mutex);
    for (const auto& g : gauges) {
      double v = 0;
      try {
        v = g.value();
      } catch (...) {  // a gauge that cannot be read is left out of this scrape
        continue;
      }
      add_sample(out, g.name, g.help, g.labels, v);
    }
    std::lock_guard<std::mutex> refreshed_lock(refreshed_mutex);
    for (const auto& [slot, samples] : refreshed) {
      for (const auto& r : samples) add_sample(out, r.name, r.help, r.labels, r.value);
    }
    return out;
  }

  // The refresh thread's latest read of `slot`: its samples, or none (the read failed).
  void set_refreshed(std::size_t slot, std::optional<std::vector<Sample>> samples) {
    std::lock_guard<std::mutex> lock(refreshed_mutex);
    if (samples) {
      refreshed[slot] = std::move(*samples);
    } else {
      refreshed.erase(slot);
    }
  }

  // Every series now, in the text exposition format.
  std::string scrape() const {
    auto families = registry->Collect();
    auto live = Collect();
    families.insert(families.end(), std::make_move_iterator(live.begin()), std::make_move_iterator(live.end()));
    return prometheus::TextSerializer().Serialize(families);
  }

  MetricsOptions options;
  std::shared_ptr<prometheus::Registry> registry;
  prometheus::Family<prometheus::Counter>& requests;
  prometheus::Family<prometheus::Histogram>& durations;
  prometheus::Family<prometheus::Counter>& errors;
  prometheus::Counter& states_refused;
  prometheus::Family<prometheus::Counter>& refusals;
  prometheus::Family<prometheus::Counter>& redis_errors;
  mutable std::mutex gauges_mutex;
  std::vector<LiveGauge> gauges;
  mutable std::mutex refreshed_mutex;
  std::map<std::size_t, std::vector<Sample>> refreshed;  // by refresh job; guarded by refreshed_mutex
};

// One thread that reads the gauges whose reading may block (a store's count over the network), each
// every interval of its own, and leaves the values in Impl::refreshed for the scrapes.
struct Metrics::Refresher {
  using Read = std::function<std::optional<std::vector<Sample>>()>;
  struct Job {
    std::string what;  // "tasks", "pages": each at most once
    Read read;
    std::chrono::milliseconds interval;
    std::chrono::steady_clock::time_point due;
  };

  explicit Refresher(std::shared_ptr<Impl> i) : impl(std::move(i)) {}
  ~Refresher() { stop(); }

  void add(std::string what, Read read, std::chrono::milliseconds interval) {
    if (interval.count() <= 0) throw std::invalid_argument("Metrics: a refresh interval must be positive");
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stopping) return;
      for (const auto& j : jobs) {
        if (j.what == what) throw std::logic_error("Metrics: track_" + what + "() called twice");
      }
      jobs.push_back({std::move(what), std::move(read), interval, std::chrono::steady_clock::now()});
      if (!thread.joinable()) thread = std::thread([this] { run(); });  // std::system_error: nothing added runs
    }
    wake.notify_all();
  }

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      auto next = std::chrono::steady_clock::time_point::max();
      std::optional<std::size_t> due;
      const auto now = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].due <= now) {
          due = i;
          break;
        }
        next = std::min(next, jobs[i].due);
      }
      if (!due) {
        wake.wait_until(lock, next);
        continue;
      }
      const auto read = jobs[*due].read;  // a copy: add() may grow `jobs` meanwhile
      lock.unlock();
      std::optional<std::vector<Sample>> samples;
      try {
        samples = read();
      } catch (...) {
        // the store cannot be reached (counted by its on_error) or cannot count: absent until it can
      }
      impl->set_refreshed(*due, std::move(samples));
      lock.lock();
      jobs[*due].due = std::chrono::steady_clock::now() + jobs[*due].interval;
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    if (thread.joinable()) thread.join();
    jobs.clear();  // the stores are let go (the routes may keep impl alive longer)
  }

  const std::shared_ptr<Impl> impl;
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<Job> jobs;  // guarded by mutex
  bool stopping = false;  // guarded by mutex
  std::thread thread;
};

Metrics::Metrics(MetricsOptions options)
    : impl_(std::make_shared<Impl>(std::move(options))), refresher_(std::make_unique<Refresher>(impl_)) {}

Metrics::~Metrics() { refresher_->stop(); }

void Metrics::track_tasks(std::shared_ptr<TaskStore> store, std::chrono::milliseconds interval) {
  if (!store) throw std::invalid_argument("Metrics::track_tasks needs a store");
  refresher_->add(
      "tasks",
      [store]() -> std::optional<std::vector<Sample>> {
        const auto counts = store->count_by_status();
        if (!counts) return std::nullopt;
        std::vector<Sample> out;
        for (std::size_t i = 0; i < counts->size(); ++i) {
          out.push_back({"elicit_tasks",
                         "Tasks kept in the task store (every process sharing it), by status",
                         {{"status", std::string(to_string(static_cast<TaskStatus>(i)))}},
                         static_cast<double>((*counts)[i])});
        }
        return out;
      },
      interval);
}

void Metrics::track_pages(std::shared_ptr<BrowserForms> pages, std::chrono::milliseconds interval) {
  if (!pages) throw std::invalid_argument("Metrics::track_pages needs a page store");
  refresher_->add(
      "pages",
      [pages]() -> std::optional<std::vector<Sample>> {
        const auto open = pages->pages_open();
        if (!open) return std::nullopt;
        return std::vector<Sample>{{"elicit_form_pages_open",
                                    "Browser form pages opened and not yet answered, closed or expired",
                                    {},
                                    static_cast<double>(*open)}};
      },
      interval);
}

std::function<void()> Metrics::redis_errors(const std::string& store) {
  auto* counter = &impl_->redis_errors.Add({{"store", store}});
  return [registry = impl_->registry, counter]() noexcept { counter->Increment(); };
}

void Metrics::request_ended(const RequestRecord& r) {
  auto& impl = *impl_;
  auto method = method_label(r);
  auto revision = revision_label(r.revision);
  impl.requests.Add({{"method", method}, {"revision", revision}, {"outcome", std::string(outcome_name(r.answered))}})
      .Increment();
  impl.durations.Add({{"method", method}, {"revision", revision}}, impl.options.duration_buckets)
      .Observe(std::chrono::duration<double>(r.latency).count());
  if (const auto* e = r.answered.error) {
    impl.errors.Add({{"method", std::move(method)}, {"code", std::to_string(e->code)}}).Increment();
    if (e->code == error_code::invalid_params && e->message == invalid_request_state_message) {
      impl.states_refused.Increment();
    }
  }
}

void Metrics::request_refused(unsigned status, std::string_view reason) {
  (void)status;  // the reason says it (capacity is 503; the token refusals 400, 401, 403)
  impl_->refusals.Add({{"reason", std::string(reason)}}).Increment();
}

void Metrics::track(const http::StreamableHttpServer& server) {
  const auto* s = &server;
  add_gauge("elicit_http_sessions", "2025-11-25 Streamable HTTP sessions open", {},
            [s] { return static_cast<double>(s->session_count()); });
  add_gauge("elicit_http_requests_in_flight",
            "Requests being served: 2026-07-28 requests and 2025-11-25 requests whose stream is open", {},
            [s] { return static_cast<double>(s->requests_in_flight()); });
  add_gauge("elicit_http_draining", "1 while the server drains (shutting down gracefully), else 0", {},
            [s] { return s->draining() ? 1.0 : 0.0; });
}

void Metrics::add_gauge(const std::string& name, const std::string& help,
                        std::vector<std::pair<std::string, std::string>> labels, std::function<double()> value) {
  if (!prometheus::CheckMetricName(name)) throw std::invalid_argument("not a Prometheus metric name: " + name);
  if (std::find(std::begin(kTaken), std::end(kTaken), name) != std::end(kTaken)) {
    throw std::invalid_argument("metric name taken by a series of Metrics' own: " + name);
  }
  LiveGauge g{name, help, {}, std::move(value)};
  for (auto& [n, v] : labels) {
    if (!prometheus::CheckLabelName(n)) throw std::invalid_argument("not a Prometheus label name: " + n);
    g.labels.push_back({std::move(n), std::move(v)});
  }
  std::lock_guard<std::mutex> lock(impl_->gauges_mutex);
  impl_->gauges.push_back(std::move(g));
}

std::string Metrics::scrape() const { return impl_->scrape(); }

namespace {

class MetricsRoutes final : public http::Routes {
 public:
  explicit MetricsRoutes(std::shared_ptr<Metrics::Impl> impl) : impl_(std::move(impl)) {}

  void check(const http::HttpServerOptions& server) const override {
    const auto& path = impl_->options.path;
    if (path.empty() || path.front() != '/') throw std::invalid_argument("metrics path must start with '/': " + path);
    if (path == server.path) throw std::invalid_argument("metrics path is the MCP endpoint's: " + path);
  }

  std::optional<http::Reply> serve(const http::RouteRequest& request) override {
    if (request.path != impl_->options.path) return std::nullopt;
    if (impl_->options.loopback_only && !request.loopback_peer) return std::nullopt;  // 404, as for no route
    if (auto refused = detail::refuse_unless_get(request)) return refused;
    return detail::plain_reply(request, 200, impl_->scrape(), "text/plain; version=0.0.4; charset=utf-8");
  }

 private:
  std::shared_ptr<Metrics::Impl> impl_;  // shared: the routes may outlive the Metrics
};

}  // namespace

std::shared_ptr<http::Routes> Metrics::routes() { return std::make_shared<MetricsRoutes>(impl_); }

}  // namespace elicit::ops
