// Typed form mode and URL mode over a session, against a hand-driven client: every outcome.
#include <catch2/catch.hpp>

#include <future>
#include <set>

#include <elicit/elicitation.hpp>

#include "../support/fake_client.hpp"
#include "confirm_deletion.hpp"
#include "contact_information.hpp"

namespace elicit_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;
using samples::ContactInformation;

namespace {

struct Fixture {
  explicit Fixture(const json& capabilities) : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    session = std::make_unique<jsonrpc::Connection>(*ends.first, jsonrpc::ConnectionOptions{[](std::string_view) {}});
    mcp = std::make_unique<SessionState>(*session);
    session->start();
    mcp->set_client_capabilities(ClientCapabilities::from_json(capabilities));
  }
  ~Fixture() {
    mcp.reset();
    session.reset();
  }

  // Starts a typed elicitation, returns the request the client saw and the future outcome.
  template <class T>
  std::pair<json, std::future<Outcome<T>>> start(const ElicitOptions& options = {}) {
    auto promise = std::make_shared<std::promise<Outcome<T>>>();
    auto future = promise->get_future();
    elicit_async<T>(
        *mcp, elicit::default_message<T>(), [promise](Outcome<T> o) { promise->set_value(std::move(o)); }, options);
    auto request = client.next();
    return {request.value_or(json()), std::move(future)};
  }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<jsonrpc::Connection> session;
  std::unique_ptr<SessionState> mcp;  // the MCP state (capabilities, URL-mode ids) over `session`
};

const json kForm = {{"elicitation", json::object()}};
const json kFormAndUrl = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}}};

}  // namespace

TEST_CASE("the schema goes on the wire byte for byte, property order included", "[elicit]") {
  Fixture f(kForm);
  elicit_async<ContactInformation>(*f.mcp, "m", [](Outcome<ContactInformation>) {});
  const auto text = f.client.next_text();
  REQUIRE(text);
  CHECK(text->find(elicit::requested_schema<ContactInformation>().dump()) != std::string::npos);
  const auto request = nlohmann::ordered_json::parse(*text);
  CHECK(request["params"]["requestedSchema"] == elicit::requested_schema<ContactInformation>());
  std::vector<std::string> order;
  for (const auto& [name, property] : request["params"]["requestedSchema"]["properties"].items()) order.push_back(name);
  CHECK(order == std::vector<std::string>{"name", "email", "age"});
  f.client.respond(request["id"], {{"action", "cancel"}});
}

TEST_CASE("elicitation/create is the text of its params dumped as one ordered document", "[elicit]") {
  // The params are written as text (the schema serialised once per type): the bytes must be those
  // of the document the runtime used to build and dump, _meta last, whatever the message holds.
  Fixture f(kFormAndUrl);
  for (const std::string message :
       {"plain", "quotes \" and \\ and \n", "caf\u00e9 \xF0\x9F\x98\x80", "bad \xFF utf-8"}) {
    for (const json& meta : {json(), json::object(), json{{"progressToken", "p\"1"}, {"a", {1, 2.5, nullptr}}}}) {
      INFO(message << " " << meta.dump());
      ElicitOptions o;
      o.meta = meta;
      elicit_async<ContactInformation>(
          *f.mcp, message, [](Outcome<ContactInformation>) {}, o);
      elicit_form_async(
          *f.mcp, message, elicit::requested_schema<ContactInformation>(), [](RawOutcome) {}, o);
      elicit_url_async(
          *f.mcp, message, "https://example.com/x?a=1", [](UrlOutcome) {}, o);
      for (int kind = 0; kind < 3; ++kind) {
        const auto text = f.client.next_text();
        REQUIRE(text);
        const auto sent = nlohmann::ordered_json::parse(*text);
        nlohmann::ordered_json params;
        if (kind < 2) {
          params = {{"mode", "form"},
                    {"message", message},
                    {"requestedSchema", elicit::requested_schema<ContactInformation>()}};
        } else {
          params = {{"mode", "url"},
                    {"message", message},
                    {"elicitationId", sent["params"]["elicitationId"]},
                    {"url", "https://example.com/x?a=1"}};
        }
        if (meta.is_object() && !meta.empty()) params["_meta"] = meta;
        const nlohmann::ordered_json whole{
            {"jsonrpc", "2.0"}, {"id", sent["id"]}, {"method", "elicitation/create"}, {"params", params}};
        CHECK(*text == whole.dump(-1, ' ', false, json::error_handler_t::replace));
        f.client.respond(sent["id"], {{"action", "cancel"}});
      }
    }
  }
}

