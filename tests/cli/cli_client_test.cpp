// `elicitgen client` against the sample stdio server, in both eras: answers from a JSON Lines file
// (in order; cancel once used up) or the forms' defaults (a form they cannot fill in declined),
// the result on stdout, the exit codes, located errors in the answers file, listing the tools and
// an unknown tool; `elicitgen ask --jsonl` replayed by --answers; and split_command.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../support/run_command.hpp"
#include "client_command.hpp"
#include "output_schema.hpp"
#include "test_paths.hpp"

namespace cli_client_test {

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

// stdout and stderr apart, and the exit code.
struct Output {
  int exit_code;
  std::string out, err;
};

Output run_split(const std::string& command) {
  const auto err = std::string(TEST_TMP_DIR) + "/" + std::to_string(getpid()) + "-stderr.txt";
  const auto r = test_support::run_command(command + " 2>'" + err + "'");
  return {r.exit_code, r.out, test_support::read_file(err)};
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
    const auto short_file = client(version, "plan_delivery", "--answers '" + one + "'");
    CHECK(text_of(short_file) == "cancel");
    CHECK(short_file.exit_code == 2);  // a question found no line: the result is printed, the exit says so
    const auto decline = write_tmp("decline.jsonl", "{\"action\":\"decline\"}\n");
    CHECK(text_of(client(version, "github_username", "--answers '" + decline + "'")) == "decline");
  }
}

TEST_CASE(
    "elicitgen client --answers: a question asked again takes its own line, and a question with none left is named",
    "[client][cli]") {
  const auto consent = write_tmp("consent.jsonl", "{\"action\":\"accept\"}\n");
  // 2026-07-28: sign_in's page is never finished here, so the server asks the same URL question
  // (same key, same URL, a note added to the message) round after round: each round takes the one
  // line again, until the client's round limit ends the call. Before, each round took a line and the
  // call ended "cancelled" with exit 0 once they ran out.
  const auto again = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                               "' --protocol 2026-07-28 call sign_in --answers '" + consent + "'");
  INFO(again.err);
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.err, Catch::Contains("max_rounds") && !Catch::Contains("no answer left"));
  std::size_t accepted = 0;
  for (auto at = again.err.find("-> accept"); at != std::string::npos; at = again.err.find("-> accept", at + 1))
    ++accepted;
  CHECK(accepted > 2);
  // A file with no line for the question: cancelled, named on stderr, exit 2.
  const auto empty = write_tmp("empty.jsonl", "\n");
  const auto none = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                              "' --protocol 2026-07-28 call github_username --answers '" + empty + "'");
  INFO(none.err);
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("has no answer left for the form elicitation under key \"") &&
                           Catch::Contains(": cancel"));
}

TEST_CASE("elicitgen client --defaults accepts each form with its defaults", "[client][cli]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto r = client(version, "sep1034_defaults", "--defaults");
    CHECK(r.exit_code == 0);
    CHECK(text_of(r) == R"(accept: {"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true})");
  }
}

TEST_CASE("elicitgen client --defaults declines a form with a required field without a default, naming it",
          "[client][cli]") {
  // Before: 2026-07-28 sent the defaults, the server asked again 16 times, and the client gave up
  // (exit 2, nothing on stdout); 2025-11-25 sent them and the tool saw an invalid response.
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto one = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                               "' --protocol " + version + " call github_username --defaults");
    INFO(one.err);
    CHECK(one.exit_code == 2);
    CHECK(text_of({0, one.out}) == "decline");  // what the tool's handler saw
    CHECK_THAT(one.err, Catch::Contains("elicitgen client: --defaults cannot fill in the form \"Please provide your "
                                        "GitHub username\": required field without a default: name: decline"));
    CHECK_THAT(one.err, !Catch::Contains("max_rounds"));
    // Two of three fields required without a default: both named, in the form's order.
    const auto two = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                               "' --protocol " + version + " call contact_information --defaults");
    INFO(two.err);
    CHECK(two.exit_code == 2);
    CHECK(text_of({0, two.out}) == "decline");
    CHECK_THAT(two.err, Catch::Contains("required fields without a default: name, email: decline"));
  }
}

