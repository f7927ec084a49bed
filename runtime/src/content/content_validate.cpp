// read_content, validate_content and validate_value: the rules of content_rules.hpp applied to
// JSON content. Generated types read through read_content too (form.cpp).
#include <string>

#include "elicit/content/checks.hpp"
#include "elicit/content/content_rules.hpp"
#include "elicit/content/schema.hpp"

namespace elicit {

bool read_content(const Form& form, const nlohmann::json& content, std::vector<FieldValue>& values,
                  ValidationResult& errors, bool constraints) {
  if (!content.is_object()) {
    check::type(errors, "", check::Expected::object);
    return false;
  }
  const auto before = errors.errors.size();
  values.assign(form.fields.size(), FieldValue{});
  for (std::size_t i = 0; i < form.fields.size(); ++i) {
    const auto& f = form.fields[i];
    const auto ptr = check::child_pointer("", f.name);
    const auto it = content.find(f.name);
    if (it == content.end()) {
      if (f.required) check::required(errors, ptr);
      continue;
    }
    if (read_value(f, *it, ptr, values[i], errors) && constraints) check_value(f, values[i], ptr, errors);
  }
  if (form.closed && constraints) {
    for (auto item = content.begin(); item != content.end(); ++item) {
      const std::string& key = item.key();
      bool listed = false;
      for (const auto& f : form.fields) listed = listed || f.name == key;
      if (!listed) check::not_allowed(errors, check::child_pointer("", key));
    }
  }
  return errors.errors.size() == before;
}

ValidationResult validate_value(const Field& field, const nlohmann::json& value, std::string_view pointer) {
  ValidationResult out;
  FieldValue v;
  if (read_value(field, value, pointer, v, out)) check_value(field, v, pointer, out);
  return out;
}

ValidationResult validate_content(const Form& form, const nlohmann::json& content) {
  ValidationResult out;
  std::vector<FieldValue> values;
  read_content(form, content, values, out);
  return out;
}

}  // namespace elicit
