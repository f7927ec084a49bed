// Stage 5, emit: render the templates into file contents, then write them all or none.
#pragma once

#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "templates.hpp"
#include "view.hpp"

namespace elicitgen {

struct OutputFile {
  std::string path;
  std::string content;
};

/// Tidies rendered text: no trailing spaces, no runs of blank lines, no blank line at the start,
/// after a line ending in '{' or before a line starting with '}', one newline at the end.
std::string tidy(const std::string& text);

/// Renders the header and source for one input file. Reports template errors in `diags`.
std::vector<OutputFile> render_file(const FileView& view, const std::string& out_dir, const std::string& stem,
                                    const Templates& templates, Diagnostics& diags);

/// Writes each file through a temporary file and rename, and only when its content changed, so
/// that an unchanged schema does not trigger recompiles. Returns false and reports the first
/// failure; files already renamed stay (each one is whole).
bool write_files(const std::vector<OutputFile>& files, Diagnostics& diags);

}  // namespace elicitgen
