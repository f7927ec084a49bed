// The page of a URL-mode form (MCP 2025-11-25, client/elicitation.md, "URL Mode"): a form's fields
// rendered as an HTML5 page for the user's browser, and the browser's submission decoded back into
// a content object that validate_content() checks with the same rules as form mode. Sensitive input
// (passwords, API keys) must go through URL mode, never through the MCP client: this is the page
// that asks for it. Rendering and decoding only: serving the page, sessions, who may submit, and the
// single use of the CSRF token are the page stores' and routes' (page_store.hpp, page_routes.hpp).
//
//   FormPage page{form};                 // the Form of a generated type or a parsed schema
//   page.message = "Your API key";
//   page.values = elicit::form_defaults(form);
//   page.csrf_token = token;                      // the server's, unguessable, single use
//   page.action = "/elicit/3f1c.../submit";
//   std::string html = render_form_page(page);
//   // ... later, the POST body:
//   FormSubmission s = decode_form_submission(form, body);
//   elicit::ValidationResult errors = validate_submission(form, s);
//   // action "accept" and no errors: s.content is the answer; else render again with
//   // page.values = s.content and page.errors = errors.
//
// The page has no JavaScript and loads nothing: its only active content is one <style> element, whose
// hash form_page_csp() puts in the Content-Security-Policy the server must send with it.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "elicit/content/schema.hpp"
#include "elicit/content/validation.hpp"

namespace elicit::forms {

/// What a form page shows. Plain data; render_form_page() reads it and keeps nothing.
struct FormPage {
  FormPage() = default;
  /// A page of `form` with no message, values, errors, token or action yet.
  explicit FormPage(Form form) : form(std::move(form)) {}

