#include "templates.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <kainjow/mustache.hpp>

namespace elicitgen {

// Defined in the file CMake generates from templates/*.mustache (cmake/EmbedTemplates.cmake).
extern const char kHeaderTemplate[];
extern const char kSourceTemplate[];

Templates embedded_templates() { return {kHeaderTemplate, kSourceTemplate}; }

std::optional<Templates> load_templates(const std::string& dir, Diagnostics& diags) {
  Templates t = embedded_templates();
  bool ok = true;
  for (auto [name, slot] : {std::pair{"header.hpp.mustache", &t.header}, std::pair{"source.cpp.mustache", &t.source}}) {
    const auto path = (std::filesystem::path(dir) / name).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) continue;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diags.error(path, "", "cannot read template");
      ok = false;
      continue;
    }
    *slot = std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    kainjow::mustache::mustache m(*slot);
    if (!m.is_valid()) {
      diags.error(path, "", "invalid Mustache template: " + m.error_message());
      ok = false;
    }
  }
  if (!std::filesystem::is_directory(dir)) {
    diags.error(dir, "", "--templates must name a directory");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return t;
}

}  // namespace elicitgen
