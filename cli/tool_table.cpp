// The tools of `elicitgen client` (tool_table.hpp).
#include "tool_table.hpp"

#include <algorithm>

#include "terminal_form.hpp"

namespace elicitgen {
namespace {

// A member that is a string, else "" (a peer may send any JSON).
std::string string_member(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return {};
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The title a person should see (MCP 2026-07-28, Tool: "`title`, `annotations.title`, then `name`").
std::string title_of(const nlohmann::json& tool) {
  auto title = string_member(tool, "title");
  if (title.empty() && tool.is_object()) {
    if (const auto a = tool.find("annotations"); a != tool.end()) title = string_member(*a, "title");
  }
  return title;
}

// Code points in UTF-8 text (continuation bytes not counted): the column width used.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string first_line(const std::string& s) { return s.substr(0, s.find_first_of("\r\n")); }

}  // namespace

std::vector<std::string> tool_names(const nlohmann::json& tools) {
  std::vector<std::string> names;
  if (!tools.is_array()) return names;
  for (const auto& t : tools) {
    if (t.is_object() && t.contains("name") && t["name"].is_string()) names.push_back(t["name"].get<std::string>());
  }
  return names;
}

std::string tool_table(const nlohmann::json& tools) {
  struct Row {
    std::string name, title, description;
  };
  std::vector<Row> rows;
  bool any_title = false;
  if (tools.is_array()) {
    for (const auto& t : tools) {
      Row r{terminal_safe(string_member(t, "name")), terminal_safe(title_of(t)),
            terminal_safe(first_line(string_member(t, "description")))};
      if (r.name.empty()) r.name = "?";
      any_title = any_title || !r.title.empty();
      if (r.title.empty()) r.title = "-";
      rows.push_back(std::move(r));
    }
  }
  if (rows.empty()) return {};
  std::size_t name_w = width("NAME"), title_w = width("TITLE");
  for (const auto& r : rows) {
    name_w = std::max(name_w, width(r.name));
    title_w = std::max(title_w, width(r.title));
  }
  const auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - width(s) + 2, ' '); };
  const auto line = [&](const std::string& name, const std::string& title, const std::string& description) {
    auto l = pad(name, name_w) + (any_title ? pad(title, title_w) : std::string()) + description;
    l.erase(l.find_last_not_of(' ') + 1);  // no trailing blanks when the description is empty
    return l + "\n";
  };
  std::string out = line("NAME", "TITLE", "DESCRIPTION");
  for (const auto& r : rows) out += line(r.name, r.title, r.description);
  return out;
}

std::optional<std::string> unknown_tool_message(const std::string& name, const nlohmann::json& tools) {
  const auto names = tool_names(tools);
  if (std::find(names.begin(), names.end(), name) != names.end()) return std::nullopt;
  std::string message = "unknown tool '" + terminal_safe(name) + "'; ";
  if (names.empty()) return message + "the server offers no tools";
  message += "available: ";
  for (std::size_t i = 0; i < names.size(); ++i) message += (i ? ", " : "") + terminal_safe(names[i]);
  return message;
}

}  // namespace elicitgen
