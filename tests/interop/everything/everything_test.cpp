// elicit::Client against the official MCP reference server, @modelcontextprotocol/server-everything
// (npm, the version pinned in tests/interop/everything/package-lock.json), over stdio and over Streamable
// HTTP: its form elicitation (trigger-elicitation-request) answered with the form's defaults plus
// what a user typed, and its URL elicitation (trigger-url-elicitation) on both of its paths, the
// elicitation/create request and the -32042 error. The server echoes what it received, so each
// check reads the answer back from the tool's result. Loopback only; every wait is bounded by a
// byte count or ends at EOF, none by a clock.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <string>

#include <elicit/client.hpp>
#include <elicit/content/form_defaults.hpp>
#include <elicit/http/client_transport.hpp>

#include "../../support/free_port.hpp"

using namespace elicit;
using nlohmann::json;

namespace {

// `version` "": the default, 2026-07-28 falling back to 2025-11-25 (the server's era detected).
ClientOptions options(const std::string& version, bool url_mode) {
  ClientOptions o;
  if (!version.empty()) {
    o.protocol_version = version;
    o.fallback_protocol_version = std::nullopt;
  }
  o.url_elicitation = url_mode;
  o.session.log = [](std::string_view) {};
  return o;
}

// All the text items of a CallToolResult, joined by newlines.
std::string text_of(const json& result) {
  INFO(result.dump());
  REQUIRE(result.contains("content"));
  std::string all;
  for (const auto& c : result["content"]) {
    if (c.value("type", std::string()) == "text") all += c.value("text", std::string()) + "\n";
  }
  return all;
}

// The JSON after "Raw result: " in the tool's last text item: the ElicitResult the server parsed.
json raw_result(const json& result) {
  const auto text = result["content"].back().value("text", std::string());
  const auto at = text.find("Raw result: ");
  REQUIRE(at != std::string::npos);
  return json::parse(text.substr(at + 12));
}

// A form answered as a user would: the defaults as shown, with the two fields without a default
// filled in (name is required).
void answer_forms_and_urls(Client& client, std::string& seen_url, std::string& seen_id) {
  client.on_elicitation([&seen_url, &seen_id](const ElicitationRequest& r) {
    if (r.url_mode) {
      seen_url = r.url;
      seen_id = r.elicitation_id;
      return r.url_review.allowed ? Answer::accept() : Answer::decline();
    }
    INFO(r.requested_schema.dump());
    REQUIRE(r.form);  // the server's form is within the spec's subset (all five enum shapes)
    auto content = form_defaults(*r.form);
    content["name"] = "Ada Lovelace";
    content["check"] = true;
    return Answer::accept(content);
  });
}

// What every era and transport must show: the tools, the form echoed, both URL paths.
void exercise(Client& client, const std::string& seen_url, const std::string& seen_id) {
  bool form_tool = false, url_tool = false;
  for (const auto& t : client.list_tools()) {
    form_tool = form_tool || t["name"] == "trigger-elicitation-request";
    url_tool = url_tool || t["name"] == "trigger-url-elicitation";
  }
  // Both are registered only for a client that declared the capability (and URL mode).
  CHECK(form_tool);
  CHECK(url_tool);

  const auto form = client.call_tool("trigger-elicitation-request");
  const auto text = text_of(form);
  CHECK(text.find("User provided the requested information!") != std::string::npos);
  CHECK(text.find("- Name: Ada Lovelace\n- Agreed to terms: true\n- Favorite Integer: 42\n- Favorite Number: 3.14") !=
        std::string::npos);
  const auto raw = raw_result(form);
  CHECK(raw["action"] == "accept");
  // The defaults of every kind arrived as sent: string, enum, multi-select, titled and 2025-11-25.
  CHECK(raw["content"]["firstLine"] == "It was a dark and stormy night.");
  CHECK(raw["content"]["untitledSingleSelectEnum"] == "Monica");
  CHECK(raw["content"]["untitledMultipleSelectEnum"] == json::array({"Guitar"}));
  CHECK(raw["content"]["titledSingleSelectEnum"] == "hero-1");
  CHECK(raw["content"]["titledMultipleSelectEnum"] == json::array({"fish-1"}));
  CHECK(raw["content"]["legacyTitledEnum"] == "pet-1");
  CHECK_FALSE(raw["content"].contains("email"));  // no default, not typed: left out

  const std::string url = "https://example.com/verify?step=2";
  const auto accepted = client.call_tool("trigger-url-elicitation", {{"url", url}, {"elicitationId", "id-42"}});
  CHECK(seen_url == url);
  CHECK(seen_id == "id-42");
  CHECK(text_of(accepted).find("User completed the URL elicitation flow.\nElicitation ID: id-42\nURL: " + url) !=
        std::string::npos);
  CHECK(raw_result(accepted) == json{{"action", "accept"}});  // URL mode: no content

  // The error path: -32042 with the URL to open first, then the same call goes through.
  const json args{{"url", url}, {"elicitationId", "id-43"}, {"errorPath", true}};
  try {
    client.call_tool("trigger-url-elicitation", args);
    FAIL("expected -32042");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32042);
    INFO(e.data().dump());
    REQUIRE(e.data().contains("elicitations"));
    CHECK(e.data()["elicitations"][0]["mode"] == "url");
    CHECK(e.data()["elicitations"][0]["url"] == "https://modelcontextprotocol.io");
  }
  CHECK(text_of(client.call_tool("trigger-url-elicitation", args)).find("Elicitation ID: id-43") != std::string::npos);
}

}  // namespace

