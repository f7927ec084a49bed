#pragma once
// ASCII character classes for the content layer's parsers (formats, patterns): locale-free, unlike
// <cctype>, because a wire format's digits are ASCII whatever the process's locale says.

namespace elicit::detail {

constexpr bool is_ascii_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_ascii_hex_digit(char c) noexcept {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace elicit::detail
