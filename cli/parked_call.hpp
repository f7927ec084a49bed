// The park file of `elicitgen client call ... --park FILE` and `elicitgen client resume FILE`: a
// 2026-07-28 tool call stopped at a round of questions, written down with all it takes to go on
// later from another process (the server, the revision, the tool and its arguments, the
// inputRequests and the requestState, or the task waiting in input_required). Never a token or a
// header value: those are given again on resume. Format: docs/client.md, "Parked calls".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>

namespace elicitgen {

/// The server a parked call goes back to: a command started over stdio (argv, run in `cwd`), or a
/// Streamable HTTP URL (with the CA file and OAuth client ID it was reached with).
struct ParkedServer {
  std::string transport;  ///< "stdio" or "http"
  std::vector<std::string> argv;
  std::string cwd;  ///< absolute
  std::string url;
  std::string ca_file;  ///< absolute, or ""
  std::string client_id;
  /// The call went with --bearer-token (never the token itself): resume needs it again.
  bool bearer = false;
  /// The names of its --header fields (never the values): resume needs each again.
  std::vector<std::string> header_names;
};

struct ParkedCall {
  ParkedServer server;
  std::string protocol_version;  ///< the 2026-07-28-era revision the call spoke, pinned on resume
  nlohmann::json client_info;
  bool url_elicitation = false;  ///< URL mode was declared (so it is again on resume)
  std::string tool;
  nlohmann::json arguments = nlohmann::json::object();
  elicit::PendingInput pending;
  int round = 1;          ///< 1 for the first round parked, +1 each time a resume parks again
  std::string parked_at;  ///< RFC 3339, UTC, to the second
};

/// The file's JSON: {"format": "elicitgen-parked-call", "version": 1, ...} (docs/client.md).
nlohmann::ordered_json to_json(const ParkedCall& call);

/// Reads and checks FILE; nullopt with `error` set to "FILE: /pointer: why" (or "FILE: why") when it
/// cannot be read, is not JSON, is not a park file, was written by a newer elicitgen (a higher
/// version) or misses a member.
std::optional<ParkedCall> read_parked_call(const std::string& path, std::string& error);

/// Writes `call` to `path` whole or not at all: a temporary file next to it (mode 0600, created
/// exclusively), flushed to disk, then renamed over `path`. `replace` false: fails when `path`
/// exists. false with `error` set on failure (nothing left behind).
bool write_parked_call(const std::string& path, const ParkedCall& call, bool replace, std::string& error);

/// An exclusive lock on a park file while a resume answers it, so that two resumes of one file
/// never both send its answers. Held until destroyed.
class ParkFileLock {
 public:
  /// Locks `path` without waiting; `error` set (and held() false) when another process holds it or
  /// the file cannot be opened.
  ParkFileLock(const std::string& path, std::string& error);
  ~ParkFileLock();
  ParkFileLock(const ParkFileLock&) = delete;
  ParkFileLock& operator=(const ParkFileLock&) = delete;
  bool held() const noexcept { return fd_ >= 0; }
  /// Whether the file may be read by others than its owner (group or other permission bits).
  bool readable_by_others() const noexcept { return readable_by_others_; }

 private:
  int fd_ = -1;
  bool readable_by_others_ = false;
};

/// The questions of a round as JSON, in the server's order: {"key", "mode": "form", "message",
/// "requestedSchema"} or {"key", "mode": "url", "message", "url", "host", "warnings"[, "refused"]}
/// (a URL that review_url refuses is declined on resume, never opened).
nlohmann::ordered_json questions_json(const std::vector<elicit::ElicitationRequest>& questions);

}  // namespace elicitgen
