// Choosing a language of the catalog: RFC 4647 lookup, from Accept-Language or the POSIX locale.
#include "elicit/messages/language.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "elicit/messages/catalog.hpp"

namespace elicit::messages {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// RFC 4647 section 3.4 lookup of one range against the catalog: the range, then each shorter
// prefix (a single-letter subtag left at the end goes with the one after it). Nullopt: no match.
std::optional<std::string> lookup(std::string_view range) {
  std::string tag = lower(range);
  std::replace(tag.begin(), tag.end(), '_', '-');
  while (!tag.empty()) {
    for (const auto& l : languages()) {
      if (lower(l) == tag) return l;
    }
    auto cut = tag.rfind('-');
    if (cut == std::string::npos) break;
    tag.resize(cut);
    if (tag.size() >= 2 && tag[tag.size() - 2] == '-') tag.resize(tag.size() - 2);
  }
  return std::nullopt;
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A language range (RFC 4647 section 2.1): "*", or 1-8 letters, then "-" and 1-8 letters or digits.
bool is_range(std::string_view r) {
  if (r == "*") return true;
  std::size_t run = 0;
  bool first = true;
  for (char c : r) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    if (c == '-') {
      if (run == 0) return false;
      run = 0;
      first = false;
    } else if ((alpha || (digit && !first)) && run < 8) {
      ++run;
    } else {
      return false;
    }
  }
  return run > 0;
}

// A weight (RFC 9110 section 12.4.2): 0, 1, 0.xyz or 1.000, as thousandths; -1 when malformed.
int weight(std::string_view q) {
  if (q.empty() || q.size() > 5 || (q[0] != '0' && q[0] != '1')) return -1;
  int value = (q[0] - '0') * 1000;
  if (q.size() == 1) return value;
  if (q[1] != '.') return -1;
  int scale = 100;
  for (std::size_t i = 2; i < q.size(); ++i, scale /= 10) {
    if (q[i] < '0' || q[i] > '9') return -1;
    value += (q[i] - '0') * scale;
  }
  return value > 1000 ? -1 : value;
}

}  // namespace

std::string resolve(std::string_view language) { return lookup(language).value_or("en"); }

std::string from_accept_language(std::string_view header) {
  constexpr std::size_t kMaxHeader = 4096;
  if (header.size() > kMaxHeader) return "en";
  struct Range {
    std::string_view range;
    int q;
    std::size_t order;
  };
  std::vector<Range> ranges;
  std::size_t order = 0;
  while (!header.empty()) {
    const auto comma = header.find(',');
    auto item = trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (item.empty()) continue;  // "a, , b" and a trailing comma (RFC 9110 section 5.6.1)
    int q = 1000;
    const auto semi = item.find(';');
    auto range = trim(item.substr(0, semi));
    if (semi != std::string_view::npos) {
      auto param = trim(item.substr(semi + 1));
      if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') return "en";
      q = weight(trim(param.substr(2)));
      if (q < 0) return "en";
    }
    if (!is_range(range)) return "en";
    if (q > 0) ranges.push_back({range, q, order++});
  }
  std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.q > b.q; });
  for (const auto& r : ranges) {
    if (r.range == "*") return "en";
    if (auto l = lookup(r.range)) return *l;
  }
  return "en";
}

std::string from_locale_name(std::string_view name) {
  const auto end = name.find_first_of(".@");
  const auto base = name.substr(0, end);
  if (base.empty() || base == "C" || base == "POSIX") return "en";
  return resolve(base);
}

std::string from_environment() {
  for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(variable);
    if (value && *value) return from_locale_name(value);
  }
  return "en";
}

}  // namespace elicit::messages
