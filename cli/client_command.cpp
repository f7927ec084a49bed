// `elicitgen client` (client_command.hpp).
#include "client_command.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

#include <elicit/client.hpp>
#include <elicit/content/form_defaults.hpp>
#include <elicit/url_safety.hpp>
#ifdef ELICITGEN_HAS_HTTP
#include <elicit/http/client_transport.hpp>

#include "oauth_provider.hpp"
#endif

#include "cancel_on_signal.hpp"
#include "terminal_form.hpp"
#include "tool_table.hpp"

namespace elicitgen {
namespace {

constexpr int kToolError = 1;
constexpr int kFailed = 2;

// One answer of --answers and the line it came from (0: none was left, a cancel).
struct FileAnswer {
  elicit::Answer answer;
  int line = 0;
};

// The answers of --answers, handed out in order to the elicitations as they come. A question asked
// again is answered by the line it had: the same elicitationId (URL mode, 2025-11-25), or the same
// inputRequests key with the same params (2026-07-28: a URL page not finished yet is asked again
// every round); a question asked again after an invalid answer says why in its message, so it is a
// new question and takes the next line.
class AnswerQueue {
 public:
  // Reads FILE; false (after saying where and why on stderr) when a line is not an ElicitResult.
  bool load(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << path << ": error: cannot read the answers file\n";
      return false;
    }
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      const auto where = path + ":" + std::to_string(n) + ": error: ";
      if (j.is_discarded() || !j.is_object()) {
        std::cerr << where
                  << "each line must be one ElicitResult object, e.g. {\"action\":\"accept\",\"content\":{...}}\n";
        return false;
      }
      const auto action = j.value("action", std::string());
      elicit::Answer a;
      if (action == "accept") {
        a = elicit::Answer::accept(j.value("content", nlohmann::json::object()));
        if (!a.content.is_object()) {
          std::cerr << where << "/content must be an object\n";
          return false;
        }
      } else if (action == "decline") {
        a = elicit::Answer::decline();
      } else if (action == "cancel") {
        a = elicit::Answer::cancel();
      } else {
        std::cerr << where << "/action must be \"accept\", \"decline\" or \"cancel\"\n";
        return false;
      }
      answers_.push_back({std::move(a), n});
    }
    return true;
  }

  // The answer to `r`: the line it was given before, else the next one; cancel once they are used
  // up, saying which question found none (exhausted() is then true).
  FileAnswer next(const std::string& path, const elicit::ElicitationRequest& r) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto identity = identity_of(r);
    if (!identity.empty()) {
      if (const auto given = given_.find(identity); given != given_.end()) return given->second;
    }
    if (answers_.empty()) {
      exhausted_ = true;
      std::cerr << "elicitgen client: " << path << " has no answer left for the "
                << (r.url_mode ? "URL-mode " : "form ") << "elicitation "
                << (r.key.empty() ? std::string() : "under key \"" + terminal_safe(r.key) + "\" ") << "\""
                << terminal_safe(r.message) << "\": cancel\n";
      return {elicit::Answer::cancel(), 0};
    }
    auto a = std::move(answers_.front());
    answers_.pop_front();
    if (!identity.empty()) given_.emplace(identity, a);
    return a;
  }

  bool exhausted() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return exhausted_;
  }

 private:
  // What makes two requests one question; "" when nothing does (a 2025-11-25 form).
  static std::string identity_of(const elicit::ElicitationRequest& r) {
    if (r.url_mode && !r.elicitation_id.empty()) return "elicitationId\n" + r.elicitation_id;
    // 2026-07-28 URL mode has no elicitationId, and a page not finished yet is asked again with a
    // note added to the message: the key and the URL name it.
    if (r.url_mode && !r.key.empty()) return "url\n" + r.key + "\n" + r.url;
    if (!r.key.empty()) return "key\n" + r.key + "\n" + r.params.dump();
    return "";
  }

  mutable std::mutex mutex_;
  std::deque<FileAnswer> answers_;
  std::map<std::string, FileAnswer> given_;
  bool exhausted_ = false;
};

