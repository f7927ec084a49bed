// A form with a default of every property kind and one required property without a default (SEP-1034),
// for the content layer's form_defaults tests and the MCP client's Answer::accept_with_defaults.
#pragma once

#include <elicit/content/schema.hpp>
#include <nlohmann/json.hpp>

namespace test_support {

inline elicit::Form defaults_form() {
  return elicit::parse_requested_schema(nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "name": {"type": "string", "default": "John Doe"},
      "age": {"type": "integer", "default": 30},
      "score": {"type": "number", "default": 95.5},
      "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
      "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
      "verified": {"type": "boolean", "default": true},
      "email": {"type": "string", "format": "email"}
    },
    "required": ["email"]
  })"))
      .form;
}

}  // namespace test_support
