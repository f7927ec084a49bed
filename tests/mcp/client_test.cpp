// elicit::Client against the sample stdio server (a child process), in both eras: typed and
// dynamic handlers, decline, no handler (no capability declared), two input-required rounds with
// the requestState echoed, the bound on rounds, lists; and read_elicitation_request.
#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <string>

#include <elicit/client.hpp>
#include <elicit/protocol/user_interaction.hpp>

#include "../support/tool_text.hpp"
#include "delete_confirmation.hpp"
#include "github_username.hpp"
#include "sep1034_defaults.hpp"
#include "shipping.hpp"  // ShippingAddress and DeliveryWindow
#include "test_paths.hpp"

namespace client_test {

using namespace elicit;
using nlohmann::json;
using test_support::text_of;

namespace {

std::unique_ptr<Client> sample_client(const std::string& version, std::size_t max_rounds = 16) {
  ClientOptions o;
  o.protocol_version = version;
  o.max_rounds = max_rounds;
  o.session.log = [](std::string_view) {};
  ChildProcessOptions child;
  child.stderr_fd = -1;  // the server's "serving on stdio" line stays out of the test's output
  return Client::spawn({SAMPLE_STDIO_SERVER}, o, child);
}

}  // namespace

TEST_CASE("client: a typed handler answers the server's form, in both eras", "[client]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = sample_client(version);
    std::atomic<int> asked{0};
    client->on_form<samples::GithubUsername>([&](const ElicitationRequest& r) {
      ++asked;
      CHECK(r.message == "Please provide your GitHub username");
      REQUIRE(r.form);
      CHECK(r.form->fields.size() == 1);
      samples::GithubUsername answer;
      answer.name = "octocat";
      return FormAnswer<samples::GithubUsername>::accept(answer);
    });
    client->connect();
    CHECK(client->server_info()["name"] == "elicitgen-sample-server");
    CHECK(client->server_capabilities().contains("tools"));
    CHECK(text_of(client->call_tool("github_username")) == R"(accept: {"name":"octocat"})");
    CHECK(asked == 1);
  }
}

TEST_CASE("client: two forms in one call, 2026-07-28 takes two rounds with the requestState echoed", "[client]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = sample_client(version);
    client->on_form<samples::ShippingAddress>([](const ElicitationRequest&) {
      samples::ShippingAddress a;
      a.recipient = "Ada";
      a.street = "1 Main St";
      a.postal_code = "12345";
      return FormAnswer<samples::ShippingAddress>::accept(a);
    });
    // The dynamic handler gets what no typed one took: here the delivery window.
    std::atomic<int> dynamic{0};
    client->on_elicitation([&](const ElicitationRequest& r) {
      ++dynamic;
      CHECK(r.message == "When should we deliver?");
      CHECK(json(r.requested_schema) == json(elicit::requested_schema<samples::DeliveryWindow>()));
      samples::DeliveryWindow w;  // the schema's defaults, and the one required member
      w.day = "2026-12-01";
      return Answer::accept(json(w));
    });
    client->connect();
    const auto text = text_of(client->call_tool("plan_delivery"));
    CHECK(text.rfind("accept: ", 0) == 0);
    CHECK(text.find("\"recipient\":\"Ada\"") != std::string::npos);
    CHECK(dynamic == 1);
  }
}

TEST_CASE("client: a form's properties reach the handler in the server's order, in both eras", "[client][order]") {
  // The order the server sends is its generated type's schema order, which is not sorted: else this
  // could not tell the server's order from the sorted one of a parsed nlohmann::json.
  std::vector<std::string> sent;
  const auto& schema = elicit::requested_schema<samples::Sep1034Defaults>();
  for (const auto& p : schema.at("properties").items()) sent.push_back(p.key());
  REQUIRE(sent.size() == 5);
  REQUIRE_FALSE(std::is_sorted(sent.begin(), sent.end()));
  // 2025-11-25: the elicitation/create request's text; 2026-07-28: the input-required result's.
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = sample_client(version);
    std::vector<std::string> fields, properties;
    client->on_elicitation([&](const ElicitationRequest& r) {
      REQUIRE(r.form);
      for (const auto& f : r.form->fields) fields.push_back(f.name);
      for (const auto& p : r.requested_schema["properties"].items()) properties.push_back(p.key());
      return Answer::decline();
    });
    client->connect();
    CHECK(text_of(client->call_tool("sep1034_defaults")).find("decline") != std::string::npos);
    CHECK(fields == sent);
    CHECK(properties == sent);
  }
}

