// Differential test: for a corpus of contents made by mutating each property of each sample schema,
// generated T::decode(), the dynamic validator (elicit::validate_content) and the `elicitgen check`
// command must report exactly the same errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <elicit/schema.hpp>
#include <nlohmann/json.hpp>

#include "../common/run_command.hpp"
#include "content_corpus.hpp"
#include "sample_types.hpp"

using nlohmann::json;

namespace {

test_support::CommandResult run_check(const std::string& schema_file, const std::string& name, const json& content) {
  const std::string data = std::string(TEST_TMP_DIR) + "/differential-" + std::to_string(getpid()) + ".json";
  std::ofstream(data) << content.dump();
  std::string cmd = std::string(ELICITGEN_BIN) + " check '" + schema_file + "' '" + data + "'";
  if (!name.empty()) cmd += " --name " + name;
  return test_support::run_command(cmd);
}

}  // namespace

TEST_CASE("generated decode() and the dynamic validator agree on every mutated content", "[differential]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    const auto form = elicit::parse_requested_schema(T::requested_schema());
    REQUIRE(form.ok());
    for (const auto& content : content_corpus::corpus(T::requested_schema())) {
      INFO(sample.file << " " << sample.name << ": " << content.dump());
      const auto generated = T::decode(content);
      const auto dynamic = elicit::validate_content(form.form, content);
      CHECK(generated.errors.errors == dynamic.errors);
      CHECK(generated.ok() == dynamic.ok());
      if (generated.ok()) {
        // A decoded value validates, re-encodes, and decodes to itself.
        CHECK(generated.value->validate().ok());
        const json again = *generated.value;
        CHECK(T::decode(again).value == generated.value);
      }
      ++compared;
    }
  });
  CHECK(compared > 1000);
}

TEST_CASE("`elicitgen check` agrees with generated decode()", "[differential][cli]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    const std::string file = std::string(SAMPLES_DIR) + "/" + sample.file;
    for (const auto& content : content_corpus::corpus(T::requested_schema())) {
      INFO(sample.file << " " << sample.name << ": " << content.dump());
      const auto generated = T::decode(content);
      const auto cli = run_check(file, sample.name, content);
      CHECK(cli.out == generated.errors.to_string());
      CHECK(cli.exit_code == (generated.ok() ? 0 : 1));
      ++compared;
    }
  });
  CHECK(compared > 1000);
}
