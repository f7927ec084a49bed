// interaction/notify of the userInteraction dialect (user-interaction-draft.md, "Progress
// Tracking") over the in-memory transport: progress while an interaction runs, the answer when it
// ends, and silence for whatever is not an interaction of this client and session. Silence is
// checked without waiting: messages are handled in order, so once a later ping is answered, the
// notify before it was handled and got nothing.
#include <catch2/catch.hpp>

#include <thread>

#include "../support/interaction_fixture.hpp"

namespace interaction_notify_test {

using namespace elicit;
using nlohmann::json;

namespace {

using interaction_test::notify_params;
using interaction_test::Wire;

// A session whose client declared both interaction types and progress.
struct Fixture : interaction_test::Fixture {
  explicit Fixture(Wire wire, bool enabled = true, bool progress = true)
      : interaction_test::Fixture(wire, enabled, progress) {
    client.initialize(interaction_test::kBothTypes);
  }
};

}  // namespace

TEST_CASE("notify on a prompt interaction: progress now, the answer when the user answers",
          "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = f.next();
  REQUIRE(create["method"] == "interaction/create");
  const auto id = create["params"]["id"].get<std::string>();
  f.notify_request("n1", notify_params(id, 7));
  const auto p = f.next();
  CHECK(p["method"] == "notifications/progress");
  CHECK(p["params"]["progressToken"] == 7);
  CHECK(p["params"]["progress"] == 0);
  f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  const auto answered = f.next();
  CHECK(answered["id"] == "n1");
  CHECK(answered["result"] == json::object());
  const auto result = f.next();
  CHECK(result["id"] == 1);
  CHECK(result["result"]["content"][0]["text"] == "hello Ada");
  // Once ended, a late notify is answered at once.
  f.notify_request("n2", notify_params(id));
  const auto late = f.next();
  CHECK(late["id"] == "n2");
  CHECK(late["result"] == json::object());
}

TEST_CASE("notify on a ua interaction follows it out of band until it completes", "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  f.client.request(1, "tools/call", {{"name", "open"}});
  const auto create = f.next();
  REQUIRE(create["params"]["type"] == "ua");
  const auto id = create["params"]["id"].get<std::string>();
  f.client.respond(create["id"], json::object());  // the client opened the URL
  CHECK(f.next()["result"]["content"][0]["text"] == "accepted " + id);
  f.notify_request("n1", notify_params(id));
  CHECK(f.next()["params"]["progress"] == 0);
  f.client.request(2, "tools/call", {{"name", "finish"}, {"arguments", {{"id", id}}}});
  const auto p = f.next();
  CHECK(p["method"] == "notifications/progress");
  CHECK(p["params"] == json{{"progressToken", "tok"}, {"progress", 50}, {"total", 100}, {"message", "half way"}});
  const auto answered = f.next();
  CHECK(answered["id"] == "n1");
  CHECK(answered["result"] == json::object());
  CHECK(f.next()["result"]["content"][0]["text"] == "1 ended");
}

TEST_CASE("notify is never answered for what is not an interaction of this session", "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture a(wire);
  Fixture b(wire);
  a.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = a.next();
  REQUIRE(create["method"] == "interaction/create");
  const auto id = create["params"]["id"].get<std::string>();

  // jsonrpc::Connection B naming session A's interaction: silence.
  b.notify_request("n1", notify_params(id));
  CHECK(b.nothing_before_ping(901));
  // Unknown ids, and params without a string id: silence.
  a.notify_request("n2", notify_params("00000000000000000000000000000000"));
  a.notify_request("n3", {{"id", 5}, {"_meta", {{"progressToken", "t"}}}});
  a.notify_request("n4", json::array());
  CHECK(a.nothing_before_ping(902));
  // An interaction of this session without a usable progressToken: -32602.
  a.notify_request("n5", {{"id", id}});
  CHECK(a.next()["error"]["code"] == -32602);
  a.notify_request("n5f", {{"id", id}, {"_meta", {{"progressToken", 1.5}}}});  // neither a string nor an integer
  const auto float_token = a.next();
  CHECK(float_token["id"] == "n5f");
  CHECK(float_token["error"]["code"] == -32602);
  // A's interaction still works for A.
  a.notify_request("n6", notify_params(id));
  CHECK(a.next()["method"] == "notifications/progress");
  a.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  CHECK(a.next()["id"] == "n6");
}

TEST_CASE("without progress support, notify is never answered, even for its own interaction",
          "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire, true, false);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = f.next();
  REQUIRE(create["method"] == "interaction/create");
  f.notify_request("n1", notify_params(create["params"]["id"].get<std::string>()));
  CHECK(f.nothing_before_ping());
  f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  // The interaction's end answers no notify: the next message is the tool's result.
  CHECK(f.next()["id"] == 1);
}

TEST_CASE("with the dialect off, interaction/notify is not a method", "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire, false);
  f.notify_request("n1", notify_params("x"));
  CHECK(f.next()["error"]["code"] == -32601);
}

TEST_CASE("the oldest running interaction gives way beyond the bound, and its watchers are answered",
          "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  REQUIRE(interaction_book(f.server->state()) != nullptr);  // the client chose the dialect
  auto& book = *interaction_book(f.server->state());
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto create = f.next();
  REQUIRE(create["method"] == "interaction/create");
  const auto id = create["params"]["id"].get<std::string>();
  f.notify_request("n1", notify_params(id));
  CHECK(f.next()["method"] == "notifications/progress");
  // Interactions nobody ends (a ua interaction the user never completes) fill the session.
  for (std::size_t i = 0; i + 1 < InteractionBook::kRunning; ++i) book.add("filler-" + std::to_string(i));
  CHECK(f.nothing_before_ping(901));  // at the bound: still running
  book.add("one-more");
  const auto answered = f.next();
  CHECK(answered["id"] == "n1");
  CHECK(answered["result"] == json::object());
  CHECK(book.has(id));  // remembered as ended
  CHECK_FALSE(book.end(id));
  CHECK(book.end("filler-0"));
  // The question itself is not withdrawn: the user's answer still reaches the handler.
  f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
  CHECK(f.result_text() == "hello Ada");
}

TEST_CASE("a session remembers a bounded number of URL elicitation ids", "[user_interaction]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  auto& session = f.server->state();
  for (std::size_t i = 0; i <= SessionState::kUrlElicitationsKept; ++i)
    session.add_url_elicitation("u-" + std::to_string(i));
  CHECK_FALSE(session.mark_url_elicitation_complete("u-0"));  // the oldest, forgotten
  CHECK(session.mark_url_elicitation_complete("u-1"));
  CHECK_FALSE(session.mark_url_elicitation_complete("u-1"));  // once
  CHECK(session.mark_url_elicitation_complete("u-" + std::to_string(SessionState::kUrlElicitationsKept)));
}

TEST_CASE("a watcher gets its progress in order and its answer last while other threads progress and end it",
          "[user_interaction][notify]") {
  const auto wire = GENERATE(Wire::memory, Wire::stdio);
  CAPTURE(wire);
  Fixture f(wire);
  auto& session = f.server->state();
  constexpr int kRounds = 20;
  constexpr int kSteps = 50;
  for (int round = 0; round < kRounds; ++round) {
    f.client.request(round, "tools/call", {{"name", "ask"}});
    const auto create = f.next();
    REQUIRE(create["method"] == "interaction/create");
    const auto id = create["params"]["id"].get<std::string>();
    const auto token = "tok-" + std::to_string(round);
    const auto notify = "n-" + std::to_string(round);
    f.notify_request(notify, notify_params(id, token));
    // Progress from another thread while the user's answer ends the interaction.
    std::thread page([&] {
      for (int i = 1; i <= kSteps; ++i) interaction_progress(session, id, i);
    });
    f.client.respond(create["id"], {{"content", {{"name", "Ada"}, {"email", "ada@example.com"}}}});
    page.join();
    // Every notification and answer of this round comes before the ping's answer (the dispatch
    // thread sends them all); the tool's result comes from a worker, in any place.
    f.client.request("ping", "ping");
    double last = -1;
    bool answered = false, result = false, pinged = false;
    for (int n = 0; n < kSteps + 8 && !(pinged && result); ++n) {
      const auto m = f.next();
      REQUIRE(m.is_object());
      if (m.value("id", json()) == "ping") {
        pinged = true;
      } else if (m.value("method", "") == "notifications/progress") {
        CHECK_FALSE(pinged);
        REQUIRE(m["params"]["progressToken"] == token);
        CHECK_FALSE(answered);  // no progress after the answer
        CHECK(m["params"]["progress"].get<double>() > last);
        last = m["params"]["progress"].get<double>();
      } else if (m.value("id", json()) == notify) {
        CHECK(m["result"] == json::object());
        answered = true;
      } else {
        CHECK(m.value("id", json()) == round);
        result = true;
      }
    }
    CHECK(answered);
    CHECK(result);
    CHECK(last >= 0);  // at least the first progress, before the answer
  }
}

}  // namespace interaction_notify_test
