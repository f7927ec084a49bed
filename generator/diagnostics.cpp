#include "diagnostics.hpp"

namespace elicitgen {

bool Diagnostics::has_errors() const {
  for (const auto& m : messages_) {
    if (m.severity == Message::Severity::error) return true;
  }
  return false;
}

void Diagnostics::print(std::ostream& os) const {
  for (const auto& m : messages_) {
    os << m.file << ':' << m.pointer << (m.pointer.empty() ? " " : ": ")
       << (m.severity == Message::Severity::error ? "error" : "warning") << ": " << m.text << '\n';
  }
}

}  // namespace elicitgen
