// `elicitgen client`: connect to an MCP server, call one tool, answer its elicitations from a file
// of answers, with the forms' defaults, or on the terminal (terminal_form.hpp), and print the tool
// result (issue 15's terminal client); or list the server's tools (tool_table.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace elicitgen {

struct ClientCommand {
  std::string stdio_command;  ///< "CMD ARGS": words split as described at split_command
  std::string url;            ///< a Streamable HTTP endpoint instead (https://, or http://)
  std::string ca_file;        ///< with an https URL: trust the CAs in this PEM file instead of the system's
  /// MCP authorization: a pre-registered client ID (its secret, if any, from ELICITGEN_CLIENT_SECRET)
  std::string client_id;
  /// Keep sign-ins (client registrations, tokens) in memory only instead of the store file
  bool no_store = false;
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
  /// table (tool_table), or with `list_json` as one JSON array of the server's Tool objects.
  bool list = false;
  bool list_json = false;
  std::string tool;
  std::string arguments_json = "{}";
};

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
/// `list`: prints the tools and returns 0, or 2 as above.
int run_client(const ClientCommand& command);

}  // namespace elicitgen
