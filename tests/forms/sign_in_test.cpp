// The browser form pages' own sign-in (forms::PageRoutes::sign_in) against an in-process OpenID
// provider (jwt_test::DocumentServer serving metadata, a JWK Set and a token endpoint that checks
// the code and PKCE): the whole sign-in and a submission as the page's principal; another user
// refused without the form; forged, tampered, misused and expired cookies refused; each check of
// the redirect back and of the ID token refusing with no session; the authorization server down
// giving 503. Real loopback sockets; time is a clock the test moves, never a sleep.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <elicit/forms/page_routes.hpp>
#include <elicit/http/server.hpp>
#include <elicit/request_state.hpp>

#include "../support/http_client.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/page_options.hpp"
#include "../support/patience.hpp"
#include "../support/stateless_meta.hpp"

namespace browser_form_sign_in_test {

using namespace std::chrono_literals;
using nlohmann::json;
namespace bhttp = http_test::bhttp;

namespace {

const std::string kClientId = "form-pages";
const std::string kSession = "__Host-elicit-form-session";
const std::string kOddSubject = "al\"ice \xC3\xBC";  // al"ice ü

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::map<std::string, std::string> parse_query(std::string_view q) {
  std::map<std::string, std::string> out;
  while (!q.empty()) {
    const auto amp = q.find('&');
    const auto pair = q.substr(0, amp);
    const auto eq = pair.find('=');
    out.emplace(percent_decode(pair.substr(0, eq)),
                eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1)));
    if (amp == std::string_view::npos) break;
    q.remove_prefix(amp + 1);
  }
  return out;
}

