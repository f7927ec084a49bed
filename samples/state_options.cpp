// The sample servers' requestState flags (state_options.hpp).
#include "state_options.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

bool read_base64_keys(const char* file, std::vector<std::string>& keys, std::string& error) {
  std::ifstream in(file);
  if (!in) {
    error = std::string(file) + ": cannot read the keys";
    return false;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    const auto key = elicit::RequestStateSealer::key_from_base64(line);
    if (!key) {
      error = std::string(file) + ":" + std::to_string(n) + ": not a base64 32-byte key";
      return false;
    }
    keys.push_back(*key);
  }
  return true;
}

bool read_state_option(int argc, char** argv, int& i, elicit::RequestStateOptions& options, std::string& error) {
  if (i + 1 >= argc) return false;
  if (std::strcmp(argv[i], "--state-keys") == 0) {
    read_base64_keys(argv[++i], options.keys, error);
    return true;
  }
  if (std::strcmp(argv[i], "--state-ttl-ms") == 0) {
    const char* text = argv[++i];
    char* end = nullptr;
    errno = 0;
    const long long ms = std::strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || ms <= 0) {
      error = std::string("--state-ttl-ms ") + text + ": a positive whole number of milliseconds";
      return true;
    }
    options.ttl = std::chrono::milliseconds(ms);
    return true;
  }
  return false;
}
