// InMemoryPageStore: the pages of URL-mode forms kept in this process, their waiters, and the
// HTTP logic of a page (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode Elicitation
// Requests", "Safe URL Handling", "Phishing").
#include "elicit/forms/page_store.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "elicit/forms/page_rules.hpp"
#include "elicit/jsonrpc/timer_service.hpp"

namespace elicit::forms {

namespace {

using Clock = std::chrono::steady_clock;
using Done = std::function<void(std::optional<BrowserFormAnswer>)>;
using jsonrpc::TimerService;

// Ids of pages close()d or dropped that still answer 410 rather than 404: the newest ones, so a
// tab left open on an answered page says so; bounded, since ids are unbounded in number.
constexpr std::size_t kMaxTombstones = 1024;

struct Waiter {
  Done done;
  std::optional<TimerService::TimerId> timer;
};

struct Page {
  std::shared_ptr<const Form> form;
  std::string message;
  std::string principal;
  std::string csrf;
  std::chrono::milliseconds expires_in{0};
  // Unanswered: the page takes answers until then. Answered: the answer is kept until then (it came
  // plus expires_in), so a call that never reads it does not hold it for ever.
  Clock::time_point deadline;
  std::optional<BrowserFormAnswer> answer;
  std::size_t bytes = 0;
  std::map<std::uint64_t, Waiter> waiters;
};

using Gone = PageRules::Gone;

// A `done` to call once the store's mutex is released, and the timer to cancel first.
struct Delivery {
  Done done;
  std::optional<BrowserFormAnswer> answer;
  std::optional<TimerService::TimerId> timer;
};

BrowserFormAnswer ended(ElicitStatus status) {
  BrowserFormAnswer a;
  a.status = status;
  return a;
}

}  // namespace

struct InMemoryPageStore::State {
  explicit State(InMemoryPageStoreOptions o)
      : options(std::move(o)), rules(options.templates), timers(TimerService::shared()), base_url(options.base_url) {}

  const InMemoryPageStoreOptions options;  // base_url: see below
  const PageRules rules;                   // the page's answers, as every store gives them
  const std::shared_ptr<TimerService> timers;

  mutable std::mutex mutex;
  std::string base_url;  // guarded by mutex
  std::unordered_map<std::string, Page> pages;
  std::unordered_map<std::string, Gone> tombstones;
  std::deque<std::string> tombstone_order;  // oldest first; may name ids no longer in `tombstones`
  std::size_t bytes = 0;
  std::uint64_t next_waiter = 1;

  Clock::time_point now() const { return options.clock ? options.clock() : Clock::now(); }

  static bool expired(const Page& p, Clock::time_point now) { return now >= p.deadline; }

  void bury(const std::string& id, Gone why) {
    const auto [it, fresh] = tombstones.insert_or_assign(id, why);
    (void)it;
    if (!fresh) return;
    tombstone_order.push_back(id);
    while (tombstone_order.size() > kMaxTombstones) {
      tombstones.erase(tombstone_order.front());
      tombstone_order.pop_front();
    }
  }

  // Forgets a page; its waiters get `status` once the caller has released the mutex.
  void drop(std::unordered_map<std::string, Page>::iterator it, Gone why, ElicitStatus status,
            std::vector<Delivery>& out) {
    for (auto& [wid, w] : it->second.waiters) out.push_back({std::move(w.done), ended(status), w.timer});
    bytes -= it->second.bytes;
    bury(it->first, why);
    pages.erase(it);
  }

  // Drops `it` when it has expired (true): an unanswered page's waiters get timed_out.
  bool drop_if_expired(std::unordered_map<std::string, Page>::iterator it, Clock::time_point t,
                       std::vector<Delivery>& out) {
    if (!expired(it->second, t)) return false;
    const bool answered = it->second.answer.has_value();
    drop(it, answered ? Gone::closed : Gone::expired, ElicitStatus::timed_out, out);
    return true;
  }

  void sweep(Clock::time_point t, std::vector<Delivery>& out) {
    for (auto it = pages.begin(); it != pages.end();) {
      const auto next = std::next(it);
      drop_if_expired(it, t, out);
      it = next;
    }
  }

  // Outside the mutex: a `done` may call back into the store.
  void deliver(std::vector<Delivery>& out) const {
    for (auto& d : out) {
      if (d.timer) timers->cancel(*d.timer);
    }
    for (auto& d : out) d.done(std::move(d.answer));
    out.clear();
  }
};

InMemoryPageStore::InMemoryPageStore(InMemoryPageStoreOptions options) {
  if (options.max_pages == 0) throw std::invalid_argument("InMemoryPageStoreOptions::max_pages must be at least 1");
  if (options.max_bytes == 0) throw std::invalid_argument("InMemoryPageStoreOptions::max_bytes must be at least 1");
  if (!options.base_url.empty() && options.base_url.back() != '/') {
    throw std::invalid_argument("InMemoryPageStoreOptions::base_url must end in '/'");
  }
  state_ = std::make_shared<State>(std::move(options));  // form_page_csp throws for a bad template
}

InMemoryPageStore::~InMemoryPageStore() {
  // Every waiter still gets its one call: the store that would answer it is gone.
  std::vector<Delivery> out;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    for (auto& [id, page] : state_->pages) {
      for (auto& [wid, w] : page.waiters) out.push_back({std::move(w.done), ended(ElicitStatus::aborted), w.timer});
      page.waiters.clear();
    }
  }
  state_->deliver(out);
}

