// The semantics of a requestedSchema property, defined once: one read and one check per kind
// (MCP 2025-11-25, Elicitation, "Requested Schema"; JSON Schema 2020-12 validation keywords).
// validate_content(), `elicitgen check` and generated types (through <elicit/form.hpp>) all run
// these functions on a Form, so they report the same errors, in the same order, by construction.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/content/field_value.hpp"
#include "elicit/content/schema.hpp"
#include "elicit/content/validation.hpp"

namespace elicit {

/// Reads `json` as the value of `field`: its JSON type (an integer is a number with no fraction in
/// the int64 range: 30.0 is 30, 30.5 is not), and for a select each value one of the options.
/// Each error goes to `errors` at `ptr` (an array item's at ptr/index). True when `out` holds the
/// value (then out.present is true); constraints are not checked here.
bool read_value(const Field& field, const nlohmann::json& json, std::string_view ptr, FieldValue& out,
                ValidationResult& errors);

/// Checks the constraints of `field` on a value: string lengths (code points), format, pattern;
/// number bounds (an integer compared exactly); a select's option indices in range, then (for a
/// multi-select) each repeated option, then its item counts. Appends each failure to `errors` at
/// `ptr`, in that order. An absent value passes.
///
/// A multi-select is a set of options: an option given twice is an error at the later item
/// (`/equipment/1: "projector" is selected twice (also at /equipment/0)`, keyword "uniqueItems"),
/// as if the schema said `"uniqueItems": true`. schema.ts (MCP 2025-11-25 and 2026-07-28,
/// MultiSelectEnumSchema) describes the property as a "multiple-selection enumeration" whose
/// minItems / maxItems count the "items to select", which a repeated option would satisfy without
/// selecting more; the generated member is a std::vector of the enum that handlers treat as a set.
/// minItems / maxItems count array items, repeated ones included (as JSON Schema does).
void check_value(const Field& field, const FieldValue& value, std::string_view ptr, ValidationResult& errors);

/// Reads a content object (ElicitResult.content of an accept) into one FieldValue per property of
/// `form` (`values` is resized to match): types and required properties, and with `constraints`
/// every check_value rule right after each value, then (for a closed form) each unlisted property.
/// Errors go to `errors` in that order, pointers relative to the content. True when none was added.
bool read_content(const Form& form, const nlohmann::json& content, std::vector<FieldValue>& values,
                  ValidationResult& errors, bool constraints = true);

/// The JSON of a present value: a select as its wire values. An option index out of range (a C++
/// enum value cast from an integer) is written as "".
nlohmann::json write_value(const Field& field, const FieldValue& value);

}  // namespace elicit
