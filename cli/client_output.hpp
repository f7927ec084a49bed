// How a run of `elicitgen client` ends: for people (the tool's result on stdout, everything else on
// stderr) or, with --json, as one JSON object on stdout for every outcome (the human lines stay on
// stderr), and its exit code. One table of codes (docs/client.md, "Exit codes"):
//   0 result, 1 tool error, 2 failure (usage, protocol, the server's JSON-RPC error, a question the
//   answer source could not answer), 3 a question declined or cancelled (the result printed),
//   4 authorization, 5 the server not reached (connect, TLS), 6 a parked call the server no longer
//   honours, 75 parked, 128 + n a signal.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>

namespace elicitgen {

/// The exit codes beyond those of client_command.hpp.
inline constexpr int kClientDeclined = 3;
inline constexpr int kClientAuthorization = 4;
inline constexpr int kClientUnreachable = 5;

/// Why a run failed: `category` is usage, connect, tls, auth, protocol, server_error, cannot_park,
/// expired or unanswered; `jsonrpc_error` the server's error object when it sent one (null when the
/// failure is the client's or the transport's); `http_status` when an HTTP status said it.
struct Failure {
  std::string category;
  std::string message;
  nlohmann::json jsonrpc_error;
  int http_status = 0;
  /// Say the JSON-RPC code after the message on stderr (not when the message already says more,
  /// e.g. an unknown tool's list of the tools there are).
  bool show_code = true;
};

/// The category of a ClientError: from its transportFailure kind (connect and no_answer: connect; tls;
/// authorization, or HTTP 401/403: auth; another HTTP status: protocol); code 0 without one:
/// protocol; else the server's own error (server_error), or `expired` for -32602 when `resuming`.
Failure classify(const elicit::ClientError& e, bool resuming = false);

/// The failure of the exception being handled (call it inside a catch block): a ClientError as
/// classify() says, std::invalid_argument as `usage` (e.g. a URL or a CA file the transport cannot
/// take), anything else as `connect` (a server that could not be started or reached).
Failure current_failure();

/// The exit code of a failure's category.
int exit_code_of(const std::string& category);

/// One run's output. Thread-safe: under 2025-11-25 questions are answered on worker threads.
class ClientOutput {
 public:
  explicit ClientOutput(bool json) : json_(json) {}
  bool json() const noexcept { return json_; }

  /// A question answered: said on stderr ("elicitgen client: form: MESSAGE -> accept"), and kept
  /// for the result's `answered` list and its exit code.
  void answered(const elicit::ElicitationRequest& r, const elicit::Answer& a);

  /// The tool's result: printed (text: as is; --json: {"outcome": "result" | "tool_error" |
  /// "declined" | "cancelled", "result", "answered": [{"key", "action"}]}); returns 1 for a tool error,
  /// else 3 when a question was declined or cancelled, else 0.
  int result(const nlohmann::json& result);
  /// The tool's result when an answer source could not answer a question (--defaults, --answers
  /// used up): printed as result() does, with outcome "unanswered" and `message`; returns 2.
  int unanswered(const nlohmann::json& result, const std::string& message);
  /// A failure: "elicitgen client: MESSAGE" on stderr; --json: {"outcome": "failure", "category",
  /// "message"[, "jsonrpc_error", "http_status"]} on stdout. Returns exit_code_of(category).
  int failure(const Failure& f);
  /// `client ... list`: text: the table (tool_table.hpp); --json: {"outcome": "tools", "tools": [...],
  /// "tasks": bool}, `tasks` saying whether the server runs tools as tasks (it declared the
  /// io.modelcontextprotocol/tasks extension, or the 2025-11-25 `tasks` capability; which tools,
  /// each Tool's `execution.taskSupport` says where the revision has it).
  int tools(const nlohmann::json& tools, bool tasks);

  /// The envelope every --json object starts with: {"elicitgen_output": 1, "outcome": OUTCOME}.
  static nlohmann::ordered_json envelope(const char* outcome);

 private:
  nlohmann::ordered_json answered_json() const;
  const bool json_;
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, elicit::ElicitAction>> answered_;
};

}  // namespace elicitgen
