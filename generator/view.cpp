#include "view.hpp"

#include <algorithm>
#include <cstdint>

#include <elicit/content/checks.hpp>

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
  if (x.kind == elicit::FieldKind::multi_select) s += "; each option at most once";
  if (x.min_items) s += "; at least " + std::to_string(*x.min_items) + " selected";
  if (x.max_items) s += "; at most " + std::to_string(*x.max_items) + " selected";
  if (x.default_value)
    s += "; default " +
         comment_text(x.default_value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 80);
  return s + ".";
}

// The field's rule table entry, a C++ expression: "::elicit::table::string("name").required()...".
// Long ones are wrapped, one rule a line.
std::string rule_expr(const FieldPlan& f) {
  using elicit::FieldKind;
  const auto& x = f.field;
  const auto name = string_view_expr(x.name);
  std::string head = "::elicit::table::";
  switch (x.kind) {
    case FieldKind::string:
      head += "string(" + name + ")";
      break;
    case FieldKind::integer:
      head += "integer(" + name + ")";
      break;
    case FieldKind::number:
      head += "number(" + name + ")";
      break;
    case FieldKind::boolean:
      head += "boolean(" + name + ")";
      break;
    case FieldKind::single_select:
    case FieldKind::multi_select: {
      head += x.kind == FieldKind::single_select ? "single_select(" : "multi_select(";
      const auto options = "::elicit::enum_traits<Type::" + f.enumeration->type_name + ">::options)";
      // The options on a line of their own, under the name, when both do not fit in 100 columns.
      const bool fits = 4 + head.size() + name.size() + 2 + options.size() + 1 <= 100;
      head += name + (fits ? ", " : ",\n" + std::string(4 + head.size(), ' ')) + options;
      break;
    }
  }
  std::vector<std::string> rules;
  if (x.required) rules.push_back("required()");
  if (x.min_length) rules.push_back("min_length(" + std::to_string(*x.min_length) + ")");
  if (x.max_length) rules.push_back("max_length(" + std::to_string(*x.max_length) + ")");
  if (x.format != elicit::StringFormat::none)
    rules.push_back("format(::elicit::StringFormat::" + std::string(format_enumerator(x.format)) + ")");
  if (x.pattern) rules.push_back("pattern(" + string_view_expr(*x.pattern) + ")");
  if (x.minimum)
    rules.push_back("minimum(" + double_literal(x.minimum->value) + ", " + string_view_expr(x.minimum->text) + ")");
  if (x.maximum)
    rules.push_back("maximum(" + double_literal(x.maximum->value) + ", " + string_view_expr(x.maximum->text) + ")");
  if (x.min_items) rules.push_back("min_items(" + std::to_string(*x.min_items) + ")");
  if (x.max_items) rules.push_back("max_items(" + std::to_string(*x.max_items) + ")");
  std::size_t length = head.size() - std::min(head.size(), head.rfind('\n') + 1);
  for (const auto& r : rules) length += r.size() + 1;
  // 4 spaces of indent and a comma: one line when that fits in 100 columns.
  const std::string joint = length + 5 <= 100 ? "." : "\n        .";
  std::string out = head;
  for (const auto& r : rules) out += joint + r;
  return out;
}

data field_view(const FieldPlan& f) {
  const auto& x = f.field;
  data d;
  d.set("member", f.member);
  const auto scalar = cpp_scalar_type(f, "");
  const bool optional = !x.required && !x.default_value;
  d.set("member_type", optional ? "std::optional<" + scalar + ">" : scalar);
  d.set("initializer", initializer(f));
  d.set("rule", rule_expr(f));
  std::vector<std::string> doc;
  std::string heading = x.title ? comment_text(*x.title) : "";
  if (x.description) heading += (heading.empty() ? "" : ": ") + comment_text(*x.description);
  doc.push_back(heading.empty() ? "\"" + comment_text(x.name, 80) + "\"" : heading);
  doc.push_back(rules_line(f));
  d.set("doc", lines(doc));
  return d;
}

