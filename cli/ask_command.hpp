// `elicitgen ask SCHEMA`: one form from a schema file, filled in on the terminal (terminal_form.hpp),
// the accepted content printed as JSON.
#pragma once

#include <string>

namespace elicitgen {

struct AskCommand {
  std::string schema;  ///< a file, in any shape `elicitgen generate` reads (load.hpp)
  std::string name;    ///< which schema of a collection ("" when the file holds one)
  /// Print the answer as one ElicitResult line, {"action":"accept","content":{...}} (or
  /// {"action":"decline"} / {"action":"cancel"}), which `elicitgen client --answers` replays.
  bool jsonl = false;
};

/// Asks on stdin (the answers) and stderr (the prompts), so stdout carries only the result: the
/// content object (pretty, in the form's order; one ElicitResult line with `jsonl`) and 0 on accept;
/// {"action":"decline"} or {"action":"cancel"} and 1 otherwise;
/// 2 when the file cannot be read or its schema is invalid (each error as `file:pointer: error:
/// message` on stderr).
int run_ask(const AskCommand& command);

}  // namespace elicitgen
