#include "templates.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include <kainjow/mustache.hpp>

#include "view.hpp"

namespace elicitgen {

// Defined in the file CMake generates from templates/*.mustache (cmake/EmbedFiles.cmake).
extern const char kHeaderTemplate[];
extern const char kSourceTemplate[];

Templates embedded_templates() { return {kHeaderTemplate, kSourceTemplate}; }

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace

bool check_template_keys(const std::string& text, const std::string& file, Diagnostics& diags) {
  // The contexts a name can resolve in, innermost last (Mustache looks names up outwards). A null
  // entry is a section over a plain value (a bool): it adds no names.
  std::vector<const ViewShape*> stack{&view_shape()};
  std::string open = "{{", close = "}}";
  bool ok = true;
  // Resolves a name; returns false when it is unknown. `found` gets the shape of its list items, or
  // null for a plain value.
  auto resolve = [&](const std::string& name, std::shared_ptr<const ViewShape>& found) {
    if (name == ".") return true;
    const auto dot = name.find('.');
    const auto head = name.substr(0, dot);
    const ViewShape* owner = nullptr;
    for (auto it = stack.rbegin(); it != stack.rend() && !owner; ++it) {
      if (*it && (*it)->keys.count(head)) owner = *it;
    }
    if (!owner) return false;
    found = owner->keys.at(head);
    // "a.b" would look b up in the value of a: every value with names is a list, which has none.
    return dot == std::string::npos;
  };
  for (std::size_t pos = 0;;) {
    const auto tag = text.find(open, pos);
    if (tag == std::string::npos) break;
    auto body_start = tag + open.size();
    auto end = text.find(close, body_start);
    if (end == std::string::npos) break;  // kainjow reports unclosed tags
    pos = end + close.size();
    if (open == "{{" && text.compare(body_start, 1, "{") == 0 && text.compare(pos, 1, "}") == 0) {
      ++body_start;  // {{{name}}}
      ++pos;
    }
    const auto body = text.substr(body_start, end - body_start);
    if (body.empty()) continue;
    const char kind = body[0];
    if (kind == '!') continue;
    if (kind == '=' && body.size() > 1 && body.back() == '=') {
      const auto delims = trim(body.substr(1, body.size() - 2));
      const auto space = delims.find_first_of(" \t");
      if (space == std::string::npos) continue;  // kainjow reports it
      open = delims.substr(0, space);
      close = trim(delims.substr(space));
      continue;
    }
    const bool sigil = kind == '#' || kind == '^' || kind == '/' || kind == '&' || kind == '>' || kind == '{';
    auto name = trim(sigil ? body.substr(1) : body);
    if (kind == '{' && !name.empty() && name.back() == '}') name = trim(name.substr(0, name.size() - 1));
    if (kind == '>') continue;  // partials: the view provides none, kainjow reports them
    if (kind == '/') {
      if (stack.size() > 1) stack.pop_back();
      continue;
    }
    std::shared_ptr<const ViewShape> found;
    if (!resolve(name, found)) {
      diags.error_at(file, position_at(text, tag),
                     "unknown key \"" + name + "\" (the view provides no such value here)");
      ok = false;
    }
    // A section over a list enters its items (an inverted one renders only when it is empty,
    // with the outer context); over a plain value it adds no names.
    if (kind == '#') stack.push_back(found.get());
    if (kind == '^') stack.push_back(nullptr);
  }
  return ok;
}

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
    } else if (!check_template_keys(*slot, path, diags)) {
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
