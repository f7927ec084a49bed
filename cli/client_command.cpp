// `elicitgen client` (client_command.hpp).
#include "client_command.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include <elicit/client.hpp>
#include <elicit/messages/language.hpp>
#include <elicit/tasks.hpp>

#include "answer_sources.hpp"
#include "cancel_on_signal.hpp"
#include "client_connect.hpp"
#include "client_output.hpp"
#include "display_width.hpp"
#include "park_command.hpp"
#include "terminal_form.hpp"
#include "tool_table.hpp"

namespace elicitgen {

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
  ClientOutput out(command.json);
  const auto usage = [&](const std::string& message) { return out.failure({"usage", message, nullptr, 0}); };
  std::string error;
  ServerTarget target;
  if (command.url.empty() && command.stdio_command.empty())
    return usage("say which server: --stdio \"CMD ARGS\" or --url URL");
  if (command.url.empty()) {
    target.argv = split_command(command.stdio_command, error);
    if (!target.argv || target.argv->empty()) return usage("--stdio: " + (target.argv ? "no command" : error));
  }
  target.url = command.url;
  target.ca_file = command.ca_file;
  target.client_id = command.client_id;
  if (!read_credentials(command, target, error)) return usage(error);
  const auto arguments = nlohmann::json::parse(command.arguments_json, nullptr, false);
  if (arguments.is_discarded() || !arguments.is_object()) return usage("ARGUMENTS_JSON must be a JSON object");
  if (command.user_interaction && (command.protocol.empty() || command.protocol == "2026-07-28"))
    return usage("--user-interaction is a 2025-11-25-session dialect: add --protocol 2025-11-25");
  if (!command.park_file.empty()) return call_and_park(command, target, arguments, out);
  AnswerQueue queue;
  // Neither --answers nor --defaults: a person answers on the terminal (stdin), prompts on stderr.
  // Listing asks nothing, so it needs neither. Without a terminal either (a script, a CI job, an
  // agent), nobody can answer: the client then declares no elicitation capability, the spec's way
  // of saying it presents no forms, so a tool that asks nothing just works and one that asks fails
  // with the server's own error.
  const bool by_person = command.answers_file.empty() && !command.defaults && !command.list;
  const bool interactive = by_person && isatty(0);
  const bool nobody_answers = by_person && !interactive;
  if (!command.answers_file.empty() && !queue.load(command.answers_file))
    return usage("--answers " + command.answers_file + ": not a file of ElicitResults (said above)");
  // URL requests reach the answers file too (accept there means the user consented out of band),
  // and the person at the terminal, who is asked for consent; --defaults cannot consent.
  auto options = client_options(command, target, command.protocol, !command.defaults);
  const bool from_file = !command.answers_file.empty();
  // Declared before the client, so they outlive the handler's worker threads, which the client's
  // destructor ends. The prompts go to stderr, so stdout carries only the tool result.
  TerminalForm terminal(std::cin, std::cerr, stderr_shows_ansi(), elicit::messages::from_environment(),
                        stderr_columns());
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
        out.answered(r, answer);
        return answer;
      });
    }
    client->connect();
    if (command.list) {
      const auto& caps = client->server_capabilities();
      const auto extensions = caps.is_object() ? caps.value("extensions", nlohmann::json::object()) : nlohmann::json();
      const bool tasks = (extensions.is_object() && extensions.contains(elicit::tasks_extension)) ||
                         (caps.is_object() && caps.contains("tasks"));
      return out.tools(client->list_tools(), tasks);
    }
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
      if (const int s = on_signal ? on_signal->signal() : 0) return report_cancelled(out, command.tool, s);
      return out.failure(call_failure(*client, command.tool, e));
    }
    // The result shows what the server did with the decline or the cancel.
    if (defaults_failed) return out.unanswered(result, "--defaults could not fill in a form (said above)");
    if (queue.exhausted()) return out.unanswered(result, command.answers_file + " had no answer left (said above)");
    return out.result(result);
  } catch (const std::exception&) {
    return out.failure(current_failure());
  }
}

void say_answer(const elicit::ElicitationRequest& r, const elicit::Answer& answer) {
  // The server's text may hold escape sequences: shown escaped (terminal_form.hpp).
  std::cerr << "elicitgen client: " << (r.url_mode ? "URL " + terminal_safe(r.url) + ": " : std::string("form: "))
            << terminal_safe(r.message) << " -> " << elicit::to_string(answer.action) << "\n";
}

int report_cancelled(ClientOutput& out, const std::string& tool, int signal) {
  out.failure({"cancelled", tool + ": cancelled (" + (signal == SIGINT ? "Ctrl-C" : "SIGTERM") + ")", nullptr, 0});
  return 128 + signal;  // the server has been told: the cancel went out before the call returned
}

Failure call_failure(elicit::Client& client, const std::string& tool, const elicit::ClientError& e, bool resuming) {
  auto f = classify(e, resuming);
  if (f.category != "server_error") return f;
  try {
    if (auto unknown = unknown_tool_message(tool, client.list_tools())) {
      f.message = *unknown;
      f.show_code = false;
    }
  } catch (const std::exception&) {
    // No list to offer: the server's own words stand.
  }
  return f;
}

}  // namespace elicitgen