TEST_CASE("client: decline reaches the tool, the bound on rounds stops a call", "[client]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = sample_client(version);
    client->on_elicitation([](const ElicitationRequest&) { return Answer::decline(); });
    client->connect();
    CHECK(text_of(client->call_tool("contact_information")) == "decline");
  }
  auto bounded = sample_client("2026-07-28", 1);
  bounded->on_elicitation([](const ElicitationRequest& r) {
    return Answer::accept(r.message == "When should we deliver?"
                              ? json{{"day", "2026-12-01"}}
                              : json{{"recipient", "A"}, {"street", "S"}, {"postalCode", "12345"}, {"country", "US"}});
  });
  bounded->connect();
  try {
    bounded->call_tool("plan_delivery");
    FAIL("two rounds passed a bound of one");
  } catch (const ClientError& e) {
    CHECK(e.code() == 0);
    CHECK_THAT(e.what(), Catch::Contains("max_rounds"));
  }
}

TEST_CASE("client: without a handler no elicitation capability is declared", "[client]") {
  auto session_era = sample_client("2025-11-25");
  session_era->connect();
  CHECK(text_of(session_era->call_tool("github_username")) == "unsupported: the client cannot show forms");

  auto stateless = sample_client("2026-07-28");
  stateless->connect();
  try {
    stateless->call_tool("github_username");
    FAIL("a modern server asked a client that declared no elicitation");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32021);
  }
}

TEST_CASE("client: lists and errors", "[client]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    auto client = sample_client(version);
    client->connect();
    const auto tools = client->list_tools();
    CHECK(std::any_of(tools.begin(), tools.end(), [](const json& t) { return t["name"] == "github_username"; }));
    CHECK_FALSE(client->list_prompts().empty());
    CHECK_FALSE(client->list_resources().empty());
    CHECK(client->read_resource("test://static-text")["contents"][0]["text"].is_string());
    try {
      client->call_tool("no_such_tool");
      FAIL("an unknown tool was called");
    } catch (const ClientError& e) {
      CHECK(e.code() == -32602);
    }
  }
}

TEST_CASE("client: a protocol version it does not speak is refused before anything is sent", "[client]") {
  ClientOptions o;
  o.protocol_version = "2099-01-01";
  ChildProcessOptions quiet;
  quiet.stderr_fd = -1;
  CHECK_THROWS_AS(Client::spawn({SAMPLE_STDIO_SERVER}, o, quiet), std::invalid_argument);
}

