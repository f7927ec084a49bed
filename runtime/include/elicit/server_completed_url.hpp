// URL-mode elicitation that the server completes itself: the URL leads to something the server
// serves (a page it renders, a sign-in it receives), so the server, not the client, learns the
// answer (MCP 2025-11-25 and 2026-07-28, Client, Elicitation, "URL Mode Elicitation Requests",
// "URL Mode Flow"). RequestContext::elicit_server_completed_url() runs the protocol side in both
// revisions (the consent, the stable URL across 2026-07-28 runs, asking again while the answer is
// not there, withdrawing on cancellation, the completion notification); a wing supplies what the
// URL leads to. The browser forms wing is one (elicit/forms/elicit_in_browser.hpp).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "elicit/elicitation.hpp"

namespace elicit {

/// What a URL-mode elicitation completed by the server leads to, and how long it may take.
/// The functions are called from the handler's thread (open, close) and from whatever thread
/// `await` calls back on; they must be safe to call from any thread and must not block long.
struct ServerCompletedUrl {
  /// Names the interaction in a 2026-07-28 request: the id passed to `open` is derived from the
  /// requestState's seed, this name and the question's key, so every run of the request opens (finds)
  /// the same thing at the same URL. 2025-11-25: the id is fresh (browser_form_id()).
  std::string name = "url";
  /// Opens what the user is sent to under `id` (43 characters of base64url in 2025-11-25, 32 hex
  /// digits in 2026-07-28) and returns its absolute URL. Called again with the same id by later runs
  /// of a 2026-07-28 request: it must then find what it opened. What it throws, the call throws.
  std::function<std::string(const std::string& id)> open;
  /// Calls `done` exactly once: with the outcome when the user finished (accepted with content,
  /// declined, cancelled), with `aborted` when `close` ran first, or with nullopt when `wait` (ms)
  /// passed first.
  std::function<void(const std::string& id, std::chrono::milliseconds wait,
                     std::function<void(std::optional<RawOutcome>)> done)>
      await;
  /// Withdraws what `open` opened (idempotent): when the user refused, the call was cancelled, the
  /// 2025-11-25 answer came, or a 2026-07-28 request ended without asking again.
  std::function<void(const std::string& id)> close;
  /// How long the whole interaction may take, in ms from the consent (2025-11-25: no answer by then
  /// is `timed_out`).
  std::chrono::milliseconds expires_in = std::chrono::minutes(10);
  /// 2026-07-28: how long the client's retry after the user consented waits for the answer before
  /// asking again (ms; MCP 2026-07-28, "URL Mode Flow": the server "may need to block until the
  /// request is fulfilled"). A blocking handler holds its worker thread that long. Keep it below the
  /// client's request timeout.
  std::chrono::milliseconds retry_wait = std::chrono::seconds(20);
  /// 2025-11-25: how long the client may take to answer the URL-mode elicitation/create (the user's
  /// consent), in ms; none: the session's default_elicitation_timeout.
  std::optional<std::chrono::milliseconds> timeout;
};

}  // namespace elicit
