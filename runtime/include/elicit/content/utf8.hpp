// UTF-8 encoding of one code point: what a JSON reader appends for a \uXXXX escape (or a surrogate
// pair). Shared by the runtime's JSON fast path and the generator's JSON position index.
#pragma once

#include <cstdint>
#include <string>

namespace elicit::detail {

/// Appends the UTF-8 encoding of `cp` (at most 0x10FFFF; refusing lone surrogates is the caller's
/// part) to `out`.
inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace elicit::detail
