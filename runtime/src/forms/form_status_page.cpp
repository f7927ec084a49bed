// The short pages a form's URL shows instead of the form (thanks, expired, refused): one template,
// every text HTML-escaped.
#include "elicit/forms/html_form.hpp"

#include "elicit/messages/catalog.hpp"

namespace elicit::forms {

namespace {

void append_escaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
}

}  // namespace

std::string render_form_status_page(std::string_view title, std::string_view text, const HtmlTemplates& templates,
                                    std::string_view language) {
  const std::string_view style =
      templates.style.empty() ? default_form_page_style() : std::string_view(templates.style);
  std::string html;
  html.reserve(400 + style.size() + 2 * title.size() + text.size());
  html += "<!DOCTYPE html>\n<html lang=\"";
  append_escaped(html, messages::resolve(language));
  html +=
      "\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>";
  append_escaped(html, title);
  // The style exactly as the form page has it: the CSP allows the <style> element by its hash.
  html += "</title>\n<style>";
  html += style;
  html += "</style>\n</head>\n<body>\n<main>\n<h1>";
  append_escaped(html, title);
  html += "</h1>\n<p class=\"message\">";
  append_escaped(html, text);
  html += "</p>\n</main>\n</body>\n</html>\n";
  return html;
}

std::string render_form_status_page_of(std::string_view id, std::string_view language, const HtmlTemplates& templates) {
  const auto resolved = messages::resolve(language);
  const std::string key(id);
  return render_form_status_page(messages::text(resolved, key + ".title"), messages::text(resolved, key + ".text"),
                                 templates, resolved);
}

}  // namespace elicit::forms
