// Located messages, the one format every stage reports in (GCC style, which editors and CI problem
// matchers read):
//   FILE:LINE:COLUMN: SEVERITY: POINTER: TEXT    a place in a JSON file, and its JSON Pointer
//   FILE:LINE:COLUMN: SEVERITY: TEXT             the whole document (the pointer "")
//   FILE:LINE: SEVERITY: TEXT                    a line (a template)
//   FILE: SEVERITY: TEXT                         no place (a file that cannot be read)
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "json_positions.hpp"

namespace elicitgen {

struct Message {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string file;  ///< input path, or "<stdin>"
  /// JSON Pointer into that file ("" for the whole document, or when the message has no pointer).
  std::string pointer;
  std::string text;
  /// Where in the file (line and column 1-based, the column in bytes); unknown when no JSON text
  /// of `file` was registered with add_source() before the message and none was given.
  TextPosition position;
};

class Diagnostics {
 public:
  /// A message at a JSON Pointer of `file`, placed by the JSON text registered for `file` (the
  /// member name, the array item, or the nearest present ancestor of an absent one).
  void error(std::string file, std::string pointer, std::string text) {
    add(Message::Severity::error, std::move(file), std::move(pointer), std::move(text));
  }
  void warning(std::string file, std::string pointer, std::string text) {
    add(Message::Severity::warning, std::move(file), std::move(pointer), std::move(text));
  }
  /// A message at a known place (`column` 0 for a whole line), without a JSON Pointer.
  void error_at(std::string file, TextPosition position, std::string text) {
    messages_.push_back({Message::Severity::error, std::move(file), "", std::move(text), position});
  }
  /// Registers the JSON text of `file` (as messages name it), so that later messages about it are
  /// placed by their pointers. The text must be what nlohmann parsed.
  void add_source(const std::string& file, std::string text);
  /// The sources registered with `other`, for messages added here about the same files.
  void add_sources_of(const Diagnostics& other);
  bool has_errors() const;
  const std::vector<Message>& messages() const { return messages_; }
  /// Prints every message, one per line, in the format of this file's comment.
  void print(std::ostream& os) const;
  /// Turns every warning into an error (--warnings-as-errors).
  void promote_warnings();

 private:
  void add(Message::Severity severity, std::string file, std::string pointer, std::string text);

  std::vector<Message> messages_;
  std::map<std::string, std::shared_ptr<const JsonPositions>> sources_;
};

/// One message as print() writes it, without the newline.
std::string format_message(const Message& m);

}  // namespace elicitgen
