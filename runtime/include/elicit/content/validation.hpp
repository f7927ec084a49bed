// Validation results shared by generated code, the runtime and `elicitgen check`.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "elicit/messages/catalog.hpp"

namespace elicit {

/// One violated rule of a requestedSchema.
/// `pointer` is a JSON Pointer (RFC 6901) into the response `content` object ("" is the object
/// itself, "/tags/1" the second item of `tags`); `keyword` is the JSON Schema keyword that failed
/// ("type", "required", "minLength", "format", "enum", ...); `message` is for people.
///
/// `message` is English in every case: it is what the runtime reports to a server and what logs and
/// `elicitgen check` print. `text` is the same message as a catalog message (id and named
/// arguments), which in() says in the language of the person who entered the value; its id is ""
/// for an error the catalog has no message for (a general JSON Schema keyword), said as `message`.
struct ValidationError {
  std::string pointer;
  std::string keyword;
  std::string message;
  messages::Message text{};

  /// The message in `language` (a BCP 47 tag; messages::text): English for a language the catalog
  /// lacks, `message` when `text` has no id.
  std::string in(std::string_view language) const { return text.id.empty() ? message : messages::text(language, text); }

  friend bool operator==(const ValidationError& a, const ValidationError& b) {
    return a.pointer == b.pointer && a.keyword == b.keyword && a.message == b.message;
  }
};

/// Every error found in one value, in schema property order. Empty means valid.
struct ValidationResult {
  std::vector<ValidationError> errors;

  bool ok() const noexcept { return errors.empty(); }
  void add(std::string pointer, std::string keyword, std::string message) {
    errors.push_back({std::move(pointer), std::move(keyword), std::move(message), {}});
  }
  /// An error whose English `message` is `text` said in English.
  void add(std::string pointer, std::string keyword, messages::Message text) {
    auto english = messages::text("en", text);
    errors.push_back({std::move(pointer), std::move(keyword), std::move(english), std::move(text)});
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
