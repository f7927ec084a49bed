// One behaviour in both revisions (issue 26, item 3): the same handler code, served to an
// elicit::Client in-process under 2025-11-25 and under 2026-07-28, gives the same observable result
// for a blocking elicit in an asynchronous handler, invalid content, decline and cancel.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>

#include <elicit/client.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/server_session.hpp>

#include "contact_information.hpp"
#include "github_username.hpp"

namespace revisions_test {

using namespace elicit;
using nlohmann::json;

namespace {

std::string describe(const Outcome<samples::GithubUsername>& o) {
  return o ? "accepted " + o.value->name : std::string(to_string(o.status));
}

// A ServerSession with the same tools, and a Client speaking `version`, on two in-memory ends.
struct Pair {
  explicit Pair(const std::string& version) : ends(MemoryTransport::pair()) {
    ServerSessionOptions so;
    so.session.log = [](std::string_view) {};
    server = std::make_unique<ServerSession>(*ends.first, ServerInfo{"revisions", "1"}, so);
    server->add_tool(Tool::blocking("ask", [](RequestContext& ctx) {
      return ToolResult::text(describe(ctx.elicit<samples::GithubUsername>("Who?")));
    }));
    server->add_tool(Tool::async("ask_async", [](std::shared_ptr<RequestContext> ctx) {
      ctx->elicit_async<samples::GithubUsername>(
          "Who?", [ctx](Outcome<samples::GithubUsername> o) { ctx->reply(ToolResult::text(describe(o))); });
    }));
    // A programming error: a blocking elicit on the event thread an asynchronous handler runs on.
    server->add_tool(Tool::async("blocking_in_async", [](std::shared_ptr<RequestContext> ctx) {
      ctx->reply(ToolResult::text(describe(ctx->elicit<samples::GithubUsername>("Who?"))));
    }));
    // Run-time prefill (issue 26, item 7): the tool's argument as the form's default.
    server->add_tool(Tool::blocking("prefilled", [](RequestContext& ctx) {
      samples::ContactInformation prefill;
      prefill.name = ctx.arguments().value("name", "");
      prefill.email = ctx.arguments().value("email", "");
      auto o = ctx.elicit<samples::ContactInformation>("Confirm", prefill);
      return ToolResult::text(o ? "accepted " + o.value->name + " " + o.value->email
                                : std::string(to_string(o.status)));
    }));
    server->start();
    ClientOptions co;
    co.protocol_version = version;
    co.session.log = [](std::string_view) {};
    client = std::make_unique<Client>(*ends.second, co);
  }
  ~Pair() {
    client.reset();
    server->close();
  }
  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  std::unique_ptr<ServerSession> server;
  std::unique_ptr<Client> client;
};

json call(Pair& p, const std::string& tool, json arguments = json::object()) {
  return p.client->call_tool(tool, std::move(arguments));
}
std::string text_of(const json& r) { return r["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("one handler, one behaviour in both revisions", "[client][revisions]") {
  const std::string version = GENERATE(as<std::string>{}, "2025-11-25", "2026-07-28");
  CAPTURE(version);
  Pair p(version);
  std::atomic<int> asked{0};
  std::string script;  // what the user does, one letter per question: i(nvalid), v(alid), d(ecline), c(ancel)
  std::vector<std::string> messages;
  p.client->on_elicitation([&](const ElicitationRequest& r) {
    messages.push_back(r.message);
    const char step = script.at(static_cast<std::size_t>(asked++));
    if (step == 'i') return Answer::accept({{"name", 42}});  // not a string: T refuses it
    if (step == 'v') return Answer::accept({{"name", "octocat"}});
    if (step == 'd') return Answer::decline();
    return Answer::cancel();
  });
  p.client->connect();

  for (const std::string tool : {"ask", "ask_async"}) {
    CAPTURE(tool);
    SECTION("invalid content is asked again with the reason; the valid answer counts: " + tool) {
      script = "iiv";
      CHECK(text_of(call(p, tool)) == "accepted octocat");
      REQUIRE(asked == 3);
      CHECK(messages[0] == "Who?");
      CHECK(messages[1].rfind("Who?\n\nThe previous answer was not accepted: name: ", 0) == 0);
      CHECK(messages[2] == messages[1]);  // the reason is said once, not piled up
    }
    SECTION("decline reaches the handler: " + tool) {
      script = "d";
      CHECK(text_of(call(p, tool)) == "declined");
    }
    SECTION("cancel reaches the handler: " + tool) {
      script = "c";
      CHECK(text_of(call(p, tool)) == "cancelled");
    }
  }
  SECTION("a blocking elicit in an asynchronous handler is a tool error, nothing is asked") {
    const auto r = call(p, "blocking_in_async");
    CHECK(r["isError"] == true);
    CHECK_THAT(text_of(r), Catch::Contains("elicit()") && Catch::Contains("elicit_async()"));
    CHECK(asked == 0);
  }
}

TEST_CASE("a prefill is the form's defaults, in both revisions", "[client][revisions][prefill]") {
  const std::string version = GENERATE(as<std::string>{}, "2025-11-25", "2026-07-28");
  CAPTURE(version);
  Pair p(version);
  json schema_seen;
  p.client->on_elicitation([&](const ElicitationRequest& r) {
    schema_seen = r.requested_schema;
    REQUIRE(r.form);
    return Answer::accept_with_defaults(*r.form);  // the user keeps what was prefilled
  });
  p.client->connect();
  SECTION("the values are the defaults the client shows, and come back") {
    const auto r = call(p, "prefilled", {{"name", "Ada"}, {"email", "ada@example.com"}});
    CHECK(text_of(r) == "accepted Ada ada@example.com");
    CHECK(schema_seen["properties"]["name"]["default"] == "Ada");
    CHECK(schema_seen["properties"]["email"]["default"] == "ada@example.com");
    // Everything else is T's schema as generated.
    auto without = schema_seen;
    without["properties"]["name"].erase("default");
    without["properties"]["email"].erase("default");
    CHECK(without == json(requested_schema<samples::ContactInformation>()));
  }
  SECTION("a prefill that breaks the form's rules is a tool error, nothing is asked") {
    const auto r = call(p, "prefilled", {{"name", "Ada"}, {"email", "not an email"}});
    CHECK(r["isError"] == true);
    CHECK_THAT(text_of(r), Catch::Contains("prefill breaks the form's rules: /email: "));
    CHECK(schema_seen.is_null());
  }
}

}  // namespace revisions_test
