// `elicitgen ask` (ask_command.hpp).
#include "ask_command.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <elicit/content/schema.hpp>

#include "diagnostics.hpp"
#include "load.hpp"
#include "names.hpp"
#include "terminal_form.hpp"

namespace elicitgen {

int run_ask(const AskCommand& command) {
  constexpr int kAnswered = 0, kNotAccepted = 1, kUnreadable = 2;
  Diagnostics diags;
  if (command.schema == "-") {
    // stdin carries the answers; the schema cannot share it.
    std::cerr << "elicitgen ask: the answers are read from stdin: give the schema as a file\n";
    return kUnreadable;
  }
  const auto parsed = load_one_form(command.schema, command.name, diags);
  if (!parsed) {
    diags.print(std::cerr);
    return kUnreadable;
  }
  // Highlighting only on a terminal that shows it (NO_COLOR: https://no-color.org).
  const char* term = std::getenv("TERM");
  const bool ansi = isatty(2) && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
  TerminalForm form(std::cin, std::cerr, ansi);
  const auto answer = form.ask_form(parsed->source.message.value_or(""), parsed->form);
  if (answer.action == elicit::ElicitAction::accept) {
    // In the form's order (Answer's content is a sorted nlohmann::json).
    nlohmann::ordered_json content = nlohmann::ordered_json::object();
    for (const auto& f : parsed->form.fields) {
      if (const auto it = answer.content.find(f.name); it != answer.content.end()) content[f.name] = *it;
    }
    if (command.jsonl) {
      nlohmann::ordered_json line{{"action", "accept"}, {"content", std::move(content)}};
      std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << content.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    return kAnswered;
  }
  std::cout << answer.to_json(true).dump() << "\n";
  return kNotAccepted;
}

}  // namespace elicitgen
