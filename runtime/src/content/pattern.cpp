#include "elicit/content/pattern.hpp"

#include <re2/re2.h>

#include <cstdint>
#include <cstdio>

#include "ascii.hpp"

namespace elicit {
namespace {

// ECMA-262 WhiteSpace and LineTerminator code points (what ECMA's \s matches), as RE2 class items.
constexpr const char* kEcmaSpaceItems =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
// ECMA's `.` without the s flag: anything but a line terminator.
constexpr const char* kEcmaDot = "[^\\n\\r\\x{2028}\\x{2029}]";

[[noreturn]] void fail(std::size_t pos, const std::string& why) {
  throw PatternError("at offset " + std::to_string(pos) + ": " + why);
}


std::uint32_t hex_value(std::string_view s, std::size_t pos, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (i >= s.size() || !detail::is_ascii_hex_digit(s[i])) fail(pos, "expected " + std::to_string(n) + " hex digits");
    const char c = s[i];
    v = v * 16 + static_cast<std::uint32_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

std::string code_point(std::uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned>(cp));
  return buf;
}

// Translates one escape starting at s[i] == '\\'; returns the RE2 text and advances i past it.
std::string translate_escape(std::string_view s, std::size_t& i, bool in_class) {
  const std::size_t start = i;
  if (i + 1 >= s.size()) fail(start, "pattern ends with a lone backslash");
  const char c = s[i + 1];
  i += 2;
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
      return std::string{'\\', c};
    case 'b':
    case 'B':
      if (!in_class) return std::string{'\\', c};
      if (c == 'b') return "\\x{8}";  // backspace inside a class
      fail(start, "\\B is not allowed in a character class");
    case 's':
      return in_class ? std::string(kEcmaSpaceItems) : "[" + std::string(kEcmaSpaceItems) + "]";
    case 'S':
      if (in_class) fail(start, "\\S inside a character class is not supported; use [^...] with \\s");
      return "[^" + std::string(kEcmaSpaceItems) + "]";
    case '0':
      if (i < s.size() && s[i] >= '0' && s[i] <= '9') fail(start, "octal escapes are not allowed");
      return "\\x{0}";
    case 'x': {
      const auto v = hex_value(s, i, 2);
      i += 2;
      return code_point(v);
    }
    case 'u': {
      if (i < s.size() && s[i] == '{') {
        const auto close = s.find('}', i);
        if (close == std::string_view::npos || close == i + 1 || close - i - 1 > 6) fail(start, "malformed \\u{...}");
        const auto v = hex_value(s, i + 1, close - i - 1);
        if (v > 0x10FFFF) fail(start, "code point beyond U+10FFFF");
        i = close + 1;
        return code_point(v);
      }
      auto v = hex_value(s, i, 4);
      i += 4;
      if (v >= 0xD800 && v <= 0xDBFF && i + 6 <= s.size() && s.substr(i, 2) == "\\u") {
        const auto low = hex_value(s, i + 2, 4);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
      }
      if (v >= 0xD800 && v <= 0xDFFF) fail(start, "lone surrogate \\u escape");
      return code_point(v);
    }
    case 'c': {
      if (i >= s.size() || !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
        fail(start, "\\c must be followed by a letter");
      const auto v = static_cast<std::uint32_t>(s[i] % 32);
      ++i;
      return code_point(v);
    }
    case 'p':
    case 'P': {
      if (i >= s.size() || s[i] != '{') fail(start, "\\p must be followed by {Property}");
      const auto close = s.find('}', i);
      if (close == std::string_view::npos) fail(start, "unterminated \\p{...}");
      auto name = s.substr(i + 1, close - i - 1);
      for (std::string_view prefix : {"General_Category=", "gc=", "Script=", "sc=", "Script_Extensions=", "scx="}) {
        if (name.substr(0, prefix.size()) == prefix) {
          name.remove_prefix(prefix.size());
          break;
        }
      }
      i = close + 1;
      return std::string{'\\', c} + "{" + std::string(name) + "}";
    }
    case 'k':
      fail(start, "named backreferences are not supported (RE2 matches in linear time)");
    default:
      break;
  }
  if (c >= '1' && c <= '9') fail(start, "backreferences are not supported (RE2 matches in linear time)");
  const auto uc = static_cast<unsigned char>(c);
  if (uc < 0x80 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
    return std::string{'\\', c};  // identity escape of punctuation
  }
  fail(start, std::string("unknown escape \\") + c);
}

}  // namespace

std::string translate_ecma_pattern(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  bool in_class = false;
  std::size_t class_start = 0;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\\') {
      out += translate_escape(s, i, in_class);
      continue;
    }
    if (in_class) {
      if (c == ']') {
        in_class = false;
      } else if (c == '[') {
        out += "\\[";  // literal in ECMA; RE2 would read [: :] as a POSIX class
        ++i;
        continue;
      }
      out += c;
      ++i;
      continue;
    }
    switch (c) {
      case '[': {
        class_start = i;
        if (s.substr(i, 2) == "[]") {
          out += "[^\\x{0}-\\x{10FFFF}]";  // matches nothing
          i += 2;
          continue;
        }
        if (s.substr(i, 3) == "[^]") {
          out += "[\\x{0}-\\x{10FFFF}]";  // matches anything
          i += 3;
          continue;
        }
        in_class = true;
        out += '[';
        ++i;
        if (i < s.size() && s[i] == '^') {
          out += '^';
          ++i;
        }
        continue;
      }
      case '.':
        out += kEcmaDot;
        ++i;
        continue;
      case '(':
        if (s.substr(i, 3) == "(?=" || s.substr(i, 3) == "(?!" || s.substr(i, 4) == "(?<=" || s.substr(i, 4) == "(?<!")
          fail(i, "lookahead and lookbehind are not supported (RE2 matches in linear time)");
        if (s.substr(i, 3) == "(?<") {
          out += "(?P<";
          i += 3;
          continue;
        }
        if (s.substr(i, 2) == "(?" && s.substr(i, 3) != "(?:") fail(i, "unsupported group syntax (?");
        break;
      default:
        break;
    }
    out += c;
    ++i;
  }
  if (in_class) fail(class_start, "unterminated character class");
  return out;
}

Pattern::Pattern(std::string_view ecma_source) : source_(ecma_source) {
  const std::string translated = translate_ecma_pattern(ecma_source);
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_log_errors(false);
  options.set_never_capture(true);  // only a yes/no answer is needed
  auto re = std::make_shared<const RE2>(translated, options);
  if (!re->ok()) throw PatternError("RE2 rejects the pattern: " + re->error());
  re_ = std::move(re);
}

bool Pattern::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace elicit
