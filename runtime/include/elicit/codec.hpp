// Reading typed values out of a response `content` object and writing them back. Included by
// generated .cpp files and by the dynamic validator; each reader reports a type error at `ptr` and
// returns false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/checks.hpp"
#include "elicit/validation.hpp"

namespace elicit::read {

/// A JSON string.
bool string(const nlohmann::json& j, std::string_view ptr, std::string& out, ValidationResult& errors);
/// A JSON number with no fractional part within the int64 range (30.0 is an integer, 30.5 is not,
/// as in JSON Schema).
bool integer(const nlohmann::json& j, std::string_view ptr, std::int64_t& out, ValidationResult& errors);
/// Any JSON number.
bool number(const nlohmann::json& j, std::string_view ptr, double& out, ValidationResult& errors);
bool boolean(const nlohmann::json& j, std::string_view ptr, bool& out, ValidationResult& errors);
/// A JSON array of strings; each non-string item is reported at ptr/index.
bool string_array(const nlohmann::json& j, std::string_view ptr, std::vector<std::string>& out,
                  ValidationResult& errors);

template <class E, std::size_t N>
void report_not_in_enum(ValidationResult& errors, std::string_view ptr, const std::array<EnumOption<E>, N>& options) {
  std::array<std::string_view, N> wires{};
  for (std::size_t i = 0; i < N; ++i) wires[i] = options[i].wire;
  check::not_in_enum(errors, ptr, wires.data(), N);
}

/// A single-select value: a string that is one of the options.
template <class E, std::size_t N>
bool enumeration(const nlohmann::json& j, std::string_view ptr, E& out, ValidationResult& errors,
                 const std::array<EnumOption<E>, N>& options) {
  std::string wire;
  if (!string(j, ptr, wire, errors)) return false;
  if (const auto* o = find_option(options, wire)) {
    out = o->value;
    return true;
  }
  report_not_in_enum(errors, ptr, options);
  return false;
}

/// A multi-select value: an array whose items are each one of the options.
template <class E, std::size_t N>
bool enumeration_array(const nlohmann::json& j, std::string_view ptr, std::vector<E>& out, ValidationResult& errors,
                       const std::array<EnumOption<E>, N>& options) {
  std::vector<std::string> wires;
  if (!string_array(j, ptr, wires, errors)) return false;
  bool ok = true;
  out.clear();
  out.reserve(wires.size());
  for (std::size_t i = 0; i < wires.size(); ++i) {
    if (const auto* o = find_option(options, wires[i])) {
      out.push_back(o->value);
    } else {
      report_not_in_enum(errors, check::child_pointer(ptr, std::to_string(i)), options);
      ok = false;
    }
  }
  return ok;
}

/// The wire value of `value`; an unknown value (a cast out of range) maps to "".
template <class E, std::size_t N>
std::string_view wire_of(const std::array<EnumOption<E>, N>& options, E value) noexcept {
  for (const auto& o : options) {
    if (o.value == value) return o.wire;
  }
  return {};
}

template <class E, std::size_t N>
std::string_view title_of(const std::array<EnumOption<E>, N>& options, E value) noexcept {
  for (const auto& o : options) {
    if (o.value == value) return o.title;
  }
  return {};
}

}  // namespace elicit::read

namespace elicit::write {

/// The wire value of a single-select value as a JSON string.
template <class Json, class E, std::size_t N>
Json enumeration(const std::array<EnumOption<E>, N>& options, E value) {
  return Json(std::string(read::wire_of(options, value)));
}

/// The wire values of a multi-select value as a JSON array of strings.
template <class Json, class E, std::size_t N>
Json enumeration_array(const std::array<EnumOption<E>, N>& options, const std::vector<E>& values) {
  Json arr = Json::array();
  for (const auto v : values) arr.push_back(std::string(read::wire_of(options, v)));
  return arr;
}

}  // namespace elicit::write
