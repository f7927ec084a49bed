// Prometheus metrics of an MCP server (the operations wing): what it serves, how long it takes, who
// waits in a form, what it refuses, in the Prometheus text exposition format (version 0.0.4), on a
// path of the server's own listener. Built on prometheus-cpp's core (its registry and text
// serializer); nothing of prometheus-cpp shows in this header.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "elicit/http/routes.hpp"
#include "elicit/observer.hpp"

namespace elicit {
class TaskStore;
class BrowserForms;
}  // namespace elicit

namespace elicit::http {
class StreamableHttpServer;
}  // namespace elicit::http

namespace elicit::ops {

struct MetricsOptions {
  /// Where routes() serves the scrape. Absolute; not the MCP endpoint's.
  std::string path = "/metrics";
  /// Serve the scrape only to loopback peers (a Prometheus on the same host, or a sidecar); others
  /// get 404. Off by default: a scraper usually comes from another host (then keep the path off the
  /// public network, e.g. do not route it through the load balancer).
  bool loopback_only = false;
  /// Upper bounds of the buckets of elicit_request_duration_seconds, in seconds, increasing. The
  /// default spans a 2026-07-28 round trip (about a millisecond) to a 2025-11-25 tools/call that
  /// waits minutes for a person to fill in a form.
  std::vector<double> duration_buckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                          0.5,    1,     2.5,    5,     10,   30,    60,   120, 300};
};

/// The metrics, as a ServerObserver (give it to HttpServerOptions::server.observer, or to a stdio
/// ServerSessionOptions::observer) and a scrape.
///
/// Series (docs/operating.md describes each):
///  - `elicit_requests_total{method,revision,outcome}` counter: requests served, by JSON-RPC method,
///    protocol revision and outcome (`result`, `input_required`, `error`, `abandoned`, `cancelled`).
///  - `elicit_request_duration_seconds{method,revision}` histogram: from dispatch to the end.
///  - `elicit_request_errors_total{method,code}` counter: JSON-RPC errors answered, by code.
///  - `elicit_request_states_refused_total` counter: 2026-07-28 retries whose requestState did not
///    open (-32602 "Invalid or expired requestState": expired, tampered, another principal's).
///  - `elicit_http_refusals_total{reason}` counter: HTTP requests refused before any server saw them:
///    `no_token`, `invalid_request`, `invalid_token`, `insufficient_scope` (bearer tokens, RFC 6750),
///    `capacity` (503).
///  - `elicit_elicitations_waiting` gauge: 2025-11-25 elicitations of this process awaiting a person.
///  - with track(): `elicit_http_sessions`, `elicit_http_requests_in_flight`, `elicit_http_draining`
///    gauges.
///  - with track_tasks(): `elicit_tasks{status}` gauge: tasks kept in the TaskStore, by status
///    (`working`, `input_required`, `completed`, `failed`, `cancelled`); a store shared by several
///    processes (RedisTaskStore) counts them all.
///  - with track_pages(): `elicit_form_pages_open` gauge: browser form pages opened and not yet
///    answered, closed or expired (a shared store: every process's).
///  - with redis_errors(): `elicit_redis_errors_total{store}` counter: failures talking to Redis, by
///    the store that met them (RedisOptions::on_error).
///  - the gauges of add_gauge().
/// A label a client could make up (an unknown method, a protocol version nobody serves) is
/// recorded as `other`: the number of series stays bounded whatever clients send.
/// Thread rules: every member is thread-safe. track_tasks() and track_pages() start one thread of
/// this object's, which the destructor stops and joins (waiting for a count in progress, up to the
/// store's own timeouts).
class Metrics : public ServerObserver {
 public:
  explicit Metrics(MetricsOptions options = {});
  ~Metrics() override;
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  void request_ended(const RequestRecord& record) override;
  void request_refused(unsigned status, std::string_view reason) override;

  /// Shows `server`'s sessions, requests in flight and drain state. It must outlive this object's
  /// scrapes (as it does when routes() is served by `server` itself).
  void track(const http::StreamableHttpServer& server);
  /// Shows `elicit_tasks{status}`: `store`'s count_by_status(), refreshed every `interval`
  /// (milliseconds, > 0; std::invalid_argument otherwise) on this object's refresh thread (started by
  /// the first track_tasks() or track_pages(), stopped and joined by the destructor), never on the
  /// scraping I/O thread: a scrape shows the last count, at most `interval` old (plus one count's
  /// time). The first count is taken at once on that thread; until it is, and after a count that
  /// failed (it threw, or the store cannot count) until one succeeds, the series are absent from the
  /// scrapes (not a stale value; `absent(elicit_tasks)` alerts on it). The failure itself is counted
  /// by the store's own RedisOptions::on_error (redis_errors()), not again here. The store is held
  /// until this object is destroyed. Throws std::invalid_argument for a null store,
  /// std::logic_error when called a second time, std::system_error when the thread cannot be
  /// started. Thread-safe.
  void track_tasks(std::shared_ptr<TaskStore> store, std::chrono::milliseconds interval = std::chrono::seconds(5));
  /// Shows `elicit_form_pages_open`: `pages`' pages_open() (a forms::PageStore), refreshed as
  /// track_tasks() refreshes its counts, with the same rules and throws. Thread-safe.
  void track_pages(std::shared_ptr<BrowserForms> pages, std::chrono::milliseconds interval = std::chrono::seconds(5));
  /// A callback for RedisOptions::on_error of a store of the application's: each call adds one to
  /// `elicit_redis_errors_total{store="<store>"}` (the series shows 0 from this call on). `store`
  /// names the store ("tasks", "pages", "completion", ...: a fixed set, not client input). The
  /// callback is quick, never blocks and never throws, may be called on any thread, and may outlive
  /// this object (it keeps what it counts alive). Thread-safe.
  std::function<void()> redis_errors(const std::string& store);

  /// A gauge read at each scrape, e.g. a queue's length (a count that may block goes through
  /// track_tasks() or track_pages() instead); `labels` are fixed name/value pairs (several gauges may
  /// share a name with different labels). `value` runs on the scraping thread (an I/O thread): quick,
  /// never blocking. Throws std::invalid_argument for a name or label name Prometheus does not allow,
  /// or a name of the series above (Metrics' own).
  void add_gauge(const std::string& name, const std::string& help,
                 std::vector<std::pair<std::string, std::string>> labels, std::function<double()> value);

  /// Every series now, in the text exposition format 0.0.4 (Content-Type
  /// `text/plain; version=0.0.4; charset=utf-8`).
  std::string scrape() const;
  /// The scrape as Routes for HttpServerOptions::routes, at MetricsOptions::path: GET (and HEAD)
  /// only, else 405. Throws std::invalid_argument from check() for a path that is not absolute or is
  /// the MCP endpoint's.
  std::shared_ptr<http::Routes> routes();

  struct Impl;
  struct Refresher;

 private:
  std::shared_ptr<Impl> impl_;
  std::unique_ptr<Refresher> refresher_;  // the refresh thread of track_tasks() and track_pages()
};

}  // namespace elicit::ops
