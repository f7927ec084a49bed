// Reading response `content` straight from JSON text into a generated type, without building a
// DOM (nlohmann's SAX interface). Generated .cpp files derive one ContentReader per type; the
// runtime drives it. The reader only says "this text is exactly a well-typed value": anything
// else (a wrong type, a missing required property, malformed JSON) makes it return false and the
// caller falls back to the DOM path, which reports every error. So both paths give identical
// results by construction, and the fast one needs no error reporting of its own.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "elicit/checks.hpp"
#include "elicit/validation.hpp"

namespace elicit::sax {

/// One JSON value met at the top level of the content object, or as an item of an array there.
struct Value {
  enum class Kind { string, integer, unsigned_integer, floating, boolean, null, array_begin };
  Kind kind = Kind::null;
  std::string* text = nullptr;  ///< for string; the reader may move from it
  std::int64_t i = 0;           ///< for integer (negative JSON integers)
  std::uint64_t u = 0;          ///< for unsigned_integer (non-negative JSON integers)
  double d = 0;                 ///< for floating
  bool b = false;               ///< for boolean
  bool item = false;            ///< an item of the array that the last array_begin opened
};

/// The per-type part of a reader: which property a key names, and storing a value in it.
class ContentReader {
 public:
  virtual ~ContentReader() = default;
  /// Index of the property named `key`, or -1 for a property the schema does not list (ignored,
  /// as JSON Schema does without additionalProperties).
  virtual int field(std::string_view key) const = 0;
  /// Stores `v` into property `field`; false when it does not have the property's JSON type.
  virtual bool set(int field, Value& v) = 0;
  /// True when every required property has been set.
  virtual bool complete() const = 0;
};

/// Reads `text` as a content object into `reader`. True when the text is one JSON object whose
/// listed properties all have their schema's JSON types and whose required properties are all
/// present; false for anything else, malformed JSON included. Never throws.
bool read_content(std::string_view text, ContentReader& reader);

/// Reads `message` as a JSON-RPC 2.0 response to elicitation/create whose result has
/// "action": "accept" and a "content" object, reading the content into `reader` (MCP 2025-11-25,
/// Elicitation, "Response Actions"). True only when that is all so and read_content's conditions
/// hold for the content; false for every other message, which the caller reads the slow way.
bool read_accepted_response(std::string_view message, ContentReader& reader);

/// A property key and its index, for a key table sorted by key (bytewise).
struct FieldKey {
  std::string_view key;
  int index;
};

template <std::size_t N>
int find_field(const std::array<FieldKey, N>& sorted, std::string_view key) noexcept {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                                   [](const FieldKey& k, std::string_view wanted) { return k.key < wanted; });
  return it != sorted.end() && it->key == key ? it->index : -1;
}

// assign(): stores a Value into a member of the matching C++ type, or returns false.

inline bool assign(std::string& out, Value& v) {
  if (v.item || v.kind != Value::Kind::string) return false;
  out = std::move(*v.text);
  return true;
}

inline bool assign(std::int64_t& out, const Value& v) {
  if (v.item) return false;
  switch (v.kind) {
    case Value::Kind::integer:
      out = v.i;
      return true;
    case Value::Kind::unsigned_integer:
      return check::exact_int64(v.u, out);
    case Value::Kind::floating:
      return check::exact_int64(v.d, out);
    default:
      return false;
  }
}

inline bool assign(double& out, const Value& v) {
  if (v.item) return false;
  switch (v.kind) {
    case Value::Kind::integer:
      out = static_cast<double>(v.i);
      return true;
    case Value::Kind::unsigned_integer:
      out = static_cast<double>(v.u);
      return true;
    case Value::Kind::floating:
      out = v.d;
      return true;
    default:
      return false;
  }
}

inline bool assign(bool& out, const Value& v) {
  if (v.item || v.kind != Value::Kind::boolean) return false;
  out = v.b;
  return true;
}

/// A single-select value: a string that is one of the options.
template <class E, std::size_t N>
bool assign(E& out, const Value& v, const std::array<EnumOption<E>, N>& options) {
  if (v.item || v.kind != Value::Kind::string) return false;
  const auto* o = find_option(options, *v.text);
  if (o != nullptr) out = o->value;
  return o != nullptr;
}

/// A multi-select value: array_begin, then one call per item, each a string that is an option.
template <class E, std::size_t N>
bool assign(std::vector<E>& out, const Value& v, const std::array<EnumOption<E>, N>& options) {
  if (!v.item) {
    if (v.kind != Value::Kind::array_begin) return false;
    out.clear();  // a repeated key: the last occurrence wins, as in the DOM
    return true;
  }
  if (v.kind != Value::Kind::string) return false;
  const auto* o = find_option(options, *v.text);
  if (o != nullptr) out.push_back(o->value);
  return o != nullptr;
}

/// An optional member: set on the first value (or array_begin); array items go to the value.
template <class T, class... Options>
bool assign(std::optional<T>& out, Value& v, const Options&... options) {
  if (v.item) return out.has_value() && assign(*out, v, options...);
  T fresh{};
  if (!assign(fresh, v, options...)) return false;
  out = std::move(fresh);
  return true;
}

}  // namespace elicit::sax
