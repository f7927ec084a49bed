// `elicitgen client call ... --park FILE` and `elicitgen client resume FILE` against the sample stdio
// server (issue 47): every resume starts a new server process, so each one is also a restart of the
// server (sharing --state-keys) and of the caller. Two rounds parked one after the other, three
// calls parked at once and resumed in another order, an expired requestState (exit 6, the file
// kept), the usage errors that leave the file as it was, and the 2025-11-25 refusal.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/run_command.hpp"
#include "client_command.hpp"
#include "client_output.hpp"
#include "output_schema.hpp"
#include "park_scratch.hpp"
#include "test_paths.hpp"

namespace park_test {

using nlohmann::json;

namespace {

using Scratch = test_support::ParkScratch;
using Output = test_support::ParkOutput;

Output run(const Scratch& s, const std::string& args) { return test_support::run_elicitgen_split(s, args); }

std::string server(const Scratch& s, const std::string& extra = "") {
  return "--stdio '" + std::string(SAMPLE_STDIO_SERVER) + " --state-keys " + s.path("keys") + extra + "'";
}

json read_json(const std::string& path) { return json::parse(test_support::read_file(path)); }

std::string text_of(const std::string& out) {
  INFO(out);
  return json::parse(out)["content"][0]["text"].get<std::string>();
}

}  // namespace

TEST_CASE("park: a call stops at each round and goes on in a new process until it completes", "[client][cli][park]") {
  Scratch s("park");
  const auto file = s.path("plan.json");
  const auto parked = run(s, "client " + server(s) + " call plan_delivery --park " + file);
  INFO(parked.err);
  REQUIRE(parked.exit_code == elicitgen::kClientParked);
  // The file: the owner's alone, no token or header, all that is needed to go on.
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  const auto f = read_json(file);
  test_support::check_schema("parked-call.schema.json", f);
  CHECK(f["format"] == "elicitgen-parked-call");
  CHECK(f["version"] == 1);
  CHECK(f["round"] == 1);
  CHECK(f["server"]["transport"] == "stdio");
  CHECK(f["server"]["cwd"] == std::filesystem::current_path().string());
  CHECK(f["protocol_version"] == "2026-07-28");
  CHECK(f["call"] == json{{"method", "tools/call"}, {"name", "plan_delivery"}, {"arguments", json::object()}});
  CHECK(f["pending"]["kind"] == "input_required");
  CHECK(f["pending"]["requestState"].is_string());
  CHECK_FALSE(f.dump().find("token") != std::string::npos);
  // stdout: one object with the questions, each requestedSchema in the server's order.
  const auto out = json::parse(parked.out);
  test_support::check_schema("client-output.schema.json", out);
  CHECK(out["outcome"] == "parked");
  CHECK(out["park_file"] == file);
  CHECK(out["kind"] == "input_required");
  REQUIRE(out["questions"].size() == 1);
  const auto& q = out["questions"][0];
  const auto key = q["key"].get<std::string>();
  CHECK(q["mode"] == "form");
  CHECK(q["message"] == "Where should we ship your order?");
  CHECK(f["pending"]["inputRequests"][key]["params"]["requestedSchema"] == q["requestedSchema"]);
  CHECK_THAT(parked.out, Catch::Contains("\"recipient\"") && Catch::Contains("\"postalCode\""));
  CHECK(parked.out.find("\"recipient\"") < parked.out.find("\"street\""));  // the server's order, not sorted
  CHECK_THAT(parked.err, Catch::Contains("parked in " + file + " (round 1)") &&
                             Catch::Contains("elicitgen client resume " + file + " --answer '" + key + "="));

  // Round 1 answered: the server asks its second question, which parks again in the same file.
  const auto second = run(s, "client resume " + file + " --answer '" + key +
                                 "={\"recipient\":\"Ann\",\"street\":\"Main 1\",\"postalCode\":\"12345\"}'");
  INFO(second.err);
  REQUIRE(second.exit_code == elicitgen::kClientParked);
  const auto round2 = read_json(file);
  test_support::check_schema("parked-call.schema.json", round2);
  CHECK(round2["round"] == 2);
  CHECK(round2["pending"]["requestState"] != f["pending"]["requestState"]);
  const auto out2 = json::parse(second.out);
  REQUIRE(out2["questions"].size() == 1);
  CHECK(out2["questions"][0]["message"] == "When should we deliver?");
  const auto key2 = out2["questions"][0]["key"].get<std::string>();

  // --defaults cannot fill in the required day: nothing is sent, the file stays as it was.
  const auto before = test_support::read_file(file);
  const auto defaults = run(s, "client resume " + file + " --defaults");
  CHECK(defaults.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(defaults.err, Catch::Contains("required field without a default: day") &&
                               Catch::Contains("\"" + key2 + "\" has no answer") &&
                               Catch::Contains("nothing was sent"));
  CHECK(test_support::read_file(file) == before);

  // Answered: the result carries both rounds' answers; the file is gone.
  const auto done = run(s, "client resume " + file + " --answer '" + key2 + "={\"day\":\"2026-12-24\"}'");
  INFO(done.err);
  REQUIRE(done.exit_code == 0);
  CHECK(text_of(done.out) == R"(accept: {"country":"US","postalCode":"12345","recipient":"Ann","street":"Main 1"} / )"
                             R"({"attempts":2,"day":"2026-12-24","weekendOk":false})");
  CHECK_FALSE(std::filesystem::exists(file));
}

TEST_CASE("park: three calls parked at once, resumed in another order, each get their own result",
          "[client][cli][park]") {
  Scratch s("park");
  const std::string tools[] = {"github_username", "confirm_deletion", "contact_information"};
  std::string keys[3];
  for (int i = 0; i < 3; ++i) {
    const auto p = run(s, "client " + server(s) + " call " + tools[i] + " --park " + s.path(std::to_string(i)));
    INFO(p.err);
    REQUIRE(p.exit_code == elicitgen::kClientParked);
    keys[i] = json::parse(p.out)["questions"][0]["key"].get<std::string>();
  }
  const auto third = run(s, "client resume " + s.path("2") + " --answer '" + keys[2] +
                                "={\"name\":\"Ann\",\"email\":\"ann@example.com\",\"age\":41}'");
  INFO(third.err);
  CHECK(third.exit_code == 0);
  CHECK_THAT(text_of(third.out), Catch::StartsWith("accept: ") && Catch::Contains("\"ann@example.com\""));
  const auto first = run(s, "client resume " + s.path("0") + " --answer '" + keys[0] + "={\"name\":\"octocat\"}'");
  CHECK(first.exit_code == 0);
  CHECK(text_of(first.out) == R"(accept: {"name":"octocat"})");
  // An ElicitResult instead of content: the decline reaches the tool (exit 3: a question declined).
  const auto second = run(s, "client resume " + s.path("1") + " --answer '" + keys[1] + "={\"action\":\"decline\"}'");
  CHECK(second.exit_code == elicitgen::kClientDeclined);
  CHECK_THAT(text_of(second.out), Catch::StartsWith("decline"));
  for (int i = 0; i < 3; ++i) CHECK_FALSE(std::filesystem::exists(s.path(std::to_string(i))));
}

TEST_CASE("park: a requestState the server no longer opens is exit 6, and the file is kept", "[client][cli][park]") {
  Scratch s("park");
  const auto file = s.path("expired.json");
  // The state lives 1 ms: gone long before the next process starts.
  const auto p = run(s, "client " + server(s, " --state-ttl-ms 1") + " call github_username --park " + file);
  REQUIRE(p.exit_code == elicitgen::kClientParked);
  const auto key = json::parse(p.out)["questions"][0]["key"].get<std::string>();
  const auto r = run(s, "client resume " + file + " --answer '" + key + "={\"name\":\"octocat\"}'");
  INFO(r.err);
  CHECK(r.exit_code == elicitgen::kClientExpired);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("(JSON-RPC error -32602)") && Catch::Contains("the file is kept"));
  CHECK(std::filesystem::exists(file));
  // The same with --json: a failure of category "expired".
  const auto j = run(s, "client --json resume " + file + " --answer '" + key + "={\"name\":\"octocat\"}'");
  CHECK(j.exit_code == elicitgen::kClientExpired);
  const auto failure = json::parse(j.out);
  test_support::check_schema("client-output.schema.json", failure);
  CHECK(failure["category"] == "expired");
  CHECK(failure["jsonrpc_error"]["code"] == -32602);
  // Sealed with a key only that process had (a server without --state-keys): the next process
  // cannot open it either.
  const auto p2 = run(s, "client --stdio '" + std::string(SAMPLE_STDIO_SERVER) + "' call github_username --park " +
                             s.path("random-key.json"));
  REQUIRE(p2.exit_code == elicitgen::kClientParked);
  const auto key2 = json::parse(p2.out)["questions"][0]["key"].get<std::string>();
  CHECK(run(s, "client resume " + s.path("random-key.json") + " --answer '" + key2 + "={\"name\":\"x\"}'").exit_code ==
        elicitgen::kClientExpired);
}

TEST_CASE("park: what is refused before anything is sent", "[client][cli][park]") {
  Scratch s("park");
  const auto file = s.path("p.json");
  // A tool that asks nothing completes; no file.
  const auto plain = run(s, "client " + server(s) + " call test_simple_text --park " + file);
  CHECK(plain.exit_code == 0);
  CHECK(text_of(plain.out) == "This is a simple text response for testing.");
  CHECK_FALSE(std::filesystem::exists(file));
  // --answers answers what it can; the call parks where its lines run out.
  std::ofstream(s.path("answers.jsonl"))
      << R"({"action":"accept","content":{"recipient":"Bo","street":"Elm 2","postalCode":"54321"}})"
      << "\n";
  const auto half =
      run(s, "client " + server(s) + " call plan_delivery --answers " + s.path("answers.jsonl") + " --park " + file);
  INFO(half.err);
  REQUIRE(half.exit_code == elicitgen::kClientParked);
  CHECK(json::parse(half.out)["questions"][0]["message"] == "When should we deliver?");
  const auto before = test_support::read_file(file);
  // An existing park file is never overwritten by a new call (refused before connecting).
  const auto again = run(s, "client " + server(s) + " call plan_delivery --park " + file);
  CHECK(again.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(again.err, Catch::Contains("already exists"));
  // An answer for a key the file does not ask, a malformed one, and the server given again.
  const auto other = run(s, "client resume " + file + " --answer 'nope={\"day\":\"2026-01-01\"}'");
  CHECK(other.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(other.err, Catch::Contains("--answer nope: " + file + " has no question under that key"));
  CHECK(run(s, "client resume " + file + " --answer 'x=[1]'").exit_code == elicitgen::kClientFailed);
  const auto server_again = run(s, "client " + server(s) + " resume " + file);
  CHECK(server_again.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(server_again.err, Catch::Contains("come from the park file"));
  CHECK(test_support::read_file(file) == before);
  // A file written by a newer elicitgen, and one that is not a park file: said where.
  auto newer = json::parse(before);
  newer["version"] = 2;
  std::ofstream(s.path("newer.json")) << newer.dump();
  const auto v2 = run(s, "client resume " + s.path("newer.json"));
  CHECK(v2.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(v2.err, Catch::Contains(s.path("newer.json") + ": /version: written by a newer elicitgen"));
  std::ofstream(s.path("other.json")) << R"({"format":"something-else"})";
  CHECK_THAT(run(s, "client resume " + s.path("other.json")).err, Catch::Contains("/format: must be"));
  newer["version"] = 1;
  newer["pending"].erase("inputRequests");
  std::ofstream(s.path("short.json")) << newer.dump();
  CHECK_THAT(run(s, "client resume " + s.path("short.json")).err,
             Catch::Contains(s.path("short.json") + ": /pending/inputRequests: missing"));
  // Optional members absent (declared) and malformed ones (argv): said where, never a crash.
  auto lean = json::parse(before);
  lean.erase("declared");
  lean["server"]["argv"] = json::array();
  std::ofstream(s.path("lean.json")) << lean.dump();
  const auto empty_argv = run(s, "client resume " + s.path("lean.json"));
  CHECK(empty_argv.exit_code == elicitgen::kClientFailed);
  CHECK_THAT(empty_argv.err,
             Catch::Contains(s.path("lean.json") + ": /server/argv: must be a non-empty array of strings"));
  lean["server"]["argv"] = json{"server", 3};
  std::ofstream(s.path("lean.json")) << lean.dump();
  CHECK_THAT(run(s, "client resume " + s.path("lean.json")).err,
             Catch::Contains(s.path("lean.json") + ": /server/argv/1: must be a string"));
}

TEST_CASE(
    "park: a URL question is parked with its reviewed URL, and resumed before the page is finished it parks again",
    "[client][cli][park][url]") {
  Scratch s("park");
  // connect_account takes the user's consent as the end of it.
  const auto file = s.path("connect.json");
  const auto parked = run(s, "client " + server(s) + " call connect_account --park " + file);
  INFO(parked.err);
  REQUIRE(parked.exit_code == elicitgen::kClientParked);
  const auto out = json::parse(parked.out);
  test_support::check_schema("client-output.schema.json", out);
  const auto& q = out["questions"][0];
  CHECK(q["mode"] == "url");
  CHECK(q["url"] == "https://mcp.example.com/connect");
  CHECK(q["host"] == "mcp.example.com");
  CHECK(q["warnings"] == json::array());
  CHECK_FALSE(q.contains("refused"));
  const auto key = q["key"].get<std::string>();
  const auto done = run(s, "client resume " + file + " --answer '" + key + "={\"action\":\"accept\"}'");
  INFO(done.err);
  CHECK(done.exit_code == 0);
  CHECK(text_of(done.out) == "url accepted");
  // sign_in is finished out of band (the page marks it complete), which never happens here: every
  // resume is too early, so the server asks again and the call parks again, one round further on.
  const auto sign_in = s.path("sign-in.json");
  const auto first = run(s, "client " + server(s) + " call sign_in --park " + sign_in);
  REQUIRE(first.exit_code == elicitgen::kClientParked);
  const auto sign_key = json::parse(first.out)["questions"][0]["key"].get<std::string>();
  const auto early = run(s, "client resume " + sign_in + " --answer '" + sign_key + "={\"action\":\"accept\"}'");
  INFO(early.err);
  CHECK(early.exit_code == elicitgen::kClientParked);
  const auto again = json::parse(early.out);
  CHECK(again["round"] == 2);
  CHECK(again["questions"][0]["mode"] == "url");
  CHECK(json::parse(test_support::read_file(sign_in))["round"] == 2);
}

TEST_CASE("park: a 2025-11-25 server cannot park a question, and the tool is not called", "[client][cli][park]") {
  Scratch s("park");
  const auto r =
      run(s, "client " + server(s) + " --protocol 2025-11-25 call github_username --park " + s.path("old.json"));
  CHECK(r.exit_code == elicitgen::kClientFailed);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("the server speaks 2025-11-25") && Catch::Contains("the tool was not called"));
  const auto j =
      run(s, "client --json " + server(s) + " --protocol 2025-11-25 call github_username --park " + s.path("old.json"));
  CHECK(j.exit_code == elicitgen::kClientFailed);
  const auto failure = json::parse(j.out);
  test_support::check_schema("client-output.schema.json", failure);
  CHECK(failure["category"] == "cannot_park");
  CHECK_FALSE(std::filesystem::exists(s.path("old.json")));
}

}  // namespace park_test
