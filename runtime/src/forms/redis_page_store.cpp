// RedisPageStore: browser form pages in Redis, sealed, single use across processes, answers
// heard through pub/sub (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode Elicitation
// Requests", "Phishing").
#include "elicit/forms/redis_page_store.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "elicit/forms/page_rules.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/timer_service.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "forms/redis_page_records.hpp"
#include "redis/answer_subscriber.hpp"
#include "redis/connection_pool.hpp"

namespace elicit::forms {

namespace {

using jsonrpc::TimerService;
using redis_detail::AnswerSubscriber;
using redis_detail::ConnectionPool;
using redis_records::FormKeys;
using redis_records::PageRecord;
using redis_records::RecordSealer;
using Done = std::function<void(std::optional<BrowserFormAnswer>)>;
using Gone = PageRules::Gone;
using WallClock = std::chrono::system_clock;

BrowserFormAnswer ended(ElicitStatus status) {
  BrowserFormAnswer a;
  a.status = status;
  return a;
}

std::int64_t ms_since_epoch(WallClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

// A string element of an array reply, or nullopt for nil (or anything else).
std::optional<std::string> element(const redisReply& array, std::size_t i) {
  if (i >= array.elements || array.element[i]->type != REDIS_REPLY_STRING) return std::nullopt;
  return std::string(array.element[i]->str, array.element[i]->len);
}

RedisPageStoreOptions checked(RedisPageStoreOptions o) {
  redis_detail::check_options(o.redis, "RedisPageStore");
  if (o.gone_for < std::chrono::milliseconds::zero())
    throw std::invalid_argument("RedisPageStore: gone_for is negative");
  if (o.max_waiters == 0 || o.max_page_bytes == 0) {
    throw std::invalid_argument("RedisPageStore: max_waiters and max_page_bytes must be at least 1");
  }
  if (!o.base_url.empty() && o.base_url.back() != '/') {
    throw std::invalid_argument("RedisPageStoreOptions::base_url must end in '/'");
  }
  return o;
}

// KEYS the open pages' index; ARGV now (ms), the page's deadline (ms), <h>. Drops the pages past
// their deadline from the index, then adds this one.
constexpr const char* kIndexOpenScript = R"lua(
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return 1
)lua";

}  // namespace

struct RedisPageStore::Shared {
  struct Waiter {
    std::string id;
    Done done;
    WallClock::time_point deadline;  // the page's; max when it could not be read
    std::optional<TimerService::TimerId> timer;
    TimerService::Clock::time_point ends_at;  // when the timer fires
    std::chrono::milliseconds wait_left() const {
      return std::chrono::duration_cast<std::chrono::milliseconds>(ends_at - TimerService::Clock::now());
    }
  };
  // Waiters of one page (by <h>), by a number of their own.
  using Waiters = std::map<std::uint64_t, Waiter>;

  explicit Shared(RedisPageStoreOptions o)
      : options(checked(std::move(o))),
        rules(options.templates),
        sealer(options.keys, options.max_page_bytes, options.clock),
        redis(options.redis, std::max<std::size_t>(options.redis.threads, 1) + 2),
        channel(redis_records::answers_channel(options.redis.key_prefix)),
        open_key(options.redis.key_prefix + "{pages}:open"),
        timers(TimerService::shared()),
        base_url(options.base_url) {
    for (auto& key : options.keys) std::fill(key.begin(), key.end(), '\0');  // the sealer has its copies
  }

  RedisPageStoreOptions options;
  const PageRules rules;
  const RecordSealer sealer;
  ConnectionPool redis;
  const std::string channel;
  // Sorted set of the <h> of pages open unanswered, by deadline (ms): pages_open() counts it. Apart
  // from the pages' keys (another hash slot), so written after them, best effort.
  const std::string open_key;
  const std::shared_ptr<TimerService> timers;
  std::unique_ptr<WorkerPool> workers;           // set by the constructor; reset by the destructor
  std::unique_ptr<AnswerSubscriber> subscriber;  // likewise
  // Guards posting: the destructor stops it before destroying `workers`, whose queued jobs may
  // still post (a `done` that calls close()).
  std::mutex posting;
  bool accepting = true;  // guarded by posting

