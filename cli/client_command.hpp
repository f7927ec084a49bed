// `elicitgen client`: connect to an MCP server, call one tool, answer its elicitations from a file
// of answers, with the forms' defaults, or on the terminal (terminal_form.hpp), and print the tool
// result (issue 15's terminal client); or list the server's tools (tool_table.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>

namespace elicitgen {

struct ClientCommand {
  std::string stdio_command;  ///< "CMD ARGS": words split as described at split_command
  std::string url;            ///< a Streamable HTTP endpoint instead (https://, or http://)
  std::string ca_file;        ///< with an https URL: trust the CAs in this PEM file instead of the system's
  /// MCP authorization: a pre-registered client ID (its secret, if any, from ELICITGEN_CLIENT_SECRET)
  std::string client_id;
  /// Keep sign-ins (client registrations, tokens) in memory only instead of the store file
  bool no_store = false;
  /// A token the caller already holds: the first line of this file, or of stdin for "-"
  /// (client_connect.hpp, read_credentials); sent instead of signing in
  std::string bearer_token_file;
  /// --header NAME:VALUE (repeatable): sent with every request (a gateway's key)
  std::vector<std::string> header_args;
  /// The revision to speak; "" (the default): 2026-07-28, falling back to 2025-11-25 with a server of
  /// the initialize era (ClientOptions::fallback_protocol_version).
  std::string protocol;
  std::string answers_file;  ///< JSON Lines of ElicitResults, used in order ("" when not given)
  bool defaults = false;     ///< accept every form with its defaults
  /// Speak the userInteraction dialect (ClientOptions::user_interaction): declare
  /// `userInteraction` instead of `elicitation`; needs --protocol 2025-11-25 or 2025-06-18.
  bool user_interaction = false;
  /// Follow a task from its notifications/tasks too (ClientOptions::task_notifications).
  bool task_notifications = false;
  /// `client ... list`: print the tools (every page of tools/list) instead of calling one; as a
  /// table (tool_table), or with `json` as {"outcome": "tools", "tools": [the server's Tool objects]}.
  bool list = false;
  std::string tool;
  std::string arguments_json = "{}";
  /// `call ... --park FILE` (MCP 2026-07-28): a question nobody here answers parks the call in FILE
  /// (parked_call.hpp) instead of being cancelled; exit kClientParked.
  std::string park_file;
  /// `client resume FILE`: go on with the call parked in `resume_file`, its questions answered by
  /// `answer_pairs` (KEY=JSON), --answers, --defaults or the terminal.
  bool resume = false;
  /// --json: one JSON object on stdout for every outcome (client_output.hpp); `list --json` too.
  bool json = false;
  std::string resume_file;
  std::vector<std::string> answer_pairs;
};

/// The exit codes of `elicitgen client` (docs/client.md, "Exit codes").
inline constexpr int kClientToolError = 1;  ///< the tool's result has isError: true
inline constexpr int kClientFailed = 2;     ///< usage, a server that cannot be reached or started, an error
/// A parked call's requestState or task is no longer honoured by the server (expired, other keys,
/// the task gone): -32602 on resume. The park file is kept.
inline constexpr int kClientExpired = 6;
/// Parked, waiting for input (sysexits' EX_TEMPFAIL: "try again later").
inline constexpr int kClientParked = 75;

/// Splits a command line into words without a shell: blanks separate words; '...' keeps its text
/// as is; "..." keeps its text with \" and \\ escapes; a backslash outside quotes keeps the next
/// character. No expansion of any kind. nullopt (with `error` set) for an unterminated quote or a
/// trailing backslash.
std::optional<std::vector<std::string>> split_command(const std::string& line, std::string& error);

/// Runs the command: prints the tool result as JSON on stdout and returns 0, or 1 when the result
/// is a tool error (isError); 2 for bad usage, unreadable answers, a server that cannot be started
/// or a JSON-RPC error (each said on stderr; an unknown tool's error lists the tools that exist).
/// With `defaults`, a form that its defaults cannot fill in (a required field without a default)
/// is declined, the fields named on stderr; the tool's
/// result is still printed, and the return is 2. An --answers content that fails validate_content
/// is reported on stderr (FILE:LINE: /pointer: message) and sent as is: the server decides.
/// Neither `answers_file` nor `defaults`: a person answers on the terminal (stdin); when stdin is
/// not a terminal, nobody can, and the client declares no elicitation capability (said on stderr).
/// `list`: prints the tools and returns 0, or 2 as above. `park_file` and `resume`: see
/// park_command.hpp (75 when the call parks, 6 when a resumed call's state has expired).
int run_client(const ClientCommand& command);

// Shared by the client's commands (client_command.cpp, park_command.cpp).
class ClientOutput;
struct Failure;
/// "elicitgen client: form: MESSAGE -> accept" on stderr, the server's text escaped.
void say_answer(const elicit::ElicitationRequest& r, const elicit::Answer& answer);
/// A call cancelled by SIGINT or SIGTERM: a failure of category "cancelled"; returns 128 + the signal.
int report_cancelled(ClientOutput& out, const std::string& tool, int signal);
/// The failure of a tools/call (classify()), and when the tool does not exist, the tools that do
/// (one more tools/list: the error codes for an unknown tool differ between servers, the list does
/// not). `resuming`: -32602 means the parked call expired.
Failure call_failure(elicit::Client& client, const std::string& tool, const elicit::ClientError& e,
                     bool resuming = false);

}  // namespace elicitgen
