// The rules of a requestedSchema as constant data: what generated code emits for each type
// (templates/source.cpp.mustache). The runtime turns a table into the same Form model that
// parse_requested_schema() builds from JSON (form_from_table, in <elicit/form.hpp>), and every
// read and check runs on that model: generated types, validate_content() and `elicitgen check`
// agree by construction. Light on purpose (no nlohmann/json.hpp): generated files include it.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace elicit {

/// What a property holds, one of the PrimitiveSchemaDefinition variants of schema.ts.
enum class FieldKind { string, number, integer, boolean, single_select, multi_select };

/// The `format` of a string property: the four MCP 2025-11-25 allows ("Requested Schema").
enum class StringFormat { none, email, uri, date, date_time };

namespace table {

/// "No such bound": a length or item count the schema leaves open.
inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// One option of a single- or multi-select: the wire value (`const` / `enum` entry) sent in
/// content, and its title (`title` / `enumNames` entry; "" when the schema gives none). In a
/// generated enum, enumerator i is option i.
struct Option {
  std::string_view wire;
  std::string_view title;
};

/// A `minimum` / `maximum`: its value, and its spelling in the schema (for messages).
struct Bound {
  bool set = false;
  double value = 0;
  std::string_view text;
};

/// The rules of one property. Built with the constexpr functions below, e.g.
/// `string("email").required().format(StringFormat::email)`.
struct Field {
  std::string_view name;  ///< the JSON property name
  FieldKind kind = FieldKind::string;
  bool is_required = false;
  std::size_t min_length_ = kNone, max_length_ = kNone;  ///< code points
  StringFormat format_ = StringFormat::none;
  bool has_pattern = false;
  std::string_view pattern_;  ///< ECMA-262 source
  Bound minimum_, maximum_;
  const Option* options_ = nullptr;
  std::size_t option_count = 0;
  std::size_t min_items_ = kNone, max_items_ = kNone;

  constexpr Field required() const {
    Field f = *this;
    f.is_required = true;
    return f;
  }
  constexpr Field min_length(std::size_t n) const {
    Field f = *this;
    f.min_length_ = n;
    return f;
  }
  constexpr Field max_length(std::size_t n) const {
    Field f = *this;
    f.max_length_ = n;
    return f;
  }
  constexpr Field format(StringFormat x) const {
    Field f = *this;
    f.format_ = x;
    return f;
  }
  constexpr Field pattern(std::string_view source) const {
    Field f = *this;
    f.has_pattern = true;
    f.pattern_ = source;
    return f;
  }
  /// `text` is the bound as written in the schema ("18", "0.5"), which messages quote.
  constexpr Field minimum(double value, std::string_view text) const {
    Field f = *this;
    f.minimum_ = {true, value, text};
    return f;
  }
  constexpr Field maximum(double value, std::string_view text) const {
    Field f = *this;
    f.maximum_ = {true, value, text};
    return f;
  }
  constexpr Field min_items(std::size_t n) const {
    Field f = *this;
    f.min_items_ = n;
    return f;
  }
  constexpr Field max_items(std::size_t n) const {
    Field f = *this;
    f.max_items_ = n;
    return f;
  }
};

constexpr Field field(std::string_view name, FieldKind kind) {
  Field f;
  f.name = name;
  f.kind = kind;
  return f;
}
constexpr Field string(std::string_view name) { return field(name, FieldKind::string); }
constexpr Field number(std::string_view name) { return field(name, FieldKind::number); }
constexpr Field integer(std::string_view name) { return field(name, FieldKind::integer); }
constexpr Field boolean(std::string_view name) { return field(name, FieldKind::boolean); }
/// A select over `count` options (an enum's option table, e.g. enum_traits<E>::options).
constexpr Field single_select(std::string_view name, const Option* options, std::size_t count) {
  Field f = field(name, FieldKind::single_select);
  f.options_ = options;
  f.option_count = count;
  return f;
}
constexpr Field multi_select(std::string_view name, const Option* options, std::size_t count) {
  Field f = single_select(name, options, count);
  f.kind = FieldKind::multi_select;
  return f;
}
template <std::size_t N>
constexpr Field single_select(std::string_view name, const std::array<Option, N>& options) {
  return single_select(name, options.data(), N);
}
template <std::size_t N>
constexpr Field multi_select(std::string_view name, const std::array<Option, N>& options) {
  return multi_select(name, options.data(), N);
}

/// A whole form: its properties in schema order, and whether `additionalProperties: false` closes
/// it (content with a property it does not list is then invalid).
struct Form {
  const Field* fields = nullptr;
  std::size_t field_count = 0;
  bool closed = false;
};

}  // namespace table
}  // namespace elicit