// An accepted answer from the file that the form's rules refuse, said where it came from: the
// server refuses it too (2025-11-25: its handler sees an invalid response; 2026-07-28: it asks
// again, and the next line answers), which reads as a puzzle without this. It is still sent as is,
// so that a server's handling of invalid content can be tried.
void report_invalid(const std::string& path, const FileAnswer& a, const elicit::ElicitationRequest& r) {
  if (a.line == 0 || a.answer.action != elicit::ElicitAction::accept || r.url_mode || !r.form) return;
  const auto check = elicit::validate_content(*r.form, a.answer.content);
  if (check.ok()) return;
  std::string text;  // one write: 2025-11-25 answers on two threads
  for (const auto& e : check.errors) {
    text += path + ":" + std::to_string(a.line) + ": error: /content" + terminal_safe(e.pointer) + ": " +
            terminal_safe(e.message) + "\n";
  }
  std::cerr << text << "elicitgen client: the content of " << path << ":" << a.line
            << " does not fit the form; sent as is, the server decides\n";
}

// Accepts a form with its defaults; a URL request is declined (consent needs a person). A form its
// defaults cannot fill in is declined, naming what is missing, and `failed` is set: accepting
// would send content the server must refuse (under 2026-07-28 it asks again, round after round,
// until ClientOptions::max_rounds ends the call), and only a person or --answers can fill it in.
elicit::Answer with_defaults(const elicit::ElicitationRequest& r, std::atomic<bool>& failed) {
  if (r.url_mode) return elicit::Answer::decline();
  if (!r.form) {
    std::cerr << "elicitgen client: the form is outside the spec's subset (" +
                     (r.schema_problems.empty() ? std::string("?")
                                                : r.schema_problems[0].pointer + ": " + r.schema_problems[0].message) +
                     "): cancel\n";
    return elicit::Answer::cancel();
  }
  std::string missing;
  std::size_t count = 0;
  for (const auto& f : r.form->fields) {
    if (!f.required || f.default_value) continue;
    missing += (count++ ? ", " : "") + terminal_safe(f.name);
  }
  // That is the only way the defaults can fail: a form (r.form) exists only when every default
  // satisfies its own property (parse_requested_schema), and the other rules are per property.
  if (count == 0) return elicit::Answer::accept(elicit::form_defaults(*r.form));
  failed = true;
  std::cerr << "elicitgen client: --defaults cannot fill in the form \"" + terminal_safe(r.message) + "\": " +
                   (count == 1 ? "required field without a default: " : "required fields without a default: ") +
                   missing + ": decline (answer it with --answers FILE or on a terminal)\n";
  return elicit::Answer::decline();
}

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

