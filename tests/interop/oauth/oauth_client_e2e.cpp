// elicit::Client's OAuth 2.1 client (elicit::auth::OAuthClient through HttpClientTransport) against a
// real authorization server, oidc-provider (authorization-server.mjs), and a protected MCP server:
// run.sh starts both on loopback and runs this program with ELICITGEN_HTTP_URL (the MCP endpoint,
// also the resource the tokens are for), OAUTH_ISSUER, ELICITGEN_PROTOCOL_VERSION (the revision both
// clients speak) and ELICITGEN_MCP_SERVER, which server that is: `elicitgen` (our sample server) or
// `typescript` (the official TypeScript SDK 1.x behind its requireBearerAuth middleware,
// typescript-protected-server.mjs: the same github_username tool, and whoami, the token's subject as
// the SDK handed it to the tool). Nothing here is scripted on the server side: discovery, dynamic
// client registration, the authorization code grant with PKCE, the login and consent, the token
// exchange and the refresh are oidc-provider's own.
//
// The provider below is what an application supplies: memory for registrations and tokens, and a
// headless user agent in place of the browser: it GETs the authorization URL and follows the
// redirects (login, consent, back to /auth) with a cookie jar until one goes to the redirect URI,
// which it hands back without following (nothing listens there).
//
// Loopback only; every wait is bounded (each fetch by its timeout, the redirect chain by a hop
// count, each MCP request by ClientOptions::request_timeout); no assertion depends on timing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <elicit/auth/oauth_client.hpp>
#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

#include "../../../runtime/src/auth/base64url.hpp"
#include "../../../runtime/src/http/fetch.hpp"

using nlohmann::json;

namespace {

// Set by run.sh; a missing one fails the test (run alone, it cannot pass by doing nothing).
std::string env(const char* name) {
  const char* v = std::getenv(name);
  INFO(name << " is not set: run this through tests/interop/oauth/run.sh");
  REQUIRE((v && *v));
  return v;
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The redirect URI: loopback, and nothing listens on port 1, so the user agent must stop there.
const std::string redirect_uri = "http://127.0.0.1:1/callback";

// "scheme://host:port" of an absolute URL.
std::string origin_of(const std::string& url) { return url.substr(0, url.find('/', url.find("://") + 3)); }

// The claims of a JWT, decoded without any verification: the MCP server verified it when it let the
// request through; here only what it says is checked.
json jwt_claims(const std::string& token) {
  const auto first = token.find('.');
  const auto second = token.find('.', first + 1);
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  const auto payload = elicit::auth::base64url_decode(std::string_view(token).substr(first + 1, second - first - 1));
  REQUIRE(payload);
  auto claims = json::parse(*payload, nullptr, false);
  REQUIRE(claims.is_object());
  return claims;
}

// What a browser would do, minus the person: GET, keep the cookies the server sets (by name and
// path, sent where the path matches), follow Location, and stop at the first redirect to the
// redirect URI. oidc-provider's chain is /auth → /interaction/UID (login) → /auth/UID →
// /interaction/UID (consent) → /auth/UID → the redirect URI: 5 hops; 10 at most.
struct UserAgent {
  struct Cookie {
    std::string path, name, value;
  };
  std::vector<Cookie> jar;
  std::vector<std::string> visited;

  void keep(const std::string& set_cookie) {
    const auto semi = set_cookie.find(';');
    const auto pair = set_cookie.substr(0, semi);
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) return;
    Cookie c{"/", pair.substr(0, eq), pair.substr(eq + 1)};
    for (auto at = semi; at != std::string::npos;) {
      const auto next = set_cookie.find(';', at + 1);
      auto attribute = set_cookie.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
      attribute.erase(0, attribute.find_first_not_of(' '));
      std::string lower = attribute;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
      if (lower.rfind("path=", 0) == 0) c.path = attribute.substr(5);
      at = next;
    }
    jar.erase(
        std::remove_if(jar.begin(), jar.end(), [&](const Cookie& k) { return k.name == c.name && k.path == c.path; }),
        jar.end());
    // A cleared cookie (koa's cookies.set(name, null): an empty value, expired) is dropped.
    if (!c.value.empty()) jar.push_back(std::move(c));
  }

  std::string cookie_header(const std::string& url) const {
    const auto slash = url.find('/', url.find("://") + 3);
    const auto path = slash == std::string::npos ? std::string("/") : url.substr(slash);
    std::string header;
    for (const auto& c : jar) {
      if (path.compare(0, c.path.size(), c.path) != 0) continue;
      header += (header.empty() ? "" : "; ") + c.name + "=" + c.value;
    }
    return header;
  }

  std::string follow(std::string url) {
    for (int hop = 0; hop < 10; ++hop) {
      visited.push_back(url);
      elicit::http::FetchRequest request;
      request.url = url;
      if (const auto cookies = cookie_header(url); !cookies.empty()) request.headers.emplace_back("Cookie", cookies);
      elicit::http::FetchOptions options;
      options.timeout = std::chrono::milliseconds(10000);
      const auto r = elicit::http::fetch(request, options);
      for (const auto& [name, value] : r.headers) {
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (lower == "set-cookie") keep(value);
      }
      auto location = r.header("Location");
      if (r.status / 100 != 3 || location.empty()) {
        throw std::runtime_error("the user agent got HTTP " + std::to_string(r.status) + " without a redirect at " +
                                 url + ": " + r.body.substr(0, 300));
      }
      if (location.rfind(redirect_uri, 0) == 0) return location;
      url = location.rfind("http://", 0) == 0 ? location : origin_of(url) + location;
    }
    throw std::runtime_error("the user agent gave up after 10 redirects without reaching the redirect URI");
  }
};

// The application's side of the OAuth client: everything in memory, each call counted.
class Provider : public elicit::auth::OAuthClientProvider {
 public:
  std::string redirect_uri() override { return ::redirect_uri; }
  json client_metadata() override { return {{"client_name", "elicitgen-oauth-e2e"}}; }

