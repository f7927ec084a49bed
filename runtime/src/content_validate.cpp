#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "elicit/checks.hpp"
#include "elicit/codec.hpp"
#include "elicit/schema.hpp"

namespace elicit {
namespace {

// Mirrors the per-field code the generator emits (templates/source.cpp.mustache): read with type
// check, then constraints in the same order, so both report identical errors.
void validate_field(const Field& f, const nlohmann::json& v, std::string_view ptr, ValidationResult& out) {
  switch (f.kind) {
    case FieldKind::string: {
      std::string s;
      if (!read::string(v, ptr, s, out)) return;
      if (f.min_length) check::min_length(out, ptr, s, *f.min_length);
      if (f.max_length) check::max_length(out, ptr, s, *f.max_length);
      if (f.format != StringFormat::none) check::format(out, ptr, s, f.format);
      if (f.compiled_pattern) check::pattern(out, ptr, s, *f.compiled_pattern);
      return;
    }
    case FieldKind::integer: {
      std::int64_t n = 0;
      if (!read::integer(v, ptr, n, out)) return;
      if (f.minimum) check::minimum(out, ptr, n, f.minimum->value, f.minimum->text);
      if (f.maximum) check::maximum(out, ptr, n, f.maximum->value, f.maximum->text);
      return;
    }
    case FieldKind::number: {
      double n = 0;
      if (!read::number(v, ptr, n, out)) return;
      if (f.minimum) check::minimum(out, ptr, n, f.minimum->value, f.minimum->text);
      if (f.maximum) check::maximum(out, ptr, n, f.maximum->value, f.maximum->text);
      return;
    }
    case FieldKind::boolean: {
      bool b = false;
      read::boolean(v, ptr, b, out);
      return;
    }
    case FieldKind::single_select:
    case FieldKind::multi_select: {
      std::vector<std::string_view> allowed;
      allowed.reserve(f.options.size());
      for (const auto& o : f.options) allowed.push_back(o.value);
      const auto in_enum = [&](const std::string& s) {
        for (const auto& a : allowed) {
          if (a == s) return true;
        }
        return false;
      };
      if (f.kind == FieldKind::single_select) {
        std::string s;
        if (!read::string(v, ptr, s, out)) return;
        if (!in_enum(s)) check::not_in_enum(out, ptr, allowed.data(), allowed.size());
        return;
      }
      std::vector<std::string> items;
      if (!read::string_array(v, ptr, items, out)) return;
      bool all_known = true;
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (!in_enum(items[i])) {
          check::not_in_enum(out, check::child_pointer(ptr, std::to_string(i)), allowed.data(), allowed.size());
          all_known = false;
        }
      }
      if (!all_known) return;
      if (f.min_items) check::min_items(out, ptr, items.size(), *f.min_items);
      if (f.max_items) check::max_items(out, ptr, items.size(), *f.max_items);
      return;
    }
  }
}

}  // namespace

ValidationResult validate_value(const Field& field, const nlohmann::json& value, std::string_view pointer) {
  ValidationResult out;
  validate_field(field, value, pointer, out);
  return out;
}

ValidationResult validate_content(const Form& form, const nlohmann::json& content) {
  ValidationResult out;
  if (!content.is_object()) {
    check::type(out, "", "an object");
    return out;
  }
  for (const auto& f : form.fields) {
    const auto ptr = check::child_pointer("", f.name);
    const auto it = content.find(f.name);
    if (it == content.end()) {
      if (f.required) check::required(out, ptr);
      continue;
    }
    validate_field(f, *it, ptr, out);
  }
  if (form.closed) {
    for (auto item = content.begin(); item != content.end(); ++item) {
      // A named string, not a structured binding: C++17 lambdas cannot capture bindings (clang rejects it).
      const std::string& key = item.key();
      const bool listed =
          std::any_of(form.fields.begin(), form.fields.end(), [&](const Field& f) { return f.name == key; });
      if (!listed) check::not_allowed(out, check::child_pointer("", key));
    }
  }
  return out;
}

}  // namespace elicit
