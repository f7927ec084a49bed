// introspection_verifier (RFC 7662) behind a StreamableHttpServer, against a stand-in introspection
// endpoint on loopback: what is accepted and refused, what is sent (client_secret_basic, the form),
// the endpoint found in the metadata, and the cache (per token, bounded, errors not kept).
#include <catch2/catch.hpp>

#include <elicit/auth/introspection_verifier.hpp>
#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/stateless_meta.hpp"

namespace introspection_test {

using http_test::bhttp::verb;
using nlohmann::json;

namespace {

const std::string kResource = "http://127.0.0.1/mcp";

long long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Decodes application/x-www-form-urlencoded `token=` from a body.
std::string form_token(const std::string& body) {
  const auto start = body.find("token=") + 6;
  const auto raw = body.substr(start, body.find('&', start) - start);
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '%' && i + 2 < raw.size()) {
      out += static_cast<char>(std::stoi(raw.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += raw[i];
    }
  }
  return out;
}

struct Fixture {
  jwt_test::DocumentServer as;
  std::string issuer = as.origin();
  std::map<std::string, json> answers;  // token -> introspection answer; others: inactive
  unsigned status = 200;
  std::string last_body, last_authorization;
  std::mutex mutex;
  std::unique_ptr<elicit::http::StreamableHttpServer> server;

  explicit Fixture(const std::function<void(elicit::auth::IntrospectionVerifierOptions&)>& tune = {}) {
    as.set("/.well-known/oauth-authorization-server",
           json{{"issuer", issuer}, {"introspection_endpoint", issuer + "/introspect"}}.dump());
    as.handle("/introspect", [this](const std::string& body, const std::string& authorization) {
      std::lock_guard<std::mutex> lock(mutex);
      last_body = body;
      last_authorization = authorization;
      const auto it = answers.find(form_token(body));
      return std::make_pair(status, (it == answers.end() ? json{{"active", false}} : it->second).dump());
    });
    elicit::auth::IntrospectionVerifierOptions v;
    v.issuer = issuer;
    v.audience = kResource;
    v.client_id = "mcp-server";
    v.client_secret = "s3cret:+/";
    v.fetch_timeout = std::chrono::seconds(30);
    if (tune) tune(v);
    elicit::http::HttpServerOptions o;
    o.io_threads = 1;
    o.server.session.log = [](std::string_view) {};
    elicit::http::ResourceServerOptions a;
    a.resource = kResource;
    a.authorization_servers = {issuer};
    a.required_scopes = {"mcp"};
    a.verify = elicit::auth::introspection_verifier(v);
    o.authorization = a;
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"introspection-test", "1"},
        [](elicit::Server& s) {
          s.add_tool(elicit::Tool::blocking("whoami", [](elicit::RequestContext& call) {
            return elicit::ToolResult::text(call.access_token() ? call.access_token()->subject : "nobody");
          }));
        },
        std::move(o));
    server->start();
  }

  void answer(const std::string& token, json a) {
    std::lock_guard<std::mutex> lock(mutex);
    answers[token] = std::move(a);
  }
  json active(const std::string& sub = "alice") const {
    return {{"active", true}, {"iss", issuer},        {"sub", sub},        {"aud", kResource},
            {"scope", "mcp"}, {"exp", now_s() + 600}, {"client_id", "app"}};
  }
  int introspections() const { return as.hits("/introspect"); }

  http_test::Response call(const std::string& token) const {
    json params = {{"name", "whoami"}, {"arguments", json::object()}, {"_meta", test_support::stateless_meta()}};
    auto headers = http_test::kAccept;
    headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
    headers.emplace_back("Mcp-Method", "tools/call");
    headers.emplace_back("Mcp-Name", "whoami");
    headers.emplace_back("Authorization", "Bearer " + token);
    http_test::Connection c(server->port());
    return c.request(verb::post, "/mcp", headers,
                     json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", params}}.dump());
  }
};

std::string refusal(const http_test::Response& r) {
  if (r.status != 401) return "status " + std::to_string(r.status) + ": " + r.body;
  return json::parse(r.body)["error_description"].get<std::string>();
}

}  // namespace

