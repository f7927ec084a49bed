// `elicitgen client` against the sample stdio server, in both eras: answers from a JSON Lines file
// (in order; cancel once used up) or the forms' defaults, the result on stdout, the exit codes,
// located errors in the answers file; and split_command.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../common/run_command.hpp"
#include "client_command.hpp"

using nlohmann::json;

namespace {

std::string write_tmp(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(TEST_TMP_DIR);
  const auto path = std::string(TEST_TMP_DIR) + "/" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

// Runs `elicitgen client` for `tool` with `how` (--answers FILE or --defaults); stdout only.
test_support::CommandResult client(const std::string& version, const std::string& tool, const std::string& how) {
  return test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                   "' --protocol " + version + " call " + tool + " " + how + " 2>/dev/null");
}

std::string text_of(const test_support::CommandResult& r) {
  INFO(r.out);
  const auto j = json::parse(r.out);
  return j["content"][0]["text"].get<std::string>();
}

}  // namespace

TEST_CASE("elicitgen client answers from a file, in order, in both eras", "[client][cli]") {
  const auto answers =
      write_tmp("answers.jsonl",
                "{\"action\":\"accept\",\"content\":{\"recipient\":\"Ada\",\"street\":\"1 Main St\","
                "\"postalCode\":\"12345\"}}\n\n{\"action\":\"accept\",\"content\":{\"day\":\"2026-12-01\"}}\n");
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto r = client(version, "plan_delivery", "--answers '" + answers + "'");
    CHECK(r.exit_code == 0);
    const auto text = text_of(r);
    CHECK(text.rfind("accept: {\"country\":\"US\"", 0) == 0);
    CHECK(text.find("\"day\":\"2026-12-01\"") != std::string::npos);
    // One answer for two forms: the second is cancelled.
    const auto one =
        write_tmp("one.jsonl",
                  "{\"action\":\"accept\",\"content\":{\"recipient\":\"Ada\",\"street\":\"S\",\"postalCode\":"
                  "\"12345\"}}\n");
    CHECK(text_of(client(version, "plan_delivery", "--answers '" + one + "'")) == "cancel");
    const auto decline = write_tmp("decline.jsonl", "{\"action\":\"decline\"}\n");
    CHECK(text_of(client(version, "github_username", "--answers '" + decline + "'")) == "decline");
  }
}

TEST_CASE("elicitgen client --defaults accepts each form with its defaults", "[client][cli]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto r = client(version, "sep1034_defaults", "--defaults");
    CHECK(r.exit_code == 0);
    CHECK(text_of(r) == R"(accept: {"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true})");
  }
}

TEST_CASE("elicitgen client exit codes: 1 for a tool error, 2 for failures, each said on stderr", "[client][cli]") {
  CHECK(client("2026-07-28", "test_error_handling", "--defaults").exit_code == 1);
  const auto unknown = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" +
                                                 SAMPLE_STDIO_SERVER + "' call no_such_tool --defaults 2>&1");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.out, Catch::Contains("Unknown tool: no_such_tool (JSON-RPC error -32602)"));
  const auto bad = write_tmp("bad.jsonl", "{\"action\":\"accept\"}\n{\"action\":\"maybe\"}\n");
  const auto located =
      test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                "' call github_username --answers '" + bad + "' 2>&1");
  CHECK(located.exit_code == 2);
  CHECK_THAT(located.out, Catch::Contains(bad + ":2: error: /action must be"));
  const auto none = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                              "' call github_username 2>&1");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.out, Catch::Contains("--answers FILE or --defaults"));
  const auto missing = test_support::run_command(std::string(ELICITGEN_BIN) +
                                                 " client --stdio '/nonexistent/server' call x --defaults 2>&1");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.out, Catch::Contains("cannot start /nonexistent/server"));
  const auto args = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                              "' call github_username '[1]' --defaults 2>&1");
  CHECK(args.exit_code == 2);
  CHECK_THAT(args.out, Catch::Contains("ARGUMENTS_JSON must be a JSON object"));
}