std::string InMemoryPageStore::open(const std::string& id, const BrowserFormPage& page) {
  auto form = PageRules::checked_form(id, page);  // throws for a bad id, expiry or schema
  auto& s = *state_;
  std::vector<Delivery> out;
  std::string url;
  // A page open under the id is kept as it is: no need to read its schema again.
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.base_url.empty()) throw std::runtime_error("InMemoryPageStore has no base URL yet");
    const auto it = s.pages.find(id);
    if (it != s.pages.end() && !s.drop_if_expired(it, s.now(), out)) return s.base_url + id;
    // Ended (expired, or closed after its answer was read): not opened again, so a 2026-07-28
    // retry of the request that opened it finds it gone (410; await() answers timed_out).
    if (s.tombstones.count(id) != 0) {
      url = s.base_url + id;
    }
  }
  if (!url.empty()) {
    s.deliver(out);
    return url;
  }
  s.deliver(out);

  Page p;
  p.bytes = id.size() + page.message.size() + form.schema.dump().size() + page.principal.size();
  p.form = std::make_shared<const Form>(std::move(form));
  p.message = page.message;
  p.principal = page.principal;
  p.csrf = PageRules::csrf_token();
  p.expires_in = page.expires_in;

  std::string full;  // why the page does not fit, thrown once the swept pages' waiters are answered
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto t = s.now();
    s.sweep(t, out);
    if (s.pages.count(id) != 0) {
      url = s.base_url + id;  // opened meanwhile by another thread: that page stands
    } else if (s.pages.size() >= s.options.max_pages) {
      full = "InMemoryPageStore is full: " + std::to_string(s.options.max_pages) + " pages open";
    } else if (p.bytes > s.options.max_bytes || s.bytes > s.options.max_bytes - p.bytes) {
      full =
          "InMemoryPageStore is full: the pages would hold more than " + std::to_string(s.options.max_bytes) + " bytes";
    } else {
      p.deadline = t + page.expires_in;
      s.bytes += p.bytes;
      s.pages.emplace(id, std::move(p));
      url = s.base_url + id;
    }
  }
  s.deliver(out);
  if (!full.empty()) throw std::length_error(full);
  return url;
}

void InMemoryPageStore::await(const std::string& id, std::chrono::milliseconds wait,
                              std::function<void(std::optional<BrowserFormAnswer>)> done) {
  if (!done) throw std::invalid_argument("InMemoryPageStore::await needs a callback");
  wait = std::max(wait, std::chrono::milliseconds(0));
  auto& s = *state_;
  std::vector<Delivery> out;
  std::optional<BrowserFormAnswer> now_answer;
  bool answer_now = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto t = s.now();
    const auto it = s.pages.find(id);
    if (it == s.pages.end() || s.drop_if_expired(it, t, out)) {
      answer_now = true;
      now_answer = ended(ElicitStatus::timed_out);
    } else if (it->second.answer) {
      answer_now = true;
      now_answer = it->second.answer;
    } else if (wait.count() == 0) {
      answer_now = true;  // nullopt: no answer yet, and no time to wait for one
    } else {
      auto& page = it->second;
      const auto waiter_id = s.next_waiter++;
      // At the page's deadline the waiter learns it expired, however long it meant to wait.
      const auto until_deadline = std::chrono::duration_cast<std::chrono::milliseconds>(page.deadline - t) +
                                  std::chrono::milliseconds(1);  // rounded up: the deadline has passed then
      const auto delay = std::min(wait, until_deadline);
      auto& waiter = page.waiters[waiter_id];
      waiter.done = std::move(done);
      // Scheduled under the mutex: the callback takes it, so it finds the timer's id stored.
      std::weak_ptr<State> weak = state_;
      waiter.timer = s.timers->schedule(Clock::now() + delay, [weak, id, waiter_id] {
        const auto state = weak.lock();
        if (!state) return;  // the store is gone; its destructor answered the waiter
        Delivery d;
        {
          std::lock_guard<std::mutex> lock(state->mutex);
          const auto p = state->pages.find(id);
          if (p == state->pages.end()) return;  // answered (and closed) meanwhile: delivered there
          const auto w = p->second.waiters.find(waiter_id);
          if (w == p->second.waiters.end()) return;  // delivered by whoever took it out
          d.done = std::move(w->second.done);
          p->second.waiters.erase(w);
          // The page expired (the timer was set for its deadline), or the wait ended first.
          if (State::expired(p->second, state->now())) d.answer = ended(ElicitStatus::timed_out);
        }
        d.done(std::move(d.answer));
      });
    }
  }
  s.deliver(out);
  if (answer_now) done(std::move(now_answer));
}