TEST_CASE("elicitgen client --answers: content the form refuses is reported where it came from, then sent",
          "[client][cli]") {
  const auto answers =
      write_tmp("invalid.jsonl", "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\",\"email\":\"nope\"}}\n");
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto r = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER + "' --protocol " +
                             version + " call contact_information --answers '" + answers + "'");
    INFO(r.err);
    CHECK_THAT(r.err, Catch::Contains("\n" + answers + ":1: error: /content/email: "));
    CHECK_THAT(r.err, Catch::Contains("elicitgen client: the content of " + answers +
                                      ":1 does not fit the form; sent as is, the server decides\n"));
    // Then both revisions ask again, saying why (issue 26, item 3): a new question, and the file has
    // no answer left for it, which is named, and the exit says so (the result is still printed).
    CHECK(r.exit_code == 2);
    CHECK(text_of({0, r.out}) == "cancel");
    CHECK_THAT(r.err, Catch::Contains("The previous answer was not accepted: email: "));
    CHECK_THAT(r.err, Catch::Contains(answers + " has no answer left for the form elicitation ") &&
                          Catch::Contains("The previous answer was not accepted: email: must be an email address (RFC "
                                          "5321)\": cancel"));
  }
}

TEST_CASE("elicitgen client list: every page of tools/list as a table or JSON, in both eras", "[client][cli]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto list = [&](const std::string& server, const std::string& how) {
      return run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + server + "' --protocol " + version +
                       " list " + how);
    };
    const auto one_page = list(SAMPLE_STDIO_SERVER, "--json");
    // Three tools a page: the client follows nextCursor to the end and gets the same list.
    const auto paged = list(std::string(SAMPLE_STDIO_SERVER) + " --page-size 3", "--json");
    INFO(paged.err);
    REQUIRE(one_page.exit_code == 0);
    REQUIRE(paged.exit_code == 0);
    const auto listed = json::parse(one_page.out);
    test_support::check_schema("client-output.schema.json", listed);
    CHECK(listed["elicitgen_output"] == 1);
    CHECK(listed["outcome"] == "tools");
    // The sample runs its task tools (confirm_delete, ...) as tasks through the 2026-07-28 extension.
    CHECK(listed["tasks"] == (std::string(version) == "2026-07-28"));
    const auto tools = listed["tools"];
    REQUIRE(tools.is_array());
    REQUIRE(tools.size() > 6);  // more than two pages
    CHECK(json::parse(paged.out)["tools"] == tools);
    const auto table = list(std::string(SAMPLE_STDIO_SERVER) + " --page-size 3", "");
    INFO(table.out);
    CHECK(table.exit_code == 0);
    CHECK(table.err.find("error") == std::string::npos);
    // A header, then one line per tool in the server's order: its name, its description's first line.
    std::istringstream lines(table.out);
    std::string line;
    REQUIRE(std::getline(lines, line));
    CHECK_THAT(line, Catch::Matches("NAME +DESCRIPTION"));  // the sample's tools have no titles
    for (const auto& t : tools) {
      REQUIRE(std::getline(lines, line));
      const auto name = t["name"].get<std::string>();
      CHECK(line.rfind(name + "  ", 0) == 0);
      CHECK(line.substr(line.find_first_not_of(' ', name.size())) == t["description"].get<std::string>());
    }
    CHECK_FALSE(std::getline(lines, line));
  }
  // Neither --answers nor --defaults nor a terminal is needed to list.
  const auto quiet = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                               "' list < /dev/null 2>&1");
  CHECK(quiet.exit_code == 0);
  CHECK_THAT(quiet.out, Catch::Contains("\ngithub_username "));
}

TEST_CASE("elicitgen ask --jsonl prints one line that elicitgen client --answers replays", "[client][cli][terminal]") {
  const auto schema = std::string(SAMPLE_SCHEMAS_DIR) + "/spec_property_examples.json";
  // Every field answered (Enter takes a default), so the tool's typed value holds exactly this content.
  const auto typed = write_tmp("typed-jsonl.txt",
                               "\nZoe\n12.5\n\ny\n2\n3\n3,1\n\n2026-12-01\n2026-12-01T09:30:00Z\n"
                               "https://example.com/x?a=1&b=%C3%A9\n\n");
  const auto ask = run_split(std::string(ELICITGEN_BIN) + " ask --jsonl '" + schema + "' < '" + typed + "'");
  INFO(ask.err);
  REQUIRE(ask.exit_code == 0);
  CHECK(ask.out ==
        R"({"action":"accept","content":{"display_name":"user@example.com","letters_only":"Zoe","percentage":12.5,)"
        R"("count":50,"flag":true,"color":"Green","color_hex":"#0000FF","colors":["Blue","Red"],)"
        R"("colors_hex":["#FF0000","#00FF00"],"when":"2026-12-01","starts_at":"2026-12-01T09:30:00Z",)"
        R"("homepage":"https://example.com/x?a=1&b=%C3%A9"}})"
        "\n");
  const auto line = json::parse(ask.out);
  const auto answers = write_tmp("replay.jsonl", ask.out);
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto text = text_of(client(version, "spec_property_examples", "--answers '" + answers + "'"));
    REQUIRE(text.rfind("accept: ", 0) == 0);
    CHECK(json::parse(text.substr(8)) == line["content"]);
  }
  // A declined form is a line too, and replays as a decline.
  const auto declined = run_split(std::string(ELICITGEN_BIN) + " ask --jsonl '" + SAMPLE_SCHEMAS_DIR +
                                  "/github_username.json' < '" + write_tmp("typed-decline.txt", ":decline\n") + "'");
  CHECK(declined.exit_code == 1);
  CHECK(declined.out == "{\"action\":\"decline\"}\n");
  CHECK(text_of(client("2026-07-28", "github_username",
                       "--answers '" + write_tmp("replay-decline.jsonl", declined.out) + "'")) == "decline");
}

