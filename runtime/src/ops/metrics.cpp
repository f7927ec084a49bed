// Prometheus metrics of an MCP server (elicit/ops/metrics.hpp), on prometheus-cpp's registry and
// text serializer. The counters and histograms live in the registry; the gauges that are read at
// scrape time (waiting elicitations, the tracked server, add_gauge) are one Collectable of ours.
#include "elicit/ops/metrics.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

#include <prometheus/check_names.h>
#include <prometheus/collectable.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/metric_family.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "elicit/http/server.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/request_state.hpp"
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
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& f) { return f.name == g.name; });
      if (it == out.end()) {
        prometheus::MetricFamily f;
        f.name = g.name;
        f.help = g.help;
        f.type = prometheus::MetricType::Gauge;
        out.push_back(std::move(f));
        it = out.end() - 1;
      }
      prometheus::ClientMetric m;
      m.label = g.labels;
      m.gauge.value = v;
      it->metric.push_back(std::move(m));
    }
    return out;
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
  mutable std::mutex gauges_mutex;
  std::vector<LiveGauge> gauges;
};

Metrics::Metrics(MetricsOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {}

Metrics::~Metrics() = default;

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
  static constexpr std::string_view taken[] = {"elicit_requests_total", "elicit_request_duration_seconds",
                                               "elicit_request_errors_total", "elicit_request_states_refused_total",
                                               "elicit_http_refusals_total"};
  if (std::find(std::begin(taken), std::end(taken), name) != std::end(taken)) {
    throw std::invalid_argument("metric name taken by a counter or histogram: " + name);
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
