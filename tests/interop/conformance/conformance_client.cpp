// The client side of the official MCP conformance suite (@modelcontextprotocol/conformance): the
// suite starts a test server for one scenario and runs `conformance_client <server-url>` with
// MCP_CONFORMANCE_SCENARIO naming the scenario and MCP_CONFORMANCE_PROTOCOL_VERSION the version
// (0.1.16 sets only the scenario: 2025-11-25 then), and MCP_CONFORMANCE_CONTEXT, for some, what the
// user asks for (JSON: `toolCalls`, the tools to call and their arguments). The program is a host built on
// elicit::Client over elicit::http::HttpClientTransport: it does what an application using the library does for that
// scenario (connect, list, call tools, answer elicitations) and prints what it saw; the suite judges the wire. Nothing
// here knows what a check expects.
//
// Elicitations are answered as a user who presses "accept" without editing the form: the form's
// defaults (SEP-1034, elicit::form_defaults). URL-mode is not declared (nothing here can open a
// browser), and a form outside the spec's subset is declined (it cannot be shown).
//
// Authorization (the auth/* scenarios): the transport's OAuth client (elicit::auth::OAuthClient) with
// a provider that keeps everything in memory, takes pre-registered or client-credentials identities
// from MCP_CONFORMANCE_CONTEXT, and plays the user agent itself: it GETs the authorization URL and
// hands back the redirect's Location without following it (the suite's authorization server
// approves at once), as the suite's own reference client does.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <string>
#include <vector>

#include <elicit/auth/oauth_client.hpp>
#include <elicit/client.hpp>
#include <elicit/content/form_defaults.hpp>
#include <elicit/http/client_transport.hpp>

#include "../../../runtime/src/http/fetch.hpp"

namespace {

using nlohmann::json;

std::string env(const char* name, const std::string& fallback = {}) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

void say(const std::string& line) { std::printf("%s\n", line.c_str()); }

// MCP_CONFORMANCE_CONTEXT, parsed; {} when absent or not a JSON object.
json context() {
  auto c = json::parse(env("MCP_CONFORMANCE_CONTEXT", "{}"), nullptr, false);
  return c.is_object() ? c : json::object();
}

// Every tool the server lists, by name.
std::vector<std::string> tool_names(const json& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools) {
    if (t.is_object() && t.contains("name") && t["name"].is_string()) names.push_back(t["name"].get<std::string>());
  }
  return names;
}

json call(elicit::Client& client, const std::string& name, json arguments = json::object()) {
  auto result = client.call_tool(name, std::move(arguments));
  say("tools/call " + name + ": " + result.dump());
  return result;
}

// What an application supplies to the OAuth client, for the suite: memory for tokens and
// registrations, the context's credentials, and the "browser" step done with one GET.
class ConformanceAuthorization : public elicit::auth::OAuthClientProvider {
 public:
  ConformanceAuthorization(std::string scenario, json context)
      : scenario_(std::move(scenario)), context_(std::move(context)) {}

  std::string grant_type() override {
    return scenario_.rfind("auth/client-credentials", 0) == 0 ? "client_credentials" : "authorization_code";
  }
  std::string redirect_uri() override { return "http://localhost:3000/callback"; }
  nlohmann::json client_metadata() override { return {{"client_name", "elicitgen-conformance-client"}}; }
  // The suite's fixed Client ID Metadata Document URL (it serves none; its authorization server
  // accepts the URL as client_id where it supports the documents).
  std::string client_metadata_url() override { return "https://conformance-test.local/client-metadata.json"; }