  std::mutex mutex;
  std::string base_url;  // guarded by mutex
  std::size_t held = 0;  // await()s not answered yet, queued or waiting: at most max_waiters
  std::unordered_map<std::string, Waiters> waiters;
  std::uint64_t next_waiter = 1;

  WallClock::time_point now() const { return options.clock ? options.clock() : WallClock::now(); }
  // "0" when no marker is kept (gone_for 0): the scripts then set none.
  std::string gone_px(std::chrono::milliseconds page_time) const {
    if (options.gone_for.count() == 0) return "0";
    return std::to_string((page_time + options.gone_for).count());
  }

  // Runs `job` on a worker thread, marked an event thread (callbacks there must not block). False
  // when the store is being destroyed.
  bool post(std::function<void()> job) {
    std::lock_guard<std::mutex> lock(posting);
    if (!accepting) return false;
    return workers->post([job = std::move(job)] {
      const jsonrpc::EventThreadScope event_thread;
      try {
        job();
      } catch (...) {
        // bad_alloc and the like: the callbacks were answered where they could be
      }
    });
  }

  static void call(const Done& done, std::optional<BrowserFormAnswer> answer) {
    try {
      done(std::move(answer));
    } catch (...) {
      // documented: `done` must not throw; one that does must not take the store's thread with it
    }
  }

  // Hands each taken waiter its answer: outside the mutex, timers cancelled first.
  void deliver(std::vector<Waiter>& taken,
               const std::function<std::optional<BrowserFormAnswer>(const Waiter&)>& answer) {
    for (auto& w : taken) {
      if (w.timer) timers->cancel(*w.timer);
    }
    for (auto& w : taken) call(w.done, answer(w));
  }

  std::vector<Waiter> take_all(const std::string& hash) {
    std::vector<Waiter> out;
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = waiters.find(hash);
    if (it == waiters.end()) return out;
    for (auto& [n, w] : it->second) out.push_back(std::move(w));
    waiters.erase(it);
    return out;
  }

  // What a page is now: its answer, or that it ended without one; nullopt while it is open
  // unanswered or Redis cannot tell.
  struct Looked {
    bool reached = false;
    std::optional<std::string> page;
    std::optional<std::string> answer;
    std::optional<std::string> gone;
  };
  Looked look(const FormKeys& keys) {
    Looked l;
    const auto reply = redis.run({"MGET", keys.page, keys.answer, keys.gone});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) return l;
    l.reached = true;
    l.page = element(*reply, 0);
    l.answer = element(*reply, 1);
    l.gone = element(*reply, 2);
    return l;
  }

  // Checks a page for this store's waiters: answered, or gone (closed elsewhere, expired, lost
  // with a Redis restarted without its data), each waiter gets its ending; open, they wait on.
  void check(const std::string& hash) {
    std::string id;
    {
      std::lock_guard<std::mutex> lock(mutex);
      const auto it = waiters.find(hash);
      if (it == waiters.end() || it->second.empty()) return;
      id = it->second.begin()->second.id;
    }
    const FormKeys keys(options.redis.key_prefix, id);
    const auto l = look(keys);
    if (!l.reached) return;  // they wait on: the next (re)subscription checks again
    if (!l.page && !l.answer && !l.gone) {
      // Vanished without a trace: Redis restarted without its data (or was flushed). Its waiters
      // end now rather than wait for an answer that cannot come.
      auto taken = take_all(hash);
      const auto t = now();
      deliver(taken, [&](const Waiter& w) {
        return ended(t >= w.deadline ? ElicitStatus::timed_out : ElicitStatus::aborted);
      });
      return;
    }
    auto ending = settled(id, l);
    if (!ending) return;  // open, unanswered
    auto taken = take_all(hash);
    deliver(taken, [&](const Waiter&) { return ending; });
  }

