#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <unordered_set>

#include "elicit/content/checks.hpp"
#include "elicit/content/schema.hpp"

namespace elicit {

bool ParsedForm::ok() const noexcept {
  for (const auto& d : diagnostics) {
    if (d.severity == Diagnostic::Severity::error) return false;
  }
  return true;
}

namespace {

using ojson = nlohmann::ordered_json;
constexpr const char* kSubset = " (MCP 2025-11-25 requestedSchema allows only flat objects of primitive properties)";

// JSON Schema keywords that assert something. One of these outside the subset would be silently
// unenforced if ignored, so it is an error; anything else unknown is only a warning.
const std::unordered_set<std::string>& assertion_keywords() {
  static const std::unordered_set<std::string> k{"$ref",
                                                 "$defs",
                                                 "definitions",
                                                 "$id",
                                                 "$anchor",
                                                 "$dynamicRef",
                                                 "$dynamicAnchor",
                                                 "$recursiveRef",
                                                 "allOf",
                                                 "anyOf",
                                                 "oneOf",
                                                 "not",
                                                 "if",
                                                 "then",
                                                 "else",
                                                 "properties",
                                                 "patternProperties",
                                                 "additionalProperties",
                                                 "propertyNames",
                                                 "unevaluatedProperties",
                                                 "required",
                                                 "dependentRequired",
                                                 "dependentSchemas",
                                                 "dependencies",
                                                 "minProperties",
                                                 "maxProperties",
                                                 "items",
                                                 "prefixItems",
                                                 "additionalItems",
                                                 "contains",
                                                 "minContains",
                                                 "maxContains",
                                                 "unevaluatedItems",
                                                 "uniqueItems",
                                                 "minItems",
                                                 "maxItems",
                                                 "enum",
                                                 "enumNames",
                                                 "const",
                                                 "minLength",
                                                 "maxLength",
                                                 "pattern",
                                                 "format",
                                                 "minimum",
                                                 "maximum",
                                                 "exclusiveMinimum",
                                                 "exclusiveMaximum",
                                                 "multipleOf",
                                                 "contentEncoding",
                                                 "contentMediaType",
                                                 "contentSchema",
                                                 "type",
                                                 "default",
                                                 "title",
                                                 "description"};
  return k;
}

// Annotations with no effect on validation: accepted silently.
const std::unordered_set<std::string>& quiet_annotations() {
  // x-cpp-name: elicitgen's own extension (a C++ name for a property or an option), read where it
  // means something and accepted silently elsewhere.
  static const std::unordered_set<std::string> k{"$comment", "examples",  "deprecated",
                                                 "readOnly", "writeOnly", "x-cpp-name"};
  return k;
}

// Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped:
// returns cap + 1 as soon as the distance must exceed `cap`.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > cap) return cap + 1;
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return std::min(d[a.size()][b.size()], cap + 1);
}

// The known keyword that `key` most likely misspells: within edit distance 2 (1 for keywords of up
// to 4 characters, where 2 edits reach too many unrelated words: "id", "ui", "x"), ignoring case.
// Prefers the keywords allowed where `key` stands, then the closest, then the first in name order.
// Empty when none is that close. Keys starting with "x-" are extensions by convention: never typos.
std::string misspelled_keyword(const std::string& key, const std::set<std::string>& allowed) {
  if (key.rfind("x-", 0) == 0 || key.size() > 64) return {};
  auto lowered = [](std::string s) {
    for (auto& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return s;
  };
  const auto k = lowered(key);
  std::set<std::string> known(allowed);
  known.insert(assertion_keywords().begin(), assertion_keywords().end());
  known.insert(quiet_annotations().begin(), quiet_annotations().end());
  known.insert("$schema");
  std::string best;
  std::size_t best_rank = static_cast<std::size_t>(-1);
  for (const auto& candidate : known) {
    const std::size_t cap = candidate.size() <= 4 ? 1 : 2;
    const auto dist = edit_distance(k, lowered(candidate), cap);
    if (dist > cap) continue;
    const std::size_t rank = (allowed.count(candidate) ? 0 : 10) + dist;
    if (rank < best_rank) best_rank = rank, best = candidate;
  }
  return best;
}

class Parser {
 public:
  explicit Parser(std::string_view base) : base_(base) {}

  ParsedForm run(const ojson& schema) {
    ParsedForm out;
    out.form.schema = schema;
    if (!schema.is_object()) {
      error(base_, "requestedSchema must be a JSON object");
      out.diagnostics = std::move(diags_);
      return out;
    }
    check_keywords(schema, base_,
                   {"type", "properties", "required", "$schema", "title", "description", "additionalProperties"},
                   "the root object");
    const auto type = schema.find("type");
    if (type == schema.end()) {
      error(base_, "requestedSchema must have \"type\": \"object\"");
    } else if (*type != "object") {
      error(base_ + "/type", "requestedSchema \"type\" must be \"object\"");
    }
    if (const auto s = schema.find("$schema"); s != schema.end() && !s->is_string())
      error(base_ + "/$schema", "$schema must be a string");
    annotation_string(schema, base_, "title");
    annotation_string(schema, base_, "description");

    const auto props = schema.find("properties");
    if (props == schema.end()) {
      error(base_, "requestedSchema must have \"properties\" (use {} for a confirm-only form)");
    } else if (!props->is_object()) {
      error(base_ + "/properties", "\"properties\" must be an object");
    } else {
      for (const auto& [name, prop] : props->items()) {
        out.form.fields.push_back(parse_field(name, prop, check::child_pointer(base_ + "/properties", name)));
      }
    }
    read_required(schema, out.form);
    read_additional_properties(schema, out.form);
    out.diagnostics = std::move(diags_);
    return out;
  }

 private:
  std::string base_;
  std::vector<Diagnostic> diags_;

  void error(std::string ptr, std::string msg) {
    diags_.push_back({Diagnostic::Severity::error, std::move(ptr), std::move(msg)});
  }
  std::size_t error_count() const {
    std::size_t n = 0;
    for (const auto& d : diags_) n += d.severity == Diagnostic::Severity::error;
    return n;
  }
  void warning(std::string ptr, std::string msg) {
    diags_.push_back({Diagnostic::Severity::warning, std::move(ptr), std::move(msg)});
  }

  void check_keywords(const ojson& obj, const std::string& ptr, std::initializer_list<const char*> allowed,
                      const std::string& what) {
    std::set<std::string> ok(allowed.begin(), allowed.end());
    for (const auto& [key, value] : obj.items()) {
      (void)value;
      if (ok.count(key) || quiet_annotations().count(key)) continue;
      const auto kp = check::child_pointer(ptr, key);
      const bool known = assertion_keywords().count(key) != 0 || key == "$schema";
      if (const auto near = known ? std::string() : misspelled_keyword(key, ok); !near.empty()) {
        // A typo would otherwise drop the check it meant to add, silently: an error, not a warning.
        error(kp, "unknown keyword \"" + key + "\": did you mean \"" + near + "\"?");
      } else if (key == "$ref") {
        error(kp, "$ref is not allowed: every property must be written inline" + std::string(kSubset));
      } else if (assertion_keywords().count(key)) {
        error(kp, "\"" + key + "\" is not allowed on " + what + std::string(kSubset));
      } else {
        warning(kp, "unknown keyword \"" + key + "\" is ignored");
      }
    }
  }

  std::optional<std::string> annotation_string(const ojson& obj, const std::string& ptr, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_string()) {
      error(check::child_pointer(ptr, key), std::string(key) + " must be a string");
      return std::nullopt;
    }
    return it->get<std::string>();
  }

  std::optional<std::size_t> count(const ojson& obj, const std::string& ptr, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    const auto kp = check::child_pointer(ptr, key);
    if (it->is_number_unsigned() || (it->is_number_integer() && it->get<std::int64_t>() >= 0))
      return static_cast<std::size_t>(it->get<std::uint64_t>());
    if (it->is_number_float()) {
      const double d = it->get<double>();
      if (d >= 0 && std::trunc(d) == d && d < 9007199254740992.0) return static_cast<std::size_t>(d);
    }
    error(kp, std::string(key) + " must be a non-negative integer");
    return std::nullopt;
  }

  std::optional<NumberBound> bound(const ojson& obj, const std::string& ptr, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_number() || !std::isfinite(it->get<double>())) {
      error(check::child_pointer(ptr, key), std::string(key) + " must be a finite number");
      return std::nullopt;
    }
    return NumberBound{it->get<double>(), it->dump()};
  }

