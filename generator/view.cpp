#include "view.hpp"

#include <algorithm>
#include <cstdint>

#include <elicit/checks.hpp>

#include "cpp_text.hpp"
#include "elicitgen_version.hpp"

namespace elicitgen {
namespace {

using kainjow::mustache::data;

// Only the file name: generated code must not depend on where the build tree is.
std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

data lines(const std::vector<std::string>& texts) {
  data list{data::type::list};
  for (const auto& t : texts) {
    if (t.empty()) continue;
    data line;
    line.set("line", t);
    list.push_back(line);
  }
  return list;
}

// A list of zero or one {v: value}: how an optional value reaches a template section.
data maybe(bool present, const std::string& value) {
  data list{data::type::list};
  if (present) {
    data d;
    d.set("v", value);
    list.push_back(d);
  }
  return list;
}

// `scope` qualifies the nested enum types ("Contact::") for use outside the struct.
std::string cpp_scalar_type(const FieldPlan& f, const std::string& scope) {
  using elicit::FieldKind;
  switch (f.field.kind) {
    case FieldKind::string:
      return "std::string";
    case FieldKind::integer:
      return "std::int64_t";
    case FieldKind::number:
      return "double";
    case FieldKind::boolean:
      return "bool";
    case FieldKind::single_select:
      return scope + f.enumeration->type_name;
    case FieldKind::multi_select:
      return "std::vector<" + scope + f.enumeration->type_name + ">";
  }
  return {};
}

std::string enumerator_of(const FieldPlan& f, const std::string& wire) {
  for (std::size_t i = 0; i < f.field.options.size(); ++i) {
    if (f.field.options[i].value == wire) return f.enumeration->type_name + "::" + f.enumeration->value_names[i];
  }
  return {};
}

std::string integer_literal(std::int64_t v) {
  // -9223372036854775808 is not a literal in C++ (it is unary minus on a too-large value).
  if (v == INT64_MIN) return "(-9223372036854775807 - 1)";
  return std::to_string(v);
}

// The member initializer from `default` (" = ..." or "{...}"), or "" when there is none.
std::string initializer(const FieldPlan& f) {
  if (!f.field.default_value) return f.field.required ? "{}" : "";  // never leave a member uninitialised
  const auto& d = *f.field.default_value;
  using elicit::FieldKind;
  switch (f.field.kind) {
    case FieldKind::string: {
      const auto s = d.get<std::string>();
      return "{" + string_literal(s) + ", " + std::to_string(s.size()) + "}";
    }
    case FieldKind::integer: {
      const auto v = nlohmann::json(d);
      if (v.is_number_float()) return " = " + integer_literal(static_cast<std::int64_t>(v.get<double>()));
      return " = " + integer_literal(v.get<std::int64_t>());
    }
    case FieldKind::number:
      return " = " + double_literal(d.get<double>());
    case FieldKind::boolean:
      return d.get<bool>() ? " = true" : " = false";
    case FieldKind::single_select:
      return " = " + enumerator_of(f, d.get<std::string>());
    case FieldKind::multi_select: {
      std::string s = "{";
      for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + enumerator_of(f, d[i].get<std::string>());
      return s + "}";
    }
  }
  return {};
}

const char* style_name(elicit::EnumStyle s) {
  switch (s) {
    case elicit::EnumStyle::untitled:
      return "untitled single-select";
    case elicit::EnumStyle::titled:
      return "titled single-select, oneOf const/title";
    case elicit::EnumStyle::legacy_enum_names:
      return "legacy titled single-select, enum + enumNames";
    case elicit::EnumStyle::untitled_multi:
      return "untitled multi-select";
    case elicit::EnumStyle::titled_multi:
      return "titled multi-select, items.anyOf const/title";
    case elicit::EnumStyle::none:
      break;
  }
  return "";
}

const char* format_enumerator(elicit::StringFormat f) {
  switch (f) {
    case elicit::StringFormat::email:
      return "email";
    case elicit::StringFormat::uri:
      return "uri";
    case elicit::StringFormat::date:
      return "date";
    case elicit::StringFormat::date_time:
      return "date_time";
    case elicit::StringFormat::none:
      break;
  }
  return "none";
}

// One line summing up what the schema asks of a field, for its doc comment.
std::string rules_line(const FieldPlan& f) {
  const auto& x = f.field;
  std::string s = x.required ? "Required" : "Optional";
  if (x.format != elicit::StringFormat::none) s += "; format " + std::string(elicit::format_name(x.format));
  if (x.min_length) s += "; at least " + std::to_string(*x.min_length) + " code points";
  if (x.max_length) s += "; at most " + std::to_string(*x.max_length) + " code points";
  if (x.pattern) s += "; matches " + comment_text(*x.pattern, 80);
  if (x.minimum) s += "; >= " + x.minimum->text;
  if (x.maximum) s += "; <= " + x.maximum->text;
  if (x.min_items) s += "; at least " + std::to_string(*x.min_items) + " selected";
  if (x.max_items) s += "; at most " + std::to_string(*x.max_items) + " selected";
  if (x.default_value)
    s += "; default " +
         comment_text(x.default_value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 80);
  return s + ".";
}

data field_view(const TypePlan& t, const FieldPlan& f) {
  using elicit::FieldKind;
  const auto& x = f.field;
  const auto pointer = elicit::check::child_pointer("", x.name);
  data d;
  d.set("member", f.member);
  d.set("key", string_view_expr(x.name));
  d.set("pointer", string_view_expr(pointer));
  d.set("pointer_comment", comment_text(x.pointer, 120));
  d.set("comment_name", comment_text(x.name, 80));
  const auto scalar = cpp_scalar_type(f, "");
  d.set("value_type", cpp_scalar_type(f, t.name + "::"));
  const bool optional = !x.required && !x.default_value;
  d.set("optional", optional);
  d.set("member_type", optional ? "std::optional<" + scalar + ">" : scalar);
  d.set("initializer", initializer(f));
  d.set("required", x.required);
  d.set("is_string", x.kind == FieldKind::string);
  d.set("is_integer", x.kind == FieldKind::integer);
  d.set("is_number", x.kind == FieldKind::number);
  d.set("is_boolean", x.kind == FieldKind::boolean);
  d.set("is_single", x.kind == FieldKind::single_select);
  d.set("is_multi", x.kind == FieldKind::multi_select);
  d.set("is_plain", !f.enumeration.has_value());
  // Whether check_<member> has anything to do: without constraints it is not generated.
  d.set("has_checks", x.min_length || x.max_length || x.format != elicit::StringFormat::none || x.pattern ||
                          x.minimum || x.maximum || x.min_items || x.max_items);
  d.set("options_name", f.enumeration ? f.enumeration->options_name : "");
  d.set("min_length", maybe(x.min_length.has_value(), x.min_length ? std::to_string(*x.min_length) : ""));
  d.set("max_length", maybe(x.max_length.has_value(), x.max_length ? std::to_string(*x.max_length) : ""));
  d.set("format", maybe(x.format != elicit::StringFormat::none, format_enumerator(x.format)));
  d.set("pattern", maybe(x.pattern.has_value(), x.pattern ? string_view_expr(*x.pattern) : ""));
  d.set("min_items", maybe(x.min_items.has_value(), x.min_items ? std::to_string(*x.min_items) : ""));
  d.set("max_items", maybe(x.max_items.has_value(), x.max_items ? std::to_string(*x.max_items) : ""));
  for (const auto& [key, b] : {std::pair{"minimum", &x.minimum}, std::pair{"maximum", &x.maximum}}) {
    data list{data::type::list};
    if (*b) {
      data bd;
      bd.set("value", double_literal((*b)->value));
      bd.set("text", string_view_expr((*b)->text));
      list.push_back(bd);
    }
    d.set(key, list);
  }
  std::vector<std::string> doc;
  std::string heading = x.title ? comment_text(*x.title) : "";
  if (x.description) heading += (heading.empty() ? "" : ": ") + comment_text(*x.description);
  doc.push_back(heading.empty() ? "\"" + comment_text(x.name, 80) + "\"" : heading);
  doc.push_back(rules_line(f));
  d.set("doc", lines(doc));
  return d;
}

data enum_view(const TypePlan& t, const FieldPlan& f) {
  const auto& e = *f.enumeration;
  data d;
  d.set("type", t.name);
  d.set("member", f.member);
  d.set("enum_name", e.type_name);
  d.set("options_name", e.options_name);
  d.set("style", style_name(f.field.enum_style));
  d.set("count", std::to_string(f.field.options.size()));
  data values{data::type::list};
  for (std::size_t i = 0; i < f.field.options.size(); ++i) {
    const auto& o = f.field.options[i];
    data v;
    v.set("value_name", e.value_names[i]);
    v.set("wire", string_view_expr(o.value));
    v.set("title", string_view_expr(o.title.value_or("")));
    std::string comment = comment_text(o.value, 80);
    if (o.title) comment += " (" + comment_text(*o.title, 80) + ")";
    v.set("comment", comment);
    values.push_back(v);
  }
  d.set("values", values);
  return d;
}

data type_view(const TypePlan& t, bool send_pattern) {
  data d;
  d.set("name", t.name);
  d.set("detail", t.name + "_detail");
  std::vector<std::string> doc;
  const auto& schema = t.form.schema;
  nlohmann::ordered_json sent = schema;
  // x-cpp-name is for this generator alone: clients never see it.
  const auto drop_cpp_names = [](nlohmann::ordered_json& options) {
    if (!options.is_array()) return;
    for (auto& o : options) {
      if (o.is_object()) o.erase("x-cpp-name");
    }
  };
  sent.erase("x-cpp-name");
  if (sent.contains("properties") && sent["properties"].is_object()) {
    for (auto& [name, property] : sent["properties"].items()) {
      (void)name;
      if (!property.is_object()) continue;
      if (!send_pattern) property.erase("pattern");
      property.erase("x-cpp-name");
      if (property.contains("oneOf")) drop_cpp_names(property["oneOf"]);
      if (property.contains("items") && property["items"].is_object() && property["items"].contains("anyOf"))
        drop_cpp_names(property["items"]["anyOf"]);
    }
  }
  if (const auto title = schema.find("title"); title != schema.end() && title->is_string())
    doc.push_back(comment_text(title->get<std::string>()));
  if (t.source.message) doc.push_back("Message: " + comment_text(*t.source.message));
  doc.push_back("requestedSchema at " + comment_text(base_name(t.source.file) + "#" + t.source.pointer, 160) + ".");
  d.set("doc", lines(doc));
  data fields{data::type::list};
  data enums{data::type::list};
  std::vector<std::pair<std::string, std::size_t>> keys;
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const auto& f = t.fields[i];
    auto fv = field_view(t, f);
    fv.set("index", std::to_string(i));
    fields.push_back(fv);
    if (f.enumeration) enums.push_back(enum_view(t, f));
    keys.emplace_back(f.field.name, i);
  }
  d.set("fields", fields);
  d.set("has_fields", !t.fields.empty());
  d.set("enums", enums);
  d.set("field_count", std::to_string(t.fields.size()));
  // Bytewise order, the order std::string_view compares in: the content reader binary-searches it.
  std::sort(keys.begin(), keys.end());
  data sorted_keys{data::type::list};
  for (const auto& [name, index] : keys) {
    data k;
    k.set("key", string_view_expr(name));
    k.set("index", std::to_string(index));
    sorted_keys.push_back(k);
  }
  d.set("sorted_keys", sorted_keys);
  d.set("closed", t.form.closed);
  d.set("has_message", t.source.message.has_value());
  d.set("message", string_view_expr(t.source.message.value_or("")));
  // The schema text, split into literals of bounded size (compilers limit single literals).
  const auto text = sent.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  data chunks{data::type::list};
  constexpr std::size_t kChunk = 2000;
  for (std::size_t i = 0; i < text.size() || i == 0; i += kChunk) {
    data c;
    c.set("chunk", string_literal(text.substr(i, kChunk)));
    chunks.push_back(c);
    if (text.empty()) break;
  }
  d.set("schema_chunks", chunks);
  d.set("schema_size", std::to_string(text.size()));
  return d;
}

// Plain names: a string or a bool.
std::shared_ptr<const ViewShape> plain(
    std::initializer_list<const char*> names,
    std::initializer_list<std::pair<const char*, std::shared_ptr<const ViewShape>>> lists = {}) {
  auto s = std::make_shared<ViewShape>();
  for (const char* n : names) s->keys.emplace(n, nullptr);
  for (const auto& [k, v] : lists) s->keys.emplace(k, v);
  return s;
}

}  // namespace

