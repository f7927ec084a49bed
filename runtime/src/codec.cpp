#include "elicit/codec.hpp"

#include <cmath>

namespace elicit::read {

bool string(const nlohmann::json& j, std::string_view ptr, std::string& out, ValidationResult& errors) {
  if (!j.is_string()) {
    check::type(errors, ptr, "a string");
    return false;
  }
  out = j.get_ref<const std::string&>();
  return true;
}

bool integer(const nlohmann::json& j, std::string_view ptr, std::int64_t& out, ValidationResult& errors) {
  if (j.is_number_integer() && !j.is_number_unsigned()) {
    out = j.get<std::int64_t>();
    return true;
  }
  if (j.is_number_unsigned()) {
    if (check::exact_int64(j.get<std::uint64_t>(), out)) return true;
    check::type(errors, ptr, "an integer within the 64-bit signed range");
    return false;
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) {
      check::type(errors, ptr, "an integer");
      return false;
    }
    if (check::exact_int64(d, out)) return true;
    check::type(errors, ptr, "an integer within the 64-bit signed range");
    return false;
  }
  check::type(errors, ptr, "an integer");
  return false;
}

bool number(const nlohmann::json& j, std::string_view ptr, double& out, ValidationResult& errors) {
  if (!j.is_number()) {
    check::type(errors, ptr, "a number");
    return false;
  }
  out = j.get<double>();
  return true;
}

bool boolean(const nlohmann::json& j, std::string_view ptr, bool& out, ValidationResult& errors) {
  if (!j.is_boolean()) {
    check::type(errors, ptr, "a boolean");
    return false;
  }
  out = j.get<bool>();
  return true;
}

bool string_array(const nlohmann::json& j, std::string_view ptr, std::vector<std::string>& out,
                  ValidationResult& errors) {
  if (!j.is_array()) {
    check::type(errors, ptr, "an array of strings");
    return false;
  }
  bool ok = true;
  out.clear();
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    const auto& item = j[i];
    if (item.is_string()) {
      out.push_back(item.get<std::string>());
    } else {
      check::type(errors, check::child_pointer(ptr, std::to_string(i)), "a string");
      ok = false;
    }
  }
  return ok;
}

}  // namespace elicit::read