TEST_CASE("introspection: an active token for this resource is accepted, asked once, with the server's credentials",
          "[http][introspection]") {
  Fixture f;
  const std::string token = "opaque+token/with=";
  f.answer(token, f.active());
  const auto r = f.call(token);
  REQUIRE(r.status == 200);
  CHECK(r.body.find("alice") != std::string::npos);
  CHECK(f.introspections() == 1);
  CHECK(f.as.hits("/.well-known/oauth-authorization-server") == 1);
  // RFC 7662 section 2.1, RFC 6749 section 2.3.1: the form, and Basic with form-encoded credentials.
  CHECK(f.last_body == "token=opaque%2Btoken%2Fwith%3D&token_type_hint=access_token");
  CHECK(f.last_authorization == "Basic bWNwLXNlcnZlcjpzM2NyZXQlM0ElMkIlMkY=");  // mcp-server:s3cret%3A%2B%2F
  CHECK(f.call(token).status == 200);
  CHECK(f.introspections() == 1);  // kept
}

TEST_CASE("introspection: answers outside the rules are refused, each with its reason",
          "[http][introspection][hostile]") {
  Fixture f;
  auto with = [&](const std::string& token, const std::function<void(json&)>& change) {
    auto a = f.active();
    change(a);
    f.answer(token, a);
    return refusal(f.call(token));
  };
  CHECK(refusal(f.call("unknown")) == "the token is not active");
  CHECK(with("t1", [](json& a) { a["active"] = "true"; }) == "the token is not active");
  CHECK(with("t2", [](json& a) { a["iss"] = "https://evil.example.com"; }).find("not issued by") != std::string::npos);
  CHECK(with("t3", [](json& a) { a["aud"] = "http://127.0.0.1/other"; }).find("not meant for") != std::string::npos);
  CHECK(with("t4", [](json& a) { a.erase("aud"); }) == "the token names no audience (\"aud\")");
  CHECK(with("t5", [](json& a) { a["exp"] = now_s() - 3600; }) == "the token has expired");
  CHECK(with("t6", [](json& a) { a["nbf"] = now_s() + 3600; }).find("not valid yet") != std::string::npos);
  CHECK(with("t7", [](json& a) { a.erase("sub"); }).find("no subject") != std::string::npos);
  f.answer("t8", json::array());
  CHECK(refusal(f.call("t8")).find("not a JSON object") != std::string::npos);
  auto no_scope = f.active();
  no_scope["scope"] = "other";
  f.answer("t9", no_scope);
  CHECK(f.call("t9").status == 403);
}

TEST_CASE("introspection: without require_audience, an answer with no aud is accepted", "[http][introspection]") {
  Fixture f([](elicit::auth::IntrospectionVerifierOptions& o) { o.require_audience = false; });
  auto a = f.active();
  a.erase("aud");
  f.answer("t", a);
  CHECK(f.call("t").status == 200);
}

TEST_CASE("introspection: an error from the endpoint refuses the token and is not kept", "[http][introspection]") {
  Fixture f;
  f.answer("t", f.active());
  f.status = 503;
  CHECK(refusal(f.call("t")) == "the authorization server could not check the token");
  f.status = 200;
  CHECK(f.call("t").status == 200);
  CHECK(f.introspections() == 2);
}

TEST_CASE("introspection: the cache is bounded, and cache_ttl 0 asks every time", "[http][introspection]") {
  SECTION("two answers kept: the oldest goes first") {
    Fixture f([](elicit::auth::IntrospectionVerifierOptions& o) { o.cache_entries = 2; });
    for (const auto* t : {"a", "b", "c"}) f.answer(t, f.active());
    for (const auto* t : {"a", "b", "c"}) REQUIRE(f.call(t).status == 200);
    CHECK(f.introspections() == 3);
    CHECK(f.call("c").status == 200);
    CHECK(f.introspections() == 3);
    CHECK(f.call("a").status == 200);  // evicted
    CHECK(f.introspections() == 4);
  }
  SECTION("cache_ttl 0") {
    Fixture f([](elicit::auth::IntrospectionVerifierOptions& o) { o.cache_ttl = std::chrono::milliseconds(0); });
    f.answer("a", f.active());
    CHECK(f.call("a").status == 200);
    CHECK(f.call("a").status == 200);
    CHECK(f.introspections() == 2);
  }
}

TEST_CASE("introspection: options without issuer, audience or client_id are refused", "[http][introspection]") {
  elicit::auth::IntrospectionVerifierOptions o;
  o.issuer = "https://as.example.com";
  o.audience = kResource;
  CHECK_THROWS_AS(elicit::auth::introspection_verifier(o), std::invalid_argument);
  o.client_id = "rs";
  CHECK_NOTHROW(elicit::auth::introspection_verifier(o));
}

}  // namespace introspection_test
