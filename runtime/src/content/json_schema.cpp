// JsonSchema (json_schema.hpp): a checked schema, interpreted on the instance's DOM.
#include "elicit/content/json_schema.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "elicit/content/checks.hpp"
#include "elicit/content/pattern.hpp"

namespace elicit {
namespace {

using json = nlohmann::json;
constexpr int kMaxDepth = 256;

std::string child(const std::string& parent, const std::string& token) { return check::child_pointer(parent, token); }
std::string child(const std::string& parent, std::size_t index) { return parent + "/" + std::to_string(index); }

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool is_integer(const json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::trunc(d) == d;
}

bool has_type(const json& v, const std::string& type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer") return is_integer(v);
  return false;
}

std::string describe(double d) {
  json j = d;
  if (std::trunc(d) == d && std::fabs(d) < 1e15) j = static_cast<std::int64_t>(d);
  return j.dump();
}

// Decodes a JSON Pointer fragment ("#/a~1b/%25") into tokens; false when malformed.
bool pointer_tokens(const std::string& fragment, std::vector<std::string>& out) {
  std::string decoded;
  for (std::size_t i = 0; i < fragment.size(); ++i) {
    if (fragment[i] == '%' && i + 2 < fragment.size()) {
      const auto hex = fragment.substr(i + 1, 2);
      char* end = nullptr;
      const long v = std::strtol(hex.c_str(), &end, 16);
      if (end != hex.c_str() + 2) return false;
      decoded += static_cast<char>(v);
      i += 2;
    } else {
      decoded += fragment[i];
    }
  }
  if (decoded.empty()) return true;
  if (decoded[0] != '/') return false;
  std::size_t start = 1;
  while (true) {
    const auto slash = decoded.find('/', start);
    auto token = decoded.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    std::string t;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        t += token[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        t += token[i];
      }
    }
    out.push_back(std::move(t));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

}  // namespace

struct JsonSchema::Compiled {
  json root;
  // Each compiled pattern by the node it belongs to: a `pattern` string, or a patternProperties
  // subschema. By node, not by schema pointer: a schema reached through $ref is validated under the
  // referring pointer, and must still find its own patterns.
  std::map<const json*, Pattern> patterns;
  std::map<std::string, std::string> anchors;  // "#name" or an $id as written -> schema pointer
  std::vector<std::string> unsupported;
  std::map<std::string, const json*> by_pointer;  // every subschema

  [[noreturn]] static void bad(const std::string& ptr, const std::string& why) {
    throw JsonSchemaError((ptr.empty() ? std::string("(root)") : ptr) + ": " + why);
  }

  void need(bool ok, const std::string& ptr, const char* why) const {
    if (!ok) bad(ptr, why);
  }

