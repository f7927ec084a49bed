// Reading a rendered browser form page in tests, without an HTTP stack.
#pragma once

#include <string>

namespace http_test {

/// The CSRF token of a browser form page (the hidden input named "csrf"), "" when it has none.
inline std::string csrf_of(const std::string& html) {
  const std::string marker = "name=\"csrf\" value=\"";
  const auto at = html.find(marker);
  if (at == std::string::npos) return "";
  const auto start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

}  // namespace http_test
