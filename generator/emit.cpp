#include "emit.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace elicitgen {
namespace {

std::string render(const std::string& tmpl, const kainjow::mustache::data& data, const std::string& name,
                   Diagnostics& diags) {
  kainjow::mustache::mustache m(tmpl);
  // Values are escaped for C++ by the view; HTML escaping would corrupt them.
  m.set_custom_escape([](const std::string& s) { return s; });
  if (!m.is_valid()) {
    diags.error(name, "", "invalid Mustache template: " + m.error_message());
    return {};
  }
  auto out = m.render(data);
  if (!m.is_valid()) diags.error(name, "", "template rendering failed: " + m.error_message());
  return out;
}

}  // namespace

std::vector<OutputFile> render_file(const FileView& view, const std::string& out_dir, const std::string& stem,
                                    const Templates& templates, Diagnostics& diags) {
  const auto data = make_view(view);
  const auto dir = std::filesystem::path(out_dir);
  return {{(dir / (stem + ".hpp")).string(), render(templates.header, data, "header.hpp.mustache", diags)},
          {(dir / (stem + ".cpp")).string(), render(templates.source, data, "source.cpp.mustache", diags)}};
}

bool write_files(const std::vector<OutputFile>& files, Diagnostics& diags) {
  for (const auto& f : files) {
    {
      std::ifstream in(f.path, std::ios::binary);
      if (in) {
        const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (old == f.content) continue;
      }
    }
    std::error_code ec;
    const auto path = std::filesystem::path(f.path);
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      diags.error(f.path, "", "cannot create directory: " + ec.message());
      return false;
    }
    const auto tmp = f.path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << f.content;
      out.close();
      if (!out) {
        std::remove(tmp.c_str());
        diags.error(f.path, "", "cannot write file");
        return false;
      }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      std::remove(tmp.c_str());
      diags.error(f.path, "", "cannot replace file: " + ec.message());
      return false;
    }
  }
  return true;
}

}  // namespace elicitgen