TEST_CASE("the request is a form-mode elicitation/create with the exact schema", "[elicit]") {
  Fixture f(kForm);
  ElicitOptions o;
  o.meta = {{"progressToken", "p1"}};
  auto [request, outcome] = f.start<ContactInformation>(o);
  CHECK(request["method"] == "elicitation/create");
  CHECK(request["params"]["mode"] == "form");
  CHECK(request["params"]["message"] == "Please provide your contact information");
  CHECK(request["params"]["requestedSchema"].dump() == json(elicit::requested_schema<ContactInformation>()).dump());
  CHECK(request["params"]["_meta"]["progressToken"] == "p1");
  f.client.respond(request["id"], {{"action", "decline"}});
  CHECK(outcome.get().status == ElicitStatus::declined);
}

TEST_CASE("accept with valid content gives the typed value", "[elicit]") {
  Fixture f(kForm);
  auto [request, outcome] = f.start<ContactInformation>();
  f.client.respond(request["id"],
                   {{"action", "accept"},
                    {"content", {{"name", "Monalisa Octocat"}, {"email", "octocat@github.com"}, {"age", 30}}},
                    {"_meta", {{"anything", "ignored"}}}});
  auto o = outcome.get();
  REQUIRE(o.accepted());
  CHECK(o.value->name == "Monalisa Octocat");
  CHECK(o.value->age == 30.0);
  CHECK(o.result["_meta"]["anything"] == "ignored");
}

TEST_CASE("decline and cancel are distinct, with or without content: null", "[elicit]") {
  for (const auto& [result, status] : std::vector<std::pair<json, ElicitStatus>>{
           {{{"action", "decline"}}, ElicitStatus::declined},
           {{{"action", "decline"}, {"content", nullptr}}, ElicitStatus::declined},
           {{{"action", "cancel"}}, ElicitStatus::cancelled},
           {{{"action", "cancel"}, {"content", nullptr}}, ElicitStatus::cancelled},
           {{{"action", "cancel"}, {"content", {{"name", 1}}}}, ElicitStatus::cancelled}}) {
    Fixture f(kForm);
    auto [request, outcome] = f.start<ContactInformation>();
    f.client.respond(request["id"], result);
    const auto o = outcome.get();
    CHECK(o.status == status);
    CHECK_FALSE(o.value);
  }
}

TEST_CASE("invalid content is invalid_response with every error", "[elicit][invalid]") {
  Fixture f(kForm);
  auto [request, outcome] = f.start<ContactInformation>();
  f.client.respond(request["id"], {{"action", "accept"}, {"content", {{"email", "nope"}, {"age", 12}}}});
  const auto o = outcome.get();
  CHECK(o.status == ElicitStatus::invalid_response);
  CHECK_FALSE(o.value);
  CHECK(o.errors.to_string() ==
        "/name: is required\n/email: must be an email address (RFC 5321)\n/age: must be >= 18\n");
}

TEST_CASE("accept without content: valid for a confirm-only form, missing fields otherwise", "[elicit]") {
  {
    Fixture f(kForm);
    auto [request, outcome] = f.start<samples::ConfirmDeletion>();
    f.client.respond(request["id"], {{"action", "accept"}});
    CHECK(outcome.get().status == ElicitStatus::accepted);
  }
  {
    Fixture f(kForm);
    auto [request, outcome] = f.start<ContactInformation>();
    f.client.respond(request["id"], {{"action", "accept"}, {"content", nullptr}});
    const auto o = outcome.get();
    CHECK(o.status == ElicitStatus::invalid_response);
    CHECK(o.errors.errors.size() == 2);
  }
}

