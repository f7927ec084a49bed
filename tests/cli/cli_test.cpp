// The elicitgen command as users run it: exit codes, located errors, and no partial output.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../support/run_command.hpp"
#include "test_paths.hpp"

namespace cli_test {

namespace fs = std::filesystem;

namespace {

using Run = test_support::CommandResult;
using test_support::empty_or_missing;
using test_support::run_elicitgen;

// Runs with `input` on stdin.
Run run_stdin(const std::string& args, const std::string& input) {
  const auto path = fs::path(TEST_TMP_DIR) / ("stdin-" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << input;
  return run_elicitgen(args + " < " + path.string());
}

std::string invalid(const std::string& name) { return std::string(SOURCE_DIR) + "/tests/schemas/invalid/" + name; }
std::string sample(const std::string& name) { return std::string(SOURCE_DIR) + "/samples/schemas/" + name; }

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(TEST_TMP_DIR) / name;
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("the version and help flags", "[cli]") {
  CHECK(run_elicitgen("--version").out == "elicitgen 0.1.0\n");
  const auto help = run_elicitgen("--help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("generate") && Catch::Contains("check") && Catch::Contains("lint"));
  CHECK(run_elicitgen("").exit_code == 2);
  CHECK(run_elicitgen("generate").exit_code == 2);
}

TEST_CASE("each invalid schema fails with file:line:column: error: pointer: message, exit 1 and no output",
          "[cli][errors]") {
  struct Case {
    const char* file;
    const char* expected;
  };
  const Case cases[] = {
      {"nested_object.json", ":1:76: error: /requestedSchema/properties/address/type: nested objects are not allowed"},
      {"array_of_objects.json",
       ":1:99: error: /requestedSchema/properties/people/items/type: arrays of objects are not allowed"},
      {"ref.json", ":1:76: error: /requestedSchema/properties/address/$ref: $ref is not allowed"},
      {"unknown_type.json", ":1:73: error: /requestedSchema/properties/when/type: unknown type \"date\""},
      {"bad_pattern.json",
       ":1:89: error: /requestedSchema/properties/code/pattern: pattern does not compile: at offset 3: backreferences"},
      {"unterminated_pattern.json",
       ":1:89: error: /requestedSchema/properties/code/pattern: pattern does not compile: at offset 0: unterminated "
       "character class"},
      {"min_greater_than_max.json",
       ":1:89: error: /requestedSchema/properties/age/minimum: minimum (150) is greater than maximum (18)"},
      {"spec_string_example.json",
       ":14:9: error: /requestedSchema/properties/display_name/default: default does not satisfy its own schema: must "
       "match the pattern ^[A-Za-z]+$"},
      {"enum_names_length.json",
       ":1:110: error: /requestedSchema/properties/size/enumNames: enumNames has 2 entries but enum has 3"},
      {"duplicate_option.json",
       ":1:150: error: /requestedSchema/properties/size/oneOf/2: duplicate option value \"m\""},
      {"colliding_names.json",
       ":1:121: error: /requestedSchema/properties/given/x-cpp-name: property \"given\" asks for the C++ name "
       "\"first_name\" for its member, which is already taken by the member of property \"first-name\""},
      {"malformed.json", ":6:1: error: malformed JSON: syntax error while parsing value - unexpected '}'"},
      {"unsupported_format.json", ":1:87: error: /requestedSchema/properties/ip/format: unsupported format \"ipv4\""},
      {"required_unknown.json",
       ":1:110: error: /requestedSchema/required/1: required names \"email\", which is not a property"},
      {"url_mode.json", ":1:2: error: /mode: url mode without a requestedSchema has no form to generate"},
      {"number_overflow.json",
       ":1:1: error: unreadable JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"},
  };
  for (const auto& c : cases) {
    INFO(c.file);
    const auto dir = fresh_dir(std::string("err-") + c.file);
    const auto r = run_elicitgen("generate " + invalid(c.file) + " -o " + dir.string());
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains(invalid(c.file) + c.expected));
    CHECK_THAT(r.out, Catch::Contains("no files written"));
    CHECK(empty_or_missing(dir));
    const auto lint = run_elicitgen("lint " + invalid(c.file));
    CHECK(lint.exit_code == 1);
    CHECK_THAT(lint.out, Catch::Contains(invalid(c.file) + c.expected));
  }
}

TEST_CASE("one bad input among good ones writes nothing at all", "[cli][errors]") {
  const auto dir = fresh_dir("partial");
  const auto r = run_elicitgen("generate " + sample("contact_information.json") + " " + invalid("nested_object.json") +
                               " -o " + dir.string());
  CHECK(r.exit_code == 1);
  CHECK(empty_or_missing(dir));
}

TEST_CASE("secret-looking fields warn but generate", "[cli][secrets]") {
  const auto dir = fresh_dir("secrets");
  const auto r =
      run_elicitgen("generate " + std::string(SOURCE_DIR) + "/tests/schemas/lint/secrets.json" + " -o " + dir.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("secrets.json:1:95: warning: /requestedSchema/properties/password: property "
                                    "\"password\" looks like a secret"));
  CHECK_THAT(r.out, Catch::Contains("apiKey"));
  CHECK_THAT(r.out, Catch::Contains("Form Mode Security"));
  CHECK(fs::exists(dir / "secrets.hpp"));
}

TEST_CASE("generate writes one header and one source per input, and only when changed", "[cli]") {
  const auto dir = fresh_dir("gen");
  REQUIRE(run_elicitgen("generate " + sample("shipping.json") + " " + sample("sep1330_enums.json") + " -o " +
                        dir.string() + " --namespace app::forms")
              .exit_code == 0);
  CHECK(fs::exists(dir / "shipping.hpp"));
  CHECK(fs::exists(dir / "shipping.cpp"));
  CHECK(fs::exists(dir / "sep1330_enums.hpp"));
  const auto text = test_support::read_file(dir / "shipping.hpp");
  CHECK_THAT(text, Catch::Contains("namespace app::forms {") && Catch::Contains("struct ShippingAddress {") &&
                       Catch::Contains("struct DeliveryWindow {"));
  const auto before = fs::last_write_time(dir / "shipping.hpp");
  fs::last_write_time(dir / "shipping.hpp", before - std::chrono::hours(1));
  const auto older = fs::last_write_time(dir / "shipping.hpp");
  REQUIRE(run_elicitgen("generate " + sample("shipping.json") + " -o " + dir.string() + " --namespace app::forms")
              .exit_code == 0);
  CHECK(fs::last_write_time(dir / "shipping.hpp") == older);  // same content: not rewritten
  REQUIRE(
      run_elicitgen("generate " + sample("shipping.json") + " -o " + dir.string() + " --namespace other").exit_code ==
      0);
  CHECK(fs::last_write_time(dir / "shipping.hpp") != older);
}

TEST_CASE("pattern can be kept out of the schema sent, and is still checked", "[cli][pattern]") {
  const auto sent = fresh_dir("pattern-sent");
  const auto kept = fresh_dir("pattern-kept");
  REQUIRE(run_elicitgen("generate " + sample("shipping.json") + " -o " + sent.string()).exit_code == 0);
  REQUIRE(
      run_elicitgen("generate " + sample("shipping.json") + " -o " + kept.string() + " --no-send-pattern").exit_code ==
      0);
  CHECK_THAT(test_support::read_file(sent / "shipping.cpp"), Catch::Contains(R"(\"pattern\":)"));
  CHECK_THAT(test_support::read_file(kept / "shipping.cpp"), !Catch::Contains(R"(\"pattern\":)"));
  // Still in the rule table, which the runtime checks every response against.
  CHECK_THAT(test_support::read_file(kept / "shipping.cpp"), Catch::Contains(".pattern(std::string_view{"));
}

TEST_CASE("stdin needs --name, --name and --namespace are checked", "[cli]") {
  const auto dir = fresh_dir("stdin");
  auto r = run_elicitgen("generate - -o " + dir.string() + " < " + sample("github_username.json"));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("<stdin>: error: reading from stdin needs --name TypeName"));
  r = run_elicitgen("generate - -o " + dir.string() + " --name GitHubUser < " + sample("github_username.json"));
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dir / "GitHubUser.hpp"));  // from stdin, the outputs are named after --name
  CHECK(run_elicitgen("generate - -o " + dir.string() + " --name 'not valid' < " + sample("github_username.json"))
            .exit_code == 1);
  CHECK(run_elicitgen("generate " + sample("github_username.json") + " -o " + dir.string() + " --namespace 'a::class'")
            .exit_code == 1);
  CHECK(run_elicitgen("generate " + sample("github_username.json") + " -o " + dir.string() + " --namespace '2x'")
            .exit_code == 1);
  CHECK(run_elicitgen("generate " + sample("shipping.json") + " -o " + dir.string() + " --name One").exit_code == 1);
}

