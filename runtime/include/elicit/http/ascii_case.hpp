// Case-insensitive text in the HTTP layer: header field names, media types, URL schemes and hosts,
// auth schemes and token types are ASCII and compared without case (RFC 9110 sections 5.1, 8.3.1,
// 11.1; RFC 3986 section 3.1). ASCII only, never the C locale's tolower: a host application's
// setlocale() must not change how a header is read. Used by the HTTP layer and the wings above it
// (authorization, browser forms).
#pragma once

#include <string>
#include <string_view>

namespace elicit::http {

/// `c` lowered if it is an ASCII capital letter, else `c`.
constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// A copy of `s` with ASCII capital letters lowered (other bytes as they are).
inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = ascii_lower(c);
  return out;
}

/// Whether `a` and `b` are equal but for the case of ASCII letters.
inline bool equals_nocase(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

/// Whether `text` starts with `prefix`, but for the case of ASCII letters.
inline bool starts_with_nocase(std::string_view text, std::string_view prefix) noexcept {
  return text.size() >= prefix.size() && equals_nocase(text.substr(0, prefix.size()), prefix);
}

/// Whether `text` contains `needle`, but for the case of ASCII letters: a media type in Accept or
/// Content-Type, without a lowered copy of the header.
inline bool contains_nocase(std::string_view text, std::string_view needle) noexcept {
  if (needle.size() > text.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (equals_nocase(text.substr(i, needle.size()), needle)) return true;
  }
  return false;
}

}  // namespace elicit::http
