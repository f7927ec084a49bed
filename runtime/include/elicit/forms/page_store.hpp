// The browser forms wing's page stores: where the pages of URL-mode browser forms are kept and how
// each request for one is answered (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode
// Elicitation Requests", "Safe URL Handling", "Phishing"). A PageStore is the MCP layer's
// BrowserForms (elicit/browser_forms.hpp: open, await, close) plus what serving the pages over HTTP
// needs (handle, the base URL, the pages' templates and Content-Security-Policy). InMemoryPageStore
// keeps the pages in this process; RedisPageStore (elicit/forms/redis_page_store.hpp) in Redis,
// shared by several processes. Both answer by the same rules (PageRules, elicit/forms/page_rules.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "elicit/browser_forms.hpp"
#include "elicit/forms/html_form.hpp"

namespace elicit::forms {

/// One HTTP request for a page, as the serving side hands it over (its routing, Host and TLS
/// checks done).
struct PageRequest {
  std::string method;  ///< "GET" or "POST" (anything else answers 405)
  std::string id;      ///< the path segment after the prefix
  /// POST: the body, application/x-www-form-urlencoded UTF-8 (the caller bounds its size).
  std::string body;
  /// Who the browser is (the page's own sign-in), "" when not signed in.
  std::string principal;
  /// The page is served to a loopback peer (127.0.0.0/8, ::1). Pages whose
  /// BrowserFormPage::principal is "" are served only then.
  bool loopback_peer = false;
  /// The language the answer is in, one of messages::languages() (the serving side's choice: the
  /// browser's Accept-Language, or PageRoutes::language); "" is English.
  std::string language;
};

/// The page's answer to a PageRequest: always text/html; charset=utf-8. The serving side
/// adds the headers: Content-Security-Policy form_page_csp(templates), Cache-Control: no-store,
/// Referrer-Policy: no-referrer, X-Content-Type-Options: nosniff, X-Frame-Options: DENY,
/// Content-Language (PageRequest::language) and Vary: Accept-Language.
struct PageResponse {
  int status = 200;
  std::string html;
  /// 405: the Allow header's value.
  std::string allow;
};

/// What serving the pages over HTTP needs of a store (elicit/forms/page_routes.hpp:
/// forms::PageRoutes::store, forms::PageServerOptions::store): any store whose pages a browser
/// opens implements it (InMemoryPageStore in this process, RedisPageStore shared by several
/// processes, elicit/forms/redis_page_store.hpp). The pages answer by the same rules whatever keeps
/// them (PageRules, elicit/forms/page_rules.hpp).
class PageStore : public BrowserForms {
 public:
  /// Serves one request for a page (see InMemoryPageStore::handle for the statuses and pages):
  /// calls `done` exactly once with the page's answer, on the calling thread (a store that has the
  /// page at hand) or a thread of the store's (one that had to ask elsewhere, e.g. Redis); `done`
  /// must not block. Never blocks the calling thread, which may be an HTTP I/O thread: a store
  /// that must wait for a remote answers later. A store that cannot be reached answers a 503 page.
  /// Throws std::invalid_argument for an empty `done`; otherwise `done` gets every outcome.
  virtual void handle(const PageRequest& request, std::function<void(PageResponse)> done) = 0;

