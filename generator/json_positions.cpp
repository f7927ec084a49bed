#include "json_positions.hpp"

#include <algorithm>
#include <cstdint>

#include <elicit/content/utf8.hpp>

namespace elicitgen {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// Deeper than any text parse_json accepts (elicit::kMaxJsonDepth); beyond it values are skipped
// unindexed, so that hostile text cannot exhaust the stack.
constexpr int kMaxDepth = 1100;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One reference token of a JSON Pointer, unescaped (~1 is '/', ~0 is '~').
std::string unescape_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

// An array index token as RFC 6901 writes it: "0", or digits without a leading zero.
bool array_index(const std::string& token, std::size_t& out) {
  if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0')) return false;
  out = 0;
  for (const char c : token) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

}  // namespace

TextPosition position_at(std::string_view text, std::size_t offset) {
  TextPosition p{1, 1};
  const auto end = std::min(offset, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

JsonPositions::JsonPositions(std::string text) : text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
  std::size_t at = 0;
  if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) at = 3;  // a UTF-8 byte order mark, as nlohmann skips it
  skip_ws(at);
  if (at < text_.size()) parse_value(at, kNone, 0);
}

void JsonPositions::skip_ws(std::size_t& at) const {
  while (at < text_.size() && is_ws(text_[at])) ++at;
}

// Reads the string starting at text_[at] == '"', leaving `at` after its closing quote. With
// `decoded`, its value as UTF-8 (a lone surrogate becomes U+FFFD). False when it does not end.
bool JsonPositions::read_string(std::size_t& at, std::string* decoded) const {
  ++at;
  while (at < text_.size()) {
    const char c = text_[at];
    if (c == '"') {
      ++at;
      return true;
    }
    if (c != '\\') {
      if (decoded) *decoded += c;
      ++at;
      continue;
    }
    if (at + 1 >= text_.size()) break;
    const char e = text_[at + 1];
    at += 2;
    if (e != 'u') {
      if (decoded) {
        const char* const from = "\"\\/bfnrt";
        const char* const to = "\"\\/\b\f\n\r\t";
        const auto k = std::string_view(from).find(e);
        *decoded += k == std::string_view::npos ? e : to[k];
      }
      continue;
    }
    // \uXXXX, and a following \uXXXX when this is a high surrogate.
    auto hex4 = [&](std::size_t from, std::uint32_t& out) {
      if (from + 4 > text_.size()) return false;
      out = 0;
      for (std::size_t i = from; i < from + 4; ++i) {
        const int d = hex_digit(text_[i]);
        if (d < 0) return false;
        out = out * 16 + static_cast<std::uint32_t>(d);
      }
      return true;
    };
    std::uint32_t cp = 0;
    if (!hex4(at, cp)) continue;
    at += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF && at + 1 < text_.size() && text_[at] == '\\' && text_[at + 1] == 'u') {
      std::uint32_t low = 0;
      if (hex4(at + 2, low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        at += 6;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    if (decoded) elicit::detail::append_utf8(*decoded, cp);
  }
  at = text_.size();
  return false;
}

// A number, true, false or null: up to the next structural character or white space.
void JsonPositions::skip_scalar(std::size_t& at) const {
  while (at < text_.size() && !is_ws(text_[at]) && text_[at] != ',' && text_[at] != ']' && text_[at] != '}' &&
         text_[at] != ':')
    ++at;
  if (at < text_.size() && text_[at] == ':') ++at;  // malformed text: always make progress
}

// Indexes the value at text_[at] (not white space), leaving `at` after it. Returns its node.
std::size_t JsonPositions::parse_value(std::size_t& at, std::size_t name_at, int depth) {
  const std::size_t self = nodes_.size();
  nodes_.push_back({name_at, at, {}, {}});
  const char c = text_[at];
  if (c == '"') {
    read_string(at, nullptr);
    return self;
  }
  if (c != '{' && c != '[') {
    const auto before = at;
    skip_scalar(at);
    if (at == before) ++at;  // a stray character: skip it
    return self;
  }
  const bool object = c == '{';
  const char close = object ? '}' : ']';
  ++at;
  while (true) {
    skip_ws(at);
    if (at >= text_.size()) return self;
    if (text_[at] == close) {
      ++at;
      return self;
    }
    if (text_[at] == ',') {
      ++at;
      continue;
    }
    std::size_t member_name_at = kNone;
    std::string name;
    if (object) {
      if (text_[at] != '"') {
        // Not a member name: malformed text; skip a token and go on.
        const auto before = at;
        skip_scalar(at);
        if (at == before) ++at;
        continue;
      }
      member_name_at = at;
      if (!read_string(at, &name)) return self;
      skip_ws(at);
      if (at < text_.size() && text_[at] == ':') ++at;
      skip_ws(at);
      if (at >= text_.size()) return self;
    }
    std::size_t child = kNone;
    if (depth < kMaxDepth) {
      child = parse_value(at, member_name_at, depth + 1);
    } else {
      // Too deep to index: skip the value without recursion.
      int nesting = 0;
      do {
        const char v = text_[at];
        if (v == '"') {
          read_string(at, nullptr);
          continue;
        }
        if (v == '{' || v == '[') ++nesting;
        if (v == '}' || v == ']') --nesting;
        ++at;
      } while (at < text_.size() && nesting > 0);
    }
    if (child == kNone) continue;
    if (object) {
      nodes_[self].members[name] = child;  // a later duplicate replaces an earlier one
    } else {
      nodes_[self].items.push_back(child);
    }
  }
}

TextPosition JsonPositions::locate(std::string_view pointer) const {
  if (nodes_.empty()) return {1, 1};
  std::size_t node = 0;
  // Each token after a '/'; a pointer not starting with '/' names the root.
  std::size_t start = pointer.empty() || pointer[0] != '/' ? pointer.size() : 1;
  while (start <= pointer.size() && !pointer.empty() && pointer[0] == '/') {
    const auto slash = pointer.find('/', start);
    const auto token = unescape_token(pointer.substr(start, slash == std::string_view::npos ? slash : slash - start));
    const auto& n = nodes_[node];
    std::size_t next = kNone;
    if (const auto it = n.members.find(token); it != n.members.end()) {
      next = it->second;
    } else if (std::size_t index = 0; array_index(token, index) && index < n.items.size()) {
      next = n.items[index];
    }
    if (next == kNone) break;  // absent: the nearest present ancestor
    node = next;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  const auto& n = nodes_[node];
  const auto offset = n.name_at != kNone ? n.name_at : n.value_at;
  // Line by binary search over line starts; the column in bytes from that start.
  const auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - line_starts_.begin();
  return {static_cast<std::size_t>(line), offset - line_starts_[static_cast<std::size_t>(line) - 1] + 1};
}

}  // namespace elicitgen
