// Validation results shared by generated code, the runtime and `elicitgen check`.
#pragma once

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
/// Constraint checks (lengths, formats, ranges...) are not part of `from_json`: call
/// `elicit::validate(value)`, or use `elicit::decode<T>()` which does both.
class ContentError : public std::runtime_error {
 public:
  explicit ContentError(ValidationResult result);
  const ValidationResult& result() const noexcept { return result_; }

 private:
  ValidationResult result_;
};

/// Result of `elicit::decode<T>(content)`: the value when the content is valid, else every error.
template <class T>
struct Decoded {
  std::optional<T> value;
  ValidationResult errors;

  bool ok() const noexcept { return value.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
};

}  // namespace elicit