  std::optional<elicit::auth::OAuthClientInformation> client_information(const std::string& issuer) override {
    // Pre-registered credentials belong to the issuer the context names (any, when it names none).
    const auto id = context_.value("client_id", std::string());
    const auto for_issuer = context_.value("issuer", std::string());
    if (!id.empty() && (for_issuer.empty() || for_issuer == issuer)) {
      auto info = elicit::auth::OAuthClientInformation::from_json(context_);
      return info;
    }
    const auto it = registered_.find(issuer);
    if (it == registered_.end()) return std::nullopt;
    return it->second;
  }
  void save_client_information(const std::string& issuer, const elicit::auth::OAuthClientInformation& info) override {
    registered_[issuer] = info;
  }
  std::optional<elicit::auth::OAuthTokens> tokens(const std::string& resource, const std::string& issuer) override {
    const auto it = tokens_.find(resource + "\n" + issuer);
    if (it == tokens_.end()) return std::nullopt;
    return it->second;
  }
  void save_tokens(const std::string& resource, const std::string& issuer,
                   const elicit::auth::OAuthTokens& tokens) override {
    tokens_[resource + "\n" + issuer] = tokens;
  }
  void discard_tokens(const std::string& resource, const std::string& issuer) override {
    tokens_.erase(resource + "\n" + issuer);
  }
  std::string authorize(const std::string& url) override {
    say("authorization: " + url);
    elicit::http::FetchRequest request;
    request.url = url;
    const auto r = elicit::http::fetch(request);
    const auto location = r.header("Location");
    if (r.status / 100 != 3 || location.empty())
      throw std::runtime_error("the authorization endpoint answered " + std::to_string(r.status) +
                               " without a redirect");
    return location;
  }

 private:
  std::string scenario_;
  json context_;
  std::map<std::string, elicit::auth::OAuthClientInformation> registered_;
  std::map<std::string, elicit::auth::OAuthTokens> tokens_;
};

// The scenarios: what the host does once connected. Each gets the connected client and the
// tools/list it read first (every scenario's server lists its tools).
using Scenario = std::function<void(elicit::Client&, const json& tools)>;

