#include "json_fast.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <system_error>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "elicit/content/utf8.hpp"

namespace elicit::jsonrpc::detail {

namespace {

using Json = nlohmann::json;

// Nesting the fast parser takes on; deeper documents (never a real message) go to nlohmann, whose
// parser does not recurse.
constexpr int kMaxFastDepth = 64;

// Bytes that may stand for themselves in a JSON string: printable ASCII other than '"' and '\\'.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0x20; c < 0x7f; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainBytes kPlain{};

// The first byte at or after `p` (before `end`) that is not plain (kPlain). With SSE2, 16 bytes at
// a time while 16 are left in the text (strings are mostly plain runs, and the stop is found
// without a byte-by-byte tail): a byte stops it when it is below 0x20 or from 0x80 on (one signed
// comparison takes both), '"', '\\' or 0x7f.
inline const char* skip_plain(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i del = _mm_set1_epi8(0x7f);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote)),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p != end && kPlain.plain[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// The length of the well-formed UTF-8 sequence at `s` (`left` bytes; lead byte >= 0x80), or 0 when
// it is not one: RFC 3629, the ranges nlohmann's lexer accepts and its serializer decodes.
std::size_t utf8_length(const unsigned char* s, std::size_t left) {
  const unsigned char c = s[0];
  auto cont = [&](std::size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return i < left && s[i] >= lo && s[i] <= hi;
  };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  // Whether the envelope's params object leaves its `_meta` object out, as text (PlainEnvelope).
  void params_meta_apart(bool on) { params_meta_apart_ = on; }

  bool document(Json& out) {
    // nlohmann skips a UTF-8 byte order mark; so does the fallback.
    if (p_ != end_ && static_cast<unsigned char>(*p_) == 0xEF) return false;
    if (!value(out)) return false;
    skip_space();
    return p_ == end_;
  }

  bool envelope(PlainEnvelope& e) {
    skip_space();
    if (p_ == end_ || *p_ != '{') return false;
    const bool read = members<std::string_view>([&](std::string_view key) {
      skip_space();
      return member(key, e);
    });
    if (!read) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  // One member's value; false for a repeated JSON-RPC member (nlohmann keeps the last one: the
  // document path decides).
  bool member(std::string_view key, PlainEnvelope& e) {
    auto once = [](bool& seen) { return !std::exchange(seen, true); };
    if (key == "jsonrpc") {
      if (!once(seen_jsonrpc_)) return false;
      if (end_ - p_ >= 5 && std::string_view(p_, 5) == "\"2.0\"") {
        p_ += 5;
        e.jsonrpc_2_0 = true;
        return true;
      }
      Json v;
      if (!value(v)) return false;
      e.jsonrpc_2_0 = v.is_string() && v.get_ref<const std::string&>() == "2.0";
      return true;
    }
    if (key == "id") return once(e.has_id) && value(e.id);
    if (key == "method") {
      if (!once(e.has_method)) return false;
      if (p_ != end_ && *p_ == '"') {
        ++p_;
        e.method_is_string = true;
        return string(e.method);
      }
      Json v;
      return value(v);
    }
    if (key == "params") {
      if (!once(e.has_params)) return false;
      skip_space();
      if (params_meta_apart_ && p_ != end_ && *p_ == '{') return object(e.params, &e.params_meta);
      return value(e.params);
    }
    if (key == "result") return once(e.has_result) && value(e.result);
    if (key == "error") return once(e.has_error) && value(e.error);
    Json ignored;
    return value(ignored);
  }

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(Json& out) {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object(out);
      case '[':
        return array(out);
      case '"': {
        ++p_;
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't':
        out = true;
        return literal("true");
      case 'f':
        out = false;
        return literal("false");
      case 'n':
        out = nullptr;
        return literal("null");
      default:
        return number(out);
    }
  }

  // An object into `out`. With `meta_apart`, a member "_meta" whose value is an object is not put
  // in `out`: its text is left in *meta_apart instead (checked as parse_plain_json checks a value).
  // A repeated "_meta" counts as nlohmann counts it, the last one: apart or in `out`, never both.
  bool object(Json& out, std::string* meta_apart = nullptr) {
    out = Json::object();
    auto& members_out = *out.get_ptr<Json::object_t*>();
    return members<std::string>([&](std::string& key) {
      if (meta_apart && key == "_meta") {
        skip_space();
        if (p_ != end_ && *p_ == '{') {
          const char* start = p_;
          if (!skip_value()) return false;
          meta_apart->assign(start, static_cast<std::size_t>(p_ - start));
          members_out.erase(key);
          return true;
        }
        meta_apart->clear();
      }
      Json v;
      if (!value(v)) return false;
      members_out.insert_or_assign(std::move(key), std::move(v));  // a repeated key: the last one wins, as in nlohmann
      return true;
    });
  }

  // The elements of the container at p_ (its '{' or '['), each read by on_element() (for an
  // object: a member, its key included), separated by commas, up to `close`. Nesting counted as in
  // value().
  template <class OnElement>
  bool elements(char close, OnElement&& on_element) {
    if (++depth_ > kMaxFastDepth) return false;
    ++p_;  // '{' or '['
    skip_space();
    if (p_ != end_ && *p_ == close) {
      ++p_;
      --depth_;
      return true;
    }
    while (true) {
      if (!on_element()) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != close) return false;
      ++p_;
      --depth_;
      return true;
    }
  }

  // The members of the object at p_ (its '{'), each handed to on_member(key) with p_ at its value
  // (after the ':'), which reads the value and says whether it could. Key: std::string (decoded,
  // to keep) or std::string_view (text(): no copy, valid until the value is read).
  template <class Key, class OnMember>
  bool members(OnMember&& on_member) {
    return elements('}', [&] {
      skip_space();
      if (p_ == end_ || *p_ != '"') return false;
      ++p_;
      Key key;
      if (!read_key(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      return on_member(key);
    });
  }

  bool read_key(std::string& key) { return string(key); }
  bool read_key(std::string_view& key) { return text(key); }

  // A value checked as value() checks it, without a document: for what is kept as text.
  bool skip_value() {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return members<std::string_view>([&](std::string_view) { return skip_value(); });
      case '[':
        return elements(']', [&] { return skip_value(); });
      case '"': {
        ++p_;
        std::string_view ignored;
        return text(ignored);
      }
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default: {
        Json n;  // a number needs no allocation
        return number(n);
      }
    }
  }

 public:
  // The text is one object: the members named in keys[0..count) are read into out[] (the last one
  // of a repeated name wins) and found[] set; the others are checked and skipped.
  bool pick(const std::string_view* keys, std::size_t count, Json* out, bool* found) {
    skip_space();
    if (p_ == end_ || *p_ != '{') return false;
    const bool read = members<std::string_view>([&](std::string_view key) {
      std::size_t i = 0;
      while (i < count && keys[i] != key) ++i;
      if (i == count) return skip_value();
      found[i] = true;
      return value(out[i]);
    });
    if (!read) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  bool array(Json& out) {
    out = Json::array();
    auto& items = *out.get_ptr<Json::array_t*>();
    return elements(']', [&] {
      if (items.empty()) items.reserve(4);  // one allocation for short arrays, rather than one per item
      items.emplace_back();
      return value(items.back());
    });
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // Four hex digits after "\u"; -1 when they are not.
  int code_unit() {
    if (end_ - p_ < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex(p_[i]);
      if (h < 0) return -1;
      v = v * 16 + h;
    }
    p_ += 4;
    return v;
  }

  // One well-formed UTF-8 sequence at p_; its length, or 0 when it is not one.
  std::size_t utf8_sequence() const {
    return utf8_length(reinterpret_cast<const unsigned char*>(p_), static_cast<std::size_t>(end_ - p_));
  }

  // The rest of a string after its opening quote, as `view`: the text itself when it needs no
  // decoding (the usual case: printable ASCII without escapes), else decoded into scratch_ (valid
  // until the next use of scratch_). Checked as string() checks it.
  bool text(std::string_view& view) {
    const char* start = p_;
    const char* stop = skip_plain(p_, end_);
    if (stop != end_ && *stop == '"') {
      view = std::string_view(start, static_cast<std::size_t>(stop - start));
      p_ = stop + 1;
      return true;
    }
    scratch_.clear();
    if (!string(scratch_)) return false;
    view = scratch_;
    return true;
  }

  // The rest of a string after its opening quote, decoded into `out`.
  bool string(std::string& out) {
    const char* run = p_;  // start of bytes copied as they are
    while (p_ != end_) {
      p_ = skip_plain(p_, end_);
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out.append(run, static_cast<std::size_t>(p_ - run));
        ++p_;
        return true;
      }
      if (c >= 0x80) {
        const auto n = utf8_sequence();
        if (n == 0) return false;
        p_ += n;
        continue;
      }
      if (c == 0x7f) {  // DEL may stand for itself (only bytes below 0x20 may not)
        ++p_;
        continue;
      }
      if (c != '\\') return false;  // a control character
      out.append(run, static_cast<std::size_t>(p_ - run));
      ++p_;
      if (p_ == end_) return false;
      switch (*p_++) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const int unit = code_unit();
          if (unit < 0) return false;
          std::uint32_t cp = static_cast<std::uint32_t>(unit);
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate first
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            const int low = code_unit();
            if (low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<std::uint32_t>(low) - 0xDC00);
          }
          ::elicit::detail::append_utf8(out, cp);
          break;
        }
        default:
          return false;
      }
      run = p_;
    }
    return false;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, typed as nlohmann types it: an integer without
  // a sign is unsigned, with one signed; with a fraction or an exponent a double.
  bool number(Json& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    } else {
      return false;
    }
    bool floating = false;
    if (p_ != end_ && *p_ == '.') {
      floating = true;
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      floating = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (!floating) {
      if (negative) {
        std::int64_t v = 0;
        const auto r = std::from_chars(start, p_, v);
        if (r.ec != std::errc() || r.ptr != p_) return false;  // beyond int64: nlohmann makes it a double
        out = v;
      } else {
        std::uint64_t v = 0;
        const auto r = std::from_chars(start, p_, v);
        if (r.ec != std::errc() || r.ptr != p_) return false;
        out = v;
      }
      return true;
    }
    double d = 0;
    const auto r = std::from_chars(start, p_, d);
    if (r.ec != std::errc() || r.ptr != p_ || !std::isfinite(d)) return false;
    out = d;
    return true;
  }

  const char* p_;
  const char* end_;
  int depth_ = 0;
  bool seen_jsonrpc_ = false;
  bool params_meta_apart_ = false;
  std::string scratch_;  // text()'s decoded strings
};

constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
using ErrorHandler = nlohmann::json::error_handler_t;

// Appends `s` escaped as nlohmann's serializer escapes it (ensure_ascii off): runs of bytes that
// stand for themselves are copied at once instead of byte by byte. False, with `out` as it was,
// when `s` is not valid UTF-8: what to write then depends on the error handler, so nlohmann does it.
bool append_escaped(std::string& out, std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  const std::size_t size_before = out.size();
  out += '"';
  const auto* run = p;
  while (p != end) {
    p = reinterpret_cast<const unsigned char*>(
        skip_plain(reinterpret_cast<const char*>(p), reinterpret_cast<const char*>(end)));
    if (p == end) break;
    const unsigned char c = *p;
    if (c == 0x7f) {
      ++p;
      continue;
    }
    if (c >= 0x80) {
      const auto n = utf8_length(p, static_cast<std::size_t>(end - p));
      if (n == 0) {
        out.resize(size_before);
        return false;
      }
      p += n;
      continue;
    }
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {  // another control character: \u00xx, lower-case hex as nlohmann writes it
        static constexpr char kHex[] = "0123456789abcdef";
        const char u[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out.append(u, sizeof u);
      }
    }
    run = ++p;
  }
  out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
  out += '"';
  return true;
}

void append_string(std::string& out, std::string_view s, ErrorHandler handler = kReplace) {
  if (!append_escaped(out, s)) out += nlohmann::json(std::string(s)).dump(-1, ' ', false, handler);
}

template <class Integer>
void append_integer(std::string& out, Integer v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

bool parse_plain_json(std::string_view text, nlohmann::json& out) { return Parser(text).document(out); }

nlohmann::json parse_json(std::string_view text) {
  nlohmann::json j;
  if (parse_plain_json(text, j)) return j;
  return nlohmann::json::parse(text.begin(), text.end());
}

bool parse_plain_envelope(std::string_view text, PlainEnvelope& out, bool params_meta_apart) {
  if (!text.empty() && static_cast<unsigned char>(text.front()) == 0xEF) return false;  // see document()
  Parser parser(text);
  parser.params_meta_apart(params_meta_apart);
  return parser.envelope(out);
}

bool pick_members(std::string_view object_text, const std::string_view* keys, std::size_t count, nlohmann::json* out,
                  bool* found) {
  if (!object_text.empty() && static_cast<unsigned char>(object_text.front()) == 0xEF) return false;
  for (std::size_t i = 0; i < count; ++i) found[i] = false;
  return Parser(object_text).pick(keys, count, out, found);
}

namespace {

void dispose_at(nlohmann::json& j, int depth) noexcept {
  if (depth > kMaxFastDepth) return;
  if (auto* object = j.get_ptr<Json::object_t*>()) {
    for (auto& member : *object) {
      if (member.second.is_structured()) dispose_at(member.second, depth + 1);
    }
    object->clear();
  } else if (auto* array = j.get_ptr<Json::array_t*>()) {
    for (auto& item : *array) {
      if (item.is_structured()) dispose_at(item, depth + 1);
    }
    array->clear();
  }
}

}  // namespace

void dispose(nlohmann::json& j) noexcept { dispose_at(j, 0); }

void append_json_string(std::string& out, std::string_view s, ErrorHandler handler) { append_string(out, s, handler); }

template <class J>
void append_dump(std::string& out, const J& j, ErrorHandler handler) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ',';
        first = false;
        append_string(out, it.key(), handler);
        out += ':';
        append_dump(out, it.value(), handler);
      }
      out += '}';
      return;
    }
    case nlohmann::json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : j) {
        if (!first) out += ',';
        first = false;
        append_dump(out, item, handler);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::string:
      append_string(out, j.template get_ref<const std::string&>(), handler);
      return;
    case nlohmann::json::value_t::number_integer:
      append_integer(out, j.template get<std::int64_t>());
      return;
    case nlohmann::json::value_t::number_unsigned:
      append_integer(out, j.template get<std::uint64_t>());
      return;
    case nlohmann::json::value_t::boolean:
      out += j.template get<bool>() ? "true" : "false";
      return;
    case nlohmann::json::value_t::null:
      out += "null";
      return;
    default:  // floats (nlohmann's shortest round-trip form), binary, discarded
      out += j.dump(-1, ' ', false, handler);
      return;
  }
}

template void append_dump(std::string&, const nlohmann::json&, ErrorHandler);
template void append_dump(std::string&, const nlohmann::ordered_json&, ErrorHandler);

}  // namespace elicit::jsonrpc::detail
