// The defaults of a form, for the side that answers (MCP 2025-11-25, Elicitation, "Requested
// Schema": each primitive may have a `default`, SEP-1034; clients SHOULD pre-populate the form
// with them).
#pragma once

#include <nlohmann/json.hpp>

#include "elicit/content/schema.hpp"

namespace elicit {

/// {property: default} for every property of `form` that has a `default`.
nlohmann::json form_defaults(const Form& form);

/// `content` (an object; anything else counts as {}) with every property it lacks and `form` has
/// a default for set to that default. Present properties are kept as they are, even invalid
/// ones: validate_content says what is wrong with them.
nlohmann::json apply_defaults(const Form& form, nlohmann::json content);

}  // namespace elicit
