// PageRules: how a browser form page answers, whatever store keeps it (MCP 2025-11-25 and
// 2026-07-28, Client, Elicitation, "URL Mode Elicitation Requests", "Phishing").
#include "elicit/forms/page_rules.hpp"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "elicit/content/form_defaults.hpp"

namespace elicit::forms {

namespace {

void init_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
}

std::string random_base64url(std::size_t bytes) {
  init_sodium();
  std::vector<unsigned char> raw(bytes);
  randombytes_buf(raw.data(), raw.size());
  const auto variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  std::string out(sodium_base64_ENCODED_LEN(bytes, variant), '\0');  // includes the NUL
  sodium_bin2base64(out.data(), out.size(), raw.data(), raw.size(), variant);
  out.resize(out.size() - 1);
  sodium_memzero(raw.data(), raw.size());
  return out;
}

// Constant time in the token's bytes: a wrong guess tells nothing about how much of it was right.
bool same_token(std::string_view expected, const std::string& sent) {
  if (expected.empty() || sent.size() != expected.size()) return false;  // the length is no secret
  return sodium_memcmp(expected.data(), sent.data(), expected.size()) == 0;
}

}  // namespace

PageRules::PageRules(HtmlTemplates templates) : templates_(std::move(templates)), csp_(form_page_csp(templates_)) {
  init_sodium();
}

bool PageRules::valid_id(std::string_view id) noexcept {
  if (id.size() < 16 || id.size() > 128) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

Form PageRules::checked_form(const std::string& id, const BrowserFormPage& page) {
  if (!valid_id(id)) throw std::invalid_argument("a browser form id is 16 to 128 characters of [A-Za-z0-9_-]");
  // Bounded above too: deadlines and the waits' timers are time points, which must not overflow.
  if (page.expires_in < std::chrono::milliseconds(1) || page.expires_in > std::chrono::hours(24 * 30)) {
    throw std::invalid_argument("BrowserFormPage::expires_in must be from 1 ms to 30 days");
  }
  auto parsed = parse_requested_schema(page.requested_schema);
  if (!parsed.ok()) {
    for (const auto& d : parsed.diagnostics) {
      if (d.severity == Diagnostic::Severity::error) {
        throw std::invalid_argument("BrowserFormPage::requested_schema: " + d.pointer + ": " + d.message);
      }
    }
  }
  return std::move(parsed.form);
}

std::string PageRules::csrf_token() { return random_base64url(32); }

PageResponse PageRules::status_page(int status, std::string_view id, std::string_view language) const {
  PageResponse r;
  r.status = status;
  r.html = render_form_status_page_of(id, language, templates_);
  return r;
}

PageResponse PageRules::not_found(std::string_view language) const {
  return status_page(404, "page.not_found", language);
}

PageResponse PageRules::gone(Gone why, std::string_view language) const {
  return status_page(410, why == Gone::expired ? "page.expired" : "page.closed", language);
}

PageResponse PageRules::already_answered(std::string_view language) const {
  return status_page(410, "page.already_answered", language);
}

PageResponse PageRules::unavailable(std::string_view language) const {
  return status_page(503, "page.unavailable", language);
}

PageResponse PageRules::too_large(std::string_view language) const {
  return status_page(413, "page.too_large", language);
}

PageResponse PageRules::submitted(ElicitStatus status, std::string_view language) const {
  switch (status) {
    case ElicitStatus::declined:
      return status_page(200, "page.declined", language);
    case ElicitStatus::cancelled:
      return status_page(200, "page.cancelled", language);
    default:
      return status_page(200, "page.thanks", language);
  }
}

std::optional<PageResponse> PageRules::check_request(const PageRequest& request) const {
  if (request.method != "GET" && request.method != "POST") {
    auto r = status_page(405, "page.method_not_allowed", request.language);
    r.allow = "GET, POST";
    return r;
  }
  if (!valid_id(request.id)) return not_found(request.language);
  return std::nullopt;
}

std::optional<PageResponse> PageRules::check_access(std::string_view page_principal, const PageRequest& request) const {
  if (page_principal.empty()) {
    if (request.loopback_peer) return std::nullopt;
    return status_page(403, "page.loopback_only", request.language);
  }
  if (request.principal == page_principal) return std::nullopt;
  return status_page(403, "page.other_user", request.language);
}

PageRules::Step PageRules::respond(const Page& page, const PageRequest& request) const {
  // Nothing here is logged: the body may hold a secret.
  Step step;
  FormPage shown(page.form);
  shown.message = std::string(page.message);
  shown.csrf_token = std::string(page.csrf);
  shown.action = request.id;  // relative: the page posts to its own URL
  shown.language = request.language;
  if (request.method == "GET") {
    shown.values = form_defaults(page.form);
    PageResponse r;
    r.html = render_form_page(shown, templates_);
    step.response = std::move(r);
    return step;
  }

  const auto submission = decode_form_submission(page.form, request.body);
  if (submission.errors.errors.size() == 1 && submission.errors.errors.front().pointer.empty() &&
      submission.csrf.empty() && submission.action.empty()) {
    step.response = status_page(400, "page.not_a_form", request.language);
    return step;
  }
  if (!same_token(page.csrf, submission.csrf)) {
    step.response = status_page(403, "page.wrong_token", request.language);
    return step;
  }
  BrowserFormAnswer answer;
  if (submission.action == "decline") {
    answer.status = ElicitStatus::declined;
  } else if (submission.action == "cancel") {
    answer.status = ElicitStatus::cancelled;
  } else if (submission.action == "accept") {
    auto errors = validate_submission(page.form, submission);
    if (!errors.ok()) {
      shown.values = submission.content;  // render_form_page leaves secret fields empty
      shown.errors = std::move(errors);
      PageResponse r;
      r.status = 422;
      r.html = render_form_page(shown, templates_);
      step.response = std::move(r);
      return step;
    }
    answer.status = ElicitStatus::accepted;
    answer.content = submission.content;
  } else {
    step.response = status_page(400, "page.no_button", request.language);
    return step;
  }
  step.answer = std::move(answer);
  return step;
}

}  // namespace elicit::forms
