// The requestedSchema model: a typed view of the restricted JSON Schema subset of MCP 2025-11-25
// ("Requested Schema"), built with every error located by JSON Pointer. The generator emits code
// from it, and `validate_content` checks a response against it at run time.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/content/form_table.hpp"  // FieldKind, StringFormat
#include "elicit/content/formats.hpp"
#include "elicit/content/pattern.hpp"
#include "elicit/content/validation.hpp"

namespace elicit {

/// How an enum's options were written (SEP-1330 variants).
enum class EnumStyle {
  none,               ///< not an enum
  untitled,           ///< {"type":"string","enum":[...]}
  titled,             ///< {"type":"string","oneOf":[{"const","title"}...]}
  legacy_enum_names,  ///< {"type":"string","enum":[...],"enumNames":[...]} (deprecated)
  untitled_multi,     ///< {"type":"array","items":{"type":"string","enum":[...]}}
  titled_multi,       ///< {"type":"array","items":{"anyOf":[{"const","title"}...]}}
};

/// A numeric bound and its spelling in the schema (kept for messages and generated code).
struct NumberBound {
  double value = 0;
  std::string text;
};

struct EnumChoice {
  std::string value;                 ///< wire value sent in content
  std::optional<std::string> title;  ///< display title, when the schema has one
  std::string pointer;               ///< where the option is written in the schema
  /// `x-cpp-name` of a titled option: the C++ enumerator the generator uses instead of one made
  /// from the wire value (an extension; clients ignore it).
  std::optional<std::string> cpp_name;
};

/// One property of the requested schema.
struct Field {
  std::string name;     ///< JSON property name
  std::string pointer;  ///< JSON Pointer of the property schema in the source document
  FieldKind kind = FieldKind::string;
  StringFormat format = StringFormat::none;
  EnumStyle enum_style = EnumStyle::none;
  bool required = false;
  std::optional<std::string> title;
  std::optional<std::string> description;
  /// `x-cpp-name`: the C++ member name the generator uses instead of one made from `name`.
  std::optional<std::string> cpp_name;
  std::optional<std::size_t> min_length, max_length;  ///< code points
  std::optional<std::string> pattern;                 ///< ECMA-262 source
  std::shared_ptr<const Pattern> compiled_pattern;
  std::optional<NumberBound> minimum, maximum;
  std::optional<std::size_t> min_items, max_items;
  std::vector<EnumChoice> options;
  std::optional<nlohmann::ordered_json> default_value;
};

/// A whole requestedSchema: properties in document order, plus the schema exactly as written.
struct Form {
  std::vector<Field> fields;
  /// `additionalProperties: false` at the root (outside the spec's subset; zod and pydantic emit
  /// it): content with a property the schema does not list is then invalid.
  bool closed = false;
  nlohmann::ordered_json schema;
};

/// A problem found while reading a schema. `pointer` locates it in the source document.
struct Diagnostic {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string pointer;
  std::string message;
};

struct ParsedForm {
  Form form;
  std::vector<Diagnostic> diagnostics;
  /// True when no diagnostic is an error (warnings allowed).
  bool ok() const noexcept;
};

/// Reads a requestedSchema (the value of `params.requestedSchema`). `base_pointer` is prefixed to
/// every diagnostic pointer (e.g. "/params/requestedSchema" when the schema sits in a request).
/// Never throws on bad input: every violation of the subset becomes an error diagnostic, and
/// ignored keywords become warnings. Checks: flat object of primitives, no $ref / nested objects /
/// arrays of objects, known types and formats, compilable `pattern`, bounds well-ordered, enum
/// options unique with matching `enumNames`, `required` naming real properties, and every
/// `default` valid against its own property.
ParsedForm parse_requested_schema(const nlohmann::ordered_json& schema, std::string_view base_pointer = "");

/// Validates a response `content` object (ElicitResult.content of an accept) against the form:
/// type, required, and every constraint, with the same messages and order as generated
/// `elicit::decode<T>()`. Pointers are relative to the content object. Unknown properties are allowed, as
/// in JSON Schema without `additionalProperties`, unless the form is `closed`: then each one is an
/// error ("/extra: is not allowed (additionalProperties: false)"), after the listed properties'.
ValidationResult validate_content(const Form& form, const nlohmann::json& content);

/// Validates one property value (`pointer` is where it sits, for the errors). Used for defaults.
ValidationResult validate_value(const Field& field, const nlohmann::json& value, std::string_view pointer);

}  // namespace elicit