  void ordered(const std::string& ptr, const char* lo_key, const char* hi_key, bool bad, const std::string& lo,
               const std::string& hi) {
    if (bad)
      error(check::child_pointer(ptr, lo_key),
            std::string(lo_key) + " (" + lo + ") is greater than " + hi_key + " (" + hi + ")");
  }

  // Reads [{"const": "...", "title": "..."}...] (titled single- and multi-select options).
  void titled_options(const ojson& arr, const std::string& ptr, const char* key, Field& f) {
    if (!arr.is_array() || arr.empty()) {
      error(ptr, std::string(key) + " must be a non-empty array of {\"const\", \"title\"} objects");
      return;
    }
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const auto ip = ptr + "/" + std::to_string(i);
      const auto& o = arr[i];
      if (!o.is_object()) {
        error(ip, "each option must be an object {\"const\": string, \"title\": string}");
        continue;
      }
      check_keywords(o, ip, {"const", "title", "description"}, "an option");
      const auto c = o.find("const");
      const auto t = o.find("title");
      if (c == o.end() || !c->is_string()) {
        error(ip, "option needs a string \"const\" (the wire value)");
        continue;
      }
      if (t == o.end() || !t->is_string()) {
        error(ip, "option needs a string \"title\" (use \"enum\" for options without titles)");
        continue;
      }
      f.options.push_back({c->get<std::string>(), t->get<std::string>(), ip, annotation_string(o, ip, "x-cpp-name")});
    }
  }

  void untitled_options(const ojson& arr, const std::string& ptr, Field& f) {
    if (!arr.is_array() || arr.empty()) {
      error(ptr, "enum must be a non-empty array of strings");
      return;
    }
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const auto ip = ptr + "/" + std::to_string(i);
      if (!arr[i].is_string()) {
        error(ip, "enum values must be strings");
        continue;
      }
      f.options.push_back({arr[i].get<std::string>(), std::nullopt, ip, std::nullopt});
    }
  }

  void unique_options(const Field& f) {
    std::set<std::string> seen;
    for (const auto& o : f.options) {
      if (!seen.insert(o.value).second) error(o.pointer, "duplicate option value \"" + o.value + "\"");
    }
  }

  Field parse_field(const std::string& name, const ojson& p, const std::string& ptr) {
    Field f;
    f.name = name;
    f.pointer = ptr;
    if (!p.is_object()) {
      error(ptr, "a property schema must be an object");
      return f;
    }
    f.title = annotation_string(p, ptr, "title");
    f.description = annotation_string(p, ptr, "description");
    f.cpp_name = annotation_string(p, ptr, "x-cpp-name");
    const auto t = p.find("type");
    if (t == p.end()) {
      if (p.contains("$ref")) {
        error(ptr + "/$ref", "$ref is not allowed: every property must be written inline" + std::string(kSubset));
      } else {
        error(ptr, "property has no \"type\" (string, number, integer, boolean or array)");
      }
      return f;
    }
    if (!t->is_string()) {
      error(ptr + "/type", "\"type\" must be a single string (string, number, integer, boolean or array)");
      return f;
    }
    const auto type = t->get<std::string>();
    const auto errors_before = error_count();
    if (type == "string") {
      if (p.contains("oneOf")) {
        f.kind = FieldKind::single_select;
        f.enum_style = EnumStyle::titled;
        check_keywords(p, ptr, {"type", "title", "description", "default", "oneOf"}, "a titled single-select enum");
        titled_options(p["oneOf"], ptr + "/oneOf", "oneOf", f);
      } else if (p.contains("enum")) {
        f.kind = FieldKind::single_select;
        f.enum_style = p.contains("enumNames") ? EnumStyle::legacy_enum_names : EnumStyle::untitled;
        check_keywords(p, ptr, {"type", "title", "description", "default", "enum", "enumNames"},
                       "a single-select enum");
        untitled_options(p["enum"], ptr + "/enum", f);
        if (f.enum_style == EnumStyle::legacy_enum_names) read_enum_names(p["enumNames"], ptr + "/enumNames", f);
      } else {
        f.kind = FieldKind::string;
        check_keywords(p, ptr,
                       {"type", "title", "description", "default", "minLength", "maxLength", "pattern", "format"},
                       "a string property");
        f.min_length = count(p, ptr, "minLength");
        f.max_length = count(p, ptr, "maxLength");
        if (f.min_length && f.max_length)
          ordered(ptr, "minLength", "maxLength", *f.min_length > *f.max_length, std::to_string(*f.min_length),
                  std::to_string(*f.max_length));
        read_format(p, ptr, f);
        read_pattern(p, ptr, f);
      }
      unique_options(f);
    } else if (type == "number" || type == "integer") {
      f.kind = type == "number" ? FieldKind::number : FieldKind::integer;
      check_keywords(p, ptr, {"type", "title", "description", "default", "minimum", "maximum"},
                     "a " + type + " property");
      f.minimum = bound(p, ptr, "minimum");
      f.maximum = bound(p, ptr, "maximum");
      if (f.minimum && f.maximum)
        ordered(ptr, "minimum", "maximum", f.minimum->value > f.maximum->value, f.minimum->text, f.maximum->text);
    } else if (type == "boolean") {
      f.kind = FieldKind::boolean;
      check_keywords(p, ptr, {"type", "title", "description", "default"}, "a boolean property");
    } else if (type == "array") {
      f.kind = FieldKind::multi_select;
      check_keywords(p, ptr,
                     {"type", "title", "description", "default", "items", "minItems", "maxItems", "uniqueItems"},
                     "a multi-select enum");
      read_unique_items(p, ptr);
      f.min_items = count(p, ptr, "minItems");
      f.max_items = count(p, ptr, "maxItems");
      if (f.min_items && f.max_items)
        ordered(ptr, "minItems", "maxItems", *f.min_items > *f.max_items, std::to_string(*f.min_items),
                std::to_string(*f.max_items));
      read_items(p, ptr, f);
      unique_options(f);
    } else if (type == "object") {
      error(ptr + "/type", "nested objects are not allowed" + std::string(kSubset));
      return f;
    } else if (type == "null") {
      error(ptr + "/type", "type \"null\" is not allowed" + std::string(kSubset));
      return f;
    } else {
      error(ptr + "/type", "unknown type \"" + type + "\" (expected string, number, integer, boolean or array)");
      return f;
    }
    if (errors_before == error_count()) read_default(p, f);
    return f;
  }

  void read_enum_names(const ojson& names, const std::string& ptr, Field& f) {
    if (!names.is_array()) {
      error(ptr, "enumNames must be an array of strings");
      return;
    }
    if (names.size() != f.options.size()) {
      error(ptr, "enumNames has " + std::to_string(names.size()) + " entries but enum has " +
                     std::to_string(f.options.size()) + "; they must match one to one");
      return;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!names[i].is_string()) {
        error(ptr + "/" + std::to_string(i), "enumNames entries must be strings");
        continue;
      }
      f.options[i].title = names[i].get<std::string>();
    }
  }

  void read_format(const ojson& p, const std::string& ptr, Field& f) {
    const auto it = p.find("format");
    if (it == p.end()) return;
    const std::string fp = ptr + "/format";
    if (!it->is_string()) {
      error(fp, "format must be a string");
      return;
    }
    const auto s = it->get<std::string>();
    if (s == "email")
      f.format = StringFormat::email;
    else if (s == "uri")
      f.format = StringFormat::uri;
    else if (s == "date")
      f.format = StringFormat::date;
    else if (s == "date-time")
      f.format = StringFormat::date_time;
    else
      error(fp, "unsupported format \"" + s + "\" (MCP 2025-11-25 allows email, uri, date, date-time)");
  }

  void read_pattern(const ojson& p, const std::string& ptr, Field& f) {
    const auto it = p.find("pattern");
    if (it == p.end()) return;
    const std::string pp = ptr + "/pattern";
    if (!it->is_string()) {
      error(pp, "pattern must be a string");
      return;
    }
    try {
      f.compiled_pattern = std::make_shared<const Pattern>(it->get<std::string>());
      f.pattern = it->get<std::string>();
    } catch (const PatternError& e) {
      error(pp, std::string("pattern does not compile: ") + e.what());
    }
  }

  void read_items(const ojson& p, const std::string& ptr, Field& f) {
    const auto it = p.find("items");
    const std::string ip = ptr + "/items";
    if (it == p.end()) {
      error(ptr, "a multi-select enum needs \"items\" with \"enum\" or \"anyOf\"");
      return;
    }
    if (!it->is_object()) {
      error(ip, "items must be an object");
      return;
    }
    if (const auto t = it->find("type"); t != it->end()) {
      if (*t == "object") {
        error(ip + "/type", "arrays of objects are not allowed" + std::string(kSubset));
        return;
      }
      if (*t != "string") {
        error(ip + "/type", "multi-select items must have \"type\": \"string\"");
        return;
      }
    }
    if (it->contains("anyOf")) {
      f.enum_style = EnumStyle::titled_multi;
      check_keywords(*it, ip, {"anyOf", "type"}, "multi-select items");
      titled_options((*it)["anyOf"], ip + "/anyOf", "anyOf", f);
    } else if (it->contains("enum")) {
      f.enum_style = EnumStyle::untitled_multi;
      check_keywords(*it, ip, {"enum", "type"}, "multi-select items");
      untitled_options((*it)["enum"], ip + "/enum", f);
    } else if (it->contains("$ref")) {
      error(ip + "/$ref", "$ref is not allowed: every property must be written inline" + std::string(kSubset));
    } else {
      error(ip, "multi-select items need \"enum\" (strings) or \"anyOf\" ({\"const\", \"title\"} objects)");
    }
  }

  // uniqueItems on a multi-select: not in schema.ts, but a multi-select is a set anyway
  // (content_rules.hpp), so `true` says what is enforced (a warning, as it is sent to clients that
  // may not expect it) and `false` asks for what is never allowed (an error).
  void read_unique_items(const ojson& p, const std::string& ptr) {
    const auto it = p.find("uniqueItems");
    if (it == p.end()) return;
    const auto up = ptr + "/uniqueItems";
    if (*it != true) {
      error(up, it->is_boolean() ? "uniqueItems: false cannot be honoured: a multi-select is a set, each option "
                                   "selected at most once"
                                 : "uniqueItems must be true (a multi-select is a set)");
      return;
    }
    warning(up,
            "uniqueItems is outside the MCP 2025-11-25 requestedSchema subset (clients may not expect it); "
            "every multi-select is checked as a set without it");
  }

  void read_required(const ojson& schema, Form& form) {
    const auto it = schema.find("required");
    if (it == schema.end()) return;
    const std::string rp = base_ + "/required";
    if (!it->is_array()) {
      error(rp, "required must be an array of property names");
      return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto ip = rp + "/" + std::to_string(i);
      const auto& r = (*it)[i];
      if (!r.is_string()) {
        error(ip, "required entries must be strings");
        continue;
      }
      const auto name = r.get<std::string>();
      if (!seen.insert(name).second) {
        error(ip, "\"" + name + "\" is listed twice in required");
        continue;
      }
      bool found = false;
      for (auto& f : form.fields) {
        if (f.name == name) {
          f.required = true;
          found = true;
        }
      }
      if (!found) error(ip, "required names \"" + name + "\", which is not a property");
    }
  }

  // additionalProperties at the root: not in the spec's subset, but zod and pydantic emit `false`.
  // Accepted and honoured (content with other properties is invalid), with a warning.
  void read_additional_properties(const ojson& schema, Form& form) {
    const auto it = schema.find("additionalProperties");
    if (it == schema.end()) return;
    const auto ap = check::child_pointer(base_, "additionalProperties");
    if (!it->is_boolean()) {
      error(ap, "additionalProperties must be true or false (a schema for extra properties is not allowed)" +
                    std::string(kSubset));
      return;
    }
    form.closed = !it->get<bool>();
    warning(ap, std::string("additionalProperties is outside the MCP 2025-11-25 requestedSchema subset (clients may "
                            "not expect it); ") +
                    (form.closed ? "honoured: content with properties not in the schema is invalid"
                                 : "true is the default: properties not in the schema are ignored"));
  }

  // A default that breaks its own property would be pre-filled by clients and then rejected.
  void read_default(const ojson& p, Field& f) {
    const auto it = p.find("default");
    if (it == p.end()) return;
    f.default_value = *it;
    const auto dp = f.pointer + "/default";
    for (const auto& e : validate_value(f, nlohmann::json(*it), dp).errors)
      error(e.pointer, "default does not satisfy its own schema: " + e.message);
  }
};

}  // namespace

ParsedForm parse_requested_schema(const nlohmann::ordered_json& schema, std::string_view base_pointer) {
  return Parser(base_pointer).run(schema);
}

}  // namespace elicit