  // After each (re)subscription: whatever was published while not subscribed was missed.
  void check_every_waiter() {
    std::vector<std::string> hashes;
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (const auto& [hash, ws] : waiters) hashes.push_back(hash);
    }
    for (const auto& hash : hashes) check(hash);
  }

  // How a page read from Redis ends a wait: its answer; timed_out when it is unknown, sealed
  // under other keys or past its deadline (as InMemoryPageStore); aborted when it was closed
  // (its marker says so) or vanished (Redis lost it). nullopt: open, unanswered.
  std::optional<BrowserFormAnswer> settled(const std::string& id, const Looked& l) const {
    const auto page = l.page ? sealer.open_page(id, *l.page) : std::nullopt;
    if (l.page && !page) return ended(ElicitStatus::timed_out);
    if (l.answer) {
      if (auto answer = sealer.open_answer(id, *l.answer)) return answer;
    }
    if (!page) return ended(l.gone && *l.gone == "closed" ? ElicitStatus::aborted : ElicitStatus::timed_out);
    if (now() >= WallClock::time_point(std::chrono::milliseconds(page->deadline_ms))) {
      return ended(ElicitStatus::timed_out);
    }
    return std::nullopt;
  }

  // A waiter's timer: at its end, the waiter gets nullopt, or timed_out past its page's deadline.
  // Called under the mutex (the callback takes it, so it finds the timer's id stored).
  TimerService::TimerId schedule(std::weak_ptr<Shared> weak, const std::string& hash, std::uint64_t n,
                                 std::chrono::milliseconds delay) {
    return timers->schedule(TimerService::Clock::now() + delay, [weak, hash, n] {
      const auto state = weak.lock();
      if (!state) return;  // the store is gone; its destructor answered the waiter
      auto w = state->take(hash, n);
      if (!w) return;  // delivered by whoever took it out
      call(w->done, state->now() >= w->deadline ? std::optional<BrowserFormAnswer>(ended(ElicitStatus::timed_out))
                                                : std::nullopt);
    });
  }

  // The page's deadline, once read: the waiter's timer moves to it when that comes first.
  void set_deadline(const std::weak_ptr<Shared>& weak, const std::string& hash, std::uint64_t n,
                    WallClock::time_point deadline) {
    std::lock_guard<std::mutex> lock(mutex);
    const auto ws = waiters.find(hash);
    if (ws == waiters.end()) return;
    const auto it = ws->second.find(n);
    if (it == ws->second.end()) return;
    it->second.deadline = deadline;
    const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now()) +
                       std::chrono::milliseconds(1);  // rounded up: the deadline has passed then
    if (it->second.timer && until < it->second.wait_left() && timers->cancel(*it->second.timer)) {
      it->second.timer = schedule(weak, hash, n, std::max(until, std::chrono::milliseconds(0)));
      it->second.ends_at = TimerService::Clock::now() + until;
    }
  }

  std::optional<Waiter> take(const std::string& hash, std::uint64_t n) {
    std::lock_guard<std::mutex> lock(mutex);
    const auto ws = waiters.find(hash);
    if (ws == waiters.end()) return std::nullopt;
    const auto it = ws->second.find(n);
    if (it == ws->second.end()) return std::nullopt;
    Waiter w = std::move(it->second);
    ws->second.erase(it);
    if (ws->second.empty()) waiters.erase(ws);
    return w;
  }

  void deliver_one(Waiter& w, std::optional<BrowserFormAnswer> answer) {
    if (w.timer) timers->cancel(*w.timer);
    call(w.done, std::move(answer));
  }

  void start_subscriber() {
    try {
      subscriber->start();
    } catch (...) {
      // no thread for it: the waiters still end at their timers
    }
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    --held;
  }
};

