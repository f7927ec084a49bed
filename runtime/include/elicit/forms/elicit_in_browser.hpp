// Typed forms filled in the user's browser, asked from a tool handler: URL-mode elicitation of a
// page the server renders from the form's requestedSchema (MCP 2025-11-25 and 2026-07-28, Client,
// Elicitation: servers MUST use URL mode for passwords, API keys and payment details; the value
// never passes through the MCP client). The page is opened in the call's BrowserForms
// (Server::browser_forms(): a PageStore served by forms::routes() or a loopback page server) and
// asked through RequestContext::elicit_server_completed_url, which carries the protocol in both
// revisions.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "elicit/elicitation.hpp"
#include "elicit/request_context.hpp"

namespace elicit::forms {

/// How elicit_in_browser() asks.
struct BrowserFormOptions {
  /// How long the page takes answers, in ms from when it is opened (BrowserFormPage::expires_in).
  std::chrono::milliseconds expires_in = std::chrono::minutes(10);
  /// 2026-07-28: how long the client's retry after the user consented waits for the page's answer
  /// before asking again (ms; ServerCompletedUrl::retry_wait). A blocking handler holds its worker
  /// thread that long; an asynchronous one holds no thread. Keep it below the client's request timeout.
  std::chrono::milliseconds retry_wait = std::chrono::seconds(20);
  /// 2025-11-25: how long the client may take to answer the URL-mode elicitation/create (the
  /// user's consent), in ms; none: the session's default_elicitation_timeout. The page's own
  /// time is expires_in.
  std::optional<std::chrono::milliseconds> timeout;
};

/// The same for a requestedSchema given as JSON (the content is validated against it by the page,
/// not decoded).
RawOutcome elicit_in_browser(RequestContext& ctx, std::string_view message,
                             const nlohmann::ordered_json& requested_schema, BrowserFormOptions options = {});

/// Typed form T filled in the user's browser, for sensitive input. Opens a single-use page of T's
/// requestedSchema in ctx.browser_forms() (its URL carries an unguessable id and nothing else; only
/// ctx.principal() may submit when one is known) and sends a URL-mode elicitation with `message`.
/// The page validates what the user submits with the form's rules (requestedSchema; T's generated
/// rules are the same) and shows each error by its field; the value is then decoded into T as
/// elicit<T>() does. A URL-mode type (a schema file with `"mode": "url"`) is asked only so.
///
/// 2025-11-25: the elicitation has an elicitationId; the client's `accept` is the user's consent,
/// then this waits for the page; when the page is answered, notifications/elicitation/complete
/// goes to the client. 2026-07-28: the first run throws InputRequired; the client's retry with
/// `accept` waits up to options.retry_wait for the page, then asks again (InputRequired, the same
/// URL, the message saying the page is not submitted yet); the answer is read again by later runs
/// of the same request, and the page closed when the request ends.
///
/// Outcomes: accepted with the value; declined / cancelled by the client (the user refused to
/// open it) or by the page's buttons; timed_out when the page expires (options.expires_in) or the
/// consent does not come in time; aborted when the call is cancelled (the page is withdrawn);
/// unsupported (2025-11-25) when the client did not declare `elicitation.url`, nothing opened.
/// Throws std::logic_error without Server::browser_forms() or on an event thread (use
/// elicit_in_browser_async), MissingClientCapability (2026-07-28) without `elicitation.url`, and
/// what BrowserForms::open throws (std::length_error when full).
template <class T>
Outcome<T> elicit_in_browser(RequestContext& ctx, std::string_view message, BrowserFormOptions options = {}) {
  return typed_outcome<T>(elicit_in_browser(ctx, message, ::elicit::requested_schema<T>(), options));
}

/// elicit_in_browser<T> with T's own message (`default_message()`).
template <class T>
Outcome<T> elicit_in_browser(RequestContext& ctx, BrowserFormOptions options = {}) {
  return elicit_in_browser<T>(ctx, ::elicit::default_message<T>(), options);
}

/// Asynchronous elicit_in_browser of a requestedSchema given as JSON.
void elicit_in_browser_async(RequestContext& ctx, std::string_view message,
                             const nlohmann::ordered_json& requested_schema, BrowserFormOptions options,
                             std::function<void(RawOutcome)> on_done);

/// Asynchronous elicit_in_browser<T> for async_handler tools: `on_done` runs once, on a thread of
/// the session or of the BrowserForms (must not block), as for elicit_async; no thread waits for
/// the page. 2026-07-28: `on_done` runs when the answer is there; else the call is answered with
/// an InputRequiredResult and `on_done` never runs. Throws as elicit_in_browser, but on an event
/// thread.
template <class T>
void elicit_in_browser_async(RequestContext& ctx, std::string_view message, std::function<void(Outcome<T>)> on_done,
                             BrowserFormOptions options = {}) {
  elicit_in_browser_async(ctx, message, ::elicit::requested_schema<T>(), options,
                          [on_done = std::move(on_done)](RawOutcome r) { on_done(typed_outcome<T>(std::move(r))); });
}

}  // namespace elicit::forms
