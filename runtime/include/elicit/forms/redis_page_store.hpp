// Browser form pages in Redis, shared by every server process that points at the same Redis with
// the same keys: a page opened by process A (RequestContext::elicit_in_browser) can be opened and
// submitted through process B (behind a load balancer), and the answer completes the call waiting
// in A (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode Elicitation Requests",
// "Safe URL Handling", "Phishing"). Library elicit::forms_redis (the browser forms wing's Redis piece, on
// elicit::forms and elicit::redis: hiredis, libsodium).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elicit/forms/page_store.hpp"
#include "elicit/redis/completion_store.hpp"

namespace elicit::forms {

struct RedisPageStoreOptions {
  /// Where Redis is, and the prefix of every key and channel (`key_prefix`, here
  /// "elicitgen:form:" by default). `threads`: the threads that talk to Redis for handle() and
  /// await() (and so at most that many connections, plus one subscriber connection).
  RedisOptions redis = default_redis();
  /// Raw keys of exactly 32 bytes each, the same in every process: the first seals, every one
  /// opens (rotation: put the new key first, keep the old one until its pages have expired). Empty:
  /// one random key of the store's own, so only this store can read its pages (one process).
  std::vector<std::string> keys;
  /// The URL pages are under, ending in '/' (set_base_url() may set it later).
  std::string base_url{};
  /// The most await()s this store holds at once (queued or waiting); past it await() throws
  /// std::length_error.
  std::size_t max_waiters = 10'000;
  /// The largest page record in bytes (message, requestedSchema, principal, token), and the
  /// largest answer (the submitted content as JSON): open() throws std::length_error past it, a
  /// larger submission answers 413.
  std::size_t max_page_bytes = 256 * 1024;
  /// How long, in milliseconds, an id that was closed, answered or that expired keeps answering
  /// 410 (rather than 404, as ids never opened), counted from its page's end (a `gone:` marker
  /// per id, holding no data). 0: no marker, so close() leaves nothing of the page in Redis and an
  /// ended page's id answers 404 (and await() on it timed_out, not aborted).
  std::chrono::milliseconds gone_for = std::chrono::hours(1);
  /// The pages' Mustache templates (render_form_page); empty members keep the built-in ones.
  HtmlTemplates templates{};
  /// The wall clock deadlines are kept in (processes share them). Null: system_clock::now.
  std::function<std::chrono::system_clock::time_point()> clock;

