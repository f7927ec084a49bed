#include "elicit/content/formats.hpp"

#include <array>
#include <cstdint>

#include "ascii.hpp"

namespace elicit {
namespace {

using detail::is_ascii_alpha;
using detail::is_ascii_digit;
using detail::is_ascii_hex_digit;

// --- IP addresses (RFC 3986 section 3.2.2) ---------------------------------------------------

bool is_dec_octet(std::string_view s) noexcept {
  if (s.empty() || s.size() > 3) return false;
  for (char c : s) {
    if (!is_ascii_digit(c)) return false;
  }
  if (s.size() > 1 && s[0] == '0') return false;  // no leading zeros
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v <= 255;
}

bool is_ipv4(std::string_view s) noexcept {
  int parts = 0;
  while (true) {
    const auto dot = s.find('.');
    if (!is_dec_octet(s.substr(0, dot))) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    s.remove_prefix(dot + 1);
  }
  return parts == 4;
}

bool is_ipv6(std::string_view s) noexcept {
  int groups = 0;
  bool compressed = false;
  if (s.substr(0, 2) == "::") {
    compressed = true;
    s.remove_prefix(2);
    if (s.empty()) return true;
  } else if (!s.empty() && s[0] == ':') {
    return false;
  }
  while (!s.empty()) {
    const auto colon = s.find(':');
    const auto part = s.substr(0, colon);
    if (colon == std::string_view::npos && part.find('.') != std::string_view::npos) {
      if (!is_ipv4(part)) return false;
      groups += 2;
      break;
    }
    if (part.empty() || part.size() > 4) return false;
    for (char c : part) {
      if (!is_ascii_hex_digit(c)) return false;
    }
    ++groups;
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
    if (!s.empty() && s[0] == ':') {
      if (compressed) return false;
      compressed = true;
      s.remove_prefix(1);
    } else if (s.empty()) {
      return false;  // trailing single colon
    }
  }
  return compressed ? groups <= 7 : groups == 8;
}

// --- email (RFC 5321 section 4.1.2) -------------------------------------------------------------

bool is_atext(char c) noexcept {
  if (is_ascii_alpha(c) || is_ascii_digit(c)) return true;
  constexpr std::string_view specials = "!#$%&'*+-/=?^_`{|}~";
  return specials.find(c) != std::string_view::npos;
}

// Returns the length of a valid local part at the start of s, or 0.
std::size_t local_part_length(std::string_view s) noexcept {
  if (s.empty()) return 0;
  if (s[0] == '"') {
    for (std::size_t i = 1; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c == '"') return i + 1;
      if (c == '\\') {
        if (i + 1 >= s.size()) return 0;
        const auto n = static_cast<unsigned char>(s[i + 1]);
        if (n < 32 || n > 126) return 0;
        ++i;
      } else if (c < 32 || c > 126) {
        return 0;
      }
    }
    return 0;
  }
  std::size_t i = 0;
  bool need_atext = true;
  for (; i < s.size() && s[i] != '@'; ++i) {
    if (s[i] == '.') {
      if (need_atext) return 0;  // leading or doubled dot
      need_atext = true;
    } else if (is_atext(s[i])) {
      need_atext = false;
    } else {
      return 0;
    }
  }
  return need_atext ? 0 : i;  // trailing dot
}

bool is_hostname(std::string_view s) noexcept {
  if (s.empty() || s.size() > 255) return false;
  while (true) {
    const auto dot = s.find('.');
    const auto label = s.substr(0, dot);
    if (label.empty() || label.size() > 63) return false;
    if (label.front() == '-' || label.back() == '-') return false;
    for (char c : label) {
      if (!is_ascii_alpha(c) && !is_ascii_digit(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// --- URI (RFC 3986) -----------------------------------------------------------------------------

bool is_unreserved(char c) noexcept {
  return is_ascii_alpha(c) || is_ascii_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
bool is_sub_delim(char c) noexcept {
  constexpr std::string_view d = "!$&'()*+,;=";
  return d.find(c) != std::string_view::npos;
}

// Checks every character is unreserved / sub-delim / one of `extra`, or a well-formed %HH.
bool all_uri_chars(std::string_view s, std::string_view extra) noexcept {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || !is_ascii_hex_digit(s[i + 1]) || !is_ascii_hex_digit(s[i + 2])) return false;
      i += 2;
    } else if (!is_unreserved(c) && !is_sub_delim(c) && extra.find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

bool is_ip_literal(std::string_view s) noexcept {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return false;
  s = s.substr(1, s.size() - 2);
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) {  // IPvFuture
    const auto dot = s.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 >= s.size()) return false;
    for (char c : s.substr(1, dot - 1)) {
      if (!is_ascii_hex_digit(c)) return false;
    }
    for (char c : s.substr(dot + 1)) {
      if (!is_unreserved(c) && !is_sub_delim(c) && c != ':') return false;
    }
    return true;
  }
  return is_ipv6(s);
}

bool is_authority(std::string_view s) noexcept {
  const auto at = s.rfind('@');
  if (at != std::string_view::npos) {
    if (!all_uri_chars(s.substr(0, at), ":")) return false;
    s.remove_prefix(at + 1);
  }
  std::string_view host = s;
  if (!s.empty() && s[0] == '[') {
    const auto close = s.find(']');
    if (close == std::string_view::npos) return false;
    host = s.substr(0, close + 1);
    s.remove_prefix(close + 1);
    if (!is_ip_literal(host)) return false;
    if (s.empty()) return true;
    if (s[0] != ':') return false;
  } else {
    const auto colon = s.find(':');
    host = s.substr(0, colon);
    if (!all_uri_chars(host, "")) return false;
    s.remove_prefix(colon == std::string_view::npos ? s.size() : colon);
    if (s.empty()) return true;
  }
  for (char c : s.substr(1)) {  // port
    if (!is_ascii_digit(c)) return false;
  }
  return true;
}

// --- dates (RFC 3339 section 5.6) ---------------------------------------------------------------

int digits(std::string_view s, std::size_t pos, std::size_t n) noexcept {
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (i >= s.size() || !is_ascii_digit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

bool is_leap(int y) noexcept { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) noexcept {
  constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[static_cast<std::size_t>(m - 1)];
}

}  // namespace

std::size_t code_point_length(std::string_view utf8) noexcept {
  std::size_t n = 0;
  for (char c : utf8) {
    if ((static_cast<unsigned char>(c) & 0xC0u) != 0x80u) ++n;
  }
  return n;
}

bool is_email(std::string_view s) noexcept {
  if (s.size() > 254) return false;
  const auto local = local_part_length(s);
  if (local == 0 || local > 64 || local >= s.size() || s[local] != '@') return false;
  const auto domain = s.substr(local + 1);
  if (domain.size() >= 2 && domain.front() == '[' && domain.back() == ']') {
    const auto literal = domain.substr(1, domain.size() - 2);
    if (literal.substr(0, 5) == "IPv6:") return is_ipv6(literal.substr(5));
    return is_ipv4(literal);
  }
  return is_hostname(domain);
}

bool is_uri(std::string_view s) noexcept {
  const auto colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !is_ascii_alpha(s[0])) return false;
  for (char c : s.substr(0, colon)) {
    if (!is_ascii_alpha(c) && !is_ascii_digit(c) && c != '+' && c != '-' && c != '.') return false;
  }
  auto rest = s.substr(colon + 1);
  const auto hash = rest.find('#');
  if (hash != std::string_view::npos) {
    if (!all_uri_chars(rest.substr(hash + 1), ":@/?")) return false;
    rest = rest.substr(0, hash);
  }
  const auto question = rest.find('?');
  if (question != std::string_view::npos) {
    if (!all_uri_chars(rest.substr(question + 1), ":@/?")) return false;
    rest = rest.substr(0, question);
  }
  if (rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    const auto slash = rest.find('/');
    if (!is_authority(rest.substr(0, slash))) return false;
    rest.remove_prefix(slash == std::string_view::npos ? rest.size() : slash);
  }
  // path-abempty / path-absolute / path-rootless / path-empty: pchars and slashes.
  return all_uri_chars(rest, ":@/");
}

bool is_date(std::string_view s) noexcept {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  const int y = digits(s, 0, 4), m = digits(s, 5, 2), d = digits(s, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1) return false;
  return d <= days_in_month(y, m);
}

bool is_date_time(std::string_view s) noexcept {
  if (s.size() < 20 || !is_date(s.substr(0, 10))) return false;
  if (s[10] != 'T' && s[10] != 't') return false;
  if (s[13] != ':' || s[16] != ':') return false;
  const int h = digits(s, 11, 2), mi = digits(s, 14, 2), sec = digits(s, 17, 2);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return false;
  std::size_t i = 19;
  if (s[i] == '.') {
    const auto start = ++i;
    while (i < s.size() && is_ascii_digit(s[i])) ++i;
    if (i == start) return false;
  }
  if (i >= s.size()) return false;
  int offset_minutes = 0;
  if (s[i] == 'Z' || s[i] == 'z') {
    if (i + 1 != s.size()) return false;
  } else if (s[i] == '+' || s[i] == '-') {
    if (s.size() != i + 6 || s[i + 3] != ':') return false;
    const int oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return false;
    offset_minutes = (s[i] == '+' ? 1 : -1) * (oh * 60 + om);
  } else {
    return false;
  }
  if (sec == 60) {  // a leap second happens at 23:59:60 UTC only
    const int utc = ((h * 60 + mi - offset_minutes) % 1440 + 1440) % 1440;
    if (utc != 23 * 60 + 59) return false;
  }
  return true;
}

bool matches_format(std::string_view s, StringFormat f) noexcept {
  switch (f) {
    case StringFormat::email:
      return is_email(s);
    case StringFormat::uri:
      return is_uri(s);
    case StringFormat::date:
      return is_date(s);
    case StringFormat::date_time:
      return is_date_time(s);
    case StringFormat::none:
      break;
  }
  return true;
}

std::string_view format_name(StringFormat f) noexcept {
  switch (f) {
    case StringFormat::email:
      return "email";
    case StringFormat::uri:
      return "uri";
    case StringFormat::date:
      return "date";
    case StringFormat::date_time:
      return "date-time";
    case StringFormat::none:
      break;
  }
  return "";
}

}  // namespace elicit