data enum_view(const std::string& qualified_type, const FieldPlan& f) {
  const auto& e = *f.enumeration;
  data d;
  d.set("member", f.member);
  d.set("enum_name", e.type_name);
  d.set("qualified_enum", qualified_type + "::" + e.type_name);
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

data type_view(const TypePlan& t, const std::string& cpp_namespace, bool send_pattern) {
  data d;
  const auto qualified = (cpp_namespace.empty() ? "::" : cpp_namespace + "::") + t.name;
  d.set("name", t.name);
  d.set("qualified", qualified);
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
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const auto& f = t.fields[i];
    auto fv = field_view(f);
    fv.set("index", std::to_string(i));
    fields.push_back(fv);
    if (f.enumeration) enums.push_back(enum_view(qualified, f));
  }
  d.set("fields", fields);
  d.set("has_fields", !t.fields.empty());
  // operator==: member by member, one a line when they do not fit on one.
  std::string equal = "true";
  std::size_t width = 0;
  for (const auto& f : t.fields) width += 2 * f.member.size() + 16;
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const auto& m = t.fields[i].member;
    const std::string term = "a." + m + " == b." + m;
    equal = i == 0 ? term : equal + (width <= 80 ? " && " : " &&\n         ") + term;
  }
  d.set("equal", equal);
  d.set("enums", enums);
  d.set("field_count", std::to_string(t.fields.size()));
  d.set("closed_value", t.form.closed ? "true" : "false");
  d.set("has_message_value", t.source.message ? "true" : "false");
  d.set("mode_value", t.source.browser ? "url" : "form");
  d.set("message_value", t.source.message ? string_view_expr(*t.source.message) : "std::nullopt");
  // The schema text as one literal a line, for people: each line ends after a comma or an opening
  // brace outside strings once it holds 72 bytes, and a long string is cut at 2,000 bytes
  // (compilers limit single literals).
  const auto text = sent.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  data chunks{data::type::list};
  const auto add_chunk = [&](std::string_view bytes) {
    data c;
    c.set("chunk", string_literal(bytes));
    chunks.push_back(c);
  };
  std::size_t start = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      in_string = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else {
      in_string = c == '"';
    }
    const std::size_t length = i + 1 - start;
    if ((!in_string && (c == ',' || c == '{' || c == '[') && length >= 72) || length >= 2000) {
      add_chunk(std::string_view(text).substr(start, length));
      start = i + 1;
    }
  }
  if (start < text.size() || text.empty()) add_chunk(std::string_view(text).substr(start));
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
    const auto field = plain({"member", "member_type", "initializer", "rule", "index"}, {{"doc", line}});
    const auto value = plain({"value_name", "wire", "title", "comment"});
    const auto enumeration = plain({"member", "enum_name", "qualified_enum", "style", "count"}, {{"values", value}});
    const auto type =
        plain({"name", "qualified", "detail", "field_count", "has_fields", "closed_value", "equal", "has_message_value",
               "mode_value", "message_value", "schema_size"},
              {{"doc", line}, {"fields", field}, {"enums", enumeration}, {"schema_chunks", plain({"chunk"})}});
    return plain({"version", "source", "header", "ns_open", "ns_close", "mode_summary", "ask_summary"},
                 {{"types", type}});
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
  // The banner names how the file's types are asked: a URL-mode schema file is a browser form, and
  // asking it with elicit<T>() does not compile (form_traits<T>::mode).
  const bool browser = !file.types->empty() && file.types->front().source.browser;
  d.set("mode_summary", browser ? "URL mode: a form served in the user's browser; its values never pass through the "
                                  "MCP client."
                                : "Form mode: the MCP client shows the form and sends the values back.");
  d.set("ask_summary",
        browser ? "Ask with elicit::forms::elicit_in_browser<T>(ctx) in a handler; elicit<T>() does not compile "
                  "for it."
                : "Ask with ctx.elicit<T>() in a handler.");
  data types{data::type::list};
  for (const auto& t : *file.types) types.push_back(type_view(t, file.cpp_namespace, file.send_pattern));
  d.set("types", types);
  return d;
}

}  // namespace elicitgen
