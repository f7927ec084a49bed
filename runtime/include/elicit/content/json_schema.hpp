// JSON Schema validation of tool arguments (MCP 2025-11-25 and 2026-07-28, Server, Tools: a tool's
// `inputSchema` is a JSON Schema, 2020-12 unless `$schema` says otherwise, and servers MUST
// validate tool inputs). No C++ JSON Schema validator is packaged in Debian 12, so this is a small
// interpreter of the assertion keywords of 2020-12 and draft-07, checked against the official
// JSON-Schema-Test-Suite (Debian `json-schema-test-suite`, tests/content/json_schema_test.cpp).
//
// Keywords: boolean schemas, type, enum, const, multipleOf, maximum, exclusiveMaximum, minimum,
// exclusiveMinimum, maxLength, minLength (code points), pattern, maxItems, minItems, uniqueItems,
// contains, minContains, maxContains, maxProperties, minProperties, required, dependentRequired,
// dependentSchemas, dependencies (draft-07), properties, patternProperties, additionalProperties,
// propertyNames, items and prefixItems (2020-12), items as an array and additionalItems (draft-07),
// allOf, anyOf, oneOf, not, if/then/else, $ref to the same document (JSON Pointer fragments,
// $anchor, an $id written in the document), $defs and definitions. `format` is an annotation.
// Unsupported, listed by unsupported() and ignored when validating (a call is never refused for
// what cannot be judged): $ref to another document, $dynamicRef, $recursiveRef,
// unevaluatedProperties, unevaluatedItems.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicit {

/// A schema that cannot be used: what() starts with the JSON Pointer inside the schema and says
/// why ("/properties/age/minimum: must be a number").
class JsonSchemaError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// One way the instance breaks the schema.
struct SchemaViolation {
  std::string instance_pointer;  ///< where in the instance ("" for the root)
  std::string schema_pointer;    ///< the keyword that failed, in the schema ("/properties/a/minimum")
  std::string message;           ///< e.g. "must be at least 3 characters long"
};

/// A compiled schema. Cheap to copy (the compiled state is shared); validate() is thread-safe.
class JsonSchema {
 public:
  /// Compiles `schema` (an object or a boolean). Throws JsonSchemaError for a keyword whose value
  /// has the wrong type or a `pattern` that cannot run (see pattern.hpp), or a schema nested
  /// deeper than 256 levels.
  explicit JsonSchema(const nlohmann::json& schema);

  /// Every violation of `instance`, at most `max_errors` of them, in document order of the schema;
  /// empty when it is valid. Bounded: $ref chains and nesting deeper than 256 schemas end with a
  /// violation ("the schema recurses too deeply"), never a stack overflow.
  std::vector<SchemaViolation> validate(const nlohmann::json& instance, std::size_t max_errors = 16) const;

  /// Schema pointers of what validate() ignores (see the file comment).
  const std::vector<std::string>& unsupported() const noexcept;

  struct Compiled;

 private:
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace elicit