std::string component(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

// Standard base64 with padding (HTTP Basic).
std::string basic(const std::string& text) {
  std::string out(sodium_base64_ENCODED_LEN(text.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(text.data()), text.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);
  return out;
}

std::string s256(const std::string& verifier) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(verifier.data(), verifier.size(), d, &n, EVP_sha256(), nullptr);
  return jwt_test::b64url(std::string_view(reinterpret_cast<const char*>(d), n));
}

// One answer with every Set-Cookie field kept (the shared client keeps one value per name).
struct Hit {
  int status = 0;
  std::string location;
  std::vector<std::string> set_cookies;
  std::string body;
};

// A browser's cookies: what Set-Cookie gave, sent back in Cookie (Max-Age=0 deletes).
struct Jar {
  std::map<std::string, std::string> cookies;
  void take(const std::vector<std::string>& set) {
    for (const auto& c : set) {
      const auto eq = c.find('=');
      const auto semi = c.find(';');
      const auto name = c.substr(0, eq);
      const auto value = c.substr(eq + 1, semi - eq - 1);
      if (c.find("Max-Age=0") != std::string::npos) {
        cookies.erase(name);
      } else {
        cookies[name] = value;
      }
    }
  }
  std::string header() const {
    std::string out;
    for (const auto& [n, v] : cookies) out += (out.empty() ? "" : "; ") + n + "=" + v;
    return out;
  }
};

Hit hit(int port, bhttp::verb method, const std::string& target, Jar* jar, const std::string& body = "") {
  namespace net = boost::asio;
  net::io_context ioc;
  boost::beast::tcp_stream stream(ioc);
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  bhttp::request<bhttp::string_body> req{method, target, 11};
  req.set(bhttp::field::host, "127.0.0.1");
  if (jar && !jar->cookies.empty()) req.set(bhttp::field::cookie, jar->header());
  if (method == bhttp::verb::post) req.set(bhttp::field::content_type, "application/x-www-form-urlencoded");
  req.body() = body;
  req.prepare_payload();
  bhttp::write(stream, req);
  boost::beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(stream, buffer, res);
  Hit h;
  h.status = static_cast<int>(res.result_int());
  h.body = res.body();
  if (res.count(bhttp::field::location)) h.location = std::string(res[bhttp::field::location]);
  for (const auto& f : res) {
    if (f.name() == bhttp::field::set_cookie) h.set_cookies.emplace_back(f.value());
  }
  if (jar) jar->take(h.set_cookies);
  return h;
}

// What the provider's token endpoint puts in the next ID token, and how.
struct Grant {
  std::string code;
  std::string challenge;  // of the authorization request: the token request's verifier must match
  std::string redirect_uri;
  json claims;
  const jwt_test::SigningKey* key = nullptr;
};

struct Provider {
  jwt_test::SigningKey key{"RSA", "k1"};
  jwt_test::SigningKey other_key{"RSA", "k1"};  // same kid, another key: a bad signature
  jwt_test::DocumentServer server;
  std::string issuer = server.origin();
  std::mutex mutex;
  Grant grant;
  std::string client_secret;  // "" a public client
  std::atomic<int> token_requests{0};

  Provider() {
    server.set("/.well-known/oauth-authorization-server", json{{"issuer", issuer},
                                                               {"authorization_endpoint", issuer + "/authorize"},
                                                               {"token_endpoint", issuer + "/token"},
                                                               {"jwks_uri", issuer + "/jwks"},
                                                               {"response_types_supported", {"code"}},
                                                               {"code_challenge_methods_supported", {"S256"}},
                                                               {"authorization_response_iss_parameter_supported", true}}
                                                              .dump());
    server.set("/jwks", json{{"keys", {key.jwk("RS256")}}}.dump());
    server.handle(
        "/token",
        [this](const std::string& body, const std::string& authorization) -> std::pair<unsigned, std::string> {
          ++token_requests;
          auto form = parse_query(body);
          std::lock_guard<std::mutex> lock(mutex);
          // A public client names itself in the form; a confidential one authenticates with HTTP Basic,
          // its id and secret form-encoded first (RFC 6749 section 2.3.1).
          const bool client_ok =
              client_secret.empty()
                  ? form["client_id"] == kClientId && authorization.empty()
                  : authorization == "Basic " + basic(component(kClientId) + ":" + component(client_secret)) &&
                        form.count("client_secret") == 0;
          if (form["grant_type"] != "authorization_code" || form["code"] != grant.code || grant.code.empty() ||
              !client_ok || form["redirect_uri"] != grant.redirect_uri ||
              s256(form["code_verifier"]) != grant.challenge) {
            return {400, R"({"error":"invalid_grant"})"};
          }
          grant.code.clear();  // single use
          const auto id_token = jwt_test::token(*grant.key, grant.claims, json{{"typ", "JWT"}});
          return {200, json{{"access_token", "at"}, {"token_type", "Bearer"}, {"id_token", id_token}}.dump()};
        });
  }
};

struct Pages {
  Provider op;
  std::shared_ptr<std::atomic<long long>> offset_ms = std::make_shared<std::atomic<long long>>(0);
  std::shared_ptr<elicit::forms::InMemoryPageStore> store = std::make_shared<elicit::forms::InMemoryPageStore>();
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
  int port = 0;

  explicit Pages(std::string issuer = "", std::string client_secret = "", std::vector<std::string> keys = {},
                 std::string public_origin = "") {
    op.client_secret = client_secret;
    test_support::PagesOptions o;
    o.io_threads = 1;
    o.server.session.log = [](std::string_view) {};
    elicit::http::ResourceServerOptions a;
    a.resource = "https://mcp.example.com/mcp";
    a.authorization_servers = {issuer.empty() ? op.issuer : issuer};
    // Bearer tokens name their user: "t1" is a subject with a quote and a non-ASCII letter, so that
    // the principal's JSON text must be written the same way on both sides to match.
    a.verify = [iss = a.authorization_servers.front()](std::string_view token) {
      if (token != "t1") throw elicit::http::InvalidToken("unknown token");
      elicit::AccessToken t;
      t.issuer = iss;
      t.subject = kOddSubject;
      return t;
    };
    o.authorization = a;
    o.browser_forms.prefix = "/forms/";
    o.browser_forms.public_origin = std::move(public_origin);
    o.browser_forms.store = store;
    elicit::forms::SignIn s;
    s.client_id = kClientId;
    s.cookie_keys = keys.empty() ? std::vector<std::string>{elicit::RequestStateSealer::generate_key()} : keys;
    s.client_secret = client_secret;
    s.session_lifetime = 1h;
    auto offset = offset_ms;
    s.clock = [offset] { return std::chrono::system_clock::now() + std::chrono::milliseconds(offset->load()); };
    o.browser_forms.sign_in = s;
    // A tool that opens a page bound to its caller, as elicit_in_browser does, and answers its path.
    auto setup = [store = store](elicit::Server& srv) {
      srv.add_tool(elicit::Tool::blocking("open_page", [store](elicit::RequestContext& ctx) {
        elicit::BrowserFormPage page;
        page.message = "Your key";
        page.requested_schema = nlohmann::ordered_json::parse(
            R"({"type":"object","properties":{"name":{"type":"string","title":"Your name"}},"required":["name"]})");
        page.principal = ctx.principal();
        const auto id = elicit::browser_form_id();
        store->open(id, page);
        return elicit::ToolResult::text("/forms/" + id);
      }));
    };
    server = std::make_unique<elicit::http::StreamableHttpServer>(elicit::ServerInfo{"sign-in-test", "1"}, setup,
                                                                  test_support::with_pages(std::move(o)));
    server->start();
    port = server->port();
  }

  // The principal a call with an access token of `sub` from this issuer has.
  std::string principal(const std::string& sub) const {
    return json::array({op.issuer, sub}).dump(-1, ' ', false, json::error_handler_t::replace);
  }

  std::string open_page(const std::string& sub) {
    elicit::BrowserFormPage page;
    page.message = "Your key";
    page.requested_schema = nlohmann::ordered_json::parse(
        R"({"type":"object","properties":{"name":{"type":"string","title":"Your name"}},"required":["name"]})");
    page.principal = principal(sub);
    const auto id = elicit::browser_form_id();
    store->open(id, page);
    return "/forms/" + id;
  }

  json claims(const std::string& sub, const std::string& nonce) const {
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(
            (std::chrono::system_clock::now() + std::chrono::milliseconds(offset_ms->load())).time_since_epoch())
            .count();
    return json{{"iss", op.issuer}, {"sub", sub},       {"aud", kClientId},
                {"iat", now},       {"exp", now + 300}, {"nonce", nonce}};
  }

  // The redirect to the provider; its query.
  std::map<std::string, std::string> begin(const std::string& page, Jar& jar) {
    const auto r = hit(port, bhttp::verb::get, page, &jar);
    REQUIRE(r.status == 303);
    REQUIRE(r.location.rfind(op.issuer + "/authorize?", 0) == 0);
    CHECK(r.body.find("csrf") == std::string::npos);
    return parse_query(r.location.substr(r.location.find('?') + 1));
  }

  // The provider's answer: a code for `sub`, its ID token shaped by `shape`; the redirect back.
  Hit finish(const std::map<std::string, std::string>& q, Jar& jar, const std::string& sub,
             const std::function<void(json&)>& shape = {}, const jwt_test::SigningKey* key = nullptr,
             const std::string& callback_query = "") {
    {
      std::lock_guard<std::mutex> lock(op.mutex);
      op.grant.code = "code-" + elicit::browser_form_id();
      op.grant.challenge = q.at("code_challenge");
      op.grant.redirect_uri = q.at("redirect_uri");
      op.grant.claims = claims(sub, q.at("nonce"));
      if (shape) shape(op.grant.claims);
      op.grant.key = key ? key : &op.key;
    }
    std::string query = callback_query;
    if (query.empty()) {
      std::lock_guard<std::mutex> lock(op.mutex);
      query =
          "code=" + component(op.grant.code) + "&state=" + component(q.at("state")) + "&iss=" + component(op.issuer);
    }
    return hit(port, bhttp::verb::get, "/forms/sign-in?" + query, &jar);
  }

  // A browser signed in as `sub`, having opened `page`.
  Jar signed_in(const std::string& sub, const std::string& page) {
    Jar jar;
    const auto q = begin(page, jar);
    const auto back = finish(q, jar, sub);
    REQUIRE(back.status == 303);
    REQUIRE(back.location == page);
    REQUIRE(jar.cookies.count(kSession) == 1);
    return jar;
  }
};

bool has_session(const Hit& h) {
  for (const auto& c : h.set_cookies) {
    if (c.rfind(kSession + "=", 0) == 0) return true;
  }
  return false;
}

std::optional<elicit::BrowserFormAnswer> answer_of(elicit::BrowserForms& forms, const std::string& id) {
  auto promise = std::make_shared<std::promise<std::optional<elicit::BrowserFormAnswer>>>();
  auto future = promise->get_future();
  forms.await(id, 0ms, [promise](std::optional<elicit::BrowserFormAnswer> a) { promise->set_value(std::move(a)); });
  REQUIRE(future.wait_for(test_support::kPatience) == std::future_status::ready);
  return future.get();
}

}  // namespace