  std::optional<elicit::auth::OAuthClientInformation> client_information(const std::string& issuer) override {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = registered.find(issuer);
    if (it == registered.end()) return std::nullopt;
    return it->second;
  }
  void save_client_information(const std::string& issuer, const elicit::auth::OAuthClientInformation& info) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++registrations;
    registered[issuer] = info;
  }
  std::optional<elicit::auth::OAuthTokens> tokens(const std::string& resource, const std::string& issuer) override {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = kept.find({resource, issuer});
    if (it == kept.end()) return std::nullopt;
    return it->second;
  }
  void save_tokens(const std::string& resource, const std::string& issuer,
                   const elicit::auth::OAuthTokens& tokens) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++tokens_saved;
    kept[{resource, issuer}] = tokens;
  }
  void discard_tokens(const std::string& resource, const std::string& issuer) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++discards;
    kept.erase({resource, issuer});
  }
  std::string authorize(const std::string& authorization_url) override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++authorizations;
      authorization_urls.push_back(authorization_url);
    }
    UserAgent agent;
    auto answer = agent.follow(authorization_url);
    std::lock_guard<std::mutex> lock(mutex);
    visited = agent.visited;
    callbacks.push_back(answer);
    return tamper ? tamper(answer) : answer;
  }

  std::mutex mutex;
  std::map<std::string, elicit::auth::OAuthClientInformation> registered;
  std::map<std::pair<std::string, std::string>, elicit::auth::OAuthTokens> kept;
  int registrations = 0, tokens_saved = 0, discards = 0, authorizations = 0;
  std::vector<std::string> authorization_urls, callbacks, visited;
  std::function<std::string(const std::string&)> tamper;  // the negative test's
};

struct Setup {
  std::string url = env("ELICITGEN_HTTP_URL");
  std::string issuer = env("OAUTH_ISSUER");
  std::string revision = env("ELICITGEN_PROTOCOL_VERSION");
  bool typescript_server = env("ELICITGEN_MCP_SERVER") == "typescript";
};