TEST_CASE("results that are not ElicitResults are invalid_response", "[elicit][invalid]") {
  for (const json& result :
       {json("accept"), json::object(), json{{"action", "maybe"}}, json{{"action", 1}},
        json{{"action", "accept"}, {"content", json::array({1})}}, json{{"action", "accept"}, {"content", "text"}}}) {
    INFO(result.dump());
    Fixture f(kForm);
    auto [request, outcome] = f.start<samples::ConfirmDeletion>();
    f.client.respond(request["id"], result);
    const auto o = outcome.get();
    CHECK(o.status == ElicitStatus::invalid_response);
    CHECK_FALSE(o.problem.empty());
  }
}

TEST_CASE("a JSON-RPC error from the client is rpc_error", "[elicit]") {
  Fixture f(kForm);
  auto [request, outcome] = f.start<ContactInformation>();
  f.client.send({{"jsonrpc", "2.0"},
                 {"id", request["id"]},
                 {"error", {{"code", -32602}, {"message", "Client does not support form-mode elicitation requests"}}}});
  const auto o = outcome.get();
  CHECK(o.status == ElicitStatus::rpc_error);
  CHECK(o.error->code == -32602);
}

TEST_CASE("timeout, abort and a closed transport are their own outcomes", "[elicit]") {
  {
    Fixture f(kForm);
    ElicitOptions o;
    o.timeout = 30ms;
    auto [request, outcome] = f.start<ContactInformation>(o);
    CHECK(outcome.get().status == ElicitStatus::timed_out);
    CHECK((*f.client.next())["method"] == "notifications/cancelled");
    f.client.respond(request["id"], {{"action", "accept"}});  // late: ignored
    CHECK(f.session->pending_requests() == 0);
  }
  {
    Fixture f(kForm);
    std::promise<Outcome<ContactInformation>> p;
    const auto id = elicit_async<ContactInformation>(*f.mcp, "m",
                                                     [&](Outcome<ContactInformation> o) { p.set_value(std::move(o)); });
    REQUIRE(id);
    REQUIRE(f.client.next());
    CHECK(f.session->cancel(*id));
    CHECK(p.get_future().get().status == ElicitStatus::aborted);
  }
  {
    Fixture f(kForm);
    auto [request, outcome] = f.start<ContactInformation>();
    f.client.transport().close();
    CHECK(outcome.get().status == ElicitStatus::transport_closed);
  }
}

TEST_CASE("nothing is sent to a client that did not declare the mode", "[elicit][capabilities]") {
  Fixture f(json::object());  // no elicitation capability
  bool called = false;
  const auto id = elicit_async<ContactInformation>(*f.mcp, "m", [&](Outcome<ContactInformation> o) {
    called = true;
    CHECK(o.status == ElicitStatus::unsupported);
  });
  CHECK(called);  // at once
  CHECK_FALSE(id);
  CHECK(f.session->pending_requests() == 0);
  // Form-only client: URL mode is unsupported, and still nothing is sent.
  f.mcp->set_client_capabilities(ClientCapabilities::from_json(kForm));
  UrlOutcome url_outcome;
  elicit_url_async(*f.mcp, "m", "https://example.com/connect", [&](UrlOutcome o) { url_outcome = o; });
  CHECK(url_outcome.status == ElicitStatus::unsupported);
  f.session->notify("test/marker", json::object());
  CHECK((*f.client.next())["method"] == "test/marker");  // the first and only message
}

TEST_CASE("the generated elicit() helper blocks until the answer", "[elicit][generated]") {
  Fixture f(kForm);
  auto outcome = std::async(std::launch::async, [&] { return elicit::elicit<ContactInformation>(*f.mcp); });
  const auto request = f.client.next();
  CHECK((*request)["params"]["message"] == "Please provide your contact information");
  f.client.respond((*request)["id"], {{"action", "accept"}, {"content", {{"name", "A"}, {"email", "a@b.co"}}}});
  CHECK(outcome.get().value->email == "a@b.co");
}

TEST_CASE("elicitationIds are 128-bit, hex, and unique", "[elicit][url]") {
  std::set<std::string> ids;
  for (int i = 0; i < 2000; ++i) {
    const auto id = new_elicitation_id();
    REQUIRE(id.size() == 32);
    CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    ids.insert(id);
  }
  CHECK(ids.size() == 2000);
}

