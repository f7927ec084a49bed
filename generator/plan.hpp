// Stages 2-3, model and check: requestedSchema -> elicit::Form (runtime model, every subset rule
// checked) -> C++ names for the type, members and enums, with collisions and secrets reported.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <elicit/content/schema.hpp>

#include "diagnostics.hpp"
#include "load.hpp"

namespace elicitgen {

struct EnumPlan {
  std::string type_name;                 ///< nested enum class, e.g. "Color"
  std::vector<std::string> value_names;  ///< enumerators, in option order
};

struct FieldPlan {
  elicit::Field field;
  std::string member;  ///< data member name
  std::optional<EnumPlan> enumeration;
};

struct TypePlan {
  SourceSchema source;
  std::string name;  ///< struct name
  elicit::Form form;
  std::vector<FieldPlan> fields;
};

/// The C++ type name of a schema: `given` when not empty (--name), else the root object's
/// `x-cpp-name` as written, else type_name() of its name hint (collection key or file stem).
/// Nullopt, with an error at POINTER/x-cpp-name, when x-cpp-name is not a string or not a usable
/// identifier (letters, digits, single underscores; no leading digit, no "_" and a capital, no
/// keyword or common macro).
std::optional<std::string> schema_type_name(const SourceSchema& source, const std::string& given, Diagnostics& diags);

/// Builds the plan for one schema; returns nullopt when it has errors (all reported in `diags`).
std::optional<TypePlan> plan_type(const SourceSchema& source, const std::string& name, Diagnostics& diags);

}  // namespace elicitgen