std::unique_ptr<elicit::Client> client_for(const Setup& s, std::shared_ptr<Provider> provider) {
  elicit::http::HttpClientOptions t;
  t.url = s.url;
  t.protocol_version = s.revision;
  t.authorization = std::make_shared<elicit::auth::OAuthClient>(t.url, std::move(provider));
  elicit::ClientOptions o;
  o.protocol_version = s.revision;
  o.fallback_protocol_version = std::nullopt;  // the revision under test, nothing else
  o.client_info = {{"name", "elicitgen-oauth-e2e"}, {"version", "1.0.0"}};
  o.request_timeout = std::chrono::milliseconds(60000);
  // On the transport's threads: stderr, not Catch's macros (not thread-safe).
  o.session.log = [](std::string_view line) { std::fprintf(stderr, "client: %.*s\n", int(line.size()), line.data()); };
  auto client = std::make_unique<elicit::Client>(std::make_unique<elicit::http::HttpClientTransport>(t), o);
  // The github_username form, answered as a user who typed a name.
  client->on_elicitation([](const elicit::ElicitationRequest& r) {
    if (r.url_mode || !r.form) return elicit::Answer::decline();
    return elicit::Answer::accept({{"name", "octocat"}});
  });
  return client;
}

// The text of a CallToolResult's first content item.
std::string text_of(const json& result) {
  INFO(result.dump());
  REQUIRE(result.contains("content"));
  REQUIRE(!result["content"].empty());
  return result["content"][0].value("text", std::string());
}

// Connects, lists the tools, calls github_username (which elicits) and lists again: at least four
// MCP requests (2026-07-28: the call takes two POSTs, the second with the answer; 2025-11-25: also the
// GET stream and, at close, DELETE), each of which must carry the token.
void use_the_server(elicit::Client& client, const Setup& s) {
  client.connect();
  CHECK(client.protocol_version() == s.revision);
  const auto tools = client.list_tools();
  const bool listed = std::any_of(tools.begin(), tools.end(),
                                  [](const json& t) { return t.value("name", std::string()) == "github_username"; });
  CHECK(listed);
  CHECK(text_of(client.call_tool("github_username")) == R"(accept: {"name":"octocat"})");
  // The SDK's middleware verified the token and passed its claims to the tool: the person who
  // signed in at the authorization server.
  if (s.typescript_server) CHECK(text_of(client.call_tool("whoami")) == "octocat");
  CHECK(client.list_tools().size() == tools.size());
}

// The one saved token set, after checking there is exactly one.
elicit::auth::OAuthTokens only_tokens(Provider& p, const Setup& s) {
  std::lock_guard<std::mutex> lock(p.mutex);
  REQUIRE(p.kept.size() == 1);
  CHECK(p.kept.begin()->first == std::make_pair(s.url, s.issuer));
  return p.kept.begin()->second;
}

}  // namespace

TEST_CASE("authorization code flow with a real authorization server: registration, PKCE, one token reused") {
  const Setup s;
  auto provider = std::make_shared<Provider>();
  auto client = client_for(s, provider);
  use_the_server(*client, s);
  client->close();

  // Dynamic client registration at oidc-provider, once; the identity is kept for its issuer.
  CHECK(provider->registrations == 1);
  REQUIRE(provider->registered.count(s.issuer) == 1);
  CHECK(!provider->registered[s.issuer].client_id.empty());
  // One authorization for every request above: the token was obtained once and reused.
  CHECK(provider->authorizations == 1);
  CHECK(provider->tokens_saved == 1);
  CHECK(provider->discards == 0);

  // What the user agent was sent to, and what came back.
  REQUIRE(provider->authorization_urls.size() == 1);
  const auto& asked = provider->authorization_urls[0];
  INFO(asked);
  CHECK(asked.rfind(s.issuer + "/", 0) == 0);
  CHECK(asked.find("code_challenge_method=S256") != std::string::npos);
  CHECK(asked.find("client_id=" + provider->registered[s.issuer].client_id) != std::string::npos);
  const auto logins = std::count_if(provider->visited.begin(), provider->visited.end(),
                                    [&](const std::string& u) { return u.rfind(s.issuer + "/interaction/", 0) == 0; });
  CHECK(logins == 2);  // login, then consent: the headless person did both
  REQUIRE(provider->callbacks.size() == 1);
  CHECK(provider->callbacks[0].find("code=") != std::string::npos);

  // The token is oidc-provider's RFC 9068 JWT for this server: audience = the resource.
  const auto tokens = only_tokens(*provider, s);
  const auto claims = jwt_claims(tokens.access_token);
  INFO(claims.dump());
  const auto& aud = claims["aud"];
  CHECK((aud == s.url || (aud.is_array() && aud.size() == 1 && aud[0] == s.url)));
  CHECK(claims.value("iss", std::string()) == s.issuer);
  CHECK(claims.value("sub", std::string()) == "octocat");
  CHECK(claims.value("client_id", std::string()) == provider->registered[s.issuer].client_id);
  CHECK(tokens.scope.find("mcp") != std::string::npos);
  CHECK(tokens.expires_at > unix_now());
}

