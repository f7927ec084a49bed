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

/// Templates from `dir`; a file that is missing there falls back to the embedded one. Reports an
/// error and returns nullopt when a present file cannot be read or does not parse as Mustache.
std::optional<Templates> load_templates(const std::string& dir, Diagnostics& diags);

}  // namespace elicitgen
