#include "load.hpp"

#include "names.hpp"

#include <elicit/content/checks.hpp>
#include <elicit/content/json_depth.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace elicitgen {
namespace {

bool is_bare_schema(const nlohmann::ordered_json& j) {
  return j.contains("properties") || (j.contains("type") && j["type"].is_string());
}

bool is_params(const nlohmann::ordered_json& j) { return j.contains("requestedSchema") || j.contains("message"); }

bool is_request(const nlohmann::ordered_json& j) { return j.contains("method") && j.contains("params"); }

// Reads one document that is a bare schema, params, or a request. Returns false if it is none.
bool read_single(const nlohmann::ordered_json& j, const std::string& file, const std::string& ptr,
                 const std::string& name, std::vector<SourceSchema>& out, Diagnostics& diags) {
  if (!j.is_object()) return false;
  if (is_request(j)) {
    const auto& method = j["method"];
    if (method != "elicitation/create") {
      diags.error(file, ptr + "/method", "expected \"elicitation/create\", found " + method.dump());
      return true;
    }
    if (!read_single(j["params"], file, ptr + "/params", name, out, diags))
      diags.error(file, ptr + "/params", "params must be an object with requestedSchema");
    return true;
  }
  if (is_params(j)) {
    SourceSchema s{file, ptr + "/requestedSchema", name, {}, std::nullopt, false};
    if (const auto mode = j.find("mode"); mode != j.end() && *mode != "form") {
      // "url" with a requestedSchema: the page of a browser form (forms::elicit_in_browser).
      if (*mode != "url") {
        diags.error(file, ptr + "/mode", "mode must be \"form\", or \"url\" for a browser form; found " + mode->dump());
        return true;
      }
      if (!j.contains("requestedSchema")) {
        diags.error(file, ptr + "/mode",
                    "url mode without a requestedSchema has no form to generate: add the page's requestedSchema "
                    "for a browser form (forms::elicit_in_browser), or use form mode");
        return true;
      }
      s.browser = true;
    }
    if (const auto m = j.find("message"); m != j.end()) {
      if (!m->is_string()) {
        diags.error(file, ptr + "/message", "message must be a string");
        return true;
      }
      s.message = m->get<std::string>();
    }
    const auto rs = j.find("requestedSchema");
    if (rs == j.end()) {
      diags.error(file, ptr, "elicitation/create params need a requestedSchema (form mode)");
      return true;
    }
    s.schema = *rs;
    out.push_back(std::move(s));
    return true;
  }
  if (is_bare_schema(j)) {
    out.push_back({file, ptr, name, j, std::nullopt, false});
    return true;
  }
  return false;
}

// The position of byte `at` of a record whose first line is line `first_line` of its file.
TextPosition record_position(const std::string& text, std::size_t at, std::size_t first_line) {
  auto p = position_at(text, at);
  p.line += first_line - 1;
  return p;
}

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::string path_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto base = path.substr(slash == std::string::npos ? 0 : slash + 1);
  const auto dot = base.find('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

std::optional<std::string> read_input(const std::string& path, Diagnostics& diags) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error(path, "", "cannot open file");
    return std::nullopt;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    diags.error(path, "", "cannot read file");
    return std::nullopt;
  }
  return text;
}

std::optional<nlohmann::ordered_json> parse_json(const std::string& text, const std::string& file, Diagnostics& diags,
                                                 std::size_t first_line) {
  if (const auto at = elicit::find_too_deep(text); at != std::string::npos) {
    diags.error_at(file, record_position(text, at, first_line),
                   "JSON nested deeper than " + std::to_string(elicit::kMaxJsonDepth) +
                       " levels (a requestedSchema is a flat object)");
    return std::nullopt;
  }
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    const std::size_t end = e.byte == 0 ? 0 : e.byte - 1;
    // nlohmann's text repeats the position ("[json.exception...] parse error at line 6, column 1: ...").
    std::string what = e.what();
    if (const auto col = what.find(", column "); col != std::string::npos) {
      if (const auto colon = what.find(": ", col); colon != std::string::npos) what = what.substr(colon + 2);
    }
    diags.error_at(file, record_position(text, end, first_line), "malformed JSON: " + what);
    return std::nullopt;
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range.406 for a number beyond double ("1e400"); nlohmann gives no position, so
    // the record's first line.
    diags.error_at(file, {first_line, 1}, std::string("unreadable JSON: ") + e.what());
    return std::nullopt;
  }
}

std::vector<SourceSchema> load_schemas(const std::string& path, Diagnostics& diags) {
  std::vector<SourceSchema> out;
  const auto file = display_name(path);
  const auto text = read_input(path, diags);
  if (!text) return out;
  const auto doc = parse_json(*text, file, diags);
  if (!doc) return out;
  diags.add_source(file, *text);  // every later message about this file is placed by its pointer
  if (!doc->is_object()) {
    diags.error(file, "", "expected a JSON object (a requestedSchema, elicitation/create params, or a collection)");
    return out;
  }
  if (read_single(*doc, file, "", path == "-" ? "" : path_stem(path), out, diags)) return out;
  if (doc->empty()) {
    diags.error(file, "", "empty object: expected a requestedSchema, elicitation/create params, or a collection");
    return out;
  }
  for (const auto& [key, value] : doc->items()) {
    const auto ptr = elicit::check::child_pointer("", key);
    if (!read_single(value, file, ptr, key, out, diags))
      diags.error(file, ptr, "collection member must be a requestedSchema or elicitation/create params object");
  }
  return out;
}

std::optional<LoadedForm> load_one_form(const std::string& path, const std::string& name, Diagnostics& diags) {
  const auto sources = load_schemas(path, diags);
  if (diags.has_errors()) return std::nullopt;
  const SourceSchema* chosen = nullptr;
  for (const auto& s : sources) {
    // A collection key, the type name made from it, or the type name its root's x-cpp-name gives.
    const auto cpp_name = s.schema.find("x-cpp-name");
    const bool named = s.name_hint == name || type_name(s.name_hint) == name ||
                       (cpp_name != s.schema.end() && cpp_name->is_string() && *cpp_name == name);
    if (name.empty() ? sources.size() == 1 : named) chosen = &s;
  }
  if (!chosen) {
    diags.error(display_name(path), "",
                name.empty() ? "the file holds several schemas; pick one with --name"
                             : "no schema named \"" + name + "\" in the file");
    return std::nullopt;
  }
  auto parsed = elicit::parse_requested_schema(chosen->schema, chosen->pointer);
  for (const auto& d : parsed.diagnostics) {
    if (d.severity == elicit::Diagnostic::Severity::error) diags.error(chosen->file, d.pointer, d.message);
  }
  if (diags.has_errors()) return std::nullopt;
  return LoadedForm{*chosen, std::move(parsed.form)};
}

}  // namespace elicitgen
