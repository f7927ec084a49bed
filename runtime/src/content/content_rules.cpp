#include "elicit/content/content_rules.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "elicit/content/checks.hpp"

namespace elicit {
namespace {

bool read_string(const nlohmann::json& j, std::string_view ptr, std::string& out, ValidationResult& errors) {
  if (!j.is_string()) {
    check::type(errors, ptr, check::Expected::string);
    return false;
  }
  out = j.get_ref<const std::string&>();
  return true;
}

bool read_integer(const nlohmann::json& j, std::string_view ptr, std::int64_t& out, ValidationResult& errors) {
  if (j.is_number_integer() && !j.is_number_unsigned()) {
    out = j.get<std::int64_t>();
    return true;
  }
  if (j.is_number_unsigned()) {
    if (check::exact_int64(j.get<std::uint64_t>(), out)) return true;
    check::type(errors, ptr, check::Expected::int64);
    return false;
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) {
      check::type(errors, ptr, check::Expected::integer);
      return false;
    }
    if (check::exact_int64(d, out)) return true;
    check::type(errors, ptr, check::Expected::int64);
    return false;
  }
  check::type(errors, ptr, check::Expected::integer);
  return false;
}

// The wire values of a select's options, for "must be one of ..." messages.
std::vector<std::string_view> wires(const Field& f) {
  std::vector<std::string_view> out;
  out.reserve(f.options.size());
  for (const auto& o : f.options) out.push_back(o.value);
  return out;
}

void not_in_enum(const Field& f, std::string_view ptr, ValidationResult& errors) {
  const auto allowed = wires(f);
  check::not_in_enum(errors, ptr, allowed.data(), allowed.size());
}

// The index of the option whose wire value is `wire`, or false.
bool find_option(const Field& f, const std::string& wire, std::size_t& index) {
  for (std::size_t i = 0; i < f.options.size(); ++i) {
    if (f.options[i].value == wire) {
      index = i;
      return true;
    }
  }
  return false;
}

bool read_multi(const Field& f, const nlohmann::json& j, std::string_view ptr, FieldValue& out,
                ValidationResult& errors) {
  if (!j.is_array()) {
    check::type(errors, ptr, check::Expected::string_array);
    return false;
  }
  // Type errors of every item first, then values outside the enum: the order content is read in.
  bool strings = true;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) {
      check::type(errors, check::child_pointer(ptr, std::to_string(i)), check::Expected::string);
      strings = false;
    }
  }
  if (!strings) return false;
  bool known = true;
  out.options.clear();
  out.options.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    std::size_t index = 0;
    if (find_option(f, j[i].get_ref<const std::string&>(), index)) {
      out.options.push_back(index);
    } else {
      not_in_enum(f, check::child_pointer(ptr, std::to_string(i)), errors);
      known = false;
    }
  }
  return known;
}

// A multi-select is a set (content_rules.hpp): each item whose option an earlier item already
// chose is an error at that item. Linear in items and options, for a peer's 100,000-item array.
void repeated_options(const Field& f, const FieldValue& v, std::string_view ptr, ValidationResult& errors) {
  constexpr auto kUnseen = static_cast<std::size_t>(-1);
  std::vector<std::size_t> first(f.options.size(), kUnseen);  // option -> item that chose it first
  for (std::size_t i = 0; i < v.options.size(); ++i) {
    auto& seen = first[v.options[i]];
    if (seen == kUnseen) {
      seen = i;
    } else {
      check::repeated(errors, check::child_pointer(ptr, std::to_string(i)), f.options[v.options[i]].value,
                      check::child_pointer(ptr, std::to_string(seen)));
    }
  }
}

}  // namespace

bool read_value(const Field& f, const nlohmann::json& j, std::string_view ptr, FieldValue& out,
                ValidationResult& errors) {
  bool ok = false;
  switch (f.kind) {
    case FieldKind::string:
      ok = read_string(j, ptr, out.text, errors);
      break;
    case FieldKind::integer:
      ok = read_integer(j, ptr, out.integer, errors);
      break;
    case FieldKind::number:
      ok = j.is_number();
      if (ok) {
        out.number = j.get<double>();
      } else {
        check::type(errors, ptr, check::Expected::number);
      }
      break;
    case FieldKind::boolean:
      ok = j.is_boolean();
      if (ok) {
        out.boolean = j.get<bool>();
      } else {
        check::type(errors, ptr, check::Expected::boolean);
      }
      break;
    case FieldKind::single_select: {
      std::string wire;
      ok = read_string(j, ptr, wire, errors);
      if (ok && !find_option(f, wire, out.option)) {
        not_in_enum(f, ptr, errors);
        ok = false;
      }
      break;
    }
    case FieldKind::multi_select:
      ok = read_multi(f, j, ptr, out, errors);
      break;
  }
  out.present = ok;
  return ok;
}

void check_value(const Field& f, const FieldValue& v, std::string_view ptr, ValidationResult& errors) {
  if (!v.present) return;
  switch (f.kind) {
    case FieldKind::string:
      if (f.min_length) check::min_length(errors, ptr, v.text, *f.min_length);
      if (f.max_length) check::max_length(errors, ptr, v.text, *f.max_length);
      if (f.format != StringFormat::none) check::format(errors, ptr, v.text, f.format);
      if (f.compiled_pattern) check::pattern(errors, ptr, v.text, *f.compiled_pattern);
      return;
    case FieldKind::integer:
      if (f.minimum) check::minimum(errors, ptr, v.integer, f.minimum->value, f.minimum->text);
      if (f.maximum) check::maximum(errors, ptr, v.integer, f.maximum->value, f.maximum->text);
      return;
    case FieldKind::number:
      if (f.minimum) check::minimum(errors, ptr, v.number, f.minimum->value, f.minimum->text);
      if (f.maximum) check::maximum(errors, ptr, v.number, f.maximum->value, f.maximum->text);
      return;
    case FieldKind::boolean:
      return;
    case FieldKind::single_select:
      // Only a value made in C++ (an enum cast from an integer) can be out of range.
      if (v.option >= f.options.size()) not_in_enum(f, ptr, errors);
      return;
    case FieldKind::multi_select: {
      bool known = true;
      for (std::size_t i = 0; i < v.options.size(); ++i) {
        if (v.options[i] >= f.options.size()) {
          not_in_enum(f, check::child_pointer(ptr, std::to_string(i)), errors);
          known = false;
        }
      }
      if (!known) return;
      repeated_options(f, v, ptr, errors);
      if (f.min_items) check::min_items(errors, ptr, v.options.size(), *f.min_items);
      if (f.max_items) check::max_items(errors, ptr, v.options.size(), *f.max_items);
      return;
    }
  }
}

nlohmann::json write_value(const Field& f, const FieldValue& v) {
  const auto wire = [&](std::size_t index) {
    return index < f.options.size() ? f.options[index].value : std::string();
  };
  switch (f.kind) {
    case FieldKind::string:
      return v.text;
    case FieldKind::integer:
      return v.integer;
    case FieldKind::number:
      return v.number;
    case FieldKind::boolean:
      return v.boolean;
    case FieldKind::single_select:
      return wire(v.option);
    case FieldKind::multi_select: {
      auto arr = nlohmann::json::array();
      for (const auto i : v.options) arr.push_back(wire(i));
      return arr;
    }
  }
  return nullptr;
}

}  // namespace elicit