  /// Sets the URL pages are under (ending in '/'; std::invalid_argument otherwise): open() answers
  /// it followed by the page's id. Thread-safe.
  virtual void set_base_url(std::string base_url) = 0;
  /// The Content-Security-Policy header of every page the store answers (form_page_csp of its
  /// templates): the serving side sends it with the store's pages and with its own short refusals.
  virtual const std::string& content_security_policy() const noexcept = 0;
  /// The pages' Mustache templates: what the serving side renders its own short pages with
  /// (render_form_status_page), under the same policy.
  virtual const HtmlTemplates& templates() const noexcept = 0;
};

struct InMemoryPageStoreOptions {
  /// The URL pages are under, ending in '/': open() answers base_url + id. May be set later with
  /// set_base_url() (a server knows its port once it listens).
  std::string base_url{};
  /// The most pages open at once, answered or not; at the bound open() throws std::length_error.
  std::size_t max_pages = 10'000;
  /// The most bytes of pages (message, schema, answer) held at once; open() throws
  /// std::length_error past it.
  std::size_t max_bytes = 64 * 1024 * 1024;
  /// The page's Mustache templates (render_form_page); empty members keep the built-in ones.
  HtmlTemplates templates{};
  /// The clock for expiry. Null: std::chrono::steady_clock::now.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

/// BrowserForms in this process's memory, and the pages' HTTP logic (handle()). Expired pages and
/// answers are dropped when met and by a sweep on open(); await()'s waits run on
/// jsonrpc::TimerService::shared(). An answer is kept until close(), or for the page's expires_in
/// after it came (a call that never reads it must not hold it for ever). The ids of the newest
/// 1,024 pages that were closed or dropped answer 410 ("no longer available", or "expired" for a
/// page that expired unanswered); older ones 404, like ids never opened. Destroying the store
/// answers its waiters `aborted`.
class InMemoryPageStore final : public PageStore {
 public:
  /// Throws std::invalid_argument when max_pages or max_bytes is 0, or base_url is set and does
  /// not end in '/'.
  explicit InMemoryPageStore(InMemoryPageStoreOptions options = {});
  ~InMemoryPageStore() override;
  InMemoryPageStore(const InMemoryPageStore&) = delete;
  InMemoryPageStore& operator=(const InMemoryPageStore&) = delete;

  std::string open(const std::string& id, const BrowserFormPage& page) override;
  void await(const std::string& id, std::chrono::milliseconds wait,
             std::function<void(std::optional<BrowserFormAnswer>)> done) override;
  void close(const std::string& id) override;

  /// Sets the base URL (ending in '/'; std::invalid_argument otherwise). Thread-safe.
  void set_base_url(std::string base_url) override;
  /// The Content-Security-Policy of every page (form_page_csp of the options' templates).
  const std::string& content_security_policy() const noexcept override;
  /// The page's templates (InMemoryPageStoreOptions::templates): what a server serving the pages
  /// renders its own short pages with (render_form_status_page), under the same policy.
  const HtmlTemplates& templates() const noexcept override;

  /// Serves one request for a page: GET shows the form (the message, each field with its default,
  /// the page's CSRF token: 32 random bytes made by open(), the same for every GET of the page, so
  /// two tabs of it both work); POST checks the CSRF token (constant time), decodes and validates
  /// the submission (decode_form_submission, validate_submission): Decline and Cancel end the page
  /// (200); Accept with errors shows the form again with each error by its field and the values
  /// kept, secret ones excepted (422); valid content ends the page with `accepted` (200). In order:
  /// a method other than GET and POST 405 (`allow` "GET, POST"); an id that is not 16 to 128
  /// characters of [A-Za-z0-9_-], or unknown, 404; closed, 410; a principal other than the page's
  /// 403, and a page without a principal to a non-loopback peer 403 (a short page that shows
  /// nothing of the form, not even whether it was answered); expired, 410; an ended page is
  /// single use: 410 saying it was answered. Then for POST: a body that is not form-urlencoded 400
  /// (nothing in it can be read, the token neither); a missing or wrong CSRF token 403; an action
  /// other than accept, decline and cancel 400. The answers other than the form are short pages
  /// styled by the form's CSS (allowed by the same Content-Security-Policy). The submitted value is
  /// never logged. Thread-safe.
  PageResponse handle(const PageRequest& request);
  /// handle(request), given to `done` at once on the calling thread: the pages are in memory.
  void handle(const PageRequest& request, std::function<void(PageResponse)> done) override;

  /// Pages open now (answered or not, not expired).
  std::size_t size() const;
  /// Pages open now and not answered (nor expired, nor closed), counted under the store's lock:
  /// O(pages). Never blocks on I/O.
  std::optional<std::size_t> pages_open() override;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace elicit::forms
