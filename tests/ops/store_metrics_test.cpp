// The series the metrics read of the stores, off the scraping thread: tasks by status
// (Metrics::track_tasks over an InMemoryTaskStore, and stores that cannot count or fail), browser form
// pages open (Metrics::track_pages over a BrowserForms that counts), and Redis errors by store
// (Metrics::redis_errors); the exposition with them read by promtool.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <elicit/browser_forms.hpp>
#include <elicit/ops/metrics.hpp>
#include <elicit/tasks.hpp>

#include "../support/patience.hpp"
#include "../support/run_command.hpp"
#include "../support/scratch_dir.hpp"

namespace store_metrics_test {

using elicit::TaskRecord;
using elicit::TaskStatus;
using test_support::eventually;
using namespace std::chrono_literals;

namespace {

// The value of the sample `name{labels}` in a scrape (the label text exactly), or -1 when absent.
double sample(const std::string& scrape, const std::string& series) {
  std::istringstream in(scrape);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    if (line.substr(0, space) == series) return std::stod(line.substr(space + 1));
  }
  return -1;
}

std::string tasks_of(const char* status) { return std::string("elicit_tasks{status=\"") + status + "\"}"; }

// A scrape once `ready` holds of it (bounded): the counts are refreshed on the metrics' own thread.
std::string scrape_when(const elicit::ops::Metrics& metrics, const std::function<bool(const std::string&)>& ready) {
  std::string text;
  eventually([&] { return ready(text = metrics.scrape()); });
  return text;
}

TaskRecord task(std::int64_t now, std::int64_t ttl_ms) {
  TaskRecord t;
  t.id = elicit::new_task_id();
  t.owner = "octocat";
  t.created_ms = t.updated_ms = now;
  t.ttl_ms = ttl_ms;
  t.expires_ms = now + ttl_ms;
  t.poll_interval_ms = 500;
  t.request = {{"name", "confirm_delete"}};
  return t;
}

// A store that keeps nothing: what the stores below add is their count.
class StubStore : public elicit::TaskStore {
 public:
  const elicit::TaskOptions& options() const noexcept override { return options_; }
  bool create(const TaskRecord&) override { return false; }
  std::optional<TaskRecord> get(const std::string&) override { return std::nullopt; }
  std::optional<TaskRecord> update(const std::string&, const std::function<bool(TaskRecord&)>&) override {
    return std::nullopt;
  }

 private:
  elicit::TaskOptions options_;
};

// A store that counts what the test says, throws while `failing`, and says how often it was asked.
class CountingStore final : public StubStore {
 public:
  std::optional<std::array<std::size_t, 5>> count_by_status() override {
    ++asked;
    if (failing) throw std::runtime_error("Redis cannot be reached");
    return std::array<std::size_t, 5>{7, 0, 0, 0, 0};
  }

  std::atomic<bool> failing{true};
  std::atomic<int> asked{0};
};

// A store without a count (TaskStore's default).
class MuteStore final : public StubStore {};

// Pages the test opens and answers by number (forms::InMemoryPageStore's count is tested in
// forms_tests: the operations wing does not link the forms wing). pages_open() may be made to block,
// as a store in Redis does, to show that a scrape does not wait for it.
class CountingPages final : public elicit::BrowserForms {
 public:
  std::string open(const std::string& id, const elicit::BrowserFormPage&) override {
    ++open_now;
    return "http://127.0.0.1/forms/" + id;
  }
  void await(const std::string&, std::chrono::milliseconds,
             std::function<void(std::optional<elicit::BrowserFormAnswer>)> done) override {
    done(std::nullopt);
  }
  void close(const std::string&) override { --open_now; }
  std::optional<std::size_t> pages_open() override {
    std::unique_lock<std::mutex> lock(mutex);
    ++asked;
    asked_cv.notify_all();
    released_cv.wait(lock, [this] { return !blocking; });
    return static_cast<std::size_t>(open_now.load());
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      blocking = false;
    }
    released_cv.notify_all();
  }

  std::atomic<int> open_now{0};
  std::mutex mutex;
  std::condition_variable asked_cv;
  std::condition_variable released_cv;
  int asked = 0;          // guarded by mutex
  bool blocking = false;  // guarded by mutex
};

}  // namespace

