#include "sign_in_cookies.hpp"

namespace elicit::forms {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string_view> cookie_value(std::string_view field, std::string_view name) {
  while (!field.empty()) {
    const auto end = field.find(';');
    const auto pair = trim(field.substr(0, end));
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && trim(pair.substr(0, eq)) == name) {
      auto value = trim(pair.substr(eq + 1));
      // RFC 6265bis section 4.1.1: a value may be enclosed in double quotes.
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
    if (end == std::string_view::npos) break;
    field.remove_prefix(end + 1);
  }
  return std::nullopt;
}

std::string set_cookie(std::string_view name, std::string_view value, std::chrono::milliseconds max_age) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(max_age).count();
  return std::string(name) + "=" + std::string(value) +
         "; Path=/; Max-Age=" + std::to_string(seconds < 0 ? 0 : seconds) + "; Secure; HttpOnly; SameSite=Lax";
}

}  // namespace elicit::forms
