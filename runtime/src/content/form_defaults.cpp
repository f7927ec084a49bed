// Defaults of a form (form_defaults.hpp).
#include "elicit/content/form_defaults.hpp"

namespace elicit {

nlohmann::json form_defaults(const Form& form) { return apply_defaults(form, nlohmann::json::object()); }

nlohmann::json apply_defaults(const Form& form, nlohmann::json content) {
  if (!content.is_object()) content = nlohmann::json::object();
  for (const auto& f : form.fields) {
    if (f.default_value && !content.contains(f.name)) content[f.name] = nlohmann::json(*f.default_value);
  }
  return content;
}

}  // namespace elicit
