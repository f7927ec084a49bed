// Constraint checks with their error messages, shared by generated validate() and by the dynamic
// validator behind `elicitgen check`, so both report exactly the same errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "elicit/content/formats.hpp"
#include "elicit/content/pattern.hpp"
#include "elicit/content/validation.hpp"

namespace elicit::check {

/// Each function appends at most one error to `out` at JSON Pointer `ptr` when the rule fails, with
/// its English message and its catalog message (ValidationError::text, ids `validation.*` of
/// runtime/messages/root.txt).
void required(ValidationResult& out, std::string_view ptr);
/// A property the schema does not list, when it says `additionalProperties: false`.
void not_allowed(ValidationResult& out, std::string_view ptr);
void min_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t min);
void max_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t max);
void format(ValidationResult& out, std::string_view ptr, std::string_view value, StringFormat f);
void pattern(ValidationResult& out, std::string_view ptr, std::string_view value, const Pattern& p);
/// `bound_text` is the bound as written in the schema, for the message.
void minimum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text);
void maximum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text);
/// Integer variants compare exactly (no rounding of large int64 values through double).
void minimum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text);
void maximum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text);
void min_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t min);
void max_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t max);
/// A multi-select option chosen again: `ptr` is the repeated item's pointer, `first` the pointer of
/// its first occurrence, `wire` its wire value (keyword "uniqueItems").
void repeated(ValidationResult& out, std::string_view ptr, std::string_view wire, std::string_view first);

/// What a value should have been (its catalog message `validation.type.<name>`).
enum class Expected { object, string, integer, int64, number, boolean, string_array };
/// Type errors found while reading content.
void type(ValidationResult& out, std::string_view ptr, Expected expected);
/// A value outside a single- or multi-select enum; `allowed` lists the wire values.
void not_in_enum(ValidationResult& out, std::string_view ptr, const std::string_view* allowed, std::size_t count);

/// A JSON number as an integer in the int64 range, as JSON Schema's "integer" reads it: 30.0 is
/// 30, 30.5 and 2^63 are not integers here. False when the number has no such value.
bool exact_int64(double value, std::int64_t& out) noexcept;
bool exact_int64(std::uint64_t value, std::int64_t& out) noexcept;

/// Exact comparisons of an int64 with a double bound.
bool int_less_than(std::int64_t value, double bound) noexcept;
bool int_greater_than(std::int64_t value, double bound) noexcept;

/// JSON Pointer of a child: `parent` + "/" + `token` with "~" and "/" escaped (RFC 6901).
std::string child_pointer(std::string_view parent, std::string_view token);

}  // namespace elicit::check