TEST_CASE("tasks by status: counts move as tasks are made, change status and expire", "[ops][metrics]") {
  auto now = std::make_shared<std::atomic<std::int64_t>>(elicit::unix_time_ms());
  auto store = std::make_shared<elicit::InMemoryTaskStore>(elicit::TaskOptions{}, [now] { return now->load(); });
  elicit::ops::Metrics metrics;
  CHECK(metrics.scrape().find("elicit_tasks") == std::string::npos);  // not tracked: no series
  metrics.track_tasks(store, 10ms);
  auto text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("working")) == 0; });
  INFO(text);
  for (const auto* status : {"working", "input_required", "completed", "failed", "cancelled"}) {
    CHECK(sample(text, tasks_of(status)) == 0);  // every status shows, 0 included
  }

  const auto a = task(*now, 60'000);
  const auto b = task(*now, 60'000);
  const auto short_lived = task(*now, 1'000);
  REQUIRE(store->create(a));
  REQUIRE(store->create(b));
  REQUIRE(store->create(short_lived));
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("working")) == 3; });
  CHECK(sample(text, tasks_of("working")) == 3);

  const auto to = [&](const TaskRecord& t, TaskStatus status) {
    REQUIRE(store->update(t.id, [status](TaskRecord& r) {
      r.status = status;
      return true;
    }));
  };
  to(a, TaskStatus::input_required);
  to(b, TaskStatus::input_required);
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("input_required")) == 2; });
  CHECK(sample(text, tasks_of("working")) == 1);
  to(a, TaskStatus::completed);
  to(b, TaskStatus::cancelled);
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("cancelled")) == 1; });
  CHECK(sample(text, tasks_of("completed")) == 1);
  CHECK(sample(text, tasks_of("input_required")) == 0);

  now->fetch_add(1'000);  // the short-lived task expires: no longer kept, no longer counted
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("working")) == 0; });
  CHECK(sample(text, tasks_of("completed")) == 1);
  CHECK(sample(text, tasks_of("cancelled")) == 1);
}

TEST_CASE("tasks by status: absent while the store cannot count or fails, shown once it counts", "[ops][metrics]") {
  auto failing = std::make_shared<CountingStore>();
  auto mute = std::make_shared<MuteStore>();
  {
    elicit::ops::Metrics metrics;
    metrics.track_tasks(mute, 5ms);
    CHECK_THROWS_AS(metrics.track_tasks(mute, 5ms), std::logic_error);  // one task store
  }
  elicit::ops::Metrics metrics;
  CHECK_THROWS_AS(metrics.track_tasks(failing, 0ms), std::invalid_argument);
  CHECK_THROWS_AS(metrics.track_tasks(nullptr), std::invalid_argument);
  metrics.track_tasks(failing, 5ms);
  // Asked twice and failed twice: no series, not a made-up 0.
  REQUIRE(eventually([&] { return failing->asked >= 2; }));
  CHECK(metrics.scrape().find("elicit_tasks") == std::string::npos);
  failing->failing = false;
  auto text = scrape_when(metrics, [](const std::string& t) { return sample(t, tasks_of("working")) == 7; });
  CHECK(sample(text, tasks_of("working")) == 7);
  // Failing again: gone again (a stale count would look like a healthy one).
  failing->failing = true;
  const int asked = failing->asked;
  REQUIRE(eventually([&] { return failing->asked >= asked + 2; }));
  text = scrape_when(metrics, [](const std::string& t) { return t.find("elicit_tasks") == std::string::npos; });
  CHECK(text.find("elicit_tasks") == std::string::npos);
}

