#include "diagnostics.hpp"

namespace elicitgen {

void Diagnostics::add(Message::Severity severity, std::string file, std::string pointer, std::string text) {
  TextPosition position;
  if (const auto it = sources_.find(file); it != sources_.end()) position = it->second->locate(pointer);
  messages_.push_back({severity, std::move(file), std::move(pointer), std::move(text), position});
}

void Diagnostics::add_source(const std::string& file, std::string text) {
  sources_[file] = std::make_shared<const JsonPositions>(std::move(text));
}

void Diagnostics::add_sources_of(const Diagnostics& other) {
  for (const auto& [file, positions] : other.sources_) sources_[file] = positions;
}

bool Diagnostics::has_errors() const {
  for (const auto& m : messages_) {
    if (m.severity == Message::Severity::error) return true;
  }
  return false;
}

std::string format_message(const Message& m) {
  std::string out = m.file;
  if (m.position.known()) {
    out += ':' + std::to_string(m.position.line);
    if (m.position.column != 0) out += ':' + std::to_string(m.position.column);
  }
  out += m.severity == Message::Severity::error ? ": error: " : ": warning: ";
  if (!m.pointer.empty()) out += m.pointer + ": ";
  return out + m.text;
}

void Diagnostics::print(std::ostream& os) const {
  for (const auto& m : messages_) os << format_message(m) << '\n';
}

void Diagnostics::promote_warnings() {
  for (auto& m : messages_) m.severity = Message::Severity::error;
}

}  // namespace elicitgen