TEST_CASE("browser form sign-in: the page's own user signs in at the provider and answers", "[browser_sign_in]") {
  Pages p;
  const auto page = p.open_page("alice");
  Jar jar;
  const auto q = p.begin(page, jar);
  CHECK(q.at("response_type") == "code");
  CHECK(q.at("client_id") == kClientId);
  CHECK(q.at("scope") == "openid");
  CHECK(q.at("code_challenge_method") == "S256");
  CHECK(q.at("redirect_uri") == "http://127.0.0.1:" + std::to_string(p.port) + "/forms/sign-in");
  CHECK(q.at("state").size() >= 43);
  CHECK(q.at("nonce").size() >= 43);
  CHECK(q.count("code_verifier") == 0);
  // The transaction rides in a sealed cookie of its own: nothing of it readable.
  REQUIRE(jar.cookies.size() == 1);
  const auto transaction = *jar.cookies.begin();
  CHECK(transaction.first.rfind("__Host-elicit-sign-in-", 0) == 0);
  CHECK(transaction.second.find(q.at("nonce")) == std::string::npos);

  const auto back = p.finish(q, jar, "alice");
  REQUIRE(back.status == 303);
  CHECK(back.location == page);
  REQUIRE(has_session(back));
  for (const auto& c : back.set_cookies) {
    CHECK(c.find("; Path=/") != std::string::npos);
    CHECK(c.find("; Secure") != std::string::npos);
    CHECK(c.find("; HttpOnly") != std::string::npos);
    CHECK(c.find("; SameSite=Lax") != std::string::npos);
    CHECK(c.find("Domain") == std::string::npos);
  }
  CHECK(jar.cookies.count(transaction.first) == 0);  // deleted by the redirect back
  CHECK(jar.cookies.count(kSession) == 1);

  const auto form = hit(p.port, bhttp::verb::get, page, &jar);
  REQUIRE(form.status == 200);
  CHECK(form.body.find("Your name") != std::string::npos);
  const auto csrf = http_test::csrf_of(form.body);
  REQUIRE_FALSE(csrf.empty());
  const auto done = hit(p.port, bhttp::verb::post, page, &jar, "csrf=" + csrf + "&action=accept&name=Ada");
  CHECK(done.status == 200);
  const auto answer = answer_of(*p.store, page.substr(7));
  REQUIRE(answer);
  CHECK(answer->status == elicit::ElicitStatus::accepted);
  CHECK(answer->content == json{{"name", "Ada"}});

  SECTION("the code is not exchanged twice: the redirect back replayed is refused") {
    const auto again = p.finish(q, jar, "alice");
    CHECK(again.status == 400);
    CHECK_FALSE(has_session(again));
  }
}

