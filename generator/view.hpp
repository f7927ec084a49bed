// Stage 4, view: the plain data the templates render. Every schema string is already escaped
// here (string literals, comments), so templates stay logic-free and cannot emit unsafe C++.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <kainjow/mustache.hpp>

#include "plan.hpp"

namespace elicitgen {

struct FileView {
  std::string source;         ///< input file name shown in the banner
  std::string header_name;    ///< e.g. "contact.hpp"
  std::string cpp_namespace;  ///< "" for the global namespace, else e.g. "app" or "app::forms"
  const std::vector<TypePlan>* types = nullptr;
  /// When false, `pattern` is left out of requested_schema() (it is not in schema.ts, and some
  /// clients reject unknown keywords) but still checked on every response.
  bool send_pattern = true;
};

kainjow::mustache::data make_view(const FileView& file);

/// The keys a view object provides: each maps to the shape of its list items, or to nothing for a
/// plain value (a string or a bool). Templates are checked against it (templates.hpp), so a
/// template that names a key the view does not provide is an error, not an empty rendering.
struct ViewShape {
  std::map<std::string, std::shared_ptr<const ViewShape>> keys;
};

/// The shape of make_view()'s result: the file, with `types`, each with `fields`, `enums`, ...
const ViewShape& view_shape();

}  // namespace elicitgen
