// The requestState options both sample servers take on their command lines (--state-keys FILE,
// --state-ttl-ms N): one reader, so the stdio and the HTTP server agree on what the files hold.
#pragma once

#include <string>
#include <vector>

#include <elicit/request_state.hpp>

/// Keys in base64, one per line (blank lines skipped), each 32 bytes once decoded, appended to
/// `keys`; false with `error` set (FILE, or FILE:LINE, and why).
bool read_base64_keys(const char* file, std::vector<std::string>& keys, std::string& error);

/// Reads one of the two flags at argv[i] into `options` (advancing i past its value) and returns
/// true; false when argv[i] is neither. `error` is set (and true returned) when it is one of them
/// but its value is bad: a key file that cannot be read or holds a line that is not a base64
/// 32-byte key (FILE:LINE), or a TTL that is not a positive whole number of milliseconds.
///   --state-keys FILE  requestState keys, base64, one per line (blank lines skipped), the first
///                      sealing; several processes, or one restarted, open each other's states
///   --state-ttl-ms N   how long a sealed requestState opens, in milliseconds (default 600000)
bool read_state_option(int argc, char** argv, int& i, elicit::RequestStateOptions& options, std::string& error);
