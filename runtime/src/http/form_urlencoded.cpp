#include "elicit/http/form_urlencoded.hpp"

namespace elicit::http {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> form_urldecode_component(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%') {
      // WHATWG keeps a stray '%' as is; refusing it instead is stricter and no browser sends one
      // (it encodes '%' itself as %25), so a stray one means the body was not made by a form.
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> form_urldecode(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!text.empty()) {
    const auto amp = text.find('&');
    const auto part = text.substr(0, amp);
    if (!part.empty()) {
      const auto eq = part.find('=');
      auto name = form_urldecode_component(part.substr(0, eq));
      auto value =
          eq == std::string_view::npos ? std::optional<std::string>("") : form_urldecode_component(part.substr(eq + 1));
      if (!name || !value) return std::nullopt;
      out.emplace_back(std::move(*name), std::move(*value));
    }
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return out;
}

}  // namespace elicit::http
