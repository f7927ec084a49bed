// Golden files: the exact generated code for a few schemas, so every change to the output is
// reviewed as a diff. Each case is a directory tests/golden/<name>/ holding its input, <name>.json,
// next to the expected outputs; the cases are found by scanning tests/golden/. Refresh with
// ELICITGEN_UPDATE_GOLDEN=1 after an intended change (outputs no longer produced are removed).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <vector>

#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace golden_test {

namespace fs = std::filesystem;

using test_support::read_file;

namespace {

std::set<std::string> file_names(const fs::path& dir, bool inputs) {
  std::set<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && (entry.path().extension() == ".json") == inputs)
      out.insert(entry.path().filename().string());
  }
  return out;
}

}  // namespace

TEST_CASE("generated code matches the golden files", "[golden]") {
  const fs::path golden = fs::path(SOURCE_DIR) / "tests" / "golden";
  const bool update = std::getenv("ELICITGEN_UPDATE_GOLDEN") != nullptr;
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (entry.is_directory()) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  CHECK(cases.size() >= 6);
  for (const auto& dir : cases) {
    const auto name = dir.filename().string();
    INFO(name);
    REQUIRE(file_names(dir, true) == std::set<std::string>{name + ".json"});
    const fs::path out = fs::path(TEST_TMP_DIR) / ("golden-" + std::to_string(getpid()));
    fs::remove_all(out);
    const std::string cmd = std::string(ELICITGEN_BIN) + " generate '" + (dir / (name + ".json")).string() + "' -o '" +
                            out.string() + "' --namespace golden 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const auto produced = file_names(out, false);
    CHECK(produced == std::set<std::string>{name + ".cpp", name + ".hpp"});
    if (update) {
      for (const auto& stale : file_names(dir, false)) {
        if (!produced.count(stale)) fs::remove(dir / stale);
      }
      for (const auto& f : produced) fs::copy_file(out / f, dir / f, fs::copy_options::overwrite_existing);
      continue;
    }
    CHECK(file_names(dir, false) == produced);
    for (const auto& f : produced) {
      INFO(f);
      REQUIRE(fs::exists(dir / f));
      CHECK(read_file(out / f) == read_file(dir / f));
    }
    fs::remove_all(out);
  }
}

TEST_CASE("golden files are readable: no blank-line runs, no empty branches", "[golden]") {
  const fs::path golden = fs::path(SOURCE_DIR) / "tests" / "golden";
  for (const auto& entry : fs::recursive_directory_iterator(golden)) {
    const auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp") continue;
    INFO(entry.path().string());
    const auto text = read_file(entry.path());
    CHECK(text.find("\n\n\n") == std::string::npos);
    CHECK(text.find("{\n\n") == std::string::npos);
    CHECK(text.find(" \n") == std::string::npos);
    CHECK(text.rfind("\n\n") != text.size() - 2);
    CHECK(text.find("switch (field) {\n      default:") == std::string::npos);  // a switch with no case
    CHECK(text.find("it == j.end()) {\n  }") == std::string::npos);             // an empty then-branch
    CHECK(text.find(") {\n}") == std::string::npos);                            // an empty function body
  }
}

}  // namespace golden_test
