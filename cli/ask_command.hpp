// `elicitgen ask SCHEMA`: one form from a schema file, filled in on the terminal (terminal_form.hpp)
// or, with --browser, on a web page served on loopback (elicit/forms/page_server.hpp), the
// accepted content printed as JSON.
#pragma once

#include <chrono>
#include <string>

namespace elicitgen {

struct AskCommand {
  std::string schema;  ///< a file, in any shape `elicitgen generate` reads (load.hpp)
  std::string name;    ///< which schema of a collection ("" when the file holds one)
  /// Print the answer as one ElicitResult line, {"action":"accept","content":{...}} (or
  /// {"action":"decline"} / {"action":"cancel"}), which `elicitgen client --answers` replays.
  bool jsonl = false;
  /// Serve the form as a web page on 127.0.0.1 (a free port) instead of asking on the terminal.
  bool browser = false;
  /// With `browser`: only print the page's URL, never try to open a browser.
  bool no_open = false;
  /// With `browser`: how long the page takes answers, in milliseconds (1 ms to 30 days).
  std::chrono::milliseconds timeout = std::chrono::minutes(10);
};

/// Asks on stdin (the answers) and stderr (the prompts), so stdout carries only the result: the
/// content object (pretty, in the form's order; one ElicitResult line with `jsonl`) and 0 on accept;
/// {"action":"decline"} or {"action":"cancel"} and 1 otherwise;
/// 2 when the file cannot be read or its schema is invalid (each error as `file:pointer: error:
/// message` on stderr).
///
/// With `browser`: the schema is read first (the same errors, exit 2, nothing served); then the form
/// is served at http://127.0.0.1:PORT/forms/ID (development mode: loopback peers only, no sign-in;
/// the schema file's message above the fields, if any; the page's words in the browser's
/// language), its URL printed on stderr (in the locale's language, as the terminal form), and a browser opened when one is plausibly there (browser_launch.hpp; never with
/// `no_open`). stdin is not read. The page's answer is printed as above; a page that expires
/// unanswered (`timeout`) says so on stderr, prints {"action":"cancel"} and exits 1. Exit 2 also
/// when the page cannot be served (no free port), or this build has no HTTP library
/// (ELICITGEN_HAS_HTTP). Ctrl-C ends the command (SIGINT's default): nothing was printed on stdout.
int run_ask(const AskCommand& command);

}  // namespace elicitgen