TEST_CASE(
    "elicitgen client exit codes: 1 for a tool error, 2 for failures, 5 for a server not started, each said "
    "on stderr",
    "[client][cli]") {
  CHECK(client("2026-07-28", "test_error_handling", "--defaults").exit_code == 1);
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    // An unknown tool's error names the tools that exist, in the server's order.
    const auto unknown = run_split(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                   "' --protocol " + version + " call no_such_tool --defaults");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.out.empty());
    CHECK_THAT(unknown.err, Catch::Contains("elicitgen client: unknown tool 'no_such_tool'; available: "
                                            "contact_information, github_username, stripe_customer, "));
    CHECK_THAT(unknown.err, Catch::Contains(", plan_delivery, test_elicitation, connect_account, "));
  }
  const auto bad = write_tmp("bad.jsonl", "{\"action\":\"accept\"}\n{\"action\":\"maybe\"}\n");
  const auto located =
      test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                "' call github_username --answers '" + bad + "' 2>&1");
  CHECK(located.exit_code == 2);
  CHECK_THAT(located.out, Catch::Contains(bad + ":2: error: /action must be"));
  // Nobody to answer (stdin is not a terminal here): no form is offered, and the server (2026-07-28)
  // refuses a tool that needs one with -32021, a failure.
  const auto none = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                              "' call github_username < /dev/null 2>&1");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.out, Catch::Contains("no forms can be answered") &&
                           Catch::Contains("Missing required client capability (JSON-RPC error -32021)"));
  const auto missing = test_support::run_command(std::string(ELICITGEN_BIN) +
                                                 " client --stdio '/nonexistent/server' call x --defaults 2>&1");
  CHECK(missing.exit_code == 5);  // the server could not be started: not reached
  CHECK_THAT(missing.out, Catch::Contains("cannot start /nonexistent/server"));
  const auto args = test_support::run_command(std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
                                              "' call github_username '[1]' --defaults 2>&1");
  CHECK(args.exit_code == 2);
  CHECK_THAT(args.out, Catch::Contains("ARGUMENTS_JSON must be a JSON object"));
}