  // Checks one schema and everything under it; records patterns, anchors and what is unsupported.
  void compile(const json& s, const std::string& ptr, int depth) {
    if (depth > kMaxDepth) bad(ptr, "the schema is nested deeper than 256 levels");
    by_pointer[ptr] = &s;
    if (s.is_boolean()) return;
    if (!s.is_object()) bad(ptr, "a schema must be an object or a boolean");
    const auto number = [&](const char* k) {
      if (const auto it = s.find(k); it != s.end()) need(it->is_number(), child(ptr, k), "must be a number");
    };
    const auto count = [&](const char* k) {
      if (const auto it = s.find(k); it != s.end())
        need(is_integer(*it) && it->get<double>() >= 0, child(ptr, k), "must be a non-negative integer");
    };
    for (const char* k : {"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}) number(k);
    if (const auto it = s.find("multipleOf"); it != s.end())
      need(it->is_number() && it->get<double>() > 0, child(ptr, "multipleOf"), "must be a number greater than 0");
    for (const char* k : {"maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains",
                          "maxProperties", "minProperties"})
      count(k);
    if (const auto it = s.find("type"); it != s.end()) {
      const auto ok_type = [](const json& t) {
        static const std::set<std::string> k{"null", "boolean", "object", "array", "number", "string", "integer"};
        return t.is_string() && k.count(t.get<std::string>());
      };
      bool ok = ok_type(*it);
      if (it->is_array()) {
        ok = true;
        for (const auto& t : *it) ok = ok && ok_type(t);
      }
      need(ok, child(ptr, "type"),
           "must name JSON Schema types (null, boolean, object, array, number, string, integer)");
    }
    if (const auto it = s.find("required"); it != s.end()) {
      bool ok = it->is_array();
      for (const auto& r : ok ? *it : json::array()) ok = ok && r.is_string();
      need(ok, child(ptr, "required"), "must be an array of strings");
    }
    if (const auto it = s.find("enum"); it != s.end()) need(it->is_array(), child(ptr, "enum"), "must be an array");
    if (const auto it = s.find("pattern"); it != s.end()) {
      need(it->is_string(), child(ptr, "pattern"), "must be a string");
      add_pattern(&*it, child(ptr, "pattern"), it->get<std::string>());
    }
    if (const auto it = s.find("$anchor"); it != s.end() && it->is_string())
      anchors["#" + it->get<std::string>()] = ptr;
    if (const auto it = s.find("$id"); it != s.end() && it->is_string() && !ptr.empty())
      anchors[it->get<std::string>()] = ptr;
    if (const auto it = s.find("$ref"); it != s.end()) {
      need(it->is_string(), child(ptr, "$ref"), "must be a string");
      const auto& ref = it->get_ref<const std::string&>();
      if (ref.empty() || ref[0] != '#') {
        unsupported_if_unknown_later.push_back({ref, child(ptr, "$ref")});
      } else {
        fragment_refs.push_back(ref);
      }
    }
    for (const char* k : {"$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems"}) {
      if (s.contains(k)) unsupported.push_back(child(ptr, k));
    }
    // Subschemas.
    for (const char* k :
         {"additionalProperties", "propertyNames", "additionalItems", "contains", "not", "if", "then", "else"}) {
      if (const auto it = s.find(k); it != s.end()) compile(*it, child(ptr, k), depth + 1);
    }
    if (const auto it = s.find("items"); it != s.end()) {
      if (it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) compile((*it)[i], child(child(ptr, "items"), i), depth + 1);
      } else {
        compile(*it, child(ptr, "items"), depth + 1);
      }
    }
    for (const char* k : {"allOf", "anyOf", "oneOf", "prefixItems"}) {
      if (const auto it = s.find(k); it != s.end()) {
        need(it->is_array() && !it->empty(), child(ptr, k), "must be a non-empty array of schemas");
        for (std::size_t i = 0; i < it->size(); ++i) compile((*it)[i], child(child(ptr, k), i), depth + 1);
      }
    }
    for (const char* k : {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}) {
      if (const auto it = s.find(k); it != s.end()) {
        need(it->is_object(), child(ptr, k), "must be an object of schemas");
        for (const auto& [name, sub] : it->items()) {
          if (std::string(k) == "patternProperties") add_pattern(&sub, child(child(ptr, k), name), name);
          compile(sub, child(child(ptr, k), name), depth + 1);
        }
      }
    }
    if (const auto it = s.find("dependencies"); it != s.end() && it->is_object()) {
      for (const auto& [name, sub] : it->items()) {
        if (!sub.is_array()) compile(sub, child(child(ptr, "dependencies"), name), depth + 1);
      }
    }
  }

  void add_pattern(const json* node, const std::string& ptr, const std::string& source) {
    try {
      patterns.emplace(node, Pattern(source));
    } catch (const PatternError& e) {
      bad(ptr, std::string("pattern does not compile: ") + e.what());
    }
  }

  // The schema pointer a $ref names, or "\x01" when it names nothing here.
  std::string target_pointer(const std::string& ref) const {
    if (const auto a = anchors.find(ref); a != anchors.end()) return a->second;
    if (ref.empty() || ref[0] != '#') return "\x01";
    std::vector<std::string> tokens;
    if (!pointer_tokens(ref.substr(1), tokens)) return "\x01";
    std::string ptr;
    for (const auto& t : tokens) ptr = child(ptr, t);
    return ptr;
  }

  // A $ref's target, or null when it names something outside this document (unsupported).
  const json* resolve(const std::string& ref) const {
    const auto it = by_pointer.find(target_pointer(ref));
    return it == by_pointer.end() ? nullptr : it->second;
  }

  // A $ref may point anywhere in the document, also under keywords that hold no schema for
  // validation (e.g. {"x": {...}, "properties": {"a": {"$ref": "#/x"}}}): such targets are
  // compiled too, and what they refer to in turn.
  void compile_ref_targets() {
    for (std::size_t i = 0; i < fragment_refs.size(); ++i) {  // grows while it runs
      const auto ptr = target_pointer(fragment_refs[i]);
      if (ptr == "\x01" || by_pointer.count(ptr)) continue;
      std::vector<std::string> tokens;
      pointer_tokens(fragment_refs[i].substr(1), tokens);
      const json* node = &root;
      for (const auto& t : tokens) {
        if (node->is_object() && node->contains(t)) {
          node = &(*node)[t];
        } else if (node->is_array() && !t.empty() && t.find_first_not_of("0123456789") == std::string::npos &&
                   std::stoul(t) < node->size()) {
          node = &(*node)[std::stoul(t)];
        } else {
          node = nullptr;
          break;
        }
      }
      if (node && (node->is_object() || node->is_boolean())) compile(*node, ptr, 0);
    }
  }

  std::vector<std::pair<std::string, std::string>> unsupported_if_unknown_later;
  std::vector<std::string> fragment_refs;
};

namespace {

struct Run {
  const JsonSchema::Compiled& c;
  std::vector<SchemaViolation>* out;  // null: only whether it is valid
  std::size_t max_errors;