  /// The fields, in schema order (FormBinding::form() of a generated type, or
  /// parse_requested_schema().form).
  Form form;
  /// The page's `<title>` and heading; "" gives "Information requested".
  std::string title;
  /// The server's message (the elicitation's `message`), shown above the fields as plain text
  /// (line breaks kept, no markup).
  std::string message;
  /// The values to show: a content object {property: value} (the defaults, form_defaults(), or
  /// what the user submitted, FormSubmission::content). Properties the form does not list are
  /// ignored; a value of the wrong JSON type is shown as its text (a string as is, a number as
  /// JSON). A secret-looking field (looks_secret()) never shows its value: a password input is left
  /// empty, so that the secret is not sent back to the browser in the page.
  nlohmann::json values = nlohmann::json::object();
  /// Errors to show, with pointers relative to the content object (validate_content(),
  /// validate_submission()): "/name" or "/tags/1" is shown next to field `name`; anything else
  /// ("", a property the form does not list) only in the summary at the top.
  ValidationResult errors;
  /// The CSRF token, sent back in the hidden input named form_page_control_names(form).csrf.
  std::string csrf_token;
  /// The form's action URL (absolute, or relative to the page's URL). The form is POSTed there,
  /// application/x-www-form-urlencoded, UTF-8.
  std::string action;
  /// The language of the page's own words (buttons, notes, hints, the error summary and each
  /// error's text: ValidationError::in), a BCP 47 tag resolved as messages::resolve() does ("" and
  /// a language the catalog lacks: English); `<html lang>` says it. The server's texts (title,
  /// message, labels, descriptions, option titles) are shown as given. The serving side sets it
  /// from the browser's Accept-Language (messages::from_accept_language) or PageRoutes::language.
  std::string language;
};

/// Templates that replace the built-in page (Mustache, rendered with kainjow/mustache: {{x}}
/// HTML-escapes, {{{x}}} does not). An empty member keeps the built-in one. The variables the
/// page template sees are listed in docs/server.md ("The page of a URL-mode form").
struct HtmlTemplates {
  /// The whole page. It must put {{{style}}} inside a `<style>` element and use no other inline
  /// style or script, or the Content-Security-Policy of form_page_csp() blocks them.
  std::string page;
  /// The CSS put in the `<style>` element, as is (not a template).
  std::string style;
};

/// The built-in page template and CSS, as embedded in the library (to start an override from).
std::string_view default_form_page_template() noexcept;
std::string_view default_form_page_style() noexcept;

/// The complete HTML5 page (UTF-8) of `page`, its own words in page.language: every field in
/// schema order with its label (title, else property name), required marker, description and value;
/// the input kind from the field's kind and format (docs/server.md has the table); errors next to
/// their fields (aria-invalid, aria-describedby) and in a linked summary at the top, which the
/// browser focuses when the page loads (tabindex="-1" autofocus: no script needed, so that a screen
/// reader starts at the errors); Accept, Decline and Cancel submit buttons
/// (name form_page_control_names(form).action, values accept / decline / cancel; Decline and Cancel
/// with formnovalidate); the CSRF token in a hidden input. Every text from `page` is HTML-escaped.
/// Lengths (minlength / maxlength) are the schema's code points: browsers count UTF-16 code units,
/// so outside the Basic Multilingual Plane a browser may refuse early; the server's validation
/// decides. Throws std::invalid_argument when an override template is not valid Mustache.
/// Thread-safe (no shared state).
std::string render_form_page(const FormPage& page, const HtmlTemplates& templates = {});

/// A short page (UTF-8 HTML5) that a form's URL shows instead of the form (thanks, expired, refused):
/// `title` as its `<title>` and heading, `text` as one paragraph, both HTML-escaped, styled by the form
/// page's CSS (`templates.style`, else the built-in), which form_page_csp(templates) allows by its
/// hash: the same Content-Security-Policy serves both. `language`: the `<html lang>` of the page (a
/// BCP 47 tag resolved as messages::resolve() does; "" is English), the language `title` and
/// `text` are in. Thread-safe.
std::string render_form_status_page(std::string_view title, std::string_view text, const HtmlTemplates& templates = {},
                                    std::string_view language = {});

/// The short page of catalog message pair `id` (`<id>.title`, `<id>.text`, e.g. "page.expired";
/// the catalog's page.* ids, runtime/messages/root.txt) in `language`, as render_form_status_page
/// renders it. Thread-safe.
std::string render_form_status_page_of(std::string_view id, std::string_view language,
                                       const HtmlTemplates& templates = {});

/// `sha256-<base64>`: the CSP source of the page's `<style>` element (CSP3 hash source: SHA-256 of
/// the element's text, UTF-8, exactly as rendered).
std::string form_page_style_hash(const HtmlTemplates& templates = {});

/// The Content-Security-Policy header value a server sends with the page:
/// "default-src 'none'; style-src 'sha256-...'; form-action 'self'; frame-ancestors 'none';
/// base-uri 'none'". form-action 'self' assumes the action URL is on the page's origin.
std::string form_page_csp(const HtmlTemplates& templates = {});

/// The names of the page's two controls: normally "action" (the submit buttons) and "csrf" (the
/// hidden token). A form with a property of that name would collide with it, so the control's name
/// then gets '_' prefixed until it is free ("_action", "__action", ...). The same function decides
/// on both sides, so render and decode agree.
struct FormControlNames {
  std::string action;
  std::string csrf;
};
FormControlNames form_page_control_names(const Form& form);

/// A browser's submission of the page, decoded.
struct FormSubmission {
  /// The button pressed: "accept", "decline" or "cancel" as the page sends them; anything else as
  /// sent ("" when absent): the server refuses those.
  std::string action;
  /// The content object, for validate_content() / validate_submission() and for showing the page
  /// again (FormPage::values): one property per field the body fills; an empty optional field is
  /// omitted, and so is an empty required one (so that validation says "is required"). A value that
  /// does not convert (an integer "12x") is kept as the string sent, with an error in `errors`.
  nlohmann::json content = nlohmann::json::object();
  /// The CSRF token sent ("" when absent). Compare it in constant time with the page's.
  std::string csrf;
  /// Conversion errors, pointer "/<property>", keyword "type" ("must be an integer", "must be a
  /// number", "must be true or false"; each with its catalog text, ValidationError::in); a body
  /// that is not form-urlencoded (a malformed percent escape) is one error at "" and nothing else
  /// is decoded.
  ValidationResult errors;
};

/// Decodes an application/x-www-form-urlencoded body (UTF-8) as the page built for `form` sends it:
/// strings as typed ("" omitted); integer and number fields parsed (HTML floating-point syntax,
/// surrounding ASCII spaces ignored; an integer field takes "12" and "12.0", not "12.5"; integers
/// beyond 64 bits are errors); booleans from the checkbox (hidden "false" then "true" when checked:
/// the last value counts) or the yes/no radios; a single-select's option value as sent; a
/// multi-select's repeated name as an array in the order sent; a date-time from the browser's
/// datetime-local ("YYYY-MM-DDThh:mm[:ss[.fff]]", no zone) read as UTC and written as RFC 3339 with
/// "Z" (a value that already has a zone is kept as sent). A name sent twice counts once, its last
/// value (but a multi-select's, whose values are all kept; and the action and token, whose first
/// counts). Names the form does not list are ignored. Thread-safe; never throws but std::bad_alloc.
FormSubmission decode_form_submission(const Form& form, std::string_view body);

/// Every error of a submission, in schema order: per property its conversion errors, or else
/// validate_content()'s on the content (a property is not reported twice); then errors about no
/// property. A body that could not be decoded gives its one error alone. Thread-safe.
ValidationResult validate_submission(const Form& form, const FormSubmission& submission);

}  // namespace elicit::forms