TEST_CASE("server-everything over stdio: form and URL elicitation answered (2025-11-25, given or detected)",
          "[client][everything]") {
  const std::string version = GENERATE(as<std::string>(), "2025-11-25", "");
  INFO("protocol_version: " << (version.empty() ? "detected" : version));
  ChildProcessOptions child;
  child.stderr_fd = -1;
  auto client = Client::spawn({NODE_BIN, EVERYTHING_JS, "stdio"}, options(version, true), child);
  std::string seen_url, seen_id;
  answer_forms_and_urls(*client, seen_url, seen_id);
  const auto init = client->connect();
  CHECK(init["protocolVersion"] == "2025-11-25");
  CHECK(client->protocol_version() == "2025-11-25");
  CHECK(client->server_info()["name"] == "mcp-servers/everything");
  exercise(*client, seen_url, seen_id);
}

TEST_CASE("server-everything over Streamable HTTP: form and URL elicitation answered (2025-11-25, given or detected)",
          "[client][everything][http]") {
  const std::string version = GENERATE(as<std::string>(), "2025-11-25", "");
  INFO("protocol_version: " << (version.empty() ? "detected" : version));
  // The server is given a port: it cannot report one it chose.
  const int port = test_support::free_loopback_port();
  REQUIRE(port != 0);
  int err[2];
  REQUIRE(::pipe(err) == 0);
  ChildProcessOptions child;
  child.stderr_fd = err[1];
  child.exit_grace = std::chrono::milliseconds(200);  // it does not read stdin: SIGTERM ends it
  auto server =
      ChildProcess::spawn({"env", "PORT=" + std::to_string(port), NODE_BIN, EVERYTHING_JS, "streamableHttp"}, child);
  ::close(err[1]);
  // Ready once it says it listens (stderr); bounded by a byte count, and EOF if it dies.
  std::string said;
  char c;
  const auto ready = [&said] {
    const auto at = said.find("listening on port");
    return at != std::string::npos && said.find('\n', at) != std::string::npos;
  };
  for (int i = 0; i < 8192 && !ready() && ::read(err[0], &c, 1) == 1; ++i) said += c;
  INFO(said);
  REQUIRE(said.find("listening on port " + std::to_string(port)) != std::string::npos);

  http::HttpClientOptions t;
  t.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  t.protocol_version = version.empty() ? "2026-07-28" : version;
  Client client(std::make_unique<http::HttpClientTransport>(t), options(version, true));
  std::string seen_url, seen_id;
  answer_forms_and_urls(client, seen_url, seen_id);
  CHECK(client.connect()["protocolVersion"] == "2025-11-25");
  exercise(client, seen_url, seen_id);
  client.close();
  ::close(err[0]);
}

TEST_CASE("server-everything and 2026-07-28 forced: the server does not speak it", "[client][everything]") {
  ChildProcessOptions child;
  child.stderr_fd = -1;
  auto client = Client::spawn({NODE_BIN, EVERYTHING_JS, "stdio"}, options("2026-07-28", true), child);
  std::string seen_url, seen_id;
  answer_forms_and_urls(*client, seen_url, seen_id);
  // An SDK 1.x server has no server/discover (a 2025-11-25 server answers any request before
  // initialize with an error): with no fallback, the client reports it.
  try {
    client->connect();
    FAIL("server/discover succeeded");
  } catch (const ClientError& e) {
    INFO(e.what());
    CHECK(e.code() != 0);  // a JSON-RPC error from the server, not a hang or a broken stream
  }
}
