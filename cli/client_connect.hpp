// How `elicitgen client` reaches a server, shared by `call`, `list` and `resume`: the options every
// one of its clients has, and the Client over stdio (a command started here) or Streamable HTTP
// (with MCP authorization when the server asks for it).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <elicit/client.hpp>

#include "client_command.hpp"

namespace elicitgen {

/// A server: a command to start (argv) or a URL; from the command line or a park file.
struct ServerTarget {
  std::optional<std::vector<std::string>> argv;
  std::string url;
  std::string ca_file;    ///< with an https URL: the CAs to trust instead of the system's
  std::string client_id;  ///< a pre-registered OAuth client ID ("" to register one)
  /// --bearer-token: a token the caller holds, sent instead of signing in ("" for none).
  std::string bearer_token;
  /// --header NAME:VALUE, on every request.
  std::vector<std::pair<std::string, std::string>> headers;
};

/// Reads --bearer-token (the first line of FILE, or of stdin for "-"; never from argv, which other
/// users of the machine can read) and --header into `target`, whose URL is known by then. false
/// with `error` set: a token file that cannot be read or is empty, a header without a name and a
/// colon, either one with --stdio, or over plain http to a host that is not this machine.
bool read_credentials(const ClientCommand& command, ServerTarget& target, std::string& error);

/// The ClientOptions of `elicitgen client`: `protocol` ("" for 2026-07-28 with the fallback to
/// 2025-11-25, else only that revision), its clientInfo, URL requests declared when `url_mode`,
/// the log and the task status lines on stderr, and the server's browser pages reviewed as
/// loopback ones when it runs on this machine.
elicit::ClientOptions client_options(const ClientCommand& command, const ServerTarget& target,
                                     const std::string& protocol, bool url_mode);

/// A Client for `target` (not yet connected). Throws what Client::spawn and the HTTP transport
/// throw; std::runtime_error for a URL when this elicitgen was built without Streamable HTTP.
std::unique_ptr<elicit::Client> open_client(const ClientCommand& command, const ServerTarget& target,
                                            elicit::ClientOptions options);

}  // namespace elicitgen
