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

std::string count_noun(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}
}  // namespace

void required(ValidationResult& out, std::string_view ptr) { out.add(std::string(ptr), "required", "is required"); }

void not_allowed(ValidationResult& out, std::string_view ptr) {
  out.add(std::string(ptr), "additionalProperties", "is not allowed (additionalProperties: false)");
}

void min_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t min) {
  if (code_point_length(value) < min)
    out.add(std::string(ptr), "minLength", "must be at least " + count_noun(min, "character", "characters") + " long");
}

void max_length(ValidationResult& out, std::string_view ptr, std::string_view value, std::size_t max) {
  if (code_point_length(value) > max)
    out.add(std::string(ptr), "maxLength", "must be at most " + count_noun(max, "character", "characters") + " long");
}

void format(ValidationResult& out, std::string_view ptr, std::string_view value, StringFormat f) {
  if (matches_format(value, f)) return;
  std::string what;
  switch (f) {
    case StringFormat::email:
      what = "an email address (RFC 5321)";
      break;
    case StringFormat::uri:
      what = "an absolute URI (RFC 3986)";
      break;
    case StringFormat::date:
      what = "a date as YYYY-MM-DD (RFC 3339 full-date)";
      break;
    case StringFormat::date_time:
      what = "a date-time such as 2025-11-25T10:00:00Z (RFC 3339)";
      break;
    case StringFormat::none:
      return;
  }
  out.add(std::string(ptr), "format", "must be " + what);
}

void pattern(ValidationResult& out, std::string_view ptr, std::string_view value, const Pattern& p) {
  if (!p.search(value)) out.add(std::string(ptr), "pattern", "must match the pattern " + p.source());
}

void minimum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text) {
  if (value < bound) out.add(std::string(ptr), "minimum", "must be >= " + std::string(bound_text));
}

void maximum(ValidationResult& out, std::string_view ptr, double value, double bound, std::string_view bound_text) {
  if (value > bound) out.add(std::string(ptr), "maximum", "must be <= " + std::string(bound_text));
}

void minimum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text) {
  if (int_less_than(value, bound)) out.add(std::string(ptr), "minimum", "must be >= " + std::string(bound_text));
}

void maximum(ValidationResult& out, std::string_view ptr, std::int64_t value, double bound,
             std::string_view bound_text) {
  if (int_greater_than(value, bound)) out.add(std::string(ptr), "maximum", "must be <= " + std::string(bound_text));
}

void min_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t min) {
  if (count < min)
    out.add(std::string(ptr), "minItems", "must select at least " + count_noun(min, "option", "options"));
}

void max_items(ValidationResult& out, std::string_view ptr, std::size_t count, std::size_t max) {
  if (count > max) out.add(std::string(ptr), "maxItems", "must select at most " + count_noun(max, "option", "options"));
}

void repeated(ValidationResult& out, std::string_view ptr, std::string_view wire, std::string_view first) {
  out.add(std::string(ptr), "uniqueItems", quoted(wire) + " is selected twice (also at " + std::string(first) + ")");
}

void type(ValidationResult& out, std::string_view ptr, std::string_view expected) {
  out.add(std::string(ptr), "type", "must be " + std::string(expected));
}

void not_in_enum(ValidationResult& out, std::string_view ptr, const std::string_view* allowed, std::size_t count) {
  constexpr std::size_t kShown = 10;  // a 5,000-option enum must not make a 100 KB message
  std::string msg = "must be one of ";
  for (std::size_t i = 0; i < count && i < kShown; ++i) {
    if (i) msg += ", ";
    msg += quoted(allowed[i]);
  }
  if (count > kShown) msg += ", ... (" + std::to_string(count) + " in all)";
  out.add(std::string(ptr), "enum", std::move(msg));
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