// Kept next to make_view: a key added there is declared here (tests/generator/mistakes_test.cpp
// checks every declared key is present in real views, and the built-in templates against this).
const ViewShape& view_shape() {
  static const auto root = [] {
    const auto line = plain({"line"});
    const auto v = plain({"v"});
    const auto bound = plain({"value", "text"});
    const auto field =
        plain({"member",      "key",         "pointer",  "pointer_comment", "comment_name", "value_type", "optional",
               "member_type", "initializer", "required", "is_string",       "is_integer",   "is_number",  "is_boolean",
               "is_single",   "is_multi",    "is_plain", "options_name",    "index",        "has_checks"},
              {{"doc", line},
               {"min_length", v},
               {"max_length", v},
               {"format", v},
               {"pattern", v},
               {"min_items", v},
               {"max_items", v},
               {"minimum", bound},
               {"maximum", bound}});
    const auto value = plain({"value_name", "wire", "title", "comment"});
    const auto enumeration =
        plain({"type", "member", "enum_name", "options_name", "style", "count"}, {{"values", value}});
    const auto type =
        plain({"name", "detail", "field_count", "has_message", "message", "schema_size", "closed", "has_fields"},
              {{"doc", line},
               {"fields", field},
               {"enums", enumeration},
               {"sorted_keys", plain({"key", "index"})},
               {"schema_chunks", plain({"chunk"})}});
    return plain({"version", "source", "header", "ns_open", "ns_close"}, {{"types", type}});
  }();
  return *root;
}

kainjow::mustache::data make_view(const FileView& file) {
  data d;
  d.set("version", std::string(kVersion));
  d.set("source", comment_text(base_name(file.source), 160));
  d.set("header", file.header_name);
  d.set("ns_open", file.cpp_namespace.empty() ? "" : "\nnamespace " + file.cpp_namespace + " {");
  d.set("ns_close", file.cpp_namespace.empty() ? "" : "}  // namespace " + file.cpp_namespace);
  data types{data::type::list};
  for (const auto& t : *file.types) types.push_back(type_view(t, file.send_pattern));
  d.set("types", types);
  return d;
}

}  // namespace elicitgen