TEST_CASE("browser form sign-in: a signed-in browser's principal is RequestContext::principal() of the same user",
          "[browser_sign_in]") {
  Pages p;
  // A tools/call with the user's bearer token (2026-07-28) opens a page bound to its caller.
  json params{{"name", "open_page"}, {"arguments", json::object()}, {"_meta", test_support::stateless_meta()}};
  auto headers = http_test::kAccept;
  headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
  headers.emplace_back("Mcp-Method", "tools/call");
  headers.emplace_back("Mcp-Name", "open_page");
  headers.emplace_back("Authorization", "Bearer t1");
  const auto called = http_test::Connection(p.port).request(
      bhttp::verb::post, "/mcp", headers,
      json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", params}}.dump());
  REQUIRE(called.status == 200);
  const auto page = json::parse(called.body).at("result").at("content").at(0).at("text").get<std::string>();
  REQUIRE(page.rfind("/forms/", 0) == 0);

  // The same subject without its quote is someone else: no form.
  auto other = p.signed_in("alice \xC3\xBC", page);
  CHECK(hit(p.port, bhttp::verb::get, page, &other).status == 403);

  auto jar = p.signed_in(kOddSubject, page);
  const auto form = hit(p.port, bhttp::verb::get, page, &jar);
  REQUIRE(form.status == 200);
  const auto csrf = http_test::csrf_of(form.body);
  CHECK(hit(p.port, bhttp::verb::post, page, &jar, "csrf=" + csrf + "&action=accept&name=Ada").status == 200);
  const auto answer = answer_of(*p.store, page.substr(7));
  REQUIRE(answer);
  CHECK(answer->status == elicit::ElicitStatus::accepted);
}

TEST_CASE("browser form sign-in: another user signed in sees no form and cannot submit", "[browser_sign_in]") {
  Pages p;
  const auto alices = p.open_page("alice");
  const auto bobs = p.open_page("bob");
  auto bob = p.signed_in("bob", bobs);
  REQUIRE(hit(p.port, bhttp::verb::get, bobs, &bob).status == 200);
  const auto csrf = http_test::csrf_of(hit(p.port, bhttp::verb::get, bobs, &bob).body);

  const auto look = hit(p.port, bhttp::verb::get, alices, &bob);
  CHECK(look.status == 403);
  CHECK(look.body.find("Your name") == std::string::npos);
  CHECK(http_test::csrf_of(look.body).empty());
  const auto post = hit(p.port, bhttp::verb::post, alices, &bob, "csrf=" + csrf + "&action=accept&name=Mallory");
  CHECK(post.status == 403);
  CHECK(post.body.find("Your name") == std::string::npos);
  CHECK(p.store->size() == 2);  // alice's page still open, unanswered
}

TEST_CASE("browser form sign-in: without a valid session a POST is refused and a GET signs in again",
          "[browser_sign_in]") {
  Pages p;
  const auto page = p.open_page("alice");
  auto alice = p.signed_in("alice", page);
  const auto csrf = http_test::csrf_of(hit(p.port, bhttp::verb::get, page, &alice).body);
  REQUIRE_FALSE(csrf.empty());
  const auto body = "csrf=" + csrf + "&action=accept&name=Ada";
  const auto session = alice.cookies.at(kSession);

  auto refused = [&](Jar jar) {
    const auto post = hit(p.port, bhttp::verb::post, page, &jar, body);
    CHECK(post.status == 403);
    CHECK(post.body.find("Your name") == std::string::npos);
    const auto get = hit(p.port, bhttp::verb::get, page, &jar);
    CHECK(get.status == 303);
    CHECK(get.location.rfind(p.op.issuer + "/authorize?", 0) == 0);
  };
  SECTION("no cookie") { refused(Jar{}); }
  SECTION("a forged cookie") {
    Jar jar;
    jar.cookies[kSession] = "v1." + jwt_test::b64url(std::string(80, 'x'));
    refused(jar);
  }
  SECTION("a tampered cookie") {
    Jar jar;
    auto tampered = session;
    tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
    jar.cookies[kSession] = tampered;
    refused(jar);
  }
  SECTION("a transaction cookie offered as a session") {
    Jar jar;
    Jar start;
    p.begin(page, start);
    jar.cookies[kSession] = start.cookies.begin()->second;
    refused(jar);
  }
  SECTION("a cookie sealed by another server's keys") {
    Pages other;
    const auto other_page = other.open_page("alice");
    const auto theirs = other.signed_in("alice", other_page);
    Jar jar;
    jar.cookies[kSession] = theirs.cookies.at(kSession);
    refused(jar);
  }
  SECTION("an expired session") {
    *p.offset_ms += std::chrono::duration_cast<std::chrono::milliseconds>(1h + 1s).count();
    refused(alice);
  }
  // Whatever was refused, the page is still open for its user.
  CHECK(p.store->size() == 1);
}

TEST_CASE("browser form sign-in: each failed check of the redirect back leaves no session", "[browser_sign_in]") {
  Pages p;
  const auto page = p.open_page("alice");
  Jar jar;
  const auto q = p.begin(page, jar);
  Hit back;
  int status = 0;
  SECTION("state of another sign-in (same cookie name, another value)") {
    auto state = q.at("state");
    state.back() = state.back() == 'A' ? 'B' : 'A';
    back =
        p.finish(q, jar, "alice", {}, nullptr, "code=x&state=" + component(state) + "&iss=" + component(p.op.issuer));
    status = 400;
  }
  SECTION("state with no transaction cookie") {
    back = p.finish(q, jar, "alice", {}, nullptr,
                    "code=x&state=" + std::string(43, 'Q') + "&iss=" + component(p.op.issuer));
    status = 400;
  }
  SECTION("the transaction cookie from another browser is missing") {
    Jar other;
    back = p.finish(q, other, "alice");
    status = 400;
  }
  SECTION("the authorization response's iss is another issuer (RFC 9207)") {
    back = p.finish(q, jar, "alice", {}, nullptr,
                    "code=x&state=" + component(q.at("state")) + "&iss=" + component("https://evil.example"));
    status = 400;
  }
  SECTION("no iss although the provider advertises it (RFC 9207)") {
    back = p.finish(q, jar, "alice", {}, nullptr, "code=x&state=" + component(q.at("state")));
    status = 400;
  }
  SECTION("the user refused at the provider") {
    back = p.finish(q, jar, "alice", {}, nullptr,
                    "error=access_denied&state=" + component(q.at("state")) + "&iss=" + component(p.op.issuer));
    status = 403;
  }
  SECTION("a code the provider does not know") {
    back = p.finish(q, jar, "alice", {}, nullptr,
                    "code=unknown&state=" + component(q.at("state")) + "&iss=" + component(p.op.issuer));
    status = 502;
  }
  SECTION("an ID token with another nonce") {
    back = p.finish(q, jar, "alice", [](json& c) { c["nonce"] = "another"; });
    status = 403;
  }
  SECTION("an ID token without nonce") {
    back = p.finish(q, jar, "alice", [](json& c) { c.erase("nonce"); });
    status = 403;
  }
  SECTION("an ID token from another issuer") {
    back = p.finish(q, jar, "alice", [](json& c) { c["iss"] = "https://evil.example"; });
    status = 403;
  }
  SECTION("an ID token for another client") {
    back = p.finish(q, jar, "alice", [](json& c) { c["aud"] = "someone-else"; });
    status = 403;
  }
  SECTION("an ID token for several audiences without azp") {
    back = p.finish(q, jar, "alice", [](json& c) { c["aud"] = json::array({kClientId, "another"}); });
    status = 403;
  }
  SECTION("an ID token whose azp is another client") {
    back = p.finish(q, jar, "alice", [](json& c) { c["azp"] = "another"; });
    status = 403;
  }
  SECTION("an expired ID token") {
    back = p.finish(q, jar, "alice", [](json& c) { c["exp"] = c["iat"].get<long long>() - 3600; });
    status = 403;
  }
  SECTION("an ID token without iat") {
    back = p.finish(q, jar, "alice", [](json& c) { c.erase("iat"); });
    status = 403;
  }
  SECTION("an ID token signed by another key") {
    back = p.finish(q, jar, "alice", {}, &p.op.other_key);
    status = 403;
  }
  CHECK(back.status == status);
  CHECK_FALSE(has_session(back));
  CHECK(back.body.find("code=") == std::string::npos);
  CHECK(jar.cookies.count(kSession) == 0);
  CHECK(hit(p.port, bhttp::verb::get, page, &jar).status == 303);  // still signed out
}

TEST_CASE("browser form sign-in: processes sharing the cookie keys take each other's redirect back and session",
          "[browser_sign_in]") {
  // Two processes behind one public origin (a load balancer), one authorization server.
  const std::vector<std::string> keys{elicit::RequestStateSealer::generate_key()};
  Pages a("", "", keys, "http://localhost:1");
  Pages b(a.op.issuer, "", keys, "http://localhost:1");
  const auto page = a.open_page("alice");
  Jar jar;
  const auto q = a.begin(page, jar);  // the redirect to sign in, from A
  {
    std::lock_guard<std::mutex> lock(a.op.mutex);
    a.op.grant.code = "code-" + elicit::browser_form_id();
    a.op.grant.challenge = q.at("code_challenge");
    a.op.grant.redirect_uri = q.at("redirect_uri");
    a.op.grant.claims = a.claims("alice", q.at("nonce"));
    a.op.grant.key = &a.op.key;
  }
  // The redirect back lands on B, which knows nothing of it but the cookie.
  const auto back = hit(b.port, bhttp::verb::get,
                        "/forms/sign-in?code=" + component(a.op.grant.code) + "&state=" + component(q.at("state")) +
                            "&iss=" + component(a.op.issuer),
                        &jar);
  REQUIRE(back.status == 303);
  CHECK(back.location == page);
  REQUIRE(has_session(back));
  CHECK(hit(a.port, bhttp::verb::get, page, &jar).status == 200);  // A reads B's session
}

TEST_CASE("browser form sign-in: a confidential client authenticates with client_secret_basic", "[browser_sign_in]") {
  Pages p("", "s3cret:with/odd+chars");
  const auto page = p.open_page("alice");
  auto jar = p.signed_in("alice", page);
  CHECK(hit(p.port, bhttp::verb::get, page, &jar).status == 200);
  CHECK(p.op.token_requests == 1);
}

TEST_CASE("browser form sign-in: a sign-in with several audiences and its own azp is accepted", "[browser_sign_in]") {
  Pages p;
  const auto page = p.open_page("alice");
  Jar jar;
  const auto q = p.begin(page, jar);
  const auto back = p.finish(q, jar, "alice", [](json& c) {
    c["aud"] = json::array({kClientId, "another"});
    c["azp"] = kClientId;
  });
  CHECK(back.status == 303);
  CHECK(has_session(back));
  CHECK(hit(p.port, bhttp::verb::get, page, &jar).status == 200);
}

TEST_CASE("browser form sign-in: an authorization server that cannot be reached gives 503, not a hang",
          "[browser_sign_in]") {
  // Bound and never listening: every connection is refused at once.
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket closed(ioc);
  closed.open(boost::asio::ip::tcp::v4());
  closed.bind({boost::asio::ip::make_address("127.0.0.1"), 0});
  const auto down = "http://127.0.0.1:" + std::to_string(closed.local_endpoint().port());
  Pages p(down);
  const auto page = p.open_page("alice");
  Jar jar;
  const auto r = hit(p.port, bhttp::verb::get, page, &jar);
  CHECK(r.status == 503);
  CHECK(r.location.empty());
  CHECK(r.set_cookies.empty());
  CHECK(r.body.find("not available") != std::string::npos);
  CHECK(hit(p.port, bhttp::verb::get, page, &jar).status == 503);  // again, within the retry pause
  CHECK(hit(p.port, bhttp::verb::post, page, &jar, "action=accept").status == 403);
}

TEST_CASE("browser form sign-in: start() refuses options it cannot serve", "[browser_sign_in]") {
  auto options = [] {
    test_support::PagesOptions o;
    o.browser_forms.prefix = "/forms/";
    elicit::forms::SignIn s;
    s.issuer = "http://127.0.0.1:1";
    s.client_id = kClientId;
    s.cookie_keys = {elicit::RequestStateSealer::generate_key()};
    o.browser_forms.sign_in = s;
    return o;
  };
  auto start = [](test_support::PagesOptions o) {
    elicit::http::StreamableHttpServer server(
        elicit::ServerInfo{"t", "1"}, [](elicit::Server&) {}, test_support::with_pages(std::move(o)));
    server.start();
  };
  CHECK_NOTHROW(start(options()));
  auto o = options();
  o.browser_forms.sign_in->client_id.clear();
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.sign_in->cookie_keys = {"short"};
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.sign_in->cookie_keys.clear();
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.sign_in->issuer.clear();  // and no authorization to take it from
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.public_origin = "http://forms.example.com";  // Secure cookies need https
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.public_origin = "https://forms.example.com";
  CHECK_NOTHROW(start(o));
  o = options();
  o.host = "192.0.2.1";  // plain http on an address that is not loopback: refused before binding it
  CHECK_THROWS_AS(start(o), std::invalid_argument);
  o = options();
  o.browser_forms.principal = [](const auto&) { return std::string(); };
  CHECK_THROWS_AS(start(o), std::invalid_argument);
}

}  // namespace browser_form_sign_in_test