// The error of a tools/call, and when the tool does not exist, the tools that do (one more
// tools/list: the error codes for an unknown tool differ between servers, the list does not).
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
  std::string error;
  std::optional<std::vector<std::string>> argv;
  if (command.url.empty() && command.stdio_command.empty()) {
    std::cerr << "elicitgen client: say which server: --stdio \"CMD ARGS\" or --url URL\n";
    return kFailed;
  }
  if (command.url.empty()) {
    argv = split_command(command.stdio_command, error);
    if (!argv || argv->empty()) {
      std::cerr << "elicitgen client: --stdio: " << (argv ? "no command" : error) << "\n";
      return kFailed;
    }
  }
  const auto arguments = nlohmann::json::parse(command.arguments_json, nullptr, false);
  if (arguments.is_discarded() || !arguments.is_object()) {
    std::cerr << "elicitgen client: ARGUMENTS_JSON must be a JSON object\n";
    return kFailed;
  }
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
    if (!queue.load(command.answers_file)) return kFailed;
  }
  if (command.user_interaction && (command.protocol.empty() || command.protocol == "2026-07-28")) {
    std::cerr << "elicitgen client: --user-interaction is a 2025-11-25-session dialect: add --protocol 2025-11-25\n";
    return kFailed;
  }
  elicit::ClientOptions options;
  options.protocol_version = command.protocol.empty() ? "2026-07-28" : command.protocol;
  if (!command.protocol.empty()) options.fallback_protocol_version = std::nullopt;  // forced
  options.client_info = {{"name", "elicitgen-client"}, {"version", "1"}};
  // URL requests reach the answers file too (accept there means the user consented out of band),
  // and the person at the terminal, who is asked for consent; --defaults cannot consent.
  options.url_elicitation = !command.defaults;
  // A server started here (stdio) or on loopback serves its browser forms on loopback: its own page
  // is consented to without an address and a port warning every time.
  options.url_safety.server_on_loopback = argv.has_value() || elicit::review_url(command.url).loopback;
  options.user_interaction = command.user_interaction;
  options.task_notifications = command.task_notifications;
  options.session.log = [](std::string_view line) { std::cerr << "elicitgen client: " << line << "\n"; };
  // A tools/call the server runs as a task: one status line per change while it waits.
  options.on_task_status = [](const nlohmann::json& task) {
    std::string line =
        "elicitgen client: task " + task.value("taskId", std::string()) + ": " + task.value("status", std::string());
    if (const auto m = task.value("statusMessage", std::string()); !m.empty()) line += " (" + m + ")";
    std::cerr << terminal_safe(line) << "\n";
  };
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
    std::unique_ptr<elicit::Client> client;
    if (argv) {
      client = elicit::Client::spawn(*argv, options);
    } else {
#ifdef ELICITGEN_HAS_HTTP
      elicit::http::HttpClientOptions http;
      http.url = command.url;
      http.ca_file = command.ca_file;
      http.protocol_version = options.protocol_version;
      // MCP authorization, when the server asks for it: tokens travel over https, or plain http to
      // this machine only (review_url says which), so other http URLs get none.
      if (elicit::review_url(command.url).allowed) {
        CliAuthorizationOptions sign_in;
        sign_in.store = command.no_store ? std::filesystem::path() : default_oauth_store();
        sign_in.client_id = command.client_id;
        if (const char* secret = std::getenv("ELICITGEN_CLIENT_SECRET"); secret && !command.client_id.empty())
          sign_in.client_secret = secret;
        elicit::auth::OAuthClientOptions flows;
        flows.ca_file = command.ca_file;  // the authorization server is trusted as the MCP server is
        http.authorization = std::make_shared<elicit::auth::OAuthClient>(
            command.url, std::make_shared<CliAuthorization>(std::move(sign_in), std::cerr), std::move(flows));
      }
      client = std::make_unique<elicit::Client>(std::make_unique<elicit::http::HttpClientTransport>(http), options);
#else
      std::cerr << "elicitgen client: --url: this elicitgen was built without Streamable HTTP (Boost)\n";
      return kFailed;
#endif
    }
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
          auto next = queue.next(command.answers_file, r);
          report_invalid(command.answers_file, next, r);
          answer = std::move(next.answer);
        } else {
          answer = with_defaults(r, defaults_failed);
        }
        // The server's text may hold escape sequences: shown escaped (terminal_form.hpp).
        std::cerr << "elicitgen client: " << (r.url_mode ? "URL " + terminal_safe(r.url) + ": " : std::string("form: "))
                  << terminal_safe(r.message) << " -> " << elicit::to_string(answer.action) << "\n";
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
      if (const int s = on_signal ? on_signal->signal() : 0) {
        std::cerr << "elicitgen client: " << command.tool << ": cancelled (" << (s == SIGINT ? "Ctrl-C" : "SIGTERM")
                  << ")" << std::endl;
        return 128 + s;  // the server has been told: the cancel went out before the call returned
      }
      std::cerr << "elicitgen client: " << call_error(*client, command.tool, e) << "\n";
      return kFailed;
    }
    std::cout << result.dump(2) << "\n";
    if (defaults_failed) return kFailed;    // the result shows what the server did with the decline
    if (queue.exhausted()) return kFailed;  // a question found no line: the result is not the file's
    const auto is_error = result.find("isError");
    return is_error != result.end() && is_error->is_boolean() && is_error->get<bool>() ? kToolError : 0;
  } catch (const elicit::ClientError& e) {
    std::cerr << "elicitgen client: " << e.what();
    // A failure of the transport (nothing answered) is not the server's JSON-RPC error.
    const bool transport = e.data().is_object() && e.data().contains(elicit::jsonrpc::kTransportFailure);
    if (e.code() != 0 && !transport) std::cerr << " (JSON-RPC error " << e.code() << ")";
    std::cerr << "\n";
  } catch (const std::exception& e) {
    std::cerr << "elicitgen client: " << e.what() << "\n";
  }
  return kFailed;
}

}  // namespace elicitgen
