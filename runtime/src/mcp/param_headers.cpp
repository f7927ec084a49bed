#include "elicit/protocol/param_headers.hpp"

#include <sodium.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "elicit/content/checks.hpp"
#include "elicit/content_blocks.hpp"

namespace elicit {

namespace {

using nlohmann::json;

// RFC 9110 section 5.6.2: tchar.
bool tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if ((x >= 'A' && x <= 'Z' ? x + 32 : x) != (y >= 'A' && y <= 'Z' ? y + 32 : y)) return false;
  }
  return true;
}

// Keywords whose value is a subschema, a map of subschemas or an array of subschemas (JSON Schema
// 2020-12 and the drafts before it): an annotation found through any of them is not statically
// reachable. `properties` is walked apart: through it alone a property stays reachable.
bool schema_keyword(std::string_view k) {
  for (const auto* s : {"items",
                        "additionalItems",
                        "prefixItems",
                        "contains",
                        "additionalProperties",
                        "patternProperties",
                        "propertyNames",
                        "unevaluatedProperties",
                        "unevaluatedItems",
                        "not",
                        "if",
                        "then",
                        "else",
                        "allOf",
                        "anyOf",
                        "oneOf",
                        "$defs",
                        "definitions",
                        "dependentSchemas",
                        "dependencies"}) {
    if (k == s) return true;
  }
  return false;
}

struct Walker {
  std::vector<ParamHeader> found;
  std::vector<std::string> found_at;  // JSON Pointers, for the uniqueness error

  [[noreturn]] static void fail(const std::string& pointer, const std::string& why) {
    throw std::invalid_argument(pointer + "/x-mcp-header: " + why);
  }

  void annotation(const json& node, const std::string& pointer, bool reachable, const std::vector<std::string>& path) {
    const auto& value = node.at("x-mcp-header");
    if (!reachable || path.empty()) {
      fail(pointer, "x-mcp-header is allowed only on a property reached from the root through `properties` keys");
    }
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) fail(pointer, "must be a non-empty string");
    const auto& name = value.get_ref<const std::string&>();
    for (const char c : name) {
      if (!tchar(c)) fail(pointer, "\"" + name + "\" is not an HTTP field-name token (RFC 9110 tchar)");
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (iequal(found[i].name, name)) {
        fail(pointer,
             "\"" + name + "\" is already used at " + found_at[i] + " (names are compared case-insensitively)");
      }
    }
    const auto type = node.find("type");
    const std::string t = type != node.end() && type->is_string() ? type->get<std::string>() : "";
    ParamHeader h{name, path, ParamHeader::Type::string};
    if (t == "string") {
      h.type = ParamHeader::Type::string;
    } else if (t == "integer") {
      h.type = ParamHeader::Type::integer;
    } else if (t == "boolean") {
      h.type = ParamHeader::Type::boolean;
    } else if (t == "number") {
      fail(pointer, "not allowed on a property of type number (only string, integer, boolean)");
    } else {
      fail(pointer, "the property must have \"type\": \"string\", \"integer\" or \"boolean\"");
    }
    found.push_back(std::move(h));
    found_at.push_back(pointer);
  }

  void walk(const json& node, const std::string& pointer, bool reachable, const std::vector<std::string>& path) {
    if (!node.is_object()) return;  // a boolean schema, or not a schema
    if (node.contains("x-mcp-header")) annotation(node, pointer, reachable, path);
    for (const auto& [key, value] : node.items()) {
      const auto at = check::child_pointer(pointer, key);
      if (key == "properties" && value.is_object()) {
        for (const auto& [name, sub] : value.items()) {
          auto sub_path = path;
          sub_path.push_back(name);
          walk(sub, check::child_pointer(at, name), reachable, sub_path);
        }
      } else if (schema_keyword(key)) {
        if (value.is_object() && (key == "patternProperties" || key == "$defs" || key == "definitions" ||
                                  key == "dependentSchemas" || key == "dependencies")) {
          for (const auto& [name, sub] : value.items()) walk(sub, check::child_pointer(at, name), false, {});
        } else if (value.is_array()) {
          for (std::size_t i = 0; i < value.size(); ++i) walk(value[i], at + "/" + std::to_string(i), false, {});
        } else {
          walk(value, at, false, {});
        }
      }
    }
  }
};

std::string text_of(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

// A header's numeric value: a decimal number written whole ("42", "-7", "42.0"); nullopt otherwise.
std::optional<double> number_of(const std::string& s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) return std::nullopt;
  }
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
  return d;
}

bool agrees(const std::string& header, const json& body) {
  switch (body.type()) {
    case json::value_t::string:
      return header == body.get_ref<const std::string&>();
    case json::value_t::boolean:
      return header == (body.get<bool>() ? "true" : "false");
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: {
      // Numerically (Streamable HTTP, "Server Validation": 42.0 and 42 are equal); integer
      // parameters are within +-(2^53 - 1), where a double is exact.
      const auto h = number_of(header);
      return h && *h == body.get<double>();
    }
    default:
      return false;  // an object or an array has no header form
  }
}

}  // namespace

