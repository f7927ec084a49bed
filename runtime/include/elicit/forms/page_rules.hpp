// The rules a browser form page answers by (MCP 2025-11-25 and 2026-07-28, Client, Elicitation,
// "URL Mode Elicitation Requests", "Safe URL Handling", "Phishing"), apart from where the page is
// kept: every store (InMemoryPageStore, RedisPageStore) looks its page up, then asks these,
// so that a page shows, refuses and validates the same whatever keeps it. The store keeps what
// must be atomic (single use: the first valid submission wins) and expiry.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "elicit/content/form.hpp"
#include "elicit/forms/html_form.hpp"
#include "elicit/forms/page_store.hpp"

namespace elicit::forms {

/// The pages' rules and short pages, under one set of templates. Immutable: thread-safe.
class PageRules {
 public:
  /// Throws what form_page_csp() throws for a bad template.
  explicit PageRules(HtmlTemplates templates = {});

  const HtmlTemplates& templates() const noexcept { return templates_; }
  /// form_page_csp(templates()).
  const std::string& content_security_policy() const noexcept { return csp_; }

  /// 16 to 128 characters of [A-Za-z0-9_-] (BrowserForms::open's ids).
  static bool valid_id(std::string_view id) noexcept;
  /// What open() checks before keeping a page: the id (valid_id), expires_in (1 ms to 30 days) and
  /// the schema (parse_requested_schema). The form parsed; std::invalid_argument naming what is
  /// wrong otherwise.
  static Form checked_form(const std::string& id, const BrowserFormPage& page);
  /// A fresh CSRF token for a page: 32 bytes from the CSPRNG, base64url (43 characters).
  static std::string csrf_token();

  /// Before looking the page up: 405 (`allow` "GET, POST") for a method other than GET and POST,
  /// 404 for an id that is not valid_id(); nullopt to go on.
  std::optional<PageResponse> check_request(const PageRequest& request) const;
  /// The page is there (answered or not, expired or not): 403 when this browser may not see it,
  /// checked before anything else about the page (Phishing: a page shown to anyone else gives
  /// away nothing, not even whether it was answered). `page_principal` "" admits loopback peers
  /// only; otherwise exactly that principal.
  std::optional<PageResponse> check_access(std::string_view page_principal, const PageRequest& request) const;

  /// The page, open and unanswered, as the store holds it.
  struct Page {
    const Form& form;
    std::string_view message;
    std::string_view csrf;  ///< the page's token (csrf_token(), made by open())
  };
  /// What a request to an open, unanswered page comes to: a `response` to give as it is (GET's
  /// form; POST's 400, 403 or 422), or an `answer` the store commits, unless the page ended
  /// meanwhile (then gone() or already_answered()), and answers with submitted().
  struct Step {
    std::optional<PageResponse> response;
    std::optional<BrowserFormAnswer> answer;
  };
  /// GET: the form with its defaults and token. POST: a body that is not form-urlencoded 400; a
  /// missing or wrong CSRF token (compared in constant time) 403; decline and cancel an answer;
  /// accept with content that fails validate_submission the form again with each error by its
  /// field and the values kept, secret ones excepted (422); valid content an `accepted` answer; any
  /// other action 400. Nothing is logged: the body may hold a secret.
  Step respond(const Page& page, const PageRequest& request) const;

  // Every page below is in `language` (PageRequest::language: one of messages::languages(); ""
  // is English), its texts the catalog's page.* messages.

  /// 200, the page that thanks (accepted), or says the user declined or cancelled.
  PageResponse submitted(ElicitStatus status, std::string_view language) const;
  /// 404: no form at this address.
  PageResponse not_found(std::string_view language) const;
  /// Why an id without a page answers 410.
  enum class Gone { closed, expired };
  /// 410: "expired" (unanswered past its time) or "no longer available" (answered or withdrawn).
  PageResponse gone(Gone why, std::string_view language) const;
  /// 410: the page was answered (single use).
  PageResponse already_answered(std::string_view language) const;
  /// 503: the store cannot be reached (Redis down); the page may work again shortly.
  PageResponse unavailable(std::string_view language) const;
  /// 413: the submission is larger than the store keeps.
  PageResponse too_large(std::string_view language) const;

  /// A short page of `status` styled as the form: the catalog's message pair `id` (`<id>.title`,
  /// `<id>.text`, e.g. "page.internal_error") in `language` (render_form_status_page_of).
  PageResponse status_page(int status, std::string_view id, std::string_view language) const;

 private:
  HtmlTemplates templates_;
  std::string csp_;
};

}  // namespace elicit::forms