  static RedisOptions default_redis() {
    RedisOptions o;
    o.key_prefix = "elicitgen:form:";
    return o;
  }
};

/// PageStore in Redis. Pages answer exactly as InMemoryPageStore's do (PageRules:
/// the same statuses, pages and validation). Thread-safe.
///
/// What is kept, under `key_prefix` and the hex BLAKE2b-128 of the page's id (Redis never holds the
/// id, which is the page's URL), `<h>` written `{<h>}` (a Redis Cluster hash tag: one page's keys in
/// one slot):
///
///   `page:<h>`  the page: message, requestedSchema, principal, CSRF token, deadline; PX expires_in
///               (from the answer on, expires_in again, as long as the answer)
///   `answer:<h>` the answer (status and content); PX expires_in; deleted by close()
///   `gone:<h>`  "expired" or "closed", no data: why the id answers 410 once its page is gone; PX
///               the page's time plus gone_for (none when gone_for is 0)
///   `{pages}:open` sorted set of the `<h>` of pages open unanswered, by deadline (ms): for
///               pages_open(). Added by open(), removed by the winning answer and by close(), pruned
///               of pages past their deadline by open(); written after the page's keys (another hash
///               slot, so not in their scripts): a process that dies between the two leaves its page
///               counted until its deadline at most
///
/// Page and answer are sealed with XChaCha20-Poly1305-IETF (libsodium) under `keys`, as
/// RequestStateSealer seals (elicit/request_state.hpp), the associated data binding the record's
/// kind and page id: a record moved to another id, or a page record read as an answer, does not
/// open; a store with other keys sees the pages as unknown (404). The submitted value is never in
/// Redis in plain text, and never logged.
///
/// Single use across processes: the first valid submission wins, atomically (a Lua script sets the
/// answer only if there is none and the page is still the one that was shown); a second one, from
/// any process, answers 410 "already answered". The script publishes the page's `<h>` on channel
/// `<key_prefix>answers`; each store holds one subscriber connection that wakes its own waiters by
/// id, and after each (re)connect checks every one of them again. Waits run on
/// jsonrpc::TimerService::shared(); nothing polls.
///
/// Threads: open() talks to Redis on the calling thread (it must return the URL or throw): it
/// blocks up to about twice connect_timeout + command_timeout. handle(), await() and close() never
/// block on Redis: they run on the store's `threads` threads (event threads: a blocking runtime
/// call in a callback throws std::logic_error), which call `done` there. Redis unreachable: open()
/// throws std::runtime_error; handle() answers a 503 page; await() waits to the end of its wait
/// (nullopt) or to the page's deadline (timed_out), and a page that vanished meanwhile (Redis
/// restarted without its data, or close() in another process) ends its waiters `aborted`;
/// close() answers this store's waiters `aborted` at once and deletes in Redis when it can (the
/// keys expire by themselves otherwise).
class RedisPageStore final : public PageStore {
 public:
  /// Connects lazily: constructing never fails for an unreachable Redis. Throws
  /// std::invalid_argument for a port outside 1..65535, a timeout that is not positive, a negative
  /// gone_for, a key that is not 32 bytes, max_waiters or max_page_bytes 0, or a base_url not
  /// ending in '/'; std::system_error when a thread cannot be started.
  explicit RedisPageStore(RedisPageStoreOptions options = {});
  /// Answers every waiter `aborted`, runs the jobs already queued, closes the connections.
  ~RedisPageStore() override;
  RedisPageStore(const RedisPageStore&) = delete;
  RedisPageStore& operator=(const RedisPageStore&) = delete;

  /// BrowserForms::open. Also throws std::length_error when the page's record is larger than
  /// max_page_bytes, std::runtime_error when Redis cannot be reached or answers an error, and when
  /// there is no base URL yet.
  std::string open(const std::string& id, const BrowserFormPage& page) override;
  /// BrowserForms::await; `done` runs on a thread of the store's (or the timer thread). The
  /// waiter is registered before await() returns (a close() from then on answers it `aborted`);
  /// whether an answer is there already is read on a thread of the store's. An id whose page was
  /// close()d, in any process, answers `aborted` (InMemoryPageStore answers timed_out then, as
  /// for an unknown id: it keeps no such marker for await()); unknown, expired or sealed under
  /// other keys, timed_out. Also throws std::length_error when max_waiters await()s are held
  /// already (a wait of 0 counts until it is answered).
  void await(const std::string& id, std::chrono::milliseconds wait,
             std::function<void(std::optional<BrowserFormAnswer>)> done) override;
  /// BrowserForms::close: deletes the page and its answer in Redis (from a thread of the store's)
  /// and answers `aborted` to the waiters of this store at once, and of other stores when they
  /// hear of it.
  void close(const std::string& id) override;

  /// PageStore::handle, as InMemoryPageStore::handle answers (and 503 when Redis cannot
  /// be reached, 413 for an answer larger than max_page_bytes); `done` runs on a thread of the
  /// store's, or on the calling thread for a request refused before any lookup (405, a bad id).
  void handle(const PageRequest& request, std::function<void(PageResponse)> done) override;
  /// Pages of every process sharing the Redis open now, unanswered and before their deadline: a
  /// ZCOUNT of `{pages}:open` (O(log pages), never a scan). Blocks on Redis on the calling thread (up
  /// to about twice connect_timeout + command_timeout); throws std::runtime_error when Redis cannot
  /// be reached.
  std::optional<std::size_t> pages_open() override;
  void set_base_url(std::string base_url) override;
  const std::string& content_security_policy() const noexcept override;
  const HtmlTemplates& templates() const noexcept override;

  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace elicit::forms