  bool full() const { return out && out->size() >= max_errors; }
  void fail(const std::string& ip, const std::string& sp, std::string message) {
    if (out && out->size() < max_errors) out->push_back({ip, sp, std::move(message)});
  }

  // Whether `v` is valid against `s`, with no report (for anyOf, oneOf, not, if, contains).
  bool quiet(const json& v, const json& s, const std::string& ip, const std::string& sp, int depth) {
    Run r{c, nullptr, 0};
    return r.check(v, s, ip, sp, depth);
  }

  bool check(const json& v, const json& s, const std::string& ip, const std::string& sp, int depth) {
    if (depth > kMaxDepth) {
      fail(ip, sp, "the schema recurses too deeply here");
      return false;
    }
    if (s.is_boolean()) {
      if (s.get<bool>()) return true;
      fail(ip, sp, "no value is allowed here");
      return false;
    }
    if (!s.is_object()) return true;
    bool ok = true;
    const auto bad = [&](const char* keyword, std::string message) {
      ok = false;
      fail(ip, child(sp, keyword), std::move(message));
      return !out;  // stop early when only validity is wanted
    };

    if (const auto it = s.find("$ref"); it != s.end() && it->is_string()) {
      if (const auto* target = c.resolve(it->get<std::string>())) {
        if (!check(v, *target, ip, child(sp, "$ref"), depth + 1)) {
          ok = false;
          if (!out) return false;
        }
      }
    }
    if (const auto it = s.find("type"); it != s.end()) {
      bool match = false;
      if (it->is_string()) match = has_type(v, it->get<std::string>());
      for (const auto& t : it->is_array() ? *it : json::array()) match = match || has_type(v, t.get<std::string>());
      if (!match && bad("type", "must be of type " + it->dump())) return false;
    }
    if (const auto it = s.find("enum"); it != s.end() && it->is_array()) {
      bool found = false;
      for (const auto& e : *it) found = found || e == v;
      if (!found && bad("enum", "must be one of " + it->dump())) return false;
    }
    if (const auto it = s.find("const"); it != s.end() && !(*it == v) && bad("const", "must be " + it->dump()))
      return false;

    if (v.is_number()) {
      const double d = v.get<double>();
      if (const auto it = s.find("multipleOf"); it != s.end()) {
        const double m = it->get<double>();
        const double q = d / m;
        if (std::isfinite(q) && std::fabs(q - std::round(q)) > 1e-9 * std::max(1.0, std::fabs(q)) &&
            bad("multipleOf", "must be a multiple of " + describe(m)))
          return false;
      }
      if (const auto it = s.find("maximum");
          it != s.end() && d > it->get<double>() && bad("maximum", "must be at most " + describe(it->get<double>())))
        return false;
      if (const auto it = s.find("exclusiveMaximum");
          it != s.end() && it->is_number() && d >= it->get<double>() &&
          bad("exclusiveMaximum", "must be less than " + describe(it->get<double>())))
        return false;
      if (const auto it = s.find("minimum");
          it != s.end() && d < it->get<double>() && bad("minimum", "must be at least " + describe(it->get<double>())))
        return false;
      if (const auto it = s.find("exclusiveMinimum");
          it != s.end() && it->is_number() && d <= it->get<double>() &&
          bad("exclusiveMinimum", "must be greater than " + describe(it->get<double>())))
        return false;
    }

    if (v.is_string()) {
      const auto& str = v.get_ref<const std::string&>();
      const auto n = code_points(str);
      if (const auto it = s.find("maxLength");
          it != s.end() && n > it->get<double>() &&
          bad("maxLength", "must be at most " + describe(it->get<double>()) + " characters long"))
        return false;
      if (const auto it = s.find("minLength");
          it != s.end() && n < it->get<double>() &&
          bad("minLength", "must be at least " + describe(it->get<double>()) + " characters long"))
        return false;
      if (const auto node = s.find("pattern"); node != s.end()) {
        const auto p = c.patterns.find(&*node);
        if (p != c.patterns.end() && !p->second.search(str) &&
            bad("pattern", "must match the pattern " + json(p->second.source()).dump()))
          return false;
      }
    }

    if (v.is_array()) {
      const auto size = v.size();
      if (const auto it = s.find("maxItems");
          it != s.end() && size > it->get<double>() &&
          bad("maxItems", "must have at most " + describe(it->get<double>()) + " items"))
        return false;
      if (const auto it = s.find("minItems");
          it != s.end() && size < it->get<double>() &&
          bad("minItems", "must have at least " + describe(it->get<double>()) + " items"))
        return false;
      if (const auto it = s.find("uniqueItems"); it != s.end() && it->is_boolean() && it->get<bool>()) {
        // Pairwise: nlohmann's equality is numeric for numbers (1 == 1.0), as JSON Schema wants.
        bool unique = true;
        for (std::size_t i = 0; i < size && unique; ++i) {
          for (std::size_t j = i + 1; j < size && unique; ++j) unique = !(v[i] == v[j]);
        }
        if (!unique && bad("uniqueItems", "must not contain the same item twice")) return false;
      }
      // Positional schemas: prefixItems (2020-12) or items as an array (draft-07); then the rest
      // against items (2020-12) or additionalItems (draft-07).
      std::size_t positional = 0;
      const json* rest = nullptr;
      std::string rest_ptr;
      const auto prefix = s.find("prefixItems");
      const auto items = s.find("items");
      const json* tuple = nullptr;
      std::string tuple_ptr;
      if (prefix != s.end() && prefix->is_array()) {
        tuple = &*prefix;
        tuple_ptr = child(sp, "prefixItems");
        if (items != s.end() && !items->is_array()) {
          rest = &*items;
          rest_ptr = child(sp, "items");
        }
      } else if (items != s.end() && items->is_array()) {
        tuple = &*items;
        tuple_ptr = child(sp, "items");
        if (const auto add = s.find("additionalItems"); add != s.end()) {
          rest = &*add;
          rest_ptr = child(sp, "additionalItems");
        }
      } else if (items != s.end()) {
        rest = &*items;
        rest_ptr = child(sp, "items");
      }
      if (tuple) {
        positional = std::min(size, tuple->size());
        for (std::size_t i = 0; i < positional; ++i) {
          if (!check(v[i], (*tuple)[i], child(ip, i), child(tuple_ptr, i), depth + 1)) {
            ok = false;
            if (!out || full()) return false;
          }
        }
      }
      if (rest) {
        for (std::size_t i = positional; i < size; ++i) {
          if (!check(v[i], *rest, child(ip, i), rest_ptr, depth + 1)) {
            ok = false;
            if (!out || full()) return false;
          }
        }
      }
      if (const auto it = s.find("contains"); it != s.end()) {
        std::size_t matches = 0;
        for (std::size_t i = 0; i < size; ++i)
          matches += quiet(v[i], *it, child(ip, i), child(sp, "contains"), depth + 1);
        const auto min_it = s.find("minContains");
        const double min = min_it == s.end() ? 1 : min_it->get<double>();
        if (matches < min && bad("contains", "must contain at least " + describe(min) + " matching item(s)"))
          return false;
        if (const auto max_it = s.find("maxContains");
            max_it != s.end() && matches > max_it->get<double>() &&
            bad("maxContains", "must contain at most " + describe(max_it->get<double>()) + " matching item(s)"))
          return false;
      }
    }

    if (v.is_object()) {
      const auto size = v.size();
      if (const auto it = s.find("maxProperties");
          it != s.end() && size > it->get<double>() &&
          bad("maxProperties", "must have at most " + describe(it->get<double>()) + " properties"))
        return false;
      if (const auto it = s.find("minProperties");
          it != s.end() && size < it->get<double>() &&
          bad("minProperties", "must have at least " + describe(it->get<double>()) + " properties"))
        return false;
      if (const auto it = s.find("required"); it != s.end() && it->is_array()) {
        for (const auto& name : *it) {
          if (!v.contains(name.get<std::string>()) && bad("required", "missing required property " + name.dump()))
            return false;
        }
      }
      const auto require_all = [&](const char* keyword, const json& names, const std::string& because) {
        for (const auto& n : names) {
          if (n.is_string() && !v.contains(n.get<std::string>()) &&
              bad(keyword, "missing property " + n.dump() + " (required when " + json(because).dump() + " is present)"))
            return false;
        }
        return true;
      };
      if (const auto it = s.find("dependentRequired"); it != s.end() && it->is_object()) {
        for (const auto& [name, names] : it->items()) {
          if (v.contains(name) && names.is_array() && !require_all("dependentRequired", names, name)) return false;
        }
      }
      for (const char* k : {"dependentSchemas", "dependencies"}) {
        if (const auto it = s.find(k); it != s.end() && it->is_object()) {
          for (const auto& [name, dep] : it->items()) {
            if (!v.contains(name)) continue;
            if (dep.is_array()) {
              if (!require_all(k, dep, name)) return false;
            } else if (!check(v, dep, ip, child(child(sp, k), name), depth + 1)) {
              ok = false;
              if (!out || full()) return false;
            }
          }
        }
      }
      const auto props = s.find("properties");
      const auto patterns = s.find("patternProperties");
      const auto additional = s.find("additionalProperties");
      const auto names = s.find("propertyNames");
      for (const auto& [name, value] : v.items()) {
        const auto ipn = child(ip, name);
        bool matched = false;
        if (props != s.end() && props->is_object()) {
          if (const auto p = props->find(name); p != props->end()) {
            matched = true;
            if (!check(value, *p, ipn, child(child(sp, "properties"), name), depth + 1)) {
              ok = false;
              if (!out || full()) return false;
            }
          }
        }
        if (patterns != s.end() && patterns->is_object()) {
          for (const auto& [source, sub] : patterns->items()) {
            const auto pp = child(child(sp, "patternProperties"), source);
            const auto p = c.patterns.find(&sub);
            if (p == c.patterns.end() || !p->second.search(name)) continue;
            matched = true;
            if (!check(value, sub, ipn, pp, depth + 1)) {
              ok = false;
              if (!out || full()) return false;
            }
          }
        }
        if (!matched && additional != s.end()) {
          if (additional->is_boolean() && !additional->get<bool>()) {
            ok = false;
            fail(ipn, child(sp, "additionalProperties"), "is not allowed (additionalProperties: false)");
            if (!out || full()) return false;
          } else if (!check(value, *additional, ipn, child(sp, "additionalProperties"), depth + 1)) {
            ok = false;
            if (!out || full()) return false;
          }
        }
        if (names != s.end() && !quiet(json(name), *names, ipn, child(sp, "propertyNames"), depth + 1)) {
          ok = false;
          fail(ipn, child(sp, "propertyNames"), "is not an allowed property name");
          if (!out || full()) return false;
        }
      }
    }

    // Combinators.
    if (const auto it = s.find("allOf"); it != s.end() && it->is_array()) {
      for (std::size_t i = 0; i < it->size(); ++i) {
        if (!check(v, (*it)[i], ip, child(child(sp, "allOf"), i), depth + 1)) {
          ok = false;
          if (!out || full()) return false;
        }
      }
    }
    if (const auto it = s.find("anyOf"); it != s.end() && it->is_array()) {
      bool any = false;
      for (std::size_t i = 0; i < it->size() && !any; ++i)
        any = quiet(v, (*it)[i], ip, child(child(sp, "anyOf"), i), depth + 1);
      if (!any && bad("anyOf", "must match at least one of the anyOf schemas")) return false;
    }
    if (const auto it = s.find("oneOf"); it != s.end() && it->is_array()) {
      std::size_t matched = 0;
      for (std::size_t i = 0; i < it->size(); ++i)
        matched += quiet(v, (*it)[i], ip, child(child(sp, "oneOf"), i), depth + 1);
      if (matched != 1 && bad("oneOf", matched == 0 ? std::string("must match one of the oneOf schemas (none matched)")
                                                    : "must match exactly one of the oneOf schemas (" +
                                                          std::to_string(matched) + " matched)"))
        return false;
    }
    if (const auto it = s.find("not"); it != s.end() && quiet(v, *it, ip, child(sp, "not"), depth + 1) &&
                                       bad("not", "must not match the schema in \"not\""))
      return false;
    if (const auto it = s.find("if"); it != s.end()) {
      const bool cond = quiet(v, *it, ip, child(sp, "if"), depth + 1);
      const char* branch = cond ? "then" : "else";
      if (const auto b = s.find(branch); b != s.end() && !check(v, *b, ip, child(sp, branch), depth + 1)) ok = false;
    }
    return ok;
  }
};

}  // namespace

JsonSchema::JsonSchema(const nlohmann::json& schema) {
  auto c = std::make_shared<Compiled>();
  c->root = schema;
  c->compile(c->root, "", 0);
  c->compile_ref_targets();
  // A $ref that is not a fragment is supported only when it names an $id of this document.
  for (const auto& [ref, ptr] : c->unsupported_if_unknown_later) {
    if (!c->anchors.count(ref)) c->unsupported.push_back(ptr);
  }
  std::sort(c->unsupported.begin(), c->unsupported.end());
  compiled_ = std::move(c);
}

std::vector<SchemaViolation> JsonSchema::validate(const nlohmann::json& instance, std::size_t max_errors) const {
  std::vector<SchemaViolation> out;
  if (max_errors == 0) return out;
  Run r{*compiled_, &out, max_errors};
  if (!r.check(instance, compiled_->root, "", "", 0) && out.empty())
    out.push_back({"", "", "does not match the schema"});
  return out;
}

const std::vector<std::string>& JsonSchema::unsupported() const noexcept { return compiled_->unsupported; }

}  // namespace elicit