TEST_CASE("lint reports each valid schema", "[cli]") {
  const auto r = run_elicitgen("lint " + sample("shipping.json") + " " + sample("confirm_deletion.json"));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("shipping.json:/ShippingAddress/requestedSchema: ok, ShippingAddress with 4 properties"));
  CHECK_THAT(r.out, Catch::Contains("shipping.json:/DeliveryWindow: ok, DeliveryWindow with 4 properties"));
  CHECK_THAT(r.out, Catch::Contains("confirm_deletion.json:/requestedSchema: ok, ConfirmDeletion with 0 properties"));
  CHECK_THAT(run_elicitgen("lint " + sample("github_username.json")).out,
             Catch::Contains("GithubUsername with 1 property\n"));
}

TEST_CASE("check: 0 valid, 1 invalid with one line per error, 2 unreadable", "[cli][check]") {
  const auto data = fs::path(TEST_TMP_DIR) / "check-data.json";
  std::ofstream(data) << R"({"name":"Monalisa Octocat","email":"octocat@github.com","age":30})";
  auto r = run_elicitgen("check " + sample("contact_information.json") + " " + data.string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  r = run_stdin("check " + sample("contact_information.json") + " -", R"({"email":"x","age":17})");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "/name: is required\n/email: must be an email address (RFC 5321)\n/age: must be >= 18\n");
  r = run_stdin("check " + sample("contact_information.json") + " -", R"({"name":)");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains("<stdin>:1:9: error: malformed JSON: syntax error"));
  CHECK(run_elicitgen("check " + invalid("nested_object.json") + " " + data.string()).exit_code == 2);
  CHECK(run_elicitgen("check " + sample("shipping.json") + " " + data.string()).exit_code == 2);  // which schema?
  r = run_stdin("check " + sample("shipping.json") + " --name DeliveryWindow -", R"({"day":"2024-02-30"})");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "/day: must be a date as YYYY-MM-DD (RFC 3339 full-date)\n");
  CHECK(run_elicitgen("check - - < " + data.string()).exit_code == 2);
  CHECK(run_elicitgen("check /nonexistent.json " + data.string()).exit_code == 2);
}

