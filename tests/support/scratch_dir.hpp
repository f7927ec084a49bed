// A per-process scratch folder under TEST_TMP_DIR for tests that write schema files and run
// elicitgen on them (pid in the name: CTest runs test cases of one binary in parallel processes).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include "test_paths.hpp"

namespace test_support {

class ScratchDir {
 public:
  /// `prefix` names the test file's folder, e.g. "mistakes" → TEST_TMP_DIR/mistakes-<pid>.
  explicit ScratchDir(const std::string& prefix)
      : root_(std::filesystem::path(TEST_TMP_DIR) / (prefix + "-" + std::to_string(getpid()))) {}

  /// The folder, made if missing.
  std::filesystem::path root() const {
    std::filesystem::create_directories(root_);
    return root_;
  }
  /// Writes `text` to root()/name (bytes as given) and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto path = root() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  /// root()/name, removed if it was there (not made).
  std::filesystem::path fresh(const std::string& name) const {
    const auto dir = root() / name;
    std::filesystem::remove_all(dir);
    return dir;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace test_support
