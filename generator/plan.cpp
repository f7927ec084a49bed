#include "plan.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include <elicit/content/sensitive.hpp>

#include "names.hpp"

namespace elicitgen {
namespace {

// Whether a name or title names a secret (the spec forbids asking for those in form mode). The
// heuristic is the content layer's, shared with the URL-mode page (which masks such fields); it
// sees the member name so that the words split here and there alike.
bool looks_secret(const std::string& text) { return elicit::looks_secret(member_name(text)); }

// Whether `name` (an x-cpp-name) can be used as written: an identifier that is no keyword or macro
// and none of the forms reserved to the implementation ("__" anywhere, "_" and a capital first).
bool usable_identifier(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  if (name.find("__") != std::string::npos) return false;
  if (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z') return false;
  return !is_reserved_word(name);
}

// The C++ name an x-cpp-name gives, or nullopt (with an error at `pointer`/x-cpp-name) when it
// cannot be used.
std::optional<std::string> explicit_name(const std::optional<std::string>& cpp_name, const std::string& file,
                                         const std::string& pointer, Diagnostics& diags) {
  if (!cpp_name) return std::nullopt;
  if (usable_identifier(*cpp_name)) return cpp_name;
  diags.error(file, pointer + "/x-cpp-name",
              "\"" + *cpp_name +
                  "\" cannot be a C++ name: use letters, digits and single underscores, not starting with a digit "
                  "or _ and a capital, and not a keyword or a common macro");
  return std::string();
}

// 8 hex digits of FNV-1a over `text`: a suffix that depends on nothing but the wire value.
std::string hash_suffix(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(h));
  return hex;
}

// Enumerator names: the option's x-cpp-name, else made from its wire value, which stays the same
// when a display title is edited or translated. A valid schema never fails here: when two wire
// values map to one name ("a-b", "a_b"), the first keeps it and the later one gets "_" and a hash
// of its value, with a warning naming both. Only two equal x-cpp-names are an error (returns
// false).
bool enumerator_names(const elicit::Field& f, const std::string& file, Diagnostics& diags,
                      std::vector<std::string>& out) {
  std::map<std::string, const elicit::EnumChoice*> seen;
  std::vector<std::optional<std::string>> chosen;
  bool ok = true;
  // Explicit names first: they are what the author asked for, and a derived name yields to them.
  for (const auto& o : f.options) {
    chosen.push_back(explicit_name(o.cpp_name, file, o.pointer, diags));
    if (!chosen.back()) continue;
    if (chosen.back()->empty()) {
      ok = false;
      continue;
    }
    const auto [it, fresh] = seen.emplace(*chosen.back(), &o);
    if (!fresh) {
      diags.error(file, o.pointer + "/x-cpp-name",
                  "options \"" + it->second->value + "\" (" + it->second->pointer + ") and \"" + o.value +
                      "\" both ask for the C++ enumerator \"" + *chosen.back() + "\"");
      ok = false;
    }
  }
  for (std::size_t i = 0; i < f.options.size(); ++i) {
    const auto& o = f.options[i];
    if (chosen[i]) {
      out.push_back(*chosen[i]);
      continue;
    }
    auto name = member_name(o.value);
    if (const auto taken = seen.find(name); taken != seen.end()) {
      const auto* other = taken->second;
      name += "_" + hash_suffix(o.value);
      diags.warning(file, o.pointer,
                    "options \"" + other->value + "\" (" + other->pointer + ") and \"" + o.value +
                        "\" both map to the C++ enumerator \"" + taken->first + "\"; this one is named \"" + name +
                        "\" (give it an \"x-cpp-name\" to choose; options written as oneOf/anyOf objects)");
      if (seen.count(name)) {
        diags.error(file, o.pointer,
                    "no distinct C++ enumerator for option \"" + o.value + "\": give it an x-cpp-name");
        ok = false;
      }
    }
    seen.emplace(name, &o);
    out.push_back(std::move(name));
  }
  return ok;
}

}  // namespace

std::optional<std::string> schema_type_name(const SourceSchema& source, const std::string& given, Diagnostics& diags) {
  if (!given.empty()) return given;
  if (source.schema.is_object()) {
    if (const auto it = source.schema.find("x-cpp-name"); it != source.schema.end()) {
      if (!it->is_string()) {
        diags.error(source.file, source.pointer + "/x-cpp-name", "x-cpp-name must be a string (the C++ type name)");
        return std::nullopt;
      }
      auto chosen = explicit_name(it->get<std::string>(), source.file, source.pointer, diags);
      if (!chosen || chosen->empty()) return std::nullopt;
      return chosen;
    }
  }
  return type_name(source.name_hint);
}

std::optional<TypePlan> plan_type(const SourceSchema& source, const std::string& name, Diagnostics& diags) {
  const auto parsed = elicit::parse_requested_schema(source.schema, source.pointer);
  for (const auto& d : parsed.diagnostics) {
    if (d.severity == elicit::Diagnostic::Severity::error)
      diags.error(source.file, d.pointer, d.message);
    else
      diags.warning(source.file, d.pointer, d.message);
  }
  if (!parsed.ok()) return std::nullopt;

  TypePlan plan{source, name, parsed.form, {}};
  bool ok = true;
  // Every name declared in the struct's scope, with who declared it: data members and nested enum
  // types only (the API is free functions and traits, so no generated member function takes a
  // name). A valid schema never fails for C++ reasons: a derived name that is taken yields ("_"
  // appended, else "_" and a hash of the property name), with a warning naming both; only a taken
  // x-cpp-name is an error.
  std::map<std::string, std::string> scope{{name, "the struct itself"}};
  auto claim = [&](const std::string& id, bool chosen, const elicit::Field& f, const std::string& what) {
    auto holder = "the " + what + " of property \"" + f.name + "\" (" + f.pointer + ")";
    const auto it = scope.find(id);
    if (it == scope.end()) {
      scope.emplace(id, std::move(holder));
      return id;
    }
    if (chosen) {
      diags.error(source.file, f.pointer + "/x-cpp-name",
                  "property \"" + f.name + "\" asks for the C++ name \"" + id + "\" for its " + what +
                      ", which is already taken by " + it->second);
      ok = false;
      return id;
    }
    auto renamed = id + "_";
    if (scope.count(renamed)) renamed = id + "_" + hash_suffix(f.name);
    if (scope.count(renamed)) {
      diags.error(source.file, f.pointer,
                  "no free C++ name for the " + what + " of property \"" + f.name + "\": give it an x-cpp-name");
      ok = false;
      return id;
    }
    diags.warning(source.file, f.pointer,
                  "property \"" + f.name + "\" would get the C++ name \"" + id + "\" for its " + what +
                      ", which is taken by " + it->second + "; it is named \"" + renamed +
                      "\" (give it an x-cpp-name to choose)");
    scope.emplace(renamed, std::move(holder));
    return renamed;
  };

  for (const auto& f : parsed.form.fields) {
    const auto chosen = explicit_name(f.cpp_name, source.file, f.pointer, diags);
    if (chosen && chosen->empty()) {
      ok = false;
      continue;
    }
    // x-cpp-name names the member as written, and the enum type after it.
    const std::string& base = chosen ? *chosen : f.name;
    FieldPlan fp{f, claim(chosen ? *chosen : member_name(f.name), chosen.has_value(), f, "member"), std::nullopt};
    if (f.kind == elicit::FieldKind::single_select || f.kind == elicit::FieldKind::multi_select) {
      EnumPlan e{claim(type_name(base), false, f, "enum type"), {}};
      if (!enumerator_names(f, source.file, diags, e.value_names)) ok = false;
      fp.enumeration = std::move(e);
    }
    // A browser form (mode "url") is where secrets belong; form mode would pass them through the client.
    const bool secret = !source.browser && (looks_secret(f.name) || (f.title && looks_secret(*f.title)));
    if (secret) {
      diags.warning(source.file, f.pointer,
                    "property \"" + f.name +
                        "\" looks like a secret: servers MUST NOT request sensitive information via form mode "
                        "(MCP 2025-11-25, Elicitation, Form Mode Security): mark the schema file \"mode\": \"url\" to "
                        "ask it in the user's browser (elicit::forms::elicit_in_browser<T>(ctx))");
    }
    plan.fields.push_back(std::move(fp));
  }
  if (!ok) return std::nullopt;
  return plan;
}

}  // namespace elicitgen
