#include "emit.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace elicitgen {

std::string tidy(const std::string& text) {
  // Every schema string reaches the output as a one-line escaped literal or comment (view.cpp), so
  // a line break is never inside a literal and lines can be dropped freely.
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const auto end = std::min(text.find('\n', start), text.size());
    auto line = text.substr(start, end - start);
    line.erase(line.find_last_not_of(" \t") + 1);
    lines.push_back(std::move(line));
    start = end + 1;
  }
  std::string out;
  std::string previous;  // last line kept, "" at the start
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    if (line.empty()) {
      // One blank line at most, and none at the start, after an opening brace, or before a
      // closing one (or the end of the file).
      std::size_t next = i + 1;
      while (next < lines.size() && lines[next].empty()) ++next;
      if (out.empty() || previous.empty() || previous.back() == '{' || next == lines.size()) continue;
      const auto first = lines[next].find_first_not_of(" \t");
      if (lines[next][first] == '}') continue;
      i = next - 1;
    }
    out += line;
    out += '\n';
    previous = line;
  }
  return out;
}

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
  return tidy(out);
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
