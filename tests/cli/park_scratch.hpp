// What the park tests share (park_test.cpp over stdio, park_http_test.cpp over HTTP): a directory of
// the test run's own with a requestState key file that every server process of the test loads, and
// `elicitgen ARGS` run in it with stdin not a terminal, stdout and stderr apart.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace test_support {

struct ParkOutput {
  int exit_code;
  std::string out, err;
};

/// TEST_TMP_DIR/NAME-PID, made empty, with `keys`: a fixed 32-byte key in base64, so that every
/// server process started with `--state-keys path("keys")` opens the others' requestStates.
struct ParkScratch {
  explicit ParkScratch(const std::string& name) {
    dir = std::string(TEST_TMP_DIR) + "/" + name + "-" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/keys") << "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\n";
  }
  ~ParkScratch() { std::filesystem::remove_all(dir); }
  ParkScratch(const ParkScratch&) = delete;
  ParkScratch& operator=(const ParkScratch&) = delete;
  std::string path(const std::string& name) const { return dir + "/" + name; }
  std::string dir;
};

/// `elicitgen ARGS < /dev/null` (no terminal: nobody to answer), its stdout and stderr apart.
inline ParkOutput run_elicitgen_split(const ParkScratch& s, const std::string& args) {
  const auto err = s.path("stderr.txt");
  const auto r = run_command(std::string(ELICITGEN_BIN) + " " + args + " < /dev/null 2>'" + err + "'");
  return {r.exit_code, r.out, read_file(err)};
}

}  // namespace test_support