RedisPageStore::RedisPageStore(RedisPageStoreOptions options) : shared_(std::make_shared<Shared>(std::move(options))) {
  auto& s = *shared_;
  s.workers = std::make_unique<WorkerPool>(s.options.redis.threads);
  std::weak_ptr<Shared> weak = shared_;
  // The subscriber's thread only posts: what it hears is checked on the workers.
  s.subscriber = std::make_unique<AnswerSubscriber>(
      s.options.redis, s.channel,
      [weak](std::string hash) {
        if (auto shared = weak.lock())
          shared->post([weak, hash = std::move(hash)] {
            if (auto sh = weak.lock()) sh->check(hash);
          });
      },
      [weak] {
        if (auto shared = weak.lock())
          shared->post([weak] {
            if (auto sh = weak.lock()) sh->check_every_waiter();
          });
      });
}

RedisPageStore::~RedisPageStore() {
  auto& s = *shared_;
  s.subscriber->stop();  // no more posts from it
  std::vector<Shared::Waiter> taken;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto& [hash, ws] : s.waiters) {
      for (auto& [n, w] : ws) taken.push_back(std::move(w));
    }
    s.waiters.clear();
  }
  s.deliver(taken, [](const Shared::Waiter&) { return ended(ElicitStatus::aborted); });
  {
    std::lock_guard<std::mutex> lock(s.posting);
    s.accepting = false;
  }
  s.workers.reset();  // runs the queued jobs (their waiters were answered above), joins
}

std::string RedisPageStore::open(const std::string& id, const BrowserFormPage& page) {
  auto& s = *shared_;
  (void)PageRules::checked_form(id, page);  // throws for a bad id, expiry or schema
  std::string base;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    base = s.base_url;
  }
  if (base.empty()) throw std::runtime_error("RedisPageStore has no base URL yet");
  PageRecord record;
  record.message = page.message;
  record.schema = page.requested_schema.dump();  // ordered: the page shows the schema's order
  record.principal = page.principal;
  record.csrf = PageRules::csrf_token();
  record.expires_in_ms = page.expires_in.count();
  record.deadline_ms = ms_since_epoch(s.now() + page.expires_in);
  const auto sealed = s.sealer.seal_page(id, record);  // throws std::length_error past max_page_bytes
  const FormKeys keys(s.options.redis.key_prefix, id);
  const auto reply = s.redis.run({"EVAL", redis_records::kOpenScript, "2", keys.page, keys.gone, sealed,
                                  std::to_string(page.expires_in.count()), s.gone_px(page.expires_in)});
  if (!reply) throw std::runtime_error("RedisPageStore: Redis cannot be reached");
  if (reply->type != REDIS_REPLY_INTEGER) {
    throw std::runtime_error("RedisPageStore: Redis refused the page: " +
                             (reply->type == REDIS_REPLY_ERROR ? std::string(reply->str, reply->len) : "?"));
  }
  if (reply->integer == 1) {
    // Counted once set (not when kept: it may have been answered since). A failure here is reported
    // to on_error by the pool; the page stands.
    s.redis.run({"EVAL", kIndexOpenScript, "1", s.open_key, std::to_string(ms_since_epoch(s.now())),
                 std::to_string(record.deadline_ms), keys.hash});
  }
  return base + id;  // set now, or kept as it was (a retry opens the same page)
}

std::optional<std::size_t> RedisPageStore::pages_open() {
  auto& s = *shared_;
  const auto reply = s.redis.run({"ZCOUNT", s.open_key, "(" + std::to_string(ms_since_epoch(s.now())), "+inf"});
  if (!reply) throw std::runtime_error("RedisPageStore: Redis cannot be reached");
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer < 0) {
    throw std::runtime_error("RedisPageStore: Redis did not answer the count");
  }
  return static_cast<std::size_t>(reply->integer);
}

