// The interactive terminal form of `elicitgen client` and `elicitgen ask`: asks a person, one line
// at a time, for the content of a form elicitation or for consent to a URL-mode one (MCP
// 2025-11-25, Client, Elicitation: "Form Mode", "URL Mode", "Safe URL Handling"). The streams are
// given, so the dialogue runs the same on a terminal and on string streams in tests.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>
#include <elicit/content/schema.hpp>
#include <elicit/messages/catalog.hpp>

namespace elicitgen {

/// One dialogue per call, on `in` (answers, line by line) and `out` (everything shown). Commands at
/// any prompt: `:decline` declines, `:cancel` or the end of input (Ctrl-D) cancels, `:skip` leaves
/// an optional field out, `:none` selects nothing in a multi-select; a value that starts with ':' is
/// typed with a doubled colon (`::x` gives ":x"). Not thread-safe: one dialogue at a time.
class TerminalForm {
 public:
  /// `ansi`: highlight with ANSI escapes (for a terminal that shows them); the text is the same.
  /// `language`: a BCP 47 tag (elicit::messages::resolve; e.g. from_environment()) for the form's
  /// own words and the validation messages (the server's words are shown as sent); English when the
  /// catalog lacks it. y/yes/true and n/no/false are understood in every language, with the
  /// language's own words for yes and no. `columns`: the terminal's width, to wrap paragraphs at
  /// (display columns; 0, as for a pipe: not wrapped).
  TerminalForm(std::istream& in, std::ostream& out, bool ansi = false, std::string language = "en",
               std::size_t columns = 0);

  /// Asks for every field of `form` in its order, each value checked as typed with
  /// elicit::validate_value and the whole with elicit::validate_content, then shows the content for
  /// review. Accept carries content that validate_content passes. A multi-select is a set: an
  /// option typed twice (`1,3,3`, or `1,ham` naming option 1 both ways) is refused and asked again.
  elicit::Answer ask_form(std::string_view message, const elicit::Form& form);

  /// Asks for consent to open the URL of a URL-mode request that review_url allowed: the full URL,
  /// its host highlighted, each warning. Yes is accept (the URL is printed for the user to open;
  /// nothing is fetched), no or Enter is decline.
  elicit::Answer ask_url(const elicit::ElicitationRequest& request);

  /// ask_form or ask_url by the request's mode; a form outside the spec's subset (no `form`) is
  /// cancelled and a URL review_url refused is declined, the reason shown either way.
  elicit::Answer ask(const elicit::ElicitationRequest& request);

 private:
  enum class Step { value, skipped, decline, cancel };
  struct Entry {
    Step step = Step::skipped;
    nlohmann::json value;
  };

  bool read_line(std::string& line);
  Entry ask_field(const elicit::Field& field, std::size_t index, std::size_t count,
                  const std::optional<nlohmann::json>& current);
  std::string highlight(std::string_view text) const;
  std::string say(std::string_view id,
                  std::initializer_list<std::pair<std::string_view, elicit::messages::Argument>> args = {}) const;
  void error(std::string_view pointer, std::string_view message);
  void show_options(const elicit::Field& field);

  std::istream& in_;
  std::ostream& out_;
  bool ansi_;
  std::string language_;
  std::size_t columns_;
};

/// `text` (from a server) safe to print on a terminal: control characters (C0, DEL, C1), which
/// could move the cursor, rewrite the screen or retitle the window, are shown as `\xNN` (or
/// `\u{NN}` for C1); newlines are kept when `keep_newlines`. Other text is kept as is.
std::string terminal_safe(std::string_view text, bool keep_newlines = false);

/// Whether highlighting (ANSI escapes) may go to stderr, where the form writes: stderr is a terminal,
/// TERM is set and not "dumb", and NO_COLOR is unset (https://no-color.org).
bool stderr_shows_ansi();

}  // namespace elicitgen
