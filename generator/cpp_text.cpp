#include "cpp_text.hpp"

#include <cstdio>
#include <cstdlib>

namespace elicitgen {

std::string string_literal(std::string_view bytes) {
  // Adjacent literals of bounded length, one per line: compilers track columns only so far, and
  // a megabyte-long line makes GCC drop -Wmisleading-indentation for the rest of the file.
  constexpr std::size_t kPiece = 2000;
  std::string out = "\"";
  std::size_t piece_start = 0;
  for (char c : bytes) {
    if (out.size() - piece_start >= kPiece) {
      out += "\"\n    \"";
      piece_start = out.size();
    }
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += c;
    } else if (u >= 0x20 && u < 0x7F) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned>(u));
      out += buf;
    }
  }
  out += '"';
  return out;
}

std::string string_view_expr(std::string_view bytes) {
  return "std::string_view{" + string_literal(bytes) + ", " + std::to_string(bytes.size()) + "}";
}

std::string comment_text(std::string_view text, std::size_t max_chars) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    // A trigraph (??/ is a backslash, so a line splice at the end of a comment line; GCC warns of
    // it under -Wall, and with -trigraphs or before C++17 it joins the next line to the comment):
    // its second '?' is written "\?", so no two '?' stand in a row before the third character.
    const bool trigraph = c == '?' && !out.empty() && out.back() == '?' && i + 1 < text.size() &&
                          std::string_view("=/'()!<>-").find(text[i + 1]) != std::string_view::npos;
    if (trigraph) out += '\\';
    out += c;
  }
  if (out.size() > max_chars) {
    std::size_t cut = max_chars;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0u) == 0x80u) --cut;
    out.resize(cut);
    out += "...";
  }
  while (!out.empty() && (out.back() == '\\' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string double_literal(double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  std::string s = buf;
  // The shortest spelling that reads back exactly is nicer to read; try fewer digits first.
  for (int precision = 1; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

}  // namespace elicitgen
