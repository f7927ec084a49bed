// Forms the user fills in their browser: URL-mode elicitation whose page the server renders from the
// form's requestedSchema (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode Elicitation
// Requests", "Safe URL Handling", "Phishing"). Sensitive input (an API key, a password) must not pass
// through the MCP client: the server sends a URL, the user opens it, submits the form to the server,
// and the tool call that asked (RequestContext::elicit_in_browser) gets the validated value.
//
// BrowserForms is the MCP layer's seam for them: what a call needs of wherever the pages are kept
// (open a page, await its answer, close it). The browser forms wing implements it and serves the
// pages: elicit::forms::InMemoryPageStore (elicit/forms/page_store.hpp) in this process,
// elicit::forms::RedisPageStore (elicit/forms/redis_page_store.hpp) across processes, served as
// routes of a StreamableHttpServer or by a loopback page server (elicit/forms/page_routes.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/elicitation.hpp"

namespace elicit {

/// What a page asks. The URL carries only the page's id: no user data (MCP, "Safe URL Handling").
struct BrowserFormPage {
  /// The server's message, shown above the fields as plain text.
  std::string message;
  /// The form: a requestedSchema parse_requested_schema() accepts (requested_schema<T>(), or a
  /// prefilled_schema()). Its `default`s are the values the page first shows. Ordered: the page
  /// shows the fields in the schema's property order (an nlohmann::json would sort them by name).
  nlohmann::ordered_json requested_schema;
  /// Who may submit: the principal of the call that asked (RequestContext::principal(): the access
  /// token's issuer and subject). "" = no one is checked (development: the page is served to
  /// loopback peers only).
  std::string principal;
  /// How long the page takes answers, in milliseconds from open(); from 1 ms to 30 days (open()
  /// throws std::invalid_argument otherwise). MCP leaves it to the server; ten minutes is long
  /// enough to find a key in a password manager.
  std::chrono::milliseconds expires_in = std::chrono::minutes(10);
};

/// How a page ended.
struct BrowserFormAnswer {
  /// accepted (the Accept button, with content that passed validation), declined or cancelled (the
  /// page's Decline and Cancel buttons), timed_out (the page expired unanswered, or its id is
  /// unknown), aborted (close() withdrew it while someone waited).
  ElicitStatus status = ElicitStatus::timed_out;
  /// accepted: the submitted content object, valid against the page's requestedSchema
  /// (forms::validate_submission()); otherwise null.
  nlohmann::json content;
};

/// Where pages are kept and answers wait. Implementations are thread-safe.
class BrowserForms {
 public:
  virtual ~BrowserForms() = default;

  /// Opens `page` under `id` and returns its absolute URL (the base URL, then the id). `id`: 16 to
  /// 128 characters of [A-Za-z0-9_-], unguessable (browser_form_id(), or
  /// RequestContext::interaction_id(), 128 bits). When a page is already open under `id`, it is
  /// kept as it is (a 2026-07-28 retry asks the same question again) and its URL returned. An id
  /// whose page has ended (expired, or closed) is not opened again while the store remembers it
  /// (the stores' tombstones): its URL keeps answering 410 and await() answers at once, so a
  /// 2026-07-28 retry after the page expired ends `timed_out` rather than showing a new page under
  /// the old URL. Throws
  /// std::invalid_argument for a bad id or a schema the content layer rejects, std::length_error
  /// when the store is full (its bounds), std::runtime_error when it cannot be reached or has no
  /// base URL yet.
  virtual std::string open(const std::string& id, const BrowserFormPage& page) = 0;

  /// Calls `done` exactly once: with the page's answer once it has one (at once when it already
  /// has: the answer stays until close(), so a 2026-07-28 handler that runs again reads it again),
  /// or with nullopt when `wait` (milliseconds, >= 0; 0 looks without waiting) passes first (the
  /// page stays open). A page that expired, or an unknown id, answers timed_out (a page that
  /// expires while waited for does so at its deadline, however long the wait); a page close()d
  /// while waiting, aborted. `done` runs on the calling thread or a thread of the store's (the one
  /// that answered or closed the page, or a timer thread); it must not block, and may call the
  /// store. Throws std::invalid_argument for an empty `done`.
  virtual void await(const std::string& id, std::chrono::milliseconds wait,
                     std::function<void(std::optional<BrowserFormAnswer>)> done) = 0;

  /// Forgets the page and its answer (the call has read it, or ended without it); its URL answers
  /// "no longer available" from now on, and a waiting await() gets `aborted`. No-op for an unknown
  /// id.
  virtual void close(const std::string& id) = 0;

  /// How many pages are open now: opened, not answered, not closed, not expired. A store shared by
  /// several processes counts every process's pages. Nullopt (the default) for a store that cannot
  /// count. May block (a store in Redis: one round trip): call it from a thread that may wait, never
  /// from an I/O thread. Throws std::runtime_error when the store cannot be reached. Thread-safe.
  virtual std::optional<std::size_t> pages_open() { return std::nullopt; }
};

/// A fresh page id: 32 bytes from the CSPRNG (libsodium), base64url without padding (43 characters).
std::string browser_form_id();

}  // namespace elicit
