// Golden files: the exact generated code for a few schemas, so every change to the output is
// reviewed as a diff. Refresh with ELICITGEN_UPDATE_GOLDEN=1 after an intended change.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "../common/run_command.hpp"

namespace fs = std::filesystem;

using test_support::read_file;

TEST_CASE("generated code matches the golden files", "[golden]") {
  const fs::path source(SOURCE_DIR);
  const fs::path golden = source / "tests" / "golden";
  const bool update = std::getenv("ELICITGEN_UPDATE_GOLDEN") != nullptr;
  for (const char* schema : {"samples/schemas/contact_information.json", "samples/schemas/sep1330_enums.json",
                             "samples/schemas/sep1034_defaults.json", "samples/schemas/shipping.json",
                             "samples/schemas/confirm_deletion.json", "tests/schemas/compile/hostile_names.json"}) {
    INFO(schema);
    const fs::path out = fs::path(TEST_TMP_DIR) / "golden";
    fs::remove_all(out);
    const std::string cmd = std::string(ELICITGEN_BIN) + " generate " + (source / schema).string() + " -o " +
                            out.string() + " --namespace golden 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (const auto& entry : fs::directory_iterator(out)) {
      const auto name = entry.path().filename();
      INFO(name.string());
      if (update) {
        fs::copy_file(entry.path(), golden / name, fs::copy_options::overwrite_existing);
        continue;
      }
      REQUIRE(fs::exists(golden / name));
      CHECK(read_file(entry.path()) == read_file(golden / name));
    }
  }
}
