// Display widths and line breaks over libunistring (display_width.hpp).
#include "display_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include <unilbrk.h>
#include <unistr.h>
#include <uniwidth.h>

namespace elicitgen {

namespace {
constexpr const char* kEncoding = "UTF-8";

const uint8_t* bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }
}  // namespace

std::size_t display_width(std::string_view utf8) {
  const int w = u8_width(bytes(utf8), utf8.size(), kEncoding);
  return w < 0 ? utf8.size() : static_cast<std::size_t>(w);
}

std::string pad_to(std::string_view utf8, std::size_t columns) {
  std::string out(utf8);
  const auto w = display_width(utf8);
  if (w < columns) out.append(columns - w, ' ');
  return out;
}

namespace {

bool is_hangul(ucs4_t c) {
  return (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F) ||
         (c >= 0xA960 && c <= 0xA97F) || (c >= 0xD7B0 && c <= 0xD7FF);
}

// The code point that ends just before byte `i` of `s`.
ucs4_t before(std::string_view s, std::size_t i) {
  const uint8_t* start = bytes(s);
  ucs4_t c = 0;
  return u8_prev(&c, start + i, start) ? c : 0;
}

ucs4_t at(std::string_view s, std::size_t i) {
  ucs4_t c = 0;
  u8_mbtouc(&c, bytes(s) + i, s.size() - i);
  return c;
}

// One paragraph (no newline) laid out greedily over its break opportunities, the first line
// starting at column `column`.
void wrap_paragraph(std::string_view p, std::size_t columns, std::string_view indent, std::size_t column,
                    std::string& out) {
  std::vector<char> breaks(p.size());
  u8_possible_linebreaks(bytes(p), p.size(), kEncoding, breaks.data());
  // Korean is broken between words, not between the syllables of one (as CSS word-break: keep-all):
  // UAX #14 allows both, and a word cut in two reads badly.
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (breaks[i] == UC_BREAK_POSSIBLE && is_hangul(before(p, i)) && is_hangul(at(p, i)))
      breaks[i] = UC_BREAK_PROHIBITED;
  }
  const auto indent_width = display_width(indent);
  std::size_t segment = 0;
  bool line_empty = true;
  for (std::size_t i = 1; i <= p.size(); ++i) {
    if (i < p.size() && breaks[i] != UC_BREAK_POSSIBLE) continue;
    const auto piece = p.substr(segment, i - segment);
    auto visible = piece;
    while (!visible.empty() && visible.back() == ' ') visible.remove_suffix(1);
    if (!line_empty && column + display_width(visible) > columns) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
      out.append(indent);
      column = indent_width;
    }
    out.append(piece);
    column += display_width(piece);
    line_empty = false;
    segment = i;
  }
}

}  // namespace

std::string wrap(std::string_view utf8, std::size_t columns, std::string_view indent) {
  if (columns == 0 || utf8.empty()) return std::string(utf8);
  std::string out;
  std::size_t start = 0;
  bool first = true;
  while (start <= utf8.size()) {
    const auto nl = utf8.find('\n', start);
    const auto paragraph = utf8.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!first) {
      out += '\n';
      out.append(indent);
    }
    wrap_paragraph(paragraph, columns, indent, first ? 0 : display_width(indent), out);
    first = false;
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return out;
}

std::size_t stderr_columns() {
  winsize ws{};
  if (isatty(2) && ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    const long n = std::strtol(c, nullptr, 10);
    if (n > 0 && n < 10000) return static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace elicitgen