TEST_CASE("pages open: read off the scraping thread, which never waits for a count", "[ops][metrics]") {
  auto pages = std::make_shared<CountingPages>();
  elicit::ops::Metrics metrics;
  metrics.track_pages(pages, 5ms);
  auto text = scrape_when(metrics, [](const std::string& t) { return sample(t, "elicit_form_pages_open") == 0; });
  pages->open(elicit::browser_form_id(), {});
  pages->open(elicit::browser_form_id(), {});
  const auto answered = elicit::browser_form_id();
  pages->open(answered, {});
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, "elicit_form_pages_open") == 3; });
  CHECK(sample(text, "elicit_form_pages_open") == 3);
  pages->close(answered);
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, "elicit_form_pages_open") == 2; });
  CHECK(sample(text, "elicit_form_pages_open") == 2);

  // A count that blocks (Redis slow) holds the refresh thread only: scrapes answer the last value.
  {
    std::unique_lock<std::mutex> lock(pages->mutex);
    pages->blocking = true;
    const int asked = pages->asked;
    REQUIRE(pages->asked_cv.wait_for(lock, test_support::kPatience, [&] { return pages->asked > asked; }));
  }
  pages->open(elicit::browser_form_id(), {});
  CHECK(sample(metrics.scrape(), "elicit_form_pages_open") == 2);
  pages->release();
  text = scrape_when(metrics, [](const std::string& t) { return sample(t, "elicit_form_pages_open") == 3; });
  CHECK(sample(text, "elicit_form_pages_open") == 3);
}

TEST_CASE("the metrics' refresh thread stops with them, a count in progress finishing first", "[ops][metrics]") {
  auto pages = std::make_shared<CountingPages>();
  auto metrics = std::make_unique<elicit::ops::Metrics>();
  metrics->track_pages(pages, 5ms);
  {
    std::unique_lock<std::mutex> lock(pages->mutex);
    pages->blocking = true;
    REQUIRE(pages->asked_cv.wait_for(lock, test_support::kPatience, [&] { return pages->asked > 0; }));
  }
  std::thread release([&] {
    std::unique_lock<std::mutex> lock(pages->mutex);
    pages->released_cv.wait_for(lock, 50ms);  // the destructor is waiting by then, or soon
    lock.unlock();
    pages->release();
  });
  metrics.reset();  // joins the thread once the count returns
  release.join();
  CHECK(pages.use_count() == 1);  // the metrics let the store go
}

TEST_CASE("redis errors are counted by store, from any thread, even after the metrics are gone", "[ops][metrics]") {
  auto metrics = std::make_unique<elicit::ops::Metrics>();
  const auto tasks = metrics->redis_errors("tasks");
  const auto pages = metrics->redis_errors("pages");
  CHECK(sample(metrics->scrape(), "elicit_redis_errors_total{store=\"tasks\"}") == 0);
  CHECK(sample(metrics->scrape(), "elicit_redis_errors_total{store=\"pages\"}") == 0);
  std::thread other([&] {
    for (int i = 0; i < 1000; ++i) tasks();
  });
  for (int i = 0; i < 1000; ++i) tasks();
  pages();
  other.join();
  const auto text = metrics->scrape();
  CHECK(sample(text, "elicit_redis_errors_total{store=\"tasks\"}") == 2000);
  CHECK(sample(text, "elicit_redis_errors_total{store=\"pages\"}") == 1);
  CHECK(text.find("# TYPE elicit_redis_errors_total counter") != std::string::npos);
  for (const auto* taken : {"elicit_tasks", "elicit_form_pages_open", "elicit_redis_errors_total"}) {
    CHECK_THROWS_AS(metrics->add_gauge(taken, "", {}, [] { return 0.0; }), std::invalid_argument);
  }
  metrics.reset();
  tasks();  // a store may outlive the metrics: its callback still works
}

TEST_CASE("promtool check metrics accepts the exposition with the store series", "[ops][metrics][promtool]") {
  auto store = std::make_shared<elicit::InMemoryTaskStore>();
  REQUIRE(store->create(task(elicit::unix_time_ms(), 60'000)));
  auto pages = std::make_shared<CountingPages>();
  pages->open(elicit::browser_form_id(), {});
  elicit::ops::Metrics metrics;
  metrics.track_tasks(store, 10ms);
  metrics.track_pages(pages, 10ms);
  metrics.redis_errors("tasks")();
  metrics.redis_errors("pages");
  const auto text = scrape_when(metrics, [](const std::string& t) {
    return sample(t, tasks_of("working")) == 1 && sample(t, "elicit_form_pages_open") == 1;
  });
  test_support::ScratchDir dir("promtool-stores");
  const auto file = dir.write("scrape.txt", text);
  const auto r = test_support::run_command(std::string(PROMTOOL) + " check metrics < " + file + " 2>&1");
  INFO(text);
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());  // no lint finding either (names, units, help)
}

}  // namespace store_metrics_test