std::vector<ParamHeader> param_headers_of(const json& input_schema) {
  Walker w;
  w.walk(input_schema, "", true, {});
  return std::move(w.found);
}

std::optional<std::string> decode_header_value(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  if (v.size() >= prefix.size() + suffix.size() && v.substr(0, prefix.size()) == prefix &&
      v.substr(v.size() - suffix.size()) == suffix) {
    const auto text = v.substr(prefix.size(), v.size() - prefix.size() - suffix.size());
    // The alphabet and the padding first: libsodium 1.0.18 decodes some bytes above 0x7F as if
    // they were Base64 characters (fuzz_headers found "SGVsbG8sIOS\xC2lueVjA==").
    const auto data_end = text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    const auto padding = data_end == std::string_view::npos ? std::string_view() : text.substr(data_end);
    if (text.size() % 4 != 0 || padding.size() > 2 || padding.find_first_not_of('=') != std::string_view::npos) {
      return std::nullopt;
    }
    std::string out(text.size() / 4 * 3 + 3, '\0');
    std::size_t length = 0;
    const char* end = nullptr;
    // libsodium's decoder: padding required, no characters outside the alphabet, and the unused
    // bits of the last character zero (canonical), so one value has one encoding.
    if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                          &length, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != text.data() + text.size()) {
      return std::nullopt;
    }
    out.resize(length);
    try {
      (void)json(out).dump();  // throws on bytes that are not UTF-8
    } catch (const json::type_error&) {
      return std::nullopt;
    }
    return out;
  }
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (!(u == '\t' || (u >= 0x20 && u <= 0x7E))) return std::nullopt;  // RFC 9110 field-value, ASCII only
  }
  return std::string(v);
}

const char* mcp_name_member(std::string_view method) noexcept {
  if (method == "tools/call" || method == "prompts/get") return "name";
  if (method == "resources/read") return "uri";
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") return "taskId";
  return nullptr;
}

std::string encode_header_value(std::string_view v) {
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  // A plain value that reads as the sentinel would be decoded by the server: it is encoded too.
  bool plain = !(v.size() >= prefix.size() + suffix.size() && v.substr(0, prefix.size()) == prefix &&
                 v.substr(v.size() - suffix.size()) == suffix);
  plain = plain && (v.empty() || (v.front() != ' ' && v.back() != ' '));
  for (const char c : v) plain = plain && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
  return plain ? std::string(v) : std::string(prefix) + base64_encode(v) + std::string(suffix);
}

std::vector<std::pair<std::string, std::string>> param_header_fields(const std::vector<ParamHeader>& annotations,
                                                                     const json& arguments) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& a : annotations) {
    const json* value = &arguments;
    for (const auto& key : a.path) {
      if (value == nullptr || !value->is_object()) {
        value = nullptr;
        break;
      }
      const auto it = value->find(key);
      value = it == value->end() ? nullptr : &*it;
    }
    if (value == nullptr) continue;
    std::string text;
    switch (value->type()) {
      case json::value_t::string:
        text = value->get<std::string>();
        break;
      case json::value_t::boolean:
        text = value->get<bool>() ? "true" : "false";
        break;
      case json::value_t::number_integer:
      case json::value_t::number_unsigned:
        text = value->dump();
        break;
      case json::value_t::number_float: {
        // An integer sent as 42.0 is still the integer 42 (Value Encoding: decimal); a fraction has
        // no integer form and goes as JSON writes it (the server compares numbers numerically).
        const double d = value->get<double>();
        constexpr double kSafe = 9007199254740991.0;  // 2^53 - 1
        text = std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= kSafe
                   ? std::to_string(static_cast<long long>(d))
                   : value->dump();
        break;
      }
      default:
        continue;  // null: omitted; an object or array: no header form
    }
    out.emplace_back("Mcp-Param-" + a.name, encode_header_value(text));
  }
  return out;
}

std::optional<std::string> check_param_headers(
    const std::vector<ParamHeader>& annotations, const json& arguments,
    const std::function<std::optional<std::string_view>(std::string_view name)>& header) {
  for (const auto& a : annotations) {
    const json* value = &arguments;
    std::string where = "params.arguments";
    for (const auto& key : a.path) {
      where += "." + key;
      if (value == nullptr || !value->is_object()) {
        value = nullptr;
        continue;
      }
      const auto it = value->find(key);
      value = it == value->end() ? nullptr : &*it;
    }
    const bool has_value = value != nullptr && !value->is_null();
    const auto name = "Mcp-Param-" + a.name;
    const auto sent = header(name);
    if (!has_value) {
      if (sent) return "Header mismatch: " + name + " is sent but " + where + " has no value";
      continue;  // no value, no header (Streamable HTTP: the client omits it)
    }
    if (!sent) return "Header mismatch: the " + name + " header is required (" + where + " has a value)";
    const auto decoded = decode_header_value(*sent);
    if (!decoded) return "Header mismatch: " + name + " has invalid characters or is not valid Base64";
    if (!agrees(*decoded, *value)) {
      return "Header mismatch: " + name + " header value " + text_of(json(*decoded)) + " does not match body value " +
             where + " = " + text_of(*value);
    }
  }
  return std::nullopt;
}

}  // namespace elicit
