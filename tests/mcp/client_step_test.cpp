// Client::call_tool_step and resume_tool_step (MCP 2026-07-28) against the sample stdio server: a
// call stopped at its first round with the server's questions and state, gone on with in another
// Client and server process sharing the requestState keys; a round answered in part is returned
// whole; a tampered state refused; a task stopped in input_required and answered with tasks/update;
// and the refusal in the 2025-11-25 era, where a question waits on the session.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <elicit/client.hpp>

#include "../support/tool_text.hpp"
#include "test_paths.hpp"

namespace client_step_test {

using namespace elicit;
using nlohmann::json;
using test_support::text_of;

namespace {

// The sample server with a fixed requestState key, so that any two of them open each other's states.
std::unique_ptr<Client> keyed_client(const std::string& version = "2026-07-28") {
  std::filesystem::create_directories(TEST_TMP_DIR);
  const auto keys = std::string(TEST_TMP_DIR) + "/step-keys-" + std::to_string(getpid());
  std::ofstream(keys) << "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\n";
  ClientOptions o;
  o.protocol_version = version;
  o.fallback_protocol_version = std::nullopt;
  o.declare_elicitation = true;
  o.session.log = [](std::string_view) {};
  ChildProcessOptions child;
  child.stderr_fd = -1;
  auto client = Client::spawn({SAMPLE_STDIO_SERVER, "--state-keys", keys}, o, child);
  // A step call never asks the handlers; one that did would fail the test.
  client->on_elicitation([](const ElicitationRequest& r) -> Answer {
    FAIL("the handler was asked: " + r.message);
    return Answer::cancel();
  });
  client->connect();
  return client;
}

json shipping() { return {{"recipient", "Ada"}, {"street", "1 Main St"}, {"postalCode", "12345"}}; }

}  // namespace

TEST_CASE("step calls: stop at a round, go on from another process with the state as given", "[client][step]") {
  PendingInput pending;
  {
    auto first = keyed_client();
    const auto step = first->call_tool_step("plan_delivery", json::object());  // no answerer: stop at once
    REQUIRE_FALSE(step.result);
    REQUIRE(step.pending);
    pending = *step.pending;
  }  // that server process is gone
  CHECK(pending.task_id.empty());
  REQUIRE(pending.request_state.is_string());
  REQUIRE(pending.input_requests.size() == 1);
  const auto questions = pending.questions();
  REQUIRE(questions.size() == 1);
  const auto& q = questions[0];
  CHECK(q.key == pending.input_requests.begin().key());
  CHECK(q.message == "Where should we ship your order?");
  REQUIRE(q.form);
  CHECK(q.form->fields[0].name == "recipient");  // the server's order
  CHECK(q.requested_schema.begin().key() == "type");

  // Round 1 answered in a new process; the answerer leaves round 2 for later.
  auto second = keyed_client();
  std::vector<std::string> asked;
  const StepAnswerer later = [&](const ElicitationRequest& r) -> std::optional<Answer> {
    asked.push_back(r.message);
    return std::nullopt;
  };
  const auto step2 = second->resume_tool_step("plan_delivery", json::object(), pending,
                                              {{q.key, Answer::accept(shipping()).to_json(true)}}, later);
  REQUIRE(step2.pending);
  CHECK(asked == std::vector<std::string>{"When should we deliver?"});
  CHECK(step2.pending->request_state != pending.request_state);

  // A state changed by one character is refused by the server (-32602), not read.
  auto tampered = *step2.pending;
  auto text = tampered.request_state.get<std::string>();
  text[text.size() / 2] = text[text.size() / 2] == 'A' ? 'B' : 'A';
  tampered.request_state = text;
  const auto key2 = step2.pending->input_requests.begin().key();
  const auto day = nlohmann::ordered_json{{key2, Answer::accept({{"day", "2026-12-01"}}).to_json(true)}};
  try {
    second->resume_tool_step("plan_delivery", json::object(), tampered, day);
    FAIL("a tampered requestState was honoured");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32602);
  }
  // The state as given: the call completes with both rounds' answers.
  const auto done = second->resume_tool_step("plan_delivery", json::object(), *step2.pending, day);
  REQUIRE(done.result);
  CHECK_FALSE(done.pending);
  const auto t = text_of(*done.result);
  CHECK(t.rfind("accept: ", 0) == 0);
  CHECK(t.find("\"recipient\":\"Ada\"") != std::string::npos);
  CHECK(t.find("\"day\":\"2026-12-01\"") != std::string::npos);
}

TEST_CASE("step calls: an answerer that answers every round completes the call as call_tool does", "[client][step]") {
  auto client = keyed_client();
  int rounds = 0;
  const auto step = client->call_tool_step(
      "plan_delivery", json::object(), [&](const ElicitationRequest& r) -> std::optional<Answer> {
        ++rounds;
        return Answer::accept(r.message == "When should we deliver?" ? json{{"day", "2026-12-01"}} : shipping());
      });
  REQUIRE(step.result);
  CHECK(rounds == 2);
  CHECK(text_of(*step.result).find("\"recipient\":\"Ada\"") != std::string::npos);
}

TEST_CASE("step calls: a task stops in input_required and goes on with tasks/update", "[client][step][tasks]") {
  auto client = keyed_client();
  const auto step = client->call_tool_step("confirm_delete", {{"filename", "notes.txt"}});
  REQUIRE(step.pending);
  CHECK_FALSE(step.pending->task_id.empty());
  CHECK(step.pending->task["status"] == "input_required");
  CHECK(step.pending->request_state.is_null());
  const auto questions = step.pending->questions();
  REQUIRE(questions.size() == 1);
  CHECK(questions[0].message == "Delete notes.txt?");
  const auto done = client->resume_tool_step("confirm_delete", {{"filename", "notes.txt"}}, *step.pending,
                                             {{questions[0].key, Answer::accept({{"confirm", true}}).to_json(true)}});
  REQUIRE(done.result);
  CHECK(text_of(*done.result) == "deleted notes.txt");
}

TEST_CASE("step calls: refused in the 2025-11-25 era before anything is sent", "[client][step]") {
  auto client = keyed_client("2025-11-25");
  try {
    client->call_tool_step("github_username", json::object());
    FAIL("a session-era question was left for later");
  } catch (const ClientError& e) {
    CHECK(e.code() == 0);
    CHECK_THAT(e.what(), Catch::Contains("only MCP 2026-07-28 calls can stop at a question"));
  }
}

}  // namespace client_step_test
