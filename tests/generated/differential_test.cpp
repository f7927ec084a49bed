// Differential test: for a corpus of contents made by mutating each property of each sample schema,
// generated elicit::decode<T>(), the dynamic validator (elicit::validate_content) and the `elicitgen check`
// command must report exactly the same errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <elicit/content/schema.hpp>
#include <nlohmann/json.hpp>

#include "../support/run_command.hpp"
#include "content_corpus.hpp"
#include "sample_types.hpp"
#include "test_paths.hpp"

namespace differential_test {

using nlohmann::json;

namespace {

std::string check_command(const std::string& schema_file, const std::string& name, const std::string& data,
                          bool json_lines) {
  std::string cmd =
      std::string(ELICITGEN_BIN) + " check " + (json_lines ? "--jsonl '" : "'") + schema_file + "' '" + data + "'";
  if (!name.empty()) cmd += " --name " + name;
  return cmd;
}

std::string tmp_file(const std::string& suffix) {
  return std::string(TEST_TMP_DIR) + "/differential-" + std::to_string(getpid()) + suffix;
}

// The expected `check --jsonl` output: each error of each content, prefixed with its 1-based line.
std::string prefixed(std::size_t line, const std::string& errors) {
  std::string out;
  for (std::size_t start = 0; start < errors.size();) {
    const auto end = errors.find('\n', start);
    out += std::to_string(line) + ':' + errors.substr(start, end - start + 1);
    start = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("generated types and the dynamic validator agree on every mutated content", "[differential]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    const auto form = elicit::parse_requested_schema(elicit::requested_schema<T>());
    REQUIRE(form.ok());
    for (const auto& content : content_corpus::corpus(elicit::requested_schema<T>())) {
      INFO(sample.file << " " << sample.name << ": " << content.dump());
      const auto generated = elicit::decode<T>(content);
      const auto dynamic = elicit::validate_content(form.form, content);
      CHECK(generated.errors.errors == dynamic.errors);
      CHECK(generated.ok() == dynamic.ok());
      if (generated.ok()) {
        // A decoded value validates, re-encodes, and decodes to itself.
        CHECK(elicit::validate(*generated.value).ok());
        const json again = *generated.value;
        CHECK(elicit::decode<T>(again).value == generated.value);
      }
      ++compared;
    }
  });
  CHECK(compared > 1000);
}

// The whole corpus goes through one `check --jsonl` process per sample type (a few thousand
// contents cost ten process starts, so the test takes the same few seconds on a slow or busy
// machine and under sanitizers); a few contents per type also go through the one-document mode.
TEST_CASE("`elicitgen check` agrees with elicit::decode<T>() of the generated types", "[differential][cli]") {
  std::size_t compared = 0;
  sample_types::for_each_sample([&](auto sample) {
    using T = typename decltype(sample)::type;
    INFO(sample.file << " " << sample.name);
    const std::string file = std::string(SAMPLES_DIR) + "/" + sample.file;
    const auto contents = content_corpus::corpus(elicit::requested_schema<T>());
    const auto lines = tmp_file(".jsonl");
    std::string expected;
    bool all_ok = true;
    {
      std::ofstream out(lines);
      for (std::size_t i = 0; i < contents.size(); ++i) {
        out << contents[i].dump() << '\n';
        const auto generated = elicit::decode<T>(contents[i]);
        expected += prefixed(i + 1, generated.errors.to_string());
        all_ok = all_ok && generated.ok();
      }
    }
    const auto cli = test_support::run_command(check_command(file, sample.name, lines, true));
    CHECK(cli.out == expected);
    CHECK(cli.exit_code == (all_ok ? 0 : 1));
    compared += contents.size();

    // One-document mode on the first, a middle and the last content.
    for (const std::size_t i : {std::size_t{0}, contents.size() / 2, contents.size() - 1}) {
      INFO(contents[i].dump());
      const auto single = tmp_file(".json");
      std::ofstream(single) << contents[i].dump();
      const auto generated = elicit::decode<T>(contents[i]);
      const auto one = test_support::run_command(check_command(file, sample.name, single, false));
      CHECK(one.out == generated.errors.to_string());
      CHECK(one.exit_code == (generated.ok() ? 0 : 1));
    }
  });
  CHECK(compared > 1000);
}

}  // namespace differential_test