TEST_CASE("read_elicitation_request reads forms, URL requests and schemas outside the subset", "[client]") {
  const auto form = read_elicitation_request(
      json{{"mode", "form"},
           {"message", "Who?"},
           {"requestedSchema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}});
  CHECK_FALSE(form.url_mode);
  CHECK(form.message == "Who?");
  REQUIRE(form.form);
  CHECK(form.form->fields[0].name == "name");

  const auto url = read_elicitation_request(
      json{{"mode", "url"}, {"message", "Sign in"}, {"url", "https://example.com/x"}, {"elicitationId", "e1"}});
  CHECK(url.url_mode);
  CHECK(url.url == "https://example.com/x");
  CHECK(url.elicitation_id == "e1");
  CHECK(url.url_review.allowed);
  CHECK(url.url_review.host == "example.com");
  CHECK_FALSE(read_elicitation_request(json{{"mode", "url"}, {"url", "http://169.254.169.254/"}}).url_review.allowed);
  // A mode that is not a string is read as a form request, without throwing.
  for (const auto& mode : {json(5), json::array(), json(nullptr)}) {
    const auto odd =
        read_elicitation_request(json{{"mode", mode}, {"message", "?"}, {"requestedSchema", {{"type", "object"}}}});
    CHECK_FALSE(odd.url_mode);
  }

  const auto nested = read_elicitation_request(
      json{{"message", "?"}, {"requestedSchema", {{"type", "object"}, {"properties", {{"a", {{"type", "object"}}}}}}}});
  CHECK_FALSE(nested.form);
  REQUIRE_FALSE(nested.schema_problems.empty());
  CHECK(nested.schema_problems[0].pointer.rfind("/requestedSchema/properties/a", 0) == 0);

  CHECK(Answer::accept(json{{"a", 1}}).to_json(true) == json{{"action", "accept"}, {"content", {{"a", 1}}}});
  CHECK(Answer::accept().to_json(false) == json{{"action", "accept"}});
  CHECK(Answer::decline().to_json(true) == json{{"action", "decline"}});
  CHECK(Answer::cancel().to_json(true) == json{{"action", "cancel"}});
}

TEST_CASE("ChildProcess: a program that does not exist is a system_error, a child is ended", "[client]") {
  CHECK_THROWS_AS(ChildProcess::spawn({"/nonexistent/elicitgen-no-such-program"}), std::system_error);
  CHECK_THROWS_AS(ChildProcess::spawn({}), std::invalid_argument);
  ChildProcessOptions o;
  o.exit_grace = std::chrono::milliseconds(100);
  auto sleeper = ChildProcess::spawn({"sleep", "60"}, o);  // ignores its stdin: ends by SIGTERM
  const auto pid = sleeper->pid();
  sleeper.reset();
  CHECK(::kill(pid, 0) == -1);  // reaped: no such process
}

TEST_CASE("client: URL mode only when declared, the handler sees the reviewed URL", "[client][url]") {
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    ClientOptions o;
    o.protocol_version = version;
    o.url_elicitation = true;
    o.session.log = [](std::string_view) {};
    ChildProcessOptions quiet;
    quiet.stderr_fd = -1;
    auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, quiet);
    std::string seen_host;
    client->on_elicitation([&](const ElicitationRequest& r) {
      REQUIRE(r.url_mode);
      CHECK(r.url == "https://mcp.example.com/connect");
      CHECK(r.url_review.allowed);
      seen_host = r.url_review.host;
      return Answer::accept();  // the user consented to open it
    });
    client->connect();
    CHECK(client->server_capabilities().is_object());
    CHECK(text_of(client->call_tool("connect_account")).rfind("url accepted", 0) == 0);
    CHECK(seen_host == "mcp.example.com");
  }
  // Not declared: the server does not ask (2025-11-25: the tool says so; 2026-07-28: -32021).
  auto session_era = sample_client("2025-11-25");
  session_era->on_elicitation([](const ElicitationRequest&) { return Answer::accept(); });
  session_era->connect();
  CHECK(text_of(session_era->call_tool("connect_account")) == "url unsupported");
}

// The userInteraction dialect (user_interaction.hpp) against the sample stdio server, which turns
// it on: the client declares userInteraction only, and the server's tools ask through
// interaction/create with the same handlers answering.
TEST_CASE("client: the userInteraction dialect answers prompt and ua with the same handlers",
          "[client][user_interaction]") {
  ClientOptions o;
  o.protocol_version = "2025-11-25";
  o.user_interaction = true;
  o.url_elicitation = true;
  o.session.log = [](std::string_view) {};
  ChildProcessOptions quiet;
  quiet.stderr_fd = -1;
  auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, quiet);
  std::atomic<int> creates{0};
  client->on_form<samples::GithubUsername>([&](const ElicitationRequest& r) {
    ++creates;
    CHECK_FALSE(r.url_mode);
    CHECK(r.message == "Please provide your GitHub username");
    REQUIRE(r.form);
    samples::GithubUsername answer;
    answer.name = "octocat";
    return FormAnswer<samples::GithubUsername>::accept(answer);
  });
  std::string seen_url;
  client->on_elicitation([&](const ElicitationRequest& r) {
    if (r.url_mode) {
      seen_url = r.url;
      CHECK(r.url_review.allowed);
      CHECK(r.elicitation_id.size() == 32);
      return Answer::accept();
    }
    REQUIRE(r.form);
    return r.message == "Please provide your contact information" ? Answer::decline() : Answer::cancel();
  });
  const auto init = client->connect();
  CHECK(init["capabilities"].contains("progress"));  // the server speaks the dialect to this client
  CHECK(text_of(client->call_tool("github_username")) == R"(accept: {"name":"octocat"})");
  CHECK(creates == 1);
  CHECK(text_of(client->call_tool("contact_information")) == "decline");  // error -1 read as decline
  CHECK(text_of(client->call_tool("stripe_customer")) == "cancel");       // error -2 read as cancel
  CHECK(text_of(client->call_tool("connect_account")).rfind("url accepted: ", 0) == 0);
  CHECK(seen_url == "https://mcp.example.com/connect");
  // -32003 interaction_required with one ua interaction.
  try {
    client->call_tool("read_private_files");
    FAIL("read_private_files answered");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32003);
    const auto parsed = parse_interaction_required(RpcError{e.code(), e.what(), e.data()});
    REQUIRE(parsed);
    CHECK(parsed->type == "ua");
    CHECK(parsed->url == "https://mcp.example.com/authorize");
  }
}

TEST_CASE("client: userInteraction declares prompt (and ua only with URL handling), not in 2026-07-28",
          "[client][user_interaction]") {
  ClientOptions o;
  o.protocol_version = "2025-11-25";
  o.user_interaction = true;  // url_elicitation off: "ua" not listed, the server does not send it
  o.session.log = [](std::string_view) {};
  ChildProcessOptions quiet;
  quiet.stderr_fd = -1;
  auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, quiet);
  client->on_elicitation([](const ElicitationRequest&) { return Answer::accept(); });
  client->connect();
  CHECK(text_of(client->call_tool("connect_account")) == "url unsupported");

  o.protocol_version = "2026-07-28";
  auto stateless = Client::spawn({SAMPLE_STDIO_SERVER}, o, quiet);
  stateless->on_elicitation([](const ElicitationRequest&) { return Answer::accept(); });
  CHECK_THROWS_AS(stateless->connect(), ClientError);
}

