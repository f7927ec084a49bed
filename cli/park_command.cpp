// Parking a call and resuming it (park_command.hpp).
#include "park_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/http/ascii_case.hpp>
#include <elicit/jsonrpc/message.hpp>
#include <elicit/messages/language.hpp>
#include <elicit/protocol/protocol_era.hpp>

#include "answer_sources.hpp"
#include "cancel_on_signal.hpp"
#include "client_output.hpp"
#include "display_width.hpp"
#include "parked_call.hpp"
#include "terminal_form.hpp"

namespace elicitgen {
namespace {

std::string now_rfc3339() {
  const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string absolute(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

// The answers that need no person: --answer KEY=JSON (resume), then --answers, then --defaults.
// nullopt: none of them answers this question.
struct Sources {
  KeyedAnswers* keyed = nullptr;
  AnswerQueue* queue = nullptr;
  bool defaults = false;
  std::atomic<bool> unused{false};

  std::optional<elicit::Answer> operator()(const elicit::ElicitationRequest& r) {
    if (keyed) {
      if (auto a = keyed->take(r.key)) return a;
    }
    if (queue && queue->loaded()) {
      if (auto a = queue->next(r, true)) {
        report_invalid(queue->path(), *a, r);
        return a->answer;
      }
    }
    if (defaults) return with_defaults(r, unused, true);
    return std::nullopt;
  }
};

// The parked outcome: one JSON object on stdout for the program that called, and for a person the
// questions and how to answer them on stderr.
int report_parked(const ParkedCall& parked, const std::string& path, const elicit::UrlSafetyOptions& url_safety) {
  const auto questions = parked.pending.questions(url_safety);
  auto out = ClientOutput::envelope("parked");
  out["park_file"] = path;
  out["kind"] = parked.pending.task_id.empty() ? "input_required" : "task";
  if (!parked.pending.task_id.empty()) out["task_id"] = parked.pending.task_id;
  out["round"] = parked.round;
  out["protocol_version"] = parked.protocol_version;
  out["questions"] = questions_json(questions);
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  std::string text = "elicitgen client: " + terminal_safe(parked.tool) + ": parked in " + terminal_safe(path) +
                     " (round " + std::to_string(parked.round) + "), waiting for input:\n";
  std::string example;
  for (const auto& q : questions) {
    text += "  " + terminal_safe(q.key) + ": ";
    if (q.url_mode) {
      text += "URL " + terminal_safe(q.url) + " (" + terminal_safe(q.message) + ")";
      if (!q.url_review.allowed) text += ": refused (" + terminal_safe(q.url_review.refusal) + "), declined on resume";
    } else {
      text += "form \"" + terminal_safe(q.message) + "\"";
      if (q.form) {
        std::string fields;
        for (const auto& f : q.form->fields) fields += (fields.empty() ? "" : ", ") + terminal_safe(f.name);
        text += " (fields: " + fields + ")";
      }
    }
    text += "\n";
    if (example.empty())
      example = " --answer '" + terminal_safe(q.key) + (q.url_mode ? "={\"action\":\"accept\"}'" : "={...}'");
  }
  text += "elicitgen client: go on with: elicitgen client resume " + terminal_safe(path) + example +
          " (or --answers FILE, --defaults, or on a terminal)\n";
  std::cerr << text;
  return kClientParked;
}

// The call stopped: written to `path` (a new file, or over the one resumed), then reported.
int park(ClientOutput& out, ParkedCall parked, elicit::PendingInput pending, const std::string& path, bool replace,
         const elicit::UrlSafetyOptions& url_safety) {
  parked.pending = std::move(pending);
  parked.parked_at = now_rfc3339();
  std::string error;
  if (!write_parked_call(path, parked, replace, error)) {
    return out.failure({"usage", error, nullptr, 0});
  }
  return report_parked(parked, path, url_safety);
}

}  // namespace

int call_and_park(const ClientCommand& command, const ServerTarget& target, const nlohmann::json& arguments,
                  ClientOutput& out) {
  const auto path = absolute(command.park_file);
  if (::access(path.c_str(), F_OK) == 0)
    return out.failure({"usage", "--park " + path + ": already exists: remove it or choose another file", nullptr, 0});
  AnswerQueue queue;
  if (!command.answers_file.empty() && !queue.load(command.answers_file))
    return out.failure(
        {"usage", "--answers " + command.answers_file + ": not a file of ElicitResults (said above)", nullptr, 0});
  Sources sources;
  sources.queue = &queue;
  sources.defaults = command.defaults;
  // URL questions are declared: parked, a person opens the page and resume says it is done
  // (--defaults alone cannot consent, so it declines them, as a plain call does).
  auto options = client_options(command, target, command.protocol, true);
  options.declare_elicitation = true;
  const auto url_safety = options.url_safety;
  try {
    auto client = open_client(command, target, std::move(options));
    client->connect();
    ParkedCall parked;
    parked.protocol_version = client->protocol_version();
    const auto& modern = elicit::stateless_protocol_versions();
    if (std::find(modern.begin(), modern.end(), parked.protocol_version) == modern.end()) {
      return out.failure({"cannot_park",
                          "--park: the server speaks " + parked.protocol_version +
                              ", whose questions wait on the open session and cannot be parked (MCP 2026-07-28 "
                              "only); the tool was not called",
                          nullptr, 0});
    }
    if (target.argv) {
      parked.server.transport = "stdio";
      parked.server.argv = *target.argv;
      parked.server.cwd = std::filesystem::current_path().string();
    } else {
      parked.server.transport = "http";
      parked.server.url = target.url;
      if (!target.ca_file.empty()) parked.server.ca_file = absolute(target.ca_file);
      parked.server.client_id = target.client_id;
      parked.server.bearer = !target.bearer_token.empty();
      for (const auto& [name, value] : target.headers) parked.server.header_names.push_back(name);
    }
    parked.client_info = {{"name", "elicitgen-client"}, {"version", "1"}};
    parked.url_elicitation = true;
    parked.tool = command.tool;
    parked.arguments = arguments;
    auto scope = std::make_shared<elicit::CancelScope>();
    CancelOnSignal on_signal(scope);
    elicit::CallStep step;
    try {
      step = client->call_tool_step(
          command.tool, arguments,
          [&](const elicit::ElicitationRequest& r) {
            auto a = sources(r);
            if (a) out.answered(r, *a);
            return a;
          },
          scope);
    } catch (const elicit::ClientError& e) {
      if (const int s = on_signal.signal()) return report_cancelled(out, command.tool, s);
      return out.failure(call_failure(*client, command.tool, e));
    }
    if (step.pending) return park(out, std::move(parked), std::move(*step.pending), path, false, url_safety);
    return out.result(*step.result);
  } catch (const std::exception&) {
    return out.failure(current_failure());
  }
}

int run_resume(const ClientCommand& command) {
  ClientOutput out(command.json);
  if (!command.stdio_command.empty() || !command.url.empty() || !command.protocol.empty()) {
    return out.failure(
        {"usage", "resume: the server and its revision come from the park file: drop --stdio, --url and --protocol",
         nullptr, 0});
  }
  const auto path = absolute(command.resume_file);
  std::string error;
  ParkFileLock lock(path, error);
  if (!lock.held()) {
    return out.failure({"usage", error, nullptr, 0});
  }
  auto parked = read_parked_call(path, error);
  if (!parked) {
    return out.failure({"usage", error, nullptr, 0});
  }
  if (lock.readable_by_others())
    std::cerr << "elicitgen client: warning: " << path
              << " may be read by other users (chmod 600 it): it holds the call's arguments and answers' questions\n";
  KeyedAnswers keyed;
  for (const auto& pair : command.answer_pairs) {
    if (!keyed.add(pair, error)) {
      return out.failure({"usage", error, nullptr, 0});
    }
  }
  AnswerQueue queue;
  if (!command.answers_file.empty() && !queue.load(command.answers_file))
    return out.failure(
        {"usage", "--answers " + command.answers_file + ": not a file of ElicitResults (said above)", nullptr, 0});
  const bool interactive =
      command.answer_pairs.empty() && command.answers_file.empty() && !command.defaults && isatty(0);
  ServerTarget target;
  if (parked->server.transport == "stdio") {
    target.argv = parked->server.argv;
  } else {
    target.url = parked->server.url;
    target.ca_file = parked->server.ca_file;
    target.client_id = parked->server.client_id;
  }
  if (!read_credentials(command, target, error)) {
    return out.failure({"usage", error, nullptr, 0});
  }
  // What the park file names but never holds: the token and the header values, given again.
  if (parked->server.bearer && target.bearer_token.empty()) {
    return out.failure({"usage",
                        path + ": the call was parked with --bearer-token, which is never written down: give it again",
                        nullptr, 0});
  }
  for (const auto& name : parked->server.header_names) {
    // Field names are case-insensitive (RFC 9110 section 5.1).
    const bool given = std::any_of(target.headers.begin(), target.headers.end(),
                                   [&](const auto& h) { return elicit::http::equals_nocase(h.first, name); });
    if (!given) {
      return out.failure(
          {"usage",
           path + ": the call was parked with --header " + name + ", whose value is never written down: give it again",
           nullptr, 0});
    }
  }
  auto options = client_options(command, target, parked->protocol_version, parked->url_elicitation);
  options.declare_elicitation = true;
  if (parked->client_info.is_object()) options.client_info = parked->client_info;
  const auto url_safety = options.url_safety;

  // The parked round, answered before anything is sent: every question, or nothing is.
  const auto questions = parked->pending.questions(url_safety);
  for (const auto& key : keyed.keys()) {
    const bool asked = std::any_of(questions.begin(), questions.end(), [&](const auto& q) { return q.key == key; });
    if (!asked)
      return out.failure({"usage", "--answer " + key + ": " + path + " has no question under that key", nullptr, 0});
  }
  TerminalForm terminal(std::cin, std::cerr, stderr_shows_ansi(), elicit::messages::from_environment(),
                        stderr_columns());
  Sources sources;
  sources.keyed = &keyed;
  sources.queue = &queue;
  sources.defaults = command.defaults;
  // The sources, then the person at the terminal; nullopt when neither answers.
  const auto take = [&](const elicit::ElicitationRequest& r) -> std::optional<elicit::Answer> {
    auto a = sources(r);
    if (!a && interactive) a = terminal.ask(r);
    return a;
  };
  // Later rounds: taken the same way, said as they go; what nobody answers parks the call again.
  elicit::StepAnswerer later = [&](const elicit::ElicitationRequest& r) {
    auto a = take(r);
    if (a) out.answered(r, *a);
    return a;
  };
  nlohmann::ordered_json responses = nlohmann::ordered_json::object();
  std::vector<std::pair<const elicit::ElicitationRequest*, elicit::Answer>> answered;
  for (const auto& q : questions) {
    std::optional<elicit::Answer> a;
    if (q.url_mode && !q.url_review.allowed) {
      a = elicit::Answer::decline();  // never offered (Safe URL Handling)
    } else {
      a = take(q);
    }
    if (!a) {
      return out.failure({"unanswered",
                          path + ": the question under key \"" + q.key + "\" has no answer: give --answer " + q.key +
                              "=JSON, --answers FILE or --defaults, or resume on a terminal; nothing was sent",
                          nullptr, 0});
    }
    responses[q.key] = a->to_json(!q.url_mode);
    answered.emplace_back(&q, std::move(*a));
  }
  for (const auto& [q, a] : answered) out.answered(*q, a);
  if (target.argv && ::chdir(parked->server.cwd.c_str()) != 0) {
    return out.failure({"usage",
                        path + ": the server's directory " + parked->server.cwd +
                            " cannot be entered: the parked command would not be the same",
                        nullptr, 0});
  }
  try {
    auto client = open_client(command, target, std::move(options));
    client->connect();
    auto scope = std::make_shared<elicit::CancelScope>();
    std::optional<CancelOnSignal> on_signal;
    if (!interactive) on_signal.emplace(scope);
    elicit::CallStep step;
    try {
      step = client->resume_tool_step(parked->tool, parked->arguments, parked->pending, std::move(responses), later,
                                      scope);
    } catch (const elicit::ClientError& e) {
      if (const int s = on_signal ? on_signal->signal() : 0) return report_cancelled(out, parked->tool, s);
      auto f = call_failure(*client, parked->tool, e, true);
      f.message += f.category == "expired"
                       ? ": the server no longer honours the call parked in " + path +
                             " (its requestState expired or was sealed with keys the server no longer has, or the "
                             "task is gone); the file is kept: call the tool again"
                       : "; " + path + " is kept";
      return out.failure(f);
    }
    if (step.pending) {
      parked->round += 1;
      return park(out, std::move(*parked), std::move(*step.pending), path, true, url_safety);
    }
    std::filesystem::remove(path);
    return out.result(*step.result);
  } catch (const std::exception&) {
    auto f = current_failure();
    f.message += "; " + path + " is kept";
    return out.failure(f);
  }
}

}  // namespace elicitgen