TEST_CASE("check: a multi-select option given twice is an error at the repeat, as everywhere", "[cli][check][set]") {
  const auto schema = sample("spec_property_examples.json");
  auto r = run_stdin("check " + schema + " -", R"({"display_name":"ann@example.com","colors":["Red","Red"]})");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "/colors/1: \"Red\" is selected twice (also at /colors/0)\n");
  r = run_stdin("check --jsonl " + schema + " -",
                R"({"display_name":"ann@example.com","colors_hex":["#FF0000","#00FF00","#FF0000"]})"
                "\n"
                R"({"display_name":"ann@example.com","colors":["Red","Blue"]})");
  CHECK(r.exit_code == 1);
  CHECK(r.out ==
        "1:/colors_hex/2: \"#FF0000\" is selected twice (also at /colors_hex/0)\n1:/colors_hex: must select at most 2 "
        "options\n");
}

TEST_CASE("check --jsonl: one content per line, errors prefixed with the line number", "[cli][check]") {
  const auto data = fs::path(TEST_TMP_DIR) / "check-data.jsonl";
  std::ofstream(data) << R"({"name":"Monalisa Octocat","email":"octocat@github.com","age":30})"
                      << "\n\n"
                      << R"({"email":"x","age":17})"
                      << "\r\n"
                      << R"([])"
                      << "\n";
  auto r = run_elicitgen("check --jsonl " + sample("contact_information.json") + " " + data.string());
  CHECK(r.exit_code == 1);
  CHECK(r.out ==
        "3:/name: is required\n3:/email: must be an email address (RFC 5321)\n3:/age: must be >= 18\n"
        "4:: must be an object\n");
  // All valid: exit 0, nothing printed; an empty file has no invalid line.
  r = run_stdin("check --jsonl " + sample("contact_information.json") + " -",
                R"({"name":"a","email":"a@b.co"})"
                "\n"
                R"({"name":"b","email":"b@c.co","age":18})");
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(run_stdin("check --jsonl " + sample("contact_information.json") + " -", "").exit_code == 0);
  // An unreadable line: exit 2, located by line, and no verdicts for the other lines.
  r = run_stdin("check --jsonl " + sample("contact_information.json") + " -", R"({"email":"x"})"
                                                                              "\n"
                                                                              R"({"name":)"
                                                                              "\n");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains("<stdin>:2:9: error: malformed JSON: syntax error"));
  CHECK_THAT(r.out, !Catch::Contains("/name"));
}

TEST_CASE("a templates directory replaces a template, a broken one is an error", "[cli][templates]") {
  const auto tdir = fresh_dir("templates");
  fs::create_directories(tdir);
  std::ofstream(tdir / "header.hpp.mustache") << "// custom {{#types}}{{name}} {{/types}}\n";
  const auto dir = fresh_dir("templated");
  REQUIRE(run_elicitgen("generate " + sample("shipping.json") + " -o " + dir.string() + " --templates " + tdir.string())
              .exit_code == 0);
  CHECK(test_support::read_file(dir / "shipping.hpp") == "// custom ShippingAddress DeliveryWindow\n");  // tidied
  CHECK(fs::file_size(dir / "shipping.cpp") > 1000);  // the built-in source template still applies
  std::ofstream(tdir / "header.hpp.mustache") << "{{#types}} unclosed";
  const auto r = run_elicitgen("generate " + sample("shipping.json") + " -o " + fresh_dir("templated2").string() +
                               " --templates " + tdir.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("header.hpp.mustache: error: invalid Mustache template"));
}

}  // namespace cli_test