TEST_CASE("only absolute http(s) URLs without userinfo are sent", "[elicit][url]") {
  CHECK(check_elicitation_url("https://mcp.example.com/connect?elicitationId=1").empty());
  CHECK(check_elicitation_url("http://localhost:8080/x").empty());
  CHECK(check_elicitation_url("HTTPS://EXAMPLE.COM").empty());
  CHECK(check_elicitation_url("/relative") == "not an absolute URI (RFC 3986)");
  CHECK(check_elicitation_url("javascript:alert(1)") == "the scheme must be http or https");
  CHECK(check_elicitation_url("file:///etc/passwd") == "the scheme must be http or https");
  CHECK(check_elicitation_url("https://user:pw@example.com/") == "the URL carries userinfo (credentials)");
  CHECK(check_elicitation_url("https://@example.com/") == "the URL carries userinfo (credentials)");
  CHECK(check_elicitation_url("https:example.com") == "the URL has no host");
  CHECK(check_elicitation_url("https:///path") == "the URL has no host");
  Fixture f(kFormAndUrl);
  CHECK_THROWS_AS(elicit_url_async(*f.mcp, "m", "https://u:p@x.com", [](UrlOutcome) {}), std::invalid_argument);
  CHECK_THROWS_AS(create_url_elicitation(*f.mcp, "m", "ftp://x.com"), std::invalid_argument);
}

TEST_CASE("URL mode: request shape, accept, and one completion notification", "[elicit][url]") {
  Fixture f(kFormAndUrl);
  auto outcome = std::async(std::launch::async, [&] {
    return elicit_url(*f.mcp, "Please provide your API key to continue.", "https://mcp.example.com/ui/set_api_key");
  });
  const auto request = *f.client.next();
  const auto& p = request["params"];
  CHECK(p["mode"] == "url");
  CHECK(p["url"] == "https://mcp.example.com/ui/set_api_key");
  CHECK(p["message"] == "Please provide your API key to continue.");
  const auto id = p["elicitationId"].get<std::string>();
  CHECK(id.size() == 32);
  f.client.respond(request["id"], {{"action", "accept"}});
  const auto o = outcome.get();
  CHECK(o.status == ElicitStatus::accepted);
  CHECK(o.elicitation_id == id);
  CHECK(complete_url_elicitation(*f.mcp, id));
  const auto n = *f.client.next();
  CHECK(n["method"] == "notifications/elicitation/complete");
  CHECK(n["params"]["elicitationId"] == id);
  CHECK_FALSE(complete_url_elicitation(*f.mcp, id));         // once
  CHECK_FALSE(complete_url_elicitation(*f.mcp, "unknown"));  // unknown ids rejected
}

TEST_CASE("URLElicitationRequiredError round-trips and malformed ones are refused", "[elicit][url]") {
  Fixture f(kFormAndUrl);
  const auto e1 = create_url_elicitation(*f.mcp, "Authorize Example Co", "https://mcp.example.com/connect?x=1");
  const auto e2 = create_url_elicitation(*f.mcp, "Pay", "https://pay.example.com/");
  const UrlElicitationRequired required({e1, e2});
  const auto error = required.to_error();
  CHECK(error.code == -32042);
  CHECK(error.message == "This request requires more information.");
  CHECK((*error.data)["elicitations"][0]["mode"] == "url");
  const auto parsed = parse_url_elicitation_required(error);
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 2);
  CHECK((*parsed)[1].elicitation_id == e2.elicitation_id);
  CHECK((*parsed)[0].url == e1.url);
  CHECK(complete_url_elicitation(*f.mcp, e1.elicitation_id));

  CHECK_FALSE(parse_url_elicitation_required(RpcError{-32602, "x", error.data}));
  CHECK_FALSE(parse_url_elicitation_required(RpcError{-32042, "x", std::nullopt}));
  CHECK_FALSE(parse_url_elicitation_required(RpcError{-32042, "x", json{{"elicitations", "no"}}}));
  CHECK_FALSE(parse_url_elicitation_required(
      RpcError{-32042, "x", json{{"elicitations", {{{"mode", "form"}, {"message", "m"}}}}}}));
  CHECK_FALSE(parse_url_elicitation_required(
      RpcError{-32042, "x", json{{"elicitations", {{{"mode", "url"}, {"message", "m"}, {"url", "https://x"}}}}}}));
}

}  // namespace elicit_test
