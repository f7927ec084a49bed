// `elicitgen client` (client_command.hpp).
#include "client_command.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>

#include <elicit/client.hpp>

#include "answer_sources.hpp"
#include "cancel_on_signal.hpp"
#include "client_connect.hpp"
#include "park_command.hpp"
#include "terminal_form.hpp"
#include "tool_table.hpp"

namespace elicitgen {
namespace {

// `client ... list`: every page of tools/list, as a table or as JSON.
int list_tools(elicit::Client& client, bool json) {
  const auto tools = client.list_tools();
  if (json) {
    std::cout << tools.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else if (tools.empty()) {
    std::cerr << "elicitgen client: the server offers no tools\n";
  } else {
    std::cout << tool_table(tools);
  }
  return 0;
}

}  // namespace

std::optional<std::vector<std::string>> split_command(const std::string& line, std::string& error) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const auto end = line.find('\'', i + 1);
      if (end == std::string::npos) {
        error = "unterminated ' at offset " + std::to_string(i);
        return std::nullopt;
      }
      word += line.substr(i + 1, end - i - 1);
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\')) ++j;
        word += line[j];
      }
      if (j >= line.size()) {
        error = "unterminated \" at offset " + std::to_string(i);
        return std::nullopt;
      }
      i = j;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) {
        error = "trailing backslash";
        return std::nullopt;
      }
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

int run_client(const ClientCommand& command) {
  if (command.resume) return run_resume(command);
  std::string error;
  ServerTarget target;
  if (command.url.empty() && command.stdio_command.empty()) {
    std::cerr << "elicitgen client: say which server: --stdio \"CMD ARGS\" or --url URL\n";
    return kClientFailed;
  }
  if (command.url.empty()) {
    target.argv = split_command(command.stdio_command, error);
    if (!target.argv || target.argv->empty()) {
      std::cerr << "elicitgen client: --stdio: " << (target.argv ? "no command" : error) << "\n";
      return kClientFailed;
    }
  }
  target.url = command.url;
  target.ca_file = command.ca_file;
  target.client_id = command.client_id;
  const auto arguments = nlohmann::json::parse(command.arguments_json, nullptr, false);
  if (arguments.is_discarded() || !arguments.is_object()) {
    std::cerr << "elicitgen client: ARGUMENTS_JSON must be a JSON object\n";
    return kClientFailed;
  }
  if (command.user_interaction && (command.protocol.empty() || command.protocol == "2026-07-28")) {
    std::cerr << "elicitgen client: --user-interaction is a 2025-11-25-session dialect: add --protocol 2025-11-25\n";
    return kClientFailed;
  }
  if (!command.park_file.empty()) return call_and_park(command, target, arguments);
  AnswerQueue queue;
  // Neither --answers nor --defaults: a person answers on the terminal (stdin), prompts on stderr.
  // Listing asks nothing, so it needs neither. Without a terminal either (a script, a CI job, an
  // agent), nobody can answer: the client then declares no elicitation capability, the spec's way
  // of saying it presents no forms, so a tool that asks nothing just works and one that asks fails
  // with the server's own error.
  const bool by_person = command.answers_file.empty() && !command.defaults && !command.list;
  const bool interactive = by_person && isatty(0);
  const bool nobody_answers = by_person && !interactive;
  if (!command.answers_file.empty()) {
    if (!queue.load(command.answers_file)) return kClientFailed;
  }
  // URL requests reach the answers file too (accept there means the user consented out of band),
  // and the person at the terminal, who is asked for consent; --defaults cannot consent.
  auto options = client_options(command, target, command.protocol, !command.defaults);
  const bool from_file = !command.answers_file.empty();
  // The prompts go to stderr, so stdout carries only the tool result; highlighting only on a
  // terminal that shows it (NO_COLOR: https://no-color.org).
  const char* term = std::getenv("TERM");
  const bool ansi = isatty(2) && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
  // Declared before the client, so they outlive the handler's worker threads, which the client's
  // destructor ends.
  TerminalForm terminal(std::cin, std::cerr, ansi);
  // 2025-11-25 answers elicitations on two worker threads: one dialogue on the terminal at a time.
  std::mutex terminal_mutex;
  std::atomic<bool> defaults_failed{false};  // --defaults declined a form it could not fill in
  try {
    auto client = open_client(command, target, std::move(options));
    if (nobody_answers) {
      std::cerr << "elicitgen client: stdin is not a terminal and neither --answers nor --defaults is given: no "
                   "forms can be answered, so none are offered to the server\n";
    } else {
      client->on_elicitation([&, from_file, interactive](const elicit::ElicitationRequest& r) {
        elicit::Answer answer;
        if (interactive) {
          std::lock_guard<std::mutex> lock(terminal_mutex);
          answer = terminal.ask(r);
        } else if (from_file) {
          auto next = *queue.next(r);
          report_invalid(command.answers_file, next, r);
          answer = std::move(next.answer);
        } else {
          answer = *with_defaults(r, defaults_failed);
        }
        say_answer(r, answer);
        return answer;
      });
    }
    client->connect();
    if (command.list) return list_tools(*client, command.list_json);
    nlohmann::json result;
    // Ctrl-C (or SIGTERM) cancels the call where the server hears it, then exits 128 + the signal.
    // Not with a form on the terminal: a 2026-07-28 form reads the terminal on this thread, which a
    // cancel cannot interrupt, so there Ctrl-C keeps ending the process at once.
    auto scope = std::make_shared<elicit::CancelScope>();
    std::optional<CancelOnSignal> on_signal;
    if (!interactive) on_signal.emplace(scope);
    try {
      result = client->call_tool(command.tool, arguments, scope);
    } catch (const elicit::ClientError& e) {
      if (const int s = on_signal ? on_signal->signal() : 0) return report_cancelled(command.tool, s);
      std::cerr << "elicitgen client: " << call_error(*client, command.tool, e) << "\n";
      return kClientFailed;
    }
    std::cout << result.dump(2) << "\n";
    if (defaults_failed) return kClientFailed;    // the result shows what the server did with the decline
    if (queue.exhausted()) return kClientFailed;  // a question found no line: the result is not the file's
    return result_exit_code(result);
  } catch (const elicit::ClientError& e) {
    report_client_error(e);
  } catch (const std::exception& e) {
    std::cerr << "elicitgen client: " << e.what() << "\n";
  }
  return kClientFailed;
}

