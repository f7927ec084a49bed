#include "elicit/uri_template.hpp"

#include <stdexcept>

#include <re2/re2.h>

namespace elicit {
namespace {

[[noreturn]] void fail(const std::string& text, std::size_t at, const std::string& why) {
  throw std::invalid_argument("URI template \"" + text + "\", offset " + std::to_string(at) + ": " + why);
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return (c | 0x20) - 'a' + 10;
}

// RFC 6570 2.3: varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded.
bool valid_varname(std::string_view name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || c == '_') continue;
    if (c == '.' && name[i + 1] != '.') continue;
    if (c == '%' && i + 2 < name.size() && is_hex(name[i + 1]) && is_hex(name[i + 2])) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

UriTemplate::UriTemplate(std::string text) : text_(std::move(text)) {
  std::string pattern;
  std::size_t i = 0;
  while (i < text_.size()) {
    const auto open = text_.find_first_of("{}", i);
    const auto literal_end = open == std::string::npos ? text_.size() : open;
    pattern += RE2::QuoteMeta(re2::StringPiece(text_.data() + i, literal_end - i));
    if (open == std::string::npos) break;
    if (text_[open] == '}') fail(text_, open, "'}' without '{'");
    const auto close = text_.find('}', open);
    if (close == std::string::npos) fail(text_, open, "'{' without '}'");
    std::string_view expr(text_.data() + open + 1, close - open - 1);
    if (expr.empty()) fail(text_, open, "empty expression");
    bool reserved = false;
    if (expr.front() == '+') {
      reserved = true;
      expr.remove_prefix(1);
    } else if (std::string_view("#./;?&=,!@|").find(expr.front()) != std::string_view::npos) {
      fail(
          text_, open + 1,
          std::string("operator '") + expr.front() + "' is not supported (only {var} and {+var}, RFC 6570 levels 1-2)");
    }
    if (expr.find(',') != std::string_view::npos) fail(text_, open, "one variable per expression ({x,y} is level 3)");
    if (!expr.empty() && (expr.back() == '*' || expr.find(':') != std::string_view::npos))
      fail(text_, open, "value modifiers (':' and '*', level 4) are not supported");
    if (!valid_varname(expr)) fail(text_, open + 1, "\"" + std::string(expr) + "\" is not an RFC 6570 variable name");
    for (const auto& v : variables_) {
      if (v == expr) fail(text_, open + 1, "variable \"" + v + "\" appears twice");
    }
    variables_.emplace_back(expr);
    pattern += reserved ? "(.+)" : "([^/?#]+)";
    i = close + 1;
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  auto regex = std::make_shared<const RE2>(pattern, options);
  if (!regex->ok()) fail(text_, 0, "cannot compile a matcher: " + regex->error());
  regex_ = std::move(regex);
}

std::optional<std::map<std::string, std::string>> UriTemplate::match(std::string_view uri) const {
  const int n = static_cast<int>(variables_.size());
  std::vector<std::string> values(variables_.size());
  std::vector<RE2::Arg> args(variables_.size());
  std::vector<const RE2::Arg*> arg_ptrs(variables_.size());
  for (int k = 0; k < n; ++k) {
    args[k] = RE2::Arg(&values[k]);
    arg_ptrs[k] = &args[k];
  }
  if (!RE2::FullMatchN(re2::StringPiece(uri.data(), uri.size()), *regex_, arg_ptrs.data(), n)) return std::nullopt;
  std::map<std::string, std::string> out;
  for (int k = 0; k < n; ++k) out.emplace(variables_[k], percent_decode(values[k]));
  return out;
}

}  // namespace elicit
