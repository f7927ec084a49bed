#include "names.hpp"

#include <cstdint>
#include <cstdio>
#include <unordered_set>
#include <vector>

namespace elicitgen {
namespace {

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
char upper(char c) { return is_lower(c) ? static_cast<char>(c - 'a' + 'A') : c; }

// Decodes one UTF-8 sequence at s[i]; invalid bytes decode as themselves (U+0080..U+00FF).
unsigned decode_utf8(std::string_view s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  int len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  unsigned cp = len == 4 ? b & 0x07u : len == 3 ? b & 0x0Fu : len == 2 ? b & 0x1Fu : b;
  if (i + static_cast<std::size_t>(len) > s.size()) len = 1, cp = b;
  for (int k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((c & 0xC0u) != 0x80u) {
      len = 1;
      cp = b;
      break;
    }
    cp = (cp << 6) | (c & 0x3Fu);
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

// Splits text into ASCII words: at non-alphanumerics, lower->Upper, and acronym ends ("HTTPServer"
// -> HTTP, Server). Each non-ASCII code point becomes its own word "uXXXX", so distinct Unicode
// names stay distinct.
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      flush();
      char buf[16];
      std::snprintf(buf, sizeof buf, "u%04x", decode_utf8(s, i));
      out.emplace_back(buf);
      continue;
    }
    if (!is_lower(c) && !is_upper(c) && !is_digit(c)) {
      flush();
      ++i;
      continue;
    }
    if (!cur.empty() && is_upper(c)) {
      const char prev = cur.back();
      const bool next_lower = i + 1 < s.size() && is_lower(s[i + 1]);
      if (is_lower(prev) || is_digit(prev) || (is_upper(prev) && next_lower)) flush();
    }
    cur += c;
    ++i;
  }
  flush();
  return out;
}

}  // namespace

bool is_reserved_word(std::string_view w) {
  static const std::unordered_set<std::string_view> k{
      // C++20 keywords and alternative tokens
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
      "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
      "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return", "short",
      "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while",
      // identifiers with special meaning, and macros from the C library or GNU modes
      "final", "override", "import", "module", "assert", "errno", "offsetof", "setjmp", "va_arg", "va_start", "va_end",
      "va_copy", "NULL", "EOF", "BUFSIZ", "EDOM", "ERANGE", "EILSEQ", "DOMAIN", "SING", "OVERFLOW", "UNDERFLOW",
      "TLOSS", "PLOSS", "HUGE_VAL", "INFINITY", "NAN", "linux", "unix", "i386", "stdin", "stdout", "stderr", "TRUE",
      "FALSE", "std", "elicit", "nlohmann"};
  return k.count(w) != 0;
}

namespace {

// Identifiers stay short enough for every compiler (MSVC stops at 2,048 characters) and for
// readable diagnostics: a long one keeps its first 80 characters plus a hash of the whole text, so
// distinct names stay distinct (a rare clash is still caught by the collision check).
std::string bounded(std::string name, std::string_view source) {
  constexpr std::size_t kMax = 96;
  if (name.size() <= kMax) return name;
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (char c : source) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(h));
  name.resize(80);
  while (name.back() == '_') name.pop_back();
  return name + "_" + hex;
}

}  // namespace

std::string member_name(std::string_view json_name) {
  std::string out;
  for (const auto& w : words(json_name)) {
    if (!out.empty()) out += '_';
    for (char c : w) out += lower(c);
  }
  if (out.empty()) out = "unnamed";
  if (is_digit(out[0])) out.insert(out.begin(), '_');
  if (is_reserved_word(out)) out += '_';
  return bounded(std::move(out), json_name);
}

std::string type_name(std::string_view text) {
  std::string out;
  for (const auto& w : words(text)) {
    out += upper(w[0]);
    for (std::size_t i = 1; i < w.size(); ++i) out += lower(w[i]);
  }
  if (out.empty()) out = "Unnamed";
  if (is_digit(out[0])) out.insert(out.begin(), 'T');
  if (is_reserved_word(out)) out += '_';
  return bounded(std::move(out), text);
}

std::string file_stem(std::string_view path) {
  const auto slash = path.find_last_of('/');
  auto name = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
  name = name.substr(0, name.find('.'));
  std::string out;
  for (char c : name) out += is_lower(c) || is_upper(c) || is_digit(c) || c == '_' ? c : '_';
  return out;
}

}  // namespace elicitgen