void RedisPageStore::await(const std::string& id, std::chrono::milliseconds wait,
                           std::function<void(std::optional<BrowserFormAnswer>)> done) {
  if (!done) throw std::invalid_argument("RedisPageStore::await needs a callback");
  // Bounded above too (the timer's time point must not overflow): no page lives longer than 30
  // days, so no wait needs more, even before its page's deadline is known.
  wait = std::clamp(wait, std::chrono::milliseconds(0), std::chrono::milliseconds(std::chrono::hours(24 * 31)));
  auto& s = *shared_;
  std::weak_ptr<Shared> weak = shared_;
  // Every way `done` is called frees its place.
  Done counted = [weak, done = std::move(done)](std::optional<BrowserFormAnswer> a) {
    if (auto sh = weak.lock()) sh->release();
    done(std::move(a));
  };
  const FormKeys keys(s.options.redis.key_prefix, id);
  std::uint64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.held >= s.options.max_waiters) {
      throw std::length_error("RedisPageStore: " + std::to_string(s.options.max_waiters) + " await()s held already");
    }
    ++s.held;
    if (wait.count() > 0) {
      // Registered now, before anything is read: a close() from now on finds it (aborted), and an
      // answer published from now on wakes it. Until the page is read its deadline is unknown.
      n = s.next_waiter++;
      auto& w = s.waiters[keys.hash][n];
      w.id = id;
      w.done = counted;
      w.deadline = WallClock::time_point::max();
      w.timer = s.schedule(weak, keys.hash, n, wait);
      w.ends_at = jsonrpc::TimerService::Clock::now() + wait;
    }
  }
  auto job = [weak, id, keys, n, counted]() {
    const auto sh = weak.lock();
    if (!sh) {  // (never while the store lives: its destructor runs the queued jobs)
      if (n == 0) Shared::call(counted, ended(ElicitStatus::aborted));
      return;  // a waiter was answered by the destructor
    }
    auto& s = *sh;
    const auto l = s.look(keys);
    if (n == 0) {  // no wait: what is there now
      if (!l.reached) return Shared::call(counted, std::nullopt);
      return Shared::call(counted, s.settled(id, l));
    }
    if (!l.reached) {
      // Redis unreachable: the waiter waits on to its timer; the subscriber's reconnection checks
      // again.
      s.start_subscriber();
      return;
    }
    if (auto ending = s.settled(id, l)) {
      if (auto w = s.take(keys.hash, n)) s.deliver_one(*w, std::move(ending));
      return;
    }
    // Open, unanswered: at the page's deadline the waiter learns it expired, however long it
    // meant to wait.
    const auto page = s.sealer.open_page(id, *l.page);
    s.set_deadline(weak, keys.hash, n, WallClock::time_point(std::chrono::milliseconds(page->deadline_ms)));
    s.start_subscriber();
    // Answered between the look above and the subscription: the message may have been missed.
    s.check(keys.hash);
  };
  if (!s.post(std::move(job))) {
    if (n == 0) return Shared::call(counted, ended(ElicitStatus::aborted));
    if (auto w = s.take(keys.hash, n)) s.deliver_one(*w, ended(ElicitStatus::aborted));
  }
}

void RedisPageStore::close(const std::string& id) {
  auto& s = *shared_;
  const FormKeys keys(s.options.redis.key_prefix, id);
  auto taken = s.take_all(keys.hash);
  s.deliver(taken, [](const Shared::Waiter&) { return ended(ElicitStatus::aborted); });
  // The deletion on a worker (close() runs in callbacks that must not block); other processes'
  // waiters hear of it on the channel.
  s.post([weak = std::weak_ptr<Shared>(shared_), keys] {
    if (const auto sh = weak.lock()) {
      sh->redis.run({"EVAL", redis_records::kCloseScript, "3", keys.page, keys.answer, keys.gone,
                     sh->gone_px(std::chrono::milliseconds(0)), sh->channel, keys.hash});
      sh->redis.run({"ZREM", sh->open_key, keys.hash});
    }
  });
}

