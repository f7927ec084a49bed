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
    os << m.file << ':' << m.pointer << ": " << (m.severity == Message::Severity::error ? "error" : "warning") << ": "
       << m.text << '\n';
  }
}

void Diagnostics::promote_warnings() {
  for (auto& m : messages_) m.severity = Message::Severity::error;
}

}  // namespace elicitgen
