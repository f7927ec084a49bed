// Located messages: "file:pointer: error: message", the one format every stage reports in.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace elicitgen {

struct Message {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string file;     ///< input path, or "<stdin>"
  std::string pointer;  ///< JSON Pointer into that file ("" for the whole document)
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
  /// Prints every message, one per line: "file:/json/pointer: error: text", or "file: error: text"
  /// when it concerns the whole document.
  void print(std::ostream& os) const;

 private:
  std::vector<Message> messages_;
};

}  // namespace elicitgen
