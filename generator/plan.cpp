#include "plan.hpp"

#include <map>

#include "names.hpp"

namespace elicitgen {
namespace {

// Words that mark a field as a secret. The spec forbids asking for those in form mode.
bool looks_secret(const std::string& text) {
  std::string squashed;
  for (char c : member_name(text)) {
    if (c != '_') squashed += c;
  }
  static const char* const kWords[] = {"password", "passwd",    "passphrase", "secret",     "token",
                                       "apikey",   "accesskey", "privatekey", "creditcard", "cardnumber",
                                       "cvv",      "cvc",       "ssn"};
  for (const char* w : kWords) {
    if (squashed.find(w) != std::string::npos) return true;
  }
  return false;
}

// Enumerator names: from titles when every option has one (as people read them), else from the
// wire values; whichever gives distinct names first. Returns false when neither does.
bool enumerator_names(const elicit::Field& f, std::vector<std::string>& out) {
  auto attempt = [&](bool from_title) {
    std::vector<std::string> names;
    std::map<std::string, int> seen;
    for (const auto& o : f.options) {
      if (from_title && !o.title) return false;
      names.push_back(member_name(from_title ? *o.title : o.value));
      if (seen[names.back()]++) return false;
    }
    out = std::move(names);
    return true;
  };
  const bool titled = !f.options.empty() && f.options.front().title.has_value();
  return (titled && attempt(true)) || attempt(false);
}

}  // namespace

const std::vector<std::string>& generated_member_names() {
  static const std::vector<std::string> k{"requested_schema", "default_message", "validate", "decode", "elicit"};
  return k;
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
  // Every name declared in the struct's scope, with who declared it, to report collisions.
  std::map<std::string, std::string> scope{{name, "the struct itself"}};
  for (const auto& g : generated_member_names()) scope[g] = "a generated member function";
  auto claim = [&](const std::string& id, const elicit::Field& f, const std::string& what) {
    const auto [it, fresh] = scope.emplace(id, "the " + what + " of property \"" + f.name + "\" (" + f.pointer + ")");
    if (fresh) return true;
    diags.error(source.file, f.pointer,
                "property \"" + f.name + "\" needs the C++ name \"" + id + "\" for its " + what +
                    ", which is already taken by " + it->second);
    ok = false;
    return false;
  };

  for (const auto& f : parsed.form.fields) {
    FieldPlan fp{f, member_name(f.name), std::nullopt};
    claim(fp.member, f, "member");
    if (f.kind == elicit::FieldKind::single_select || f.kind == elicit::FieldKind::multi_select) {
      // From the property name, not the member: "int" gives member int_ but options int_options.
      EnumPlan e{type_name(f.name), member_name(f.name + " options"), {}};
      claim(e.type_name, f, "enum type");
      claim(e.options_name, f, "options table");
      if (!enumerator_names(f, e.value_names)) {
        diags.error(source.file, f.pointer,
                    "the options of \"" + f.name + "\" do not map to distinct C++ enumerators (from titles or values)");
        ok = false;
      }
      fp.enumeration = std::move(e);
    }
    const bool secret = looks_secret(f.name) || (f.title && looks_secret(*f.title));
    if (secret) {
      diags.warning(source.file, f.pointer,
                    "property \"" + f.name +
                        "\" looks like a secret: servers MUST NOT request sensitive information via form mode "
                        "(MCP 2025-11-25, Elicitation, Form Mode Security); use URL mode for credentials");
    }
    plan.fields.push_back(std::move(fp));
  }
  if (!ok) return std::nullopt;
  return plan;
}

}  // namespace elicitgen
