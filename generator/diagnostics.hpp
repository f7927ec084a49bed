// Located messages: "file:location: severity: message", the one format every stage reports in.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace elicitgen {

struct Message {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string file;  ///< input path, or "<stdin>"
  /// JSON Pointer into that file ("" for the whole document), or a line number for a template or a
  /// JSON Lines record.
  std::string pointer;
  std::string text;
};

class Diagnostics {
 public:
  void error(std::string file, std::string pointer, std::string text) {
    messages_.push_back({Message::Severity::error, std::move(file), std::move(pointer), std::move(text)});
  }
  void warning(std::string file, std::string pointer, std::string text) {
    messages_.push_back({Message::Severity::warning, std::move(file), std::move(pointer), std::move(text)});
  }
  bool has_errors() const;
  const std::vector<Message>& messages() const { return messages_; }
  /// Prints every message, one per line, always as "file:location: severity: text". The location
  /// field is there even when it is empty ("file:: error: text" for the whole document), so every
  /// line splits the same way.
  void print(std::ostream& os) const;
  /// Turns every warning into an error (--warnings-as-errors).
  void promote_warnings();

 private:
  std::vector<Message> messages_;
};

}  // namespace elicitgen
