#include "elicit/content/validation.hpp"

namespace elicit {

std::string ValidationResult::to_string() const {
  std::string s;
  for (const auto& e : errors) {
    s += e.pointer;
    s += ": ";
    s += e.message;
    s += '\n';
  }
  return s;
}

namespace {
std::string describe(const ValidationResult& r) {
  std::string s = "content does not match the requested schema";
  if (!r.errors.empty()) {
    const auto& e = r.errors.front();
    s += ": " + (e.pointer.empty() ? std::string("(root)") : e.pointer) + ": " + e.message;
    if (r.errors.size() > 1) s += " (and " + std::to_string(r.errors.size() - 1) + " more)";
  }
  return s;
}
}  // namespace

ContentError::ContentError(ValidationResult result)
    : std::runtime_error(describe(result)), result_(std::move(result)) {}

}  // namespace elicit