const std::map<std::string, Scenario>& scenarios() {
  static const std::map<std::string, Scenario> all = {
      // The handshake alone (connect did it; the tools were listed).
      {"initialize", [](elicit::Client&, const json&) {}},
      // The server's add_numbers tool, with two numbers the user typed.
      {"tools_call",
       [](elicit::Client& c, const json&) {
         call(c, "add_numbers", {{"a", 5}, {"b", 3}});
       }},
      // A tool that asks a form with defaults for every field: accepted as shown.
      {"elicitation-sep1034-client-defaults",
       [](elicit::Client& c, const json&) { call(c, "test_client_elicitation_defaults"); }},
      // Per-request _meta and the version header; the first request is refused with -32022
      // (connect retried it), then an ordinary listing and call.
      {"request-metadata", [](elicit::Client&, const json&) {}},
      // MRTR (SEP-2322): every listed tool called, all at once, as a host with several calls in
      // flight would: each call keeps its own rounds (inputResponses, requestState).
      {"sep-2322-client-request-state",
       [](elicit::Client& c, const json& tools) {
         std::vector<std::future<json>> calls;
         for (const auto& name : tool_names(tools))
           calls.push_back(std::async(std::launch::async, [&c, name] { return call(c, name); }));
         for (auto& f : calls) f.get();  // each ends: a result or a ClientError (the tool's request timed out never)
       }},
      // Every kind of named request once (Mcp-Method, Mcp-Name): each tool called, each resource
      // read, each prompt got.
      {"http-standard-headers",
       [](elicit::Client& c, const json& tools) {
         for (const auto& name : tool_names(tools)) call(c, name);
         for (const auto& r : c.list_resources()) {
           const auto uri = r.value("uri", std::string());
           say("resources/read " + uri + ": " + c.read_resource(uri).dump());
         }
         for (const auto& p : c.list_prompts()) {
           const auto name = p.value("name", std::string());
           say("prompts/get " + name + ": " + c.get_prompt(name).dump());
         }
       }},
      // The calls the user asked for (the context's toolCalls), each with its arguments: the client
      // mirrors the x-mcp-header ones into Mcp-Param-* headers (SEP-2243).
      {"http-custom-headers",
       [](elicit::Client& c, const json&) {
         const auto calls = context().value("toolCalls", json::array());
         for (const auto& t : calls) {
           if (t.is_object() && t.value("name", json()).is_string())
             call(c, t["name"].get<std::string>(), t.value("arguments", json::object()));
         }
       }},
      // Every tool the client kept called once, with a region (what this server's tools take): those
      // with an invalid x-mcp-header annotation are not in the list, so never called.
      {"http-invalid-tool-headers",
       [](elicit::Client& c, const json& tools) {
         for (const auto& name : tool_names(tools)) call(c, name, {{"region", "us-west1"}});
       }},
      // Each tool called: the server ends the call's SSE stream early, and the transport resumes it
      // (GET with Last-Event-ID after the stream's retry) to get the result.
      {"sse-retry",
       [](elicit::Client& c, const json& tools) {
         for (const auto& name : tool_names(tools)) call(c, name);
       }},
      // A tool whose inputSchema has a network $ref: listed, and nothing fetched (the client never
      // fetches anything a server names).
      {"json-schema-ref-no-deref", [](elicit::Client&, const json&) {}},
      // The scenario's own protocol: the focal tool's inputSchema, as this client read it, is sent
      // back through json_schema_echo so the suite can see which keywords survived.
      {"json-schema-2020-12-preservation",
       [](elicit::Client& c, const json& tools) {
         for (const auto& t : tools) {
           if (t.value("name", std::string()) == "json_schema_2020_12_tool")
             call(c, "json_schema_echo", {{"schema", t.at("inputSchema")}});
         }
       }},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <server-url>  (MCP_CONFORMANCE_SCENARIO names the scenario)\n", argv[0]);
    return 2;
  }
  const std::string scenario = env("MCP_CONFORMANCE_SCENARIO");
  // Every auth/* scenario: connected (authorized), listed, and each tool called once (two
  // authorized requests at least; a tools/call for the scenarios that step up on it).
  const Scenario authorized = [](elicit::Client& c, const json& tools) {
    for (const auto& name : tool_names(tools)) call(c, name);
  };
  const bool auth = scenario.rfind("auth/", 0) == 0;
  const auto it = auth ? scenarios().end() : scenarios().find(scenario);
  if (!auth && it == scenarios().end()) {
    std::fprintf(stderr, "conformance_client: scenario \"%s\" is not one this host plays\n", scenario.c_str());
    return 2;
  }
  const std::string version = env("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
  try {
    elicit::http::HttpClientOptions t;
    t.url = argv[1];
    t.protocol_version = version;
    if (auth) {
      const auto context = json::parse(env("MCP_CONFORMANCE_CONTEXT", "{}"), nullptr, false);
      t.authorization = std::make_shared<elicit::auth::OAuthClient>(
          t.url, std::make_shared<ConformanceAuthorization>(scenario, context.is_object() ? context : json::object()));
    }
    elicit::ClientOptions o;
    o.protocol_version = version;
    o.fallback_protocol_version = std::nullopt;  // the suite names the revision its server speaks
    o.client_info = {{"name", "elicitgen-conformance-client"}, {"version", "1.0.0"}};
    o.request_timeout = std::chrono::milliseconds(20000);  // under the suite's 30 s: a hang is reported, not killed
    o.session.log = [](std::string_view line) {
      std::fprintf(stderr, "client: %.*s\n", int(line.size()), line.data());
    };
    elicit::Client client(std::make_unique<elicit::http::HttpClientTransport>(t), o);
    client.on_elicitation([](const elicit::ElicitationRequest& r) {
      if (r.url_mode || !r.form) {
        say("elicitation declined: " +
            (r.url_mode ? std::string("URL mode") : std::string("a form outside the subset")));
        return elicit::Answer::decline();
      }
      auto content = elicit::form_defaults(*r.form);
      say("elicitation \"" + r.message + "\": accept " + content.dump());
      return elicit::Answer::accept(std::move(content));
    });
    const auto server = client.connect();
    say("connected (" + version + "): " + client.server_info().dump());
    const auto tools = client.list_tools();
    say("tools/list: " + std::to_string(tools.size()) + " tools");
    (auth ? authorized : it->second)(client, tools);
    client.close();
  } catch (const elicit::ClientError& e) {
    std::fprintf(stderr, "conformance_client: %s (JSON-RPC %d)\n", e.what(), e.code());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "conformance_client: %s\n", e.what());
    return 1;
  }
  return 0;
}
