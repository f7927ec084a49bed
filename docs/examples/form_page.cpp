// docs/server.md, "The page of a URL-mode form": a generated type's page rendered, a browser's
// submission decoded and checked, the page shown again with the errors. Links elicit::forms for the page (none of its
// serving is used).
#include <iostream>
#include <string>

#include <elicit/content/form_defaults.hpp>
#include <elicit/forms/html_form.hpp>
#include <nlohmann/json.hpp>
#include "contact.hpp"  // generated from forms/contact.json: struct app::Contact

namespace {

// What a page server does with one page; serving, sessions and the token's single use are its own.
std::string first_page(const std::string& csrf_token) {
  const elicit::Form& form = elicit::form_traits<app::Contact>::binding().form();
  elicit::forms::FormPage page{form};
  page.title = "Contact details";
  page.message = std::string(elicit::default_message<app::Contact>());
  page.values = elicit::form_defaults(form);
  page.csrf_token = csrf_token;
  page.action = "submit";  // relative to the page's URL
  return elicit::forms::render_form_page(page);
  // Send it with Content-Type: text/html; charset=utf-8, Cache-Control: no-store,
  // Referrer-Policy: no-referrer and Content-Security-Policy: elicit::forms::form_page_csp().
}

std::string on_post(const std::string& body, const std::string& csrf_token) {
  const elicit::Form& form = elicit::form_traits<app::Contact>::binding().form();
  elicit::forms::FormSubmission sent = elicit::forms::decode_form_submission(form, body);
  // (compare sent.csrf with the page's token in constant time, and refuse a second submission)
  if (sent.action != "accept") return sent.action;  // "decline" or "cancel": the elicitation's answer
  elicit::ValidationResult errors = elicit::forms::validate_submission(form, sent);
  if (errors.ok()) return sent.content.dump();  // the content, as form mode would have received it
  for (const auto& e : errors.errors) std::cout << e.pointer << ": " << e.message << "\n";
  elicit::forms::FormPage again{form};
  again.values = sent.content;  // what the user typed, kept
  again.errors = errors;        // each shown next to its field
  again.csrf_token = csrf_token;
  again.action = "submit";
  return elicit::forms::render_form_page(again);
}

}  // namespace

int main() {
  const std::string html = first_page("c5rf");
  std::cout << (html.find("name=\"email\" type=\"email\"") != std::string::npos) << "\n";  // 1
  std::cout << elicit::forms::form_page_csp().substr(0, 38) << "\n";  // default-src 'none'; style-src 'sha256-
  const std::string again = on_post("csrf=c5rf&name=Ada&email=ada&age=17x&action=accept", "c5rf");
  // /email: must be an email address (RFC 5321)
  // /age: must be a number
  std::cout << (again.find("aria-invalid=\"true\"") != std::string::npos) << "\n";  // 1
  std::cout << on_post("csrf=c5rf&name=Ada&email=ada%40example.com&age=36&action=accept", "c5rf") << "\n";
  std::cout << on_post("csrf=c5rf&action=decline", "c5rf") << "\n";  // decline
}