void RedisPageStore::handle(const PageRequest& request, std::function<void(PageResponse)> done) {
  if (!done) throw std::invalid_argument("RedisPageStore::handle needs a callback");
  auto& s = *shared_;
  if (auto r = s.rules.check_request(request)) return done(std::move(*r));
  auto job = [weak = std::weak_ptr<Shared>(shared_), request, done]() {
    const auto sh = weak.lock();
    if (!sh) return;
    auto& s = *sh;
    const auto& rules = s.rules;
    const FormKeys keys(s.options.redis.key_prefix, request.id);
    const auto reply = s.redis.run({"MGET", keys.page, keys.answer, keys.gone});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 3)
      return done(rules.unavailable(request.language));
    const auto sealed_page = element(*reply, 0);
    if (!sealed_page) {
      const auto why = element(*reply, 2);
      if (!why) return done(rules.not_found(request.language));
      return done(rules.gone(*why == "expired" ? Gone::expired : Gone::closed, request.language));
    }
    const auto page = s.sealer.open_page(request.id, *sealed_page);
    if (!page) return done(rules.not_found(request.language));  // sealed under other keys: not one of ours
    if (auto refusal = rules.check_access(page->principal, request)) return done(std::move(*refusal));
    if (element(*reply, 1)) return done(rules.already_answered(request.language));
    const auto deadline = WallClock::time_point(std::chrono::milliseconds(page->deadline_ms));
    if (s.now() >= deadline) return done(rules.gone(Gone::expired, request.language));

    BrowserFormPage shown{page->message, nlohmann::ordered_json::parse(page->schema), page->principal,
                          std::chrono::milliseconds(page->expires_in_ms)};
    const auto form = PageRules::checked_form(request.id, shown);
    auto step = rules.respond({form, page->message, page->csrf}, request);
    if (step.response) return done(std::move(*step.response));

    const auto status = step.answer->status;
    std::string sealed_answer;
    try {
      sealed_answer = s.sealer.seal_answer(request.id, *step.answer);
    } catch (const std::length_error&) {
      return done(rules.too_large(request.language));
    }
    // Single use across processes: the first valid submission wins, if the page is still the one
    // that was shown (not closed, nor closed and opened again).
    const auto px = std::to_string(page->expires_in_ms);
    const auto won = s.redis.run({"EVAL", redis_records::kAnswerScript, "3", keys.page, keys.answer, keys.gone,
                                  *sealed_page, sealed_answer, px,
                                  s.gone_px(std::chrono::milliseconds(page->expires_in_ms)), s.channel, keys.hash});
    if (!won || won->type != REDIS_REPLY_INTEGER) return done(rules.unavailable(request.language));
    if (won->integer == 1) {
      s.redis.run({"ZREM", s.open_key, keys.hash});  // answered: no longer open (best effort)
      return done(rules.submitted(status, request.language));
    }
    if (won->integer == 2) return done(rules.already_answered(request.language));
    return done(rules.gone(s.now() >= deadline ? Gone::expired : Gone::closed, request.language));
  };
  // The job answers every outcome, an exception included.
  auto guarded = [job = std::move(job), done, rules = &s.rules, language = request.language]() {
    try {
      job();
    } catch (const std::exception&) {
      done(rules->status_page(500, "page.internal_error", language));  // never the exception's text
    }
  };
  if (!s.post(std::move(guarded))) done(s.rules.unavailable(request.language));
}

void RedisPageStore::set_base_url(std::string base_url) {
  if (base_url.empty() || base_url.back() != '/') {
    throw std::invalid_argument("RedisPageStore::set_base_url: the base URL must end in '/'");
  }
  std::lock_guard<std::mutex> lock(shared_->mutex);
  shared_->base_url = std::move(base_url);
}

const std::string& RedisPageStore::content_security_policy() const noexcept {
  return shared_->rules.content_security_policy();
}

const HtmlTemplates& RedisPageStore::templates() const noexcept { return shared_->rules.templates(); }

}  // namespace elicit::forms