TEST_CASE(
    "client: one handler, three wire shapes: a 2025-11-25 form, and a task whose form is answered by tasks/update",
    "[client][tasks]") {
  // confirm_delete (samples/task_fixtures.cpp) always runs as a task for a 2026-07-28 client that
  // declares the extension; a 2025-11-25 session gets the same handler directly.
  for (const char* version : {"2025-11-25", "2026-07-28"}) {
    INFO(version);
    ClientOptions o;
    o.protocol_version = version;
    o.session.log = [](std::string_view) {};
    std::vector<std::string> statuses;
    o.on_task_status = [&](const json& task) { statuses.push_back(task.value("status", "")); };
    ChildProcessOptions child;
    child.stderr_fd = -1;
    auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, child);
    std::atomic<int> asked{0};
    client->on_form<samples::DeleteConfirmation>([&](const ElicitationRequest& r) {
      ++asked;
      CHECK(r.message == "Delete notes.txt?");
      samples::DeleteConfirmation answer;
      answer.confirm = true;
      return FormAnswer<samples::DeleteConfirmation>::accept(answer);
    });
    client->connect();
    CHECK(text_of(client->call_tool("confirm_delete", {{"filename", "notes.txt"}})) == "deleted notes.txt");
    CHECK(asked == 1);
    if (std::string(version) == "2026-07-28") {
      REQUIRE(statuses.size() >= 3);
      CHECK(statuses.front() == "working");
      CHECK(std::find(statuses.begin(), statuses.end(), "input_required") != statuses.end());
      CHECK(statuses.back() == "completed");
      // A failed task is the JSON-RPC error it failed with; a tool error is a result.
      try {
        client->call_tool("protocol_error_job");
        FAIL("no error");
      } catch (const ClientError& e) {
        CHECK(e.code() == -32603);
        CHECK(std::string(e.what()).find("the job hit a protocol error") != std::string::npos);
      }
      CHECK(client->call_tool("failing_job")["isError"] == true);
    } else {
      CHECK(statuses.empty());
    }
  }
}

TEST_CASE("client: cancelling the caller's scope cancels the task it follows (tasks/cancel)", "[client][tasks]") {
  ClientOptions o;
  o.protocol_version = "2026-07-28";
  o.session.log = [](std::string_view) {};
  auto scope = std::make_shared<CancelScope>();
  std::vector<std::string> statuses;
  std::string task_id;
  // The caller gives up as soon as the task works (any thread may cancel; here the status callback).
  o.on_task_status = [&](const json& task) {
    statuses.push_back(task.value("status", ""));
    task_id = task.value("taskId", "");
    if (statuses.back() == "working") scope->cancel();
  };
  ChildProcessOptions child;
  child.stderr_fd = -1;
  auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, child);
  client->connect();
  try {
    client->call_tool("slow_compute", {{"seconds", 600}, {"label", "long"}}, scope);
    FAIL("no error");
  } catch (const ClientError& e) {
    CHECK(e.code() == 0);
    CHECK(std::string(e.what()).find("cancelled by the caller") != std::string::npos);
  }
  CHECK(statuses == std::vector<std::string>{"working", "cancelled"});
  // The server cancelled it too.
  const json meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                  {"io.modelcontextprotocol/clientInfo", {{"name", "test"}, {"version", "1"}}},
                  {"io.modelcontextprotocol/clientCapabilities",
                   {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}};
  const auto got = client->rpc().call("tasks/get", {{"taskId", task_id}, {"_meta", meta}});
  REQUIRE(got.result);
  CHECK((*got.result)["status"] == "cancelled");
  // A scope cancelled before the call: nothing is sent.
  CHECK_THROWS_AS(client->call_tool("slow_compute", {{"seconds", 0}}, scope), ClientError);
  CHECK_THROWS_AS(client->call_tool("slow_compute", {{"seconds", 0}}, nullptr), std::invalid_argument);
}

TEST_CASE("client: without the tasks extension a tool that requires a task is refused with -32021", "[client][tasks]") {
  ClientOptions o;
  o.protocol_version = "2026-07-28";
  o.tasks = false;
  o.session.log = [](std::string_view) {};
  ChildProcessOptions child;
  child.stderr_fd = -1;
  auto client = Client::spawn({SAMPLE_STDIO_SERVER}, o, child);
  client->connect();
  try {
    client->call_tool("failing_job");
    FAIL("no error");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32021);
  }
  // An optional one runs directly.
  CHECK(text_of(client->call_tool("slow_compute", {{"seconds", 0}, {"label", "now"}})).find("computed now") == 0);
}

}  // namespace client_test