TEST_CASE("elicitgen client: SIGTERM (as Ctrl-C) cancels the task it follows, then exits 143", "[client][cli]") {
  // slow_compute works for 600 s unless cancelled; the signal comes once the task is working.
  // Every wait is bounded (60 s).
  const auto err = std::string(TEST_TMP_DIR) + "/" + std::to_string(getpid()) + "-signal.txt";
  const auto r = test_support::run_command(
      "(" + std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER +
      "' --protocol 2026-07-28 call slow_compute '{\"seconds\":600,\"label\":\"long\"}' --defaults 2>'" + err +
      "' & pid=$!; for i in $(seq 600); do grep -q ': working' '" + err +
      "' && break; sleep 0.1; done; kill -TERM $pid; for i in $(seq 600); do kill -0 $pid 2>/dev/null || break; "
      "sleep 0.1; done; wait $pid; echo \"exit $?\")");
  const auto said = test_support::read_file(err);
  INFO(said);
  CHECK_THAT(r.out, Catch::Contains("exit 143"));
  CHECK_THAT(said, Catch::Contains(": working"));
  CHECK_THAT(said, Catch::Contains(": cancelled\n"));  // the task's status line: tasks/cancel went out
  CHECK_THAT(said, Catch::Contains("elicitgen client: slow_compute: cancelled (SIGTERM)"));
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

TEST_CASE("elicitgen client: with nobody to answer (stdin not a terminal) no form is offered, in both eras",
          "[client][cli][terminal]") {
  // stdin from /dev/null is not a terminal and neither --answers nor --defaults is given: a script.
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    const auto cli = std::string(ELICITGEN_BIN) + " client --stdio '" + SAMPLE_STDIO_SERVER + "' --protocol " + version;
    // A tool that asks nothing just works.
    const auto plain = run_split(cli + " call test_simple_text < /dev/null");
    INFO(plain.err);
    CHECK(plain.exit_code == 0);
    CHECK(json::parse(plain.out)["content"][0]["text"] == "This is a simple text response for testing.");
    CHECK_THAT(plain.err, Catch::Contains("no forms can be answered, so none are offered to the server"));
    // A tool that asks learns that this client shows no forms (no elicitation capability), and says
    // so its own way; the client prints what the server said and asks nobody.
    const auto asks = run_split(cli + " call github_username < /dev/null");
    INFO(asks.out + asks.err);
    if (std::string(version) == "2025-11-25") {
      // The sample's form tools answer an unsupported elicitation with a text of their own.
      CHECK(asks.exit_code == 0);
      CHECK(json::parse(asks.out)["content"][0]["text"] == "unsupported: the client cannot show forms");
    } else {
      // 2026-07-28: the server refuses the call, -32021 naming the capability it needs.
      CHECK(asks.exit_code == 2);
      CHECK(asks.out.empty());
      CHECK_THAT(asks.err, Catch::Contains("Missing required client capability (JSON-RPC error -32021)"));
    }
  }
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

TEST_CASE("elicitgen client --json: one object on stdout for every outcome, and the exit codes apart",
          "[client][cli][json]") {
  const auto cli = std::string(ELICITGEN_BIN) + " client --json --stdio '" + SAMPLE_STDIO_SERVER + "' ";
  const auto object = [](const Output& o) {
    INFO(o.out + o.err);
    const auto j = json::parse(o.out);  // one object and nothing else
    CHECK(j["elicitgen_output"] == 1);
    test_support::check_schema("client-output.schema.json", j);
    return j;
  };
  const auto accept = write_tmp("json-accept.jsonl", "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}\n");
  const auto ok = run_split(cli + "call github_username --answers '" + accept + "'");
  CHECK(ok.exit_code == 0);
  const auto r = object(ok);
  CHECK(r["outcome"] == "result");
  CHECK(r["result"]["content"][0]["text"] == R"(accept: {"name":"octocat"})");
  REQUIRE(r["answered"].size() == 1);
  CHECK(r["answered"][0]["action"] == "accept");
  CHECK(r["answered"][0]["key"].is_string());  // 2026-07-28: the inputRequests key
  // A tool error.
  const auto tool_error = run_split(cli + "call test_error_handling --defaults");
  CHECK(tool_error.exit_code == 1);
  CHECK(object(tool_error)["outcome"] == "tool_error");
  // Declined and cancelled by the answer source: 3, the tool's result still printed.
  for (const char* action : {"decline", "cancel"}) {
    INFO(action);
    const auto file =
        write_tmp(std::string("json-") + action + ".jsonl", "{\"action\":\"" + std::string(action) + "\"}\n");
    const auto said_no = run_split(cli + "call github_username --answers '" + file + "'");
    CHECK(said_no.exit_code == 3);
    const auto j = object(said_no);
    CHECK(j["outcome"] == (std::string(action) == "decline" ? "declined" : "cancelled"));
    CHECK(j["result"]["content"][0]["text"] == action);
  }
  // A question the answer source could not answer: 2, outcome unanswered, the result printed.
  const auto defaults = run_split(cli + "call github_username --defaults");
  CHECK(defaults.exit_code == 2);
  const auto u = object(defaults);
  CHECK(u["outcome"] == "unanswered");
  CHECK(u["result"]["content"][0]["text"] == "decline");
  // Failures, each with its category.
  const auto unknown = run_split(cli + "call no_such_tool --defaults");
  CHECK(unknown.exit_code == 2);
  const auto f = object(unknown);
  CHECK(f["outcome"] == "failure");
  CHECK(f["category"] == "server_error");
  CHECK(f["jsonrpc_error"]["code"].is_number_integer());
  CHECK_THAT(f["message"].get<std::string>(), Catch::StartsWith("unknown tool 'no_such_tool'; available: "));
  const auto usage = run_split(cli + "call github_username '[1]' --defaults");
  CHECK(usage.exit_code == 2);
  CHECK(object(usage)["category"] == "usage");
  const auto not_started =
      run_split(std::string(ELICITGEN_BIN) + " client --json --stdio /nonexistent/server call x --defaults");
  CHECK(not_started.exit_code == 5);
  CHECK(object(not_started)["category"] == "connect");
  const auto closed =
      run_split(std::string(ELICITGEN_BIN) + " client --json --url http://127.0.0.1:1/mcp call x --defaults");
  CHECK(closed.exit_code == 5);
  const auto c = object(closed);
  CHECK(c["category"] == "connect");
  CHECK_THAT(c["message"].get<std::string>(), Catch::Contains("cannot connect"));
}

}  // namespace cli_client_test
