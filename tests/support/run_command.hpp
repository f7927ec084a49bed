// Running the elicitgen binary from tests, and reading files back.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include "test_paths.hpp"

namespace test_support {

struct CommandResult {
  int exit_code;    ///< -1 when the command did not exit normally
  std::string out;  ///< what it printed on stdout (add 2>&1 to the command for stderr too)
};

/// Runs `command` with /bin/sh and captures its standard output.
inline CommandResult run_command(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return {-1, ""};
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

#ifdef ELICITGEN_BIN
/// Runs the elicitgen executable of this build (ELICITGEN_BIN) with `args`, stderr merged into `out`.
inline CommandResult run_elicitgen(const std::string& args) {
  return run_command(std::string(ELICITGEN_BIN) + " " + args + " 2>&1");
}
#endif

/// True when `dir` does not exist or holds nothing: where a failed command must have written nothing.
inline bool empty_or_missing(const std::filesystem::path& dir) {
  return !std::filesystem::exists(dir) || std::filesystem::is_empty(dir);
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace test_support