TEST_CASE("split_command splits words with quotes and escapes, and no shell", "[client][cli]") {
  std::string error;
  using words = std::vector<std::string>;
  CHECK(*elicitgen::split_command("server --port 0", error) == words{"server", "--port", "0"});
  CHECK(*elicitgen::split_command("  a   'b c'  \"d \\\"e\\\\\"  f\\ g ", error) ==
        words{"a", "b c", "d \"e\\", "f g"});
  CHECK(*elicitgen::split_command("'$HOME' `x` ;", error) == words{"$HOME", "`x`", ";"});
  CHECK(*elicitgen::split_command("a''b \"\"", error) == words{"ab", ""});
  CHECK(elicitgen::split_command("", error)->empty());
  CHECK_FALSE(elicitgen::split_command("a 'b", error));
  CHECK(error == "unterminated ' at offset 2");
  CHECK_FALSE(elicitgen::split_command("a \"b", error));
  CHECK_FALSE(elicitgen::split_command("a\\", error));
}

TEST_CASE("elicitgen client: without --answers or --defaults stdin must be a terminal", "[client][cli][terminal]") {
  // stdin from /dev/null is not a terminal: nobody could answer, so it stops before starting the server.
  const auto r = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                           "' call github_username < /dev/null 2>&1");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("stdin is not a terminal") != std::string::npos);
  CHECK(r.out.find("elicitgen-sample-server: serving") == std::string::npos);
}

TEST_CASE("elicitgen ask: the content on stdout, decline and cancel, located schema errors", "[cli][terminal]") {
  const auto schema = write_tmp("ask.json",
                                R"({"message":"Who?","requestedSchema":{"type":"object","properties":{
                   "zeta":{"type":"string","minLength":2},"alpha":{"type":"integer","default":7}},
                   "required":["zeta"]}})");
  const auto ask = [&](const std::string& typed, const std::string& file) {
    const auto answers = write_tmp("typed.txt", typed);
    return test_support::run_command(std::string(ELICITGEN_BIN) + " ask '" + file + "' < '" + answers +
                                     "' 2>/dev/null");
  };
  // Answers may come from a pipe too (the prompts go to stderr either way); a wrong value is asked again.
  const auto ok = ask("Z\nZed\n\n\n", schema);
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "{\n  \"zeta\": \"Zed\",\n  \"alpha\": 7\n}\n");  // the form's order, not sorted
  const auto declined = ask(":decline\n", schema);
  CHECK(declined.exit_code == 1);
  CHECK(declined.out == "{\"action\":\"decline\"}\n");
  const auto cancelled = ask("Zed\n", schema);  // the end of input at the review
  CHECK(cancelled.exit_code == 1);
  CHECK(cancelled.out == "{\"action\":\"cancel\"}\n");
  const auto bad = write_tmp("bad.json", R"({"type":"object","properties":{"x":{"type":"strin"}}})");
  const auto r = test_support::run_command(std::string(ELICITGEN_BIN) + " ask '" + bad + "' < /dev/null 2>&1");
  CHECK(r.exit_code == 2);
  CHECK(r.out.rfind(bad + ":1:37: error: /properties/x/type: ", 0) == 0);
}

TEST_CASE("elicitgen client --user-interaction answers interaction/create from the file",
          "[client][cli][user_interaction]") {
  const auto accept = write_tmp("ui-accept.jsonl", "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}\n");
  CHECK(text_of(client("2025-11-25", "github_username", "--user-interaction --answers '" + accept + "'")) ==
        R"(accept: {"name":"octocat"})");
  const auto decline = write_tmp("ui-decline.jsonl", "{\"action\":\"decline\"}\n");
  CHECK(text_of(client("2025-11-25", "github_username", "--user-interaction --answers '" + decline + "'")) ==
        "decline");
  // The dialect belongs to 2025-11-25 sessions: refused for 2026-07-28, said on stderr.
  CHECK(client("2026-07-28", "github_username", "--user-interaction --answers '" + accept + "'").exit_code == 2);
}