void say_answer(const elicit::ElicitationRequest& r, const elicit::Answer& answer) {
  // The server's text may hold escape sequences: shown escaped (terminal_form.hpp).
  std::cerr << "elicitgen client: " << (r.url_mode ? "URL " + terminal_safe(r.url) + ": " : std::string("form: "))
            << terminal_safe(r.message) << " -> " << elicit::to_string(answer.action) << "\n";
}

int report_cancelled(const std::string& tool, int signal) {
  std::cerr << "elicitgen client: " << tool << ": cancelled (" << (signal == SIGINT ? "Ctrl-C" : "SIGTERM") << ")"
            << std::endl;
  return 128 + signal;  // the server has been told: the cancel went out before the call returned
}

int result_exit_code(const nlohmann::json& result) {
  const auto is_error = result.find("isError");
  return is_error != result.end() && is_error->is_boolean() && is_error->get<bool>() ? kClientToolError : 0;
}

std::string call_error(elicit::Client& client, const std::string& tool, const elicit::ClientError& e) {
  std::string said = e.what();
  if (e.code() != 0) said += " (JSON-RPC error " + std::to_string(e.code()) + ")";
  if (e.code() == 0) return said;  // the protocol broke; the connection may not answer another request
  try {
    if (auto unknown = unknown_tool_message(tool, client.list_tools())) return *unknown;
  } catch (const std::exception&) {
    // No list to offer: the server's own words stand.
  }
  return said;
}

}  // namespace elicitgen
