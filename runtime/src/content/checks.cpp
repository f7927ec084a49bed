#include "elicit/content/checks.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace elicit::check {

namespace {
// JSON-quoted, so that values with quotes, commas or control characters stay readable.
std::string quoted(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

using messages::Message;

Message message(const char* id) { return Message{id, {}}; }
Message limit(const char* id, std::size_t n) { return Message{id, {{"limit", static_cast<std::int64_t>(n)}}}; }
Message limit(const char* id, std::string_view bound_text) { return Message{id, {{"limit", std::string(bound_text)}}}; }
}  // namespace

void required(ValidationResult& out, std::string_view ptr) {
  out.add(std::string(ptr), "required", message("validation.required"));
}

void not_allowed(ValidationResult& out, std::string_view ptr) {
  out.add(std::string(ptr), "additionalProperties", message("validation.additional_property"));
}

void min_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t min) {
  if (code_point_length(value) < min) out.add(std::string(ptr), "minLength", limit("validation.min_length", min));
}

void max_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t max) {
  if (code_point_length(value) > max) out.add(std::string(ptr), "maxLength", limit("validation.max_length", max));
}

void format(ValidationResult& out, std::string_view ptr, std::string_view value, StringFormat f) {
  if (matches_format(value, f)) return;
  const char* id = nullptr;
  switch (f) {
    case StringFormat::email:
      id = "validation.format.email";
      break;
    case StringFormat::uri:
      id = "validation.format.uri";
      break;
    case StringFormat::date:
      id = "validation.format.date";
      break;
    case StringFormat::date_time:
      id = "validation.format.date_time";
      break;
    case StringFormat::none:
      return;
  }
  out.add(std::string(ptr), "format", message(id));
}

void pattern(ValidationResult& out, std::string_view ptr, std::string_view value, const Pattern& p) {
  if (!p.search(value)) out.add(std::string(ptr), "pattern", Message{"validation.pattern", {{"pattern", p.source()}}});
}

void minimum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text) {
  if (value < bound) out.add(std::string(ptr), "minimum", limit("validation.minimum", bound_text));
}

void maximum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text) {
  if (value > bound) out.add(std::string(ptr), "maximum", limit("validation.maximum", bound_text));
}

void minimum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text) {
  if (int_less_than(value, bound)) out.add(std::string(ptr), "minimum", limit("validation.minimum", bound_text));
}

void maximum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text) {
  if (int_greater_than(value, bound)) out.add(std::string(ptr), "maximum", limit("validation.maximum", bound_text));
}

void min_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t min) {
  if (count < min) out.add(std::string(ptr), "minItems", limit("validation.min_items", min));
}

void max_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t max) {
  if (count > max) out.add(std::string(ptr), "maxItems", limit("validation.max_items", max));
}

void repeated(ValidationResult& out, std::string_view ptr, std::string_view wire, std::string_view first) {
  out.add(std::string(ptr), "uniqueItems",
          Message{"validation.repeated", {{"value", quoted(wire)}, {"first", std::string(first)}}});
}

void type(ValidationResult& out, std::string_view ptr, Expected expected) {
  const char* id = "validation.type.object";
  switch (expected) {
    case Expected::object:
      id = "validation.type.object";
      break;
    case Expected::string:
      id = "validation.type.string";
      break;
    case Expected::integer:
      id = "validation.type.integer";
      break;
    case Expected::int64:
      id = "validation.type.int64";
      break;
    case Expected::number:
      id = "validation.type.number";
      break;
    case Expected::boolean:
      id = "validation.type.boolean";
      break;
    case Expected::string_array:
      id = "validation.type.string_array";
      break;
  }
  out.add(std::string(ptr), "type", message(id));
}

void not_in_enum(ValidationResult& out, std::string_view ptr, const std::string_view* allowed, std::size_t count) {
  constexpr std::size_t kShown = 10;  // a 5,000-option enum must not make a 100 KB message
  std::string values;
  for (std::size_t i = 0; i < count && i < kShown; ++i) {
    if (i) values += ", ";
    values += quoted(allowed[i]);
  }
  if (count > kShown) {
    out.add(std::string(ptr), "enum",
            Message{"validation.enum_many", {{"values", values}, {"count", static_cast<std::int64_t>(count)}}});
  } else {
    out.add(std::string(ptr), "enum", Message{"validation.enum", {{"values", values}}});
  }
}

// 2^63 as a double, exactly.
constexpr double kTwo63 = 9223372036854775808.0;

bool exact_int64(double value, std::int64_t& out) noexcept {
  // [-2^63, 2^63): every integral double in this range converts exactly.
  if (!std::isfinite(value) || std::trunc(value) != value || value < -kTwo63 || value >= kTwo63) return false;
  out = static_cast<std::int64_t>(value);
  return true;
}

bool exact_int64(std::uint64_t value, std::int64_t& out) noexcept {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
  out = static_cast<std::int64_t>(value);
  return true;
}

bool int_less_than(std::int64_t value, double bound) noexcept {
  if (std::isnan(bound)) return false;
  if (bound >= kTwo63) return true;
  if (bound < -kTwo63) return false;
  // For an integer v, v < b exactly when v < ceil(b); ceil(b) is in [-2^63, 2^63] here.
  const double c = std::ceil(bound);
  if (c >= kTwo63) return true;
  return value < static_cast<std::int64_t>(c);
}

bool int_greater_than(std::int64_t value, double bound) noexcept {
  if (std::isnan(bound)) return false;
  if (bound >= kTwo63) return false;
  if (bound < -kTwo63) return true;
  const double f = std::floor(bound);
  return value > static_cast<std::int64_t>(f);
}

std::string child_pointer(std::string_view parent, std::string_view token) {
  std::string p(parent);
  p += '/';
  for (char c : token) {
    if (c == '~') {
      p += "~0";
    } else if (c == '/') {
      p += "~1";
    } else {
      p += c;
    }
  }
  return p;
}

}  // namespace elicit::check