void InMemoryPageStore::close(const std::string& id) {
  auto& s = *state_;
  std::vector<Delivery> out;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto it = s.pages.find(id);
    if (it == s.pages.end()) return;
    s.drop(it, Gone::closed, ElicitStatus::aborted, out);
  }
  s.deliver(out);
}

void InMemoryPageStore::set_base_url(std::string base_url) {
  if (base_url.empty() || base_url.back() != '/') {
    throw std::invalid_argument("InMemoryPageStore::set_base_url: the base URL must end in '/'");
  }
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->base_url = std::move(base_url);
}

void InMemoryPageStore::handle(const PageRequest& request, std::function<void(PageResponse)> done) {
  if (!done) throw std::invalid_argument("InMemoryPageStore::handle needs a callback");
  done(handle(request));
}

const HtmlTemplates& InMemoryPageStore::templates() const noexcept { return state_->rules.templates(); }

const std::string& InMemoryPageStore::content_security_policy() const noexcept {
  return state_->rules.content_security_policy();
}

std::size_t InMemoryPageStore::size() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  const auto t = state_->now();
  return static_cast<std::size_t>(std::count_if(state_->pages.begin(), state_->pages.end(),
                                                [&](const auto& entry) { return !State::expired(entry.second, t); }));
}

std::optional<std::size_t> InMemoryPageStore::pages_open() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  const auto t = state_->now();
  return static_cast<std::size_t>(std::count_if(state_->pages.begin(), state_->pages.end(), [&](const auto& entry) {
    return !entry.second.answer && !State::expired(entry.second, t);
  }));
}

PageResponse InMemoryPageStore::handle(const PageRequest& request) {
  // Nothing here is logged: the body may hold a secret.
  auto& s = *state_;
  const auto& rules = s.rules;
  if (auto r = rules.check_request(request)) return std::move(*r);

  // What the request needs of the page, copied under the mutex: rendering, decoding and validating
  // run outside it.
  std::shared_ptr<const Form> form;
  std::string message;
  std::string csrf;
  std::vector<Delivery> out;
  std::optional<PageResponse> refusal;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto it = s.pages.find(request.id);
    if (it == s.pages.end()) {
      const auto gone = s.tombstones.find(request.id);
      refusal =
          gone == s.tombstones.end() ? rules.not_found(request.language) : rules.gone(gone->second, request.language);
    } else if ((refusal = rules.check_access(it->second.principal, request))) {
      // Who asks comes first: the page gives nothing away to anyone else.
    } else if (s.drop_if_expired(it, s.now(), out)) {
      // Unanswered: "expired"; answered and past keeping its answer: "no longer available".
      refusal = rules.gone(s.tombstones.at(request.id), request.language);
    } else if (it->second.answer) {
      refusal = rules.already_answered(request.language);
    } else {
      form = it->second.form;
      message = it->second.message;
      csrf = it->second.csrf;
    }
  }
  s.deliver(out);
  if (refusal) return std::move(*refusal);

  auto step = rules.respond({*form, message, csrf}, request);
  if (step.response) return std::move(*step.response);
  auto answer = std::move(*step.answer);
  const auto status = answer.status;
  // Commit, unless the page ended meanwhile (another tab submitted, close(), expiry).
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto it = s.pages.find(request.id);
    if (it == s.pages.end()) {
      const auto gone = s.tombstones.find(request.id);
      refusal = gone == s.tombstones.end() ? rules.gone(Gone::closed, request.language)
                                           : rules.gone(gone->second, request.language);
    } else if (s.drop_if_expired(it, s.now(), out)) {
      refusal = rules.gone(Gone::expired, request.language);
    } else if (it->second.csrf != csrf) {
      refusal = rules.gone(Gone::closed, request.language);  // closed and opened again meanwhile: another page
    } else if (it->second.answer) {
      refusal = rules.already_answered(request.language);
    } else {
      auto& page = it->second;
      const auto answer_bytes = answer.content.dump().size();
      page.bytes += answer_bytes;
      s.bytes += answer_bytes;  // never refused for room: the next open() is
      page.deadline = s.now() + page.expires_in;
      for (auto& [wid, w] : page.waiters) out.push_back({std::move(w.done), answer, w.timer});
      page.waiters.clear();
      page.answer = std::move(answer);
    }
  }
  s.deliver(out);
  if (refusal) return std::move(*refusal);
  return rules.submitted(status, request.language);
}

}  // namespace elicit::forms
