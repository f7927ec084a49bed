// Validation results shared by generated code, the runtime and `elicitgen check`.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

/// One violated rule of a requestedSchema.
/// `pointer` is a JSON Pointer (RFC 6901) into the response `content` object ("" is the object
/// itself, "/tags/1" the second item of `tags`); `keyword` is the JSON Schema keyword that failed
/// ("type", "required", "minLength", "format", "enum", ...); `message` is for people.
struct ValidationError {
  std::string pointer;
  std::string keyword;
  std::string message;

  friend bool operator==(const ValidationError& a, const ValidationError& b) {
    return a.pointer == b.pointer && a.keyword == b.keyword && a.message == b.message;
  }
};

/// Every error found in one value, in schema property order. Empty means valid.
struct ValidationResult {
  std::vector<ValidationError> errors;

  bool ok() const noexcept { return errors.empty(); }
  void add(std::string pointer, std::string keyword, std::string message) {
    errors.push_back({std::move(pointer), std::move(keyword), std::move(message)});
  }
  /// One line per error, "pointer: message" (the format `elicitgen check` prints).
  std::string to_string() const;
};

/// Thrown by generated `from_json` when content does not have the shape of the type (a missing
/// required property, a wrong JSON type, an integer with a fraction, a value outside an enum).
/// Constraint checks (lengths, formats, ranges...) are not part of `from_json`: call `validate()`,
/// or use `T::decode()` which does both.
class ContentError : public std::runtime_error {
 public:
  explicit ContentError(ValidationResult result);
  const ValidationResult& result() const noexcept { return result_; }

 private:
  ValidationResult result_;
};

/// Result of `T::decode(content)`: the value when the content is valid, else every error.
template <class T>
struct Decoded {
  std::optional<T> value;
  ValidationResult errors;

  bool ok() const noexcept { return value.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
};

/// `value` with the result of its validate(): Decoded::value is set only when there is no error.
template <class T>
Decoded<T> validated(T value) {
  Decoded<T> d;
  d.errors = value.validate();
  if (d.errors.ok()) d.value = std::move(value);
  return d;
}

/// One option of a single- or multi-select enum: the wire value (`const` / `enum` entry) sent in
/// content, the human title (`title`, `enumNames` entry; empty for untitled enums), and the value.
template <class E>
struct EnumOption {
  std::string_view wire;
  std::string_view title;
  E value;
};

/// The option whose wire value is `wire`; null when there is none.
template <class E, std::size_t N>
const EnumOption<E>* find_option(const std::array<EnumOption<E>, N>& options, std::string_view wire) noexcept {
  for (const auto& o : options) {
    if (o.wire == wire) return &o;
  }
  return nullptr;
}

}  // namespace elicit
