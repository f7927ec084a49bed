// FormBinding and form_from_table: generated types run on the same Form model and the same
// read/check functions (content_rules.hpp) as validate_content.
#include "elicit/content/form.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/content/checks.hpp"
#include "elicit/content/content_rules.hpp"
#include "elicit/content/schema.hpp"

namespace elicit {

Form form_from_table(const table::Form& rules) {
  Form form;
  form.closed = rules.closed;
  form.fields.reserve(rules.field_count);
  for (std::size_t i = 0; i < rules.field_count; ++i) {
    const auto& t = rules.fields[i];
    Field f;
    f.name = std::string(t.name);
    f.pointer = check::child_pointer("/properties", t.name);
    f.kind = t.kind;
    f.required = t.is_required;
    if (t.min_length_ != table::kNone) f.min_length = t.min_length_;
    if (t.max_length_ != table::kNone) f.max_length = t.max_length_;
    f.format = t.format_;
    if (t.has_pattern) {
      f.pattern = std::string(t.pattern_);
      try {
        f.compiled_pattern = std::make_shared<const Pattern>(t.pattern_);
      } catch (const PatternError& e) {
        throw std::logic_error("form rules: the pattern of property \"" + f.name + "\" does not compile: " + e.what());
      }
    }
    if (t.minimum_.set) f.minimum = NumberBound{t.minimum_.value, std::string(t.minimum_.text)};
    if (t.maximum_.set) f.maximum = NumberBound{t.maximum_.value, std::string(t.maximum_.text)};
    if (t.min_items_ != table::kNone) f.min_items = t.min_items_;
    if (t.max_items_ != table::kNone) f.max_items = t.max_items_;
    for (std::size_t k = 0; k < t.option_count; ++k) {
      EnumChoice c;
      c.value = std::string(t.options_[k].wire);
      if (!t.options_[k].title.empty()) c.title = std::string(t.options_[k].title);
      f.options.push_back(std::move(c));
    }
    form.fields.push_back(std::move(f));
  }
  return form;
}

struct FormBinding::Impl {
  Form form;
  nlohmann::ordered_json schema;
  std::string schema_text;
  std::optional<std::string_view> message;
  Load load;
  Store store;
};

FormBinding::FormBinding(const Spec& spec) {
  auto impl = std::make_unique<Impl>();
  impl->form = form_from_table(spec.rules);
  impl->schema = nlohmann::ordered_json::parse(spec.schema_json.begin(), spec.schema_json.end(), nullptr, false);
  if (impl->schema.is_discarded()) throw std::logic_error("form rules: the requestedSchema text is not JSON");
  impl->form.schema = impl->schema;
  impl->schema_text = impl->schema.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  impl->message = spec.message;
  impl->load = spec.load;
  impl->store = spec.store;
  impl_ = std::move(impl);
}

FormBinding::~FormBinding() = default;

const Form& FormBinding::form() const noexcept { return impl_->form; }
const nlohmann::ordered_json& FormBinding::requested_schema() const noexcept { return impl_->schema; }
const std::string& FormBinding::schema_text() const noexcept { return impl_->schema_text; }
const std::optional<std::string_view>& FormBinding::message() const noexcept { return impl_->message; }

bool FormBinding::read(const nlohmann::json& content, void* object, ValidationResult& errors, bool constraints) const {
  std::vector<FieldValue> values;
  if (!read_content(impl_->form, content, values, errors, constraints)) return false;
  if (impl_->load) impl_->load(object, values.data());
  return true;
}

bool FormBinding::read(const nlohmann::ordered_json& content, void* object, ValidationResult& errors,
                       bool constraints) const {
  return read(nlohmann::json(content), object, errors, constraints);
}

bool FormBinding::read_text(std::string_view content_json, void* object, ValidationResult& errors) const {
  nlohmann::json content;
  try {
    content = nlohmann::json::parse(content_json.begin(), content_json.end());
  } catch (const nlohmann::json::parse_error& e) {
    errors.add("", "type", "must be a JSON object (the text is not JSON: " + std::string(e.what()) + ")");
    return false;
  }
  return read(content, object, errors, true);
}

ValidationResult FormBinding::validate(const void* object) const {
  const auto& form = impl_->form;
  std::vector<FieldValue> values(form.fields.size());
  if (impl_->store) impl_->store(object, values.data());
  ValidationResult errors;
  for (std::size_t i = 0; i < form.fields.size(); ++i)
    check_value(form.fields[i], values[i], check::child_pointer("", form.fields[i].name), errors);
  return errors;
}

namespace {
template <class Json>
void write_content(const Form& form, FormBinding::Store store, const void* object, Json& out) {
  std::vector<FieldValue> values(form.fields.size());
  if (store) store(object, values.data());
  out = Json::object();
  for (std::size_t i = 0; i < form.fields.size(); ++i) {
    if (values[i].present) out[form.fields[i].name] = write_value(form.fields[i], values[i]);
  }
}
}  // namespace

void FormBinding::write(const void* object, nlohmann::ordered_json& out) const {
  write_content(impl_->form, impl_->store, object, out);
}

void FormBinding::write(const void* object, nlohmann::json& out) const {
  write_content(impl_->form, impl_->store, object, out);
}

}  // namespace elicit