TEST_CASE("an expired access token is refreshed (refresh_token grant) without a new authorization") {
  const Setup s;
  auto provider = std::make_shared<Provider>();
  {
    auto first = client_for(s, provider);
    use_the_server(*first, s);
    first->close();
  }
  REQUIRE(provider->authorizations == 1);
  auto before = only_tokens(*provider, s);
  // The client asked for offline_access (the authorization server lists it) with prompt=consent
  // (without it oidc-provider drops offline_access, OIDC Core section 11) and registered for the
  // refresh_token grant, so oidc-provider issued a refresh token. (The token response's scope is the
  // access token's, the resource's "mcp": offline_access is not in it.)
  INFO("scope granted: " << before.scope << "; asked: " << provider->authorization_urls.at(0));
  CHECK(provider->authorization_urls.at(0).find("&prompt=consent") != std::string::npos);
  REQUIRE(!before.refresh_token.empty());

  // Expired as far as the application knows (the JWT itself is still good: the MCP server would
  // take it, so only a refresh can change what is sent).
  before.expires_at = unix_now() - 60;
  {
    std::lock_guard<std::mutex> lock(provider->mutex);
    provider->kept[{s.url, s.issuer}] = before;
  }
  const auto saved_before = provider->tokens_saved;
  auto second = client_for(s, provider);
  use_the_server(*second, s);
  second->close();

  CHECK(provider->authorizations == 1);  // no new authorization: the user agent never ran again
  CHECK(provider->registrations == 1);
  CHECK(provider->discards == 0);
  CHECK(provider->tokens_saved == saved_before + 1);  // the refreshed set, once
  const auto after = only_tokens(*provider, s);
  CHECK(after.access_token != before.access_token);
  CHECK(after.expires_at > unix_now());
  CHECK(!after.refresh_token.empty());
  const auto claims = jwt_claims(after.access_token);
  INFO(claims.dump());
  CHECK((claims["aud"] == s.url || (claims["aud"].is_array() && claims["aud"][0] == s.url)));
}

TEST_CASE("an authorization response with another state is refused, and no token is saved") {
  const Setup s;
  auto provider = std::make_shared<Provider>();
  // The real redirect (code, state, iss from oidc-provider) with its state replaced, as an attacker
  // injecting an authorization response would have it.
  provider->tamper = [](const std::string& callback) {
    auto at = callback.find("?state=");
    if (at == std::string::npos) at = callback.find("&state=");
    if (at == std::string::npos) throw std::runtime_error("the redirect has no state: " + callback);
    const auto value = at + 7;
    const auto end = callback.find('&', value);
    return callback.substr(0, value) + "forged" + (end == std::string::npos ? "" : callback.substr(end));
  };
  auto client = client_for(s, provider);
  REQUIRE_THROWS_WITH(client->connect(), Catch::Contains("state"));
  client->close();
  CHECK(provider->registrations == 1);   // it got that far: registered,
  CHECK(provider->authorizations == 1);  // sent the user once (not again after the refusal),
  REQUIRE(provider->callbacks.size() == 1);
  CHECK(provider->callbacks[0].find("code=") != std::string::npos);  // and got a code it did not use
  CHECK(provider->tokens_saved == 0);
  CHECK(provider->kept.empty());
}
