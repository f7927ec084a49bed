// Output file names have one owner (issue 14, item 4): a trivial function of the input file name
// (file_stem), which cmake/ElicitgenGenerate.cmake computes the same way (elicitgen_output_stem)
// and passes as --output-stem. tests/install/ builds such names through elicitgen_generate().
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/run_command.hpp"
#include "names.hpp"
#include "test_paths.hpp"

namespace output_names_test {

namespace fs = std::filesystem;

namespace {

fs::path work() {
  const auto dir = fs::path(TEST_TMP_DIR) / ("names-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

const char* const kSchema = R"({"type":"object","properties":{"a":{"type":"string"}}})";

// File names that a regex guess of the outputs once got wrong, and a few more.
const char* const kNames[] = {"RSVPForm.json",
                              "IDCard.json",
                              "HTTPServer.json",
                              "caf\xc3\xa9.json",
                              "R\xc3\xa9servation.json",
                              "cancel-booking.json",
                              "order.schema.json",
                              "contact_information.json",
                              "2fa form.json",
                              "a+b=c.json",
                              "noext"};

}  // namespace

TEST_CASE("generate names its outputs after the input file name, as written", "[names][cli]") {
  const auto in = work() / "in";
  fs::create_directories(in);
  for (const char* name : kNames) {
    INFO(name);
    std::ofstream(in / name) << kSchema;
    const auto out = work() / "out";
    fs::remove_all(out);
    const auto r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + (in / name).string() +
                                             "' -o '" + out.string() + "' 2>&1");
    REQUIRE(r.exit_code == 0);
    const auto stem = elicitgen::file_stem(name);
    CHECK(fs::exists(out / (stem + ".hpp")));
    CHECK(fs::exists(out / (stem + ".cpp")));
    CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator()) == 2);
    CHECK_THAT(test_support::read_file(out / (stem + ".cpp")), Catch::Contains("#include \"" + stem + ".hpp\""));
  }
  CHECK(elicitgen::file_stem("RSVPForm.json") == "RSVPForm");
  CHECK(elicitgen::file_stem("caf\xc3\xa9.json") == "caf__");
  CHECK(elicitgen::file_stem("cancel-booking.json") == "cancel_booking");
}

TEST_CASE("CMake computes the same stems as the generator", "[names][cmake]") {
  std::ostringstream script;
  script << "include(\"" << SOURCE_DIR << "/cmake/ElicitgenGenerate.cmake\")\n";
  for (const char* name : kNames) {
    script << "elicitgen_output_stem(stem \"/some/dir.d/" << name << "\")\nmessage(\"[${stem}]\")\n";
  }
  const auto path = work() / "stems.cmake";
  std::ofstream(path, std::ios::binary) << script.str();
  const auto r = test_support::run_command("cmake -P '" + path.string() + "' 2>&1");
  REQUIRE(r.exit_code == 0);
  std::string expected;
  for (const char* name : kNames) expected += "[" + elicitgen::file_stem(name) + "]\n";
  CHECK(r.out == expected);
}

TEST_CASE("elicitgen generate --output-stem names the outputs of a single input", "[names][cli]") {
  const auto out = work() / "stem-out";
  fs::remove_all(out);
  const auto schema = work() / "x.json";
  std::ofstream(schema) << kSchema;
  auto r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + schema.string() + "' -o '" +
                                     out.string() + "' --output-stem Chosen_Name 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(out / "Chosen_Name.hpp"));
  CHECK(fs::exists(out / "Chosen_Name.cpp"));
  CHECK_FALSE(fs::exists(out / "x.hpp"));
  for (const char* bad : {"a/b", ".", ""}) {
    INFO(bad);
    const auto dir = work() / "stem-bad";
    fs::remove_all(dir);
    r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + schema.string() + "' '" +
                                  schema.string() + "' -o '" + dir.string() + "' --output-stem '" + bad + "' 2>&1");
    CHECK(r.exit_code != 0);
    CHECK_FALSE(fs::exists(dir));
  }
  // Two inputs that give one stem: an error naming both, nothing written.
  fs::create_directories(work() / "twins");
  std::ofstream(work() / "twins" / "a-b.json") << kSchema;
  std::ofstream(work() / "twins" / "a_b.json") << kSchema;
  const auto dir = work() / "twins-out";
  fs::remove_all(dir);
  r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + (work() / "twins" / "a-b.json").string() +
                                "' '" + (work() / "twins" / "a_b.json").string() + "' -o '" + dir.string() + "' 2>&1");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("output name a_b.hpp is also produced by"));
  CHECK_FALSE(fs::exists(dir));
  // Nothing before the first dot: an error that says what to do.
  std::ofstream(work() / ".json") << kSchema;
  r = test_support::run_command(std::string(ELICITGEN_BIN) + " generate '" + (work() / ".json").string() + "' -o '" +
                                dir.string() + "' 2>&1");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(".json: error: no output name") && Catch::Contains("--output-stem"));
}

}  // namespace output_names_test
