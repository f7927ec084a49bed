// The Mustache templates: embedded in the binary at build time, or read from --templates DIR.
#pragma once

#include <optional>
#include <string>

#include "diagnostics.hpp"

namespace elicitgen {

struct Templates {
  std::string header;  ///< header.hpp.mustache
  std::string source;  ///< source.cpp.mustache
};

/// The templates built into elicitgen.
Templates embedded_templates();

/// Reports, at `file:line`, every tag of `text` that names a key the view does not provide
/// (view_shape()), following sections into list items and honouring delimiter changes
/// ({{=<% %>=}}). Returns false when there is one. kainjow renders an unknown key as "", which
/// would silently drop code, so this runs before any rendering.
bool check_template_keys(const std::string& text, const std::string& file, Diagnostics& diags);

/// Templates from `dir`; a file that is missing there falls back to the embedded one. Reports an
/// error and returns nullopt when a present file cannot be read, does not parse as Mustache, or
/// names a key the view does not provide.
std::optional<Templates> load_templates(const std::string& dir, Diagnostics& diags);

}  // namespace elicitgen
