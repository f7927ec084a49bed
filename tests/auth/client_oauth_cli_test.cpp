// `elicitgen client` against a protected server (the sample HTTP server with --authorization-server)
// and an authorization server written here (jwt_test::DocumentServer: metadata, dynamic client
// registration, an authorization endpoint that approves at once, a token endpoint issuing ES256 JWT
// access tokens after checking the PKCE verifier): the first run prints the authorization URL on
// stderr, the test plays the browser (GET the URL, follow its one redirect to the CLI's loopback
// listener), and the call succeeds; the second run reuses the stored token without signing in; the
// store file is 0600; --no-store keeps nothing. Also the LoopbackRedirect listener on its own.
// Loopback only; every wait is bounded (the CLI's sign-in timeout, the child's exit).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include <elicit/auth/loopback_redirect.hpp>

#include "../../runtime/src/auth/oauth_wire.hpp"
#include "../../runtime/src/http/fetch.hpp"
#include "../cli/output_schema.hpp"
#include "../support/jwt_issuer.hpp"
#include "../support/run_command.hpp"
#include "../support/sample_http_server.hpp"
#include "../support/scratch_dir.hpp"
#include "../support/tcp_relay.hpp"
#include "test_paths.hpp"

namespace client_oauth_cli_test {

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// The authorization server: approves every authorization request for user "octocat".
struct AuthorizationServer {
  explicit AuthorizationServer(std::string resource_uri) : resource(std::move(resource_uri)) {
    const auto issuer = as.origin();
    as.set("/.well-known/oauth-authorization-server", json{{"issuer", issuer},
                                                           {"authorization_endpoint", issuer + "/authorize"},
                                                           {"token_endpoint", issuer + "/token"},
                                                           {"registration_endpoint", issuer + "/register"},
                                                           {"jwks_uri", issuer + "/jwks"},
                                                           {"response_types_supported", {"code"}},
                                                           {"code_challenge_methods_supported", {"S256"}},
                                                           {"token_endpoint_auth_methods_supported", {"none"}},
                                                           {"authorization_response_iss_parameter_supported", true}}
                                                          .dump());
    as.set("/jwks", json{{"keys", {key.jwk("ES256")}}}.dump());
    as.route("/register", [this](const jwt_test::DocumentServer::Request& r) {
      const auto body = json::parse(r.body, nullptr, false);
      std::lock_guard<std::mutex> lock(mutex);
      registration = body;
      return jwt_test::DocumentServer::Response{201, json{{"client_id", "cli-client-1"}}.dump(), ""};
    });
    as.route("/authorize", [this, issuer](const jwt_test::DocumentServer::Request& r) {
      const auto q = elicit::auth::query_parameters(r.target).value_or(std::map<std::string, std::string>{});
      std::lock_guard<std::mutex> lock(mutex);
      challenge = q.count("code_challenge") ? q.at("code_challenge") : "";
      authorize_resource = q.count("resource") ? q.at("resource") : "";
      const auto redirect = q.count("redirect_uri") ? q.at("redirect_uri") : "";
      return jwt_test::DocumentServer::Response{
          302, "",
          redirect + "?" +
              elicit::auth::form_encode(
                  {{"code", "the-code"}, {"state", q.count("state") ? q.at("state") : ""}, {"iss", issuer}})};
    });
    as.route("/token", [this, issuer](const jwt_test::DocumentServer::Request& r) {
      const auto form = elicit::auth::form_decode(r.body).value_or(std::map<std::string, std::string>{});
      std::lock_guard<std::mutex> lock(mutex);
      const auto verifier = form.count("code_verifier") ? form.at("code_verifier") : "";
      if (form.count("code") == 0 || form.at("code") != "the-code" || elicit::auth::pkce_s256(verifier) != challenge ||
          form.count("resource") == 0 || form.at("resource") != resource) {
        return jwt_test::DocumentServer::Response{400, json{{"error", "invalid_grant"}}.dump(), ""};
      }
      const auto now =
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
      const auto access = jwt_test::token(
          key, {{"iss", issuer}, {"sub", "octocat"}, {"aud", resource}, {"exp", now + 3600}, {"scope", "mcp"}},
          json::object(), "ES256");
      return jwt_test::DocumentServer::Response{
          200, json{{"access_token", access}, {"token_type", "Bearer"}, {"expires_in", 3600}, {"scope", "mcp"}}.dump(),
          ""};
    });
  }

  std::string resource;
  jwt_test::DocumentServer as;
  const jwt_test::SigningKey key{"EC", "k1"};
  std::mutex mutex;
  json registration;
  std::string challenge, authorize_resource;
};

// Plays the browser: GETs the authorization URL and follows its one redirect to the CLI's listener.
void open_in_browser(const std::string& url) {
  elicit::http::FetchRequest r;
  r.url = url;
  const auto approved = elicit::http::fetch(r);
  REQUIRE(approved.status == 302);
  r.url = approved.header("Location");
  REQUIRE(r.url.rfind("http://127.0.0.1:", 0) == 0);
  const auto page = elicit::http::fetch(r);
  CHECK(page.status == 200);
  CHECK_THAT(page.body, Catch::Contains("Signed in"));
  CHECK(page.body.find("the-code") == std::string::npos);  // nothing of the response echoed
}

struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr
  bool asked_to_sign_in = false;
};

// `elicitgen client --url URL [extra] call github_username --answers FILE` with XDG_STATE_HOME =
// `state`, playing the browser when it prints the authorization URL (a line "  http...").
// Bounded: the CLI gives up on the sign-in after its timeout and exits.
Run run_cli(const std::string& url, const std::string& state, const std::string& answers, const std::string& extra) {
  const auto command = "XDG_STATE_HOME='" + state + "' " + ELICITGEN_BIN + " client --url '" + url + "' " + extra +
                       " call github_username --answers '" + answers + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  Run run;
  char line[65536];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    run.output += line;
    std::string text(line);
    if (text.rfind("  http", 0) == 0) {
      run.asked_to_sign_in = true;
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      open_in_browser(text.substr(2));
    }
  }
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// The protected sample server behind a relay, so that its resource URI (the URL clients use, port
// included) is known before it starts.
struct ProtectedServer {
  ProtectedServer() : relay(0) {
    url = "http://127.0.0.1:" + std::to_string(relay.port()) + "/mcp";
    authorization = std::make_unique<AuthorizationServer>(url);
    server = std::make_unique<test_support::SampleHttpServer>(std::vector<std::string>{
        "--authorization-server", authorization->as.origin(), "--resource", url, "--scope", "mcp"});
    relay.retarget(server->port());
  }
  test_support::TcpRelay relay;
  std::string url;
  std::unique_ptr<AuthorizationServer> authorization;
  std::unique_ptr<test_support::SampleHttpServer> server;
};

}  // namespace

TEST_CASE("elicitgen client signs in once when the server asks, then reuses the stored token",
          "[client][http][oauth][cli]") {
  test_support::ScratchDir scratch("cli-oauth");
  const auto state = scratch.root().string() + "/state";
  const auto answers = scratch.root().string() + "/answers.jsonl";
  std::ofstream(answers) << "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}\n";
  ProtectedServer protected_server;
  auto& as = *protected_server.authorization;

  const auto first = run_cli(protected_server.url, state, answers, "");
  INFO(first.output);
  CHECK(first.exit_code == 0);
  CHECK(first.asked_to_sign_in);
  CHECK_THAT(first.output, Catch::Contains(R"(accept: {\"name\":\"octocat\"})"));
  CHECK(as.as.hits("/register") == 1);
  CHECK(as.as.hits("/authorize") == 1);
  CHECK(as.as.hits("/token") == 1);
  {
    std::lock_guard<std::mutex> lock(as.mutex);
    CHECK(as.registration.value("application_type", "") == "native");
    CHECK(as.registration["redirect_uris"][0].get<std::string>().rfind("http://127.0.0.1:", 0) == 0);
    CHECK(as.authorize_resource == protected_server.url);
  }
  const auto store = std::filesystem::path(state) / "elicitgen" / "oauth.json";
  struct stat st {};
  REQUIRE(::stat(store.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK((::stat(store.parent_path().c_str(), &st) == 0 && (st.st_mode & 0777) == 0700));

  // The next run finds the token in the store: no sign-in, no registration.
  const auto second = run_cli(protected_server.url, state, answers, "");
  INFO(second.output);
  CHECK(second.exit_code == 0);
  CHECK_FALSE(second.asked_to_sign_in);
  CHECK_THAT(second.output, Catch::Contains(R"(accept: {\"name\":\"octocat\"})"));
  CHECK(as.as.hits("/register") == 1);
  CHECK(as.as.hits("/authorize") == 1);

  // --no-store: signs in again and leaves the store as it was.
  const auto before = std::filesystem::last_write_time(store);
  const auto third = run_cli(protected_server.url, state, answers, "--no-store");
  INFO(third.output);
  CHECK(third.exit_code == 0);
  CHECK(third.asked_to_sign_in);
  CHECK(as.as.hits("/register") == 2);
  CHECK(std::filesystem::last_write_time(store) == before);

  // A stored token that has expired (and no refresh token to renew it): not sent, a new sign-in.
  {
    std::ifstream in(store);
    auto saved = json::parse(in);
    REQUIRE(saved["tokens"].size() == 1);
    for (auto& t : saved["tokens"]) t["expires_at"] = 1;  // 1970
    std::ofstream(store) << saved.dump();
  }
  const auto fourth = run_cli(protected_server.url, state, answers, "");
  INFO(fourth.output);
  CHECK(fourth.exit_code == 0);
  CHECK(fourth.asked_to_sign_in);
  CHECK(as.as.hits("/authorize") == 3);
  CHECK(as.as.hits("/register") == 2);  // the registration saved by the first run is reused
}

TEST_CASE("elicitgen client --bearer-token: a token the caller holds, from a file or stdin, never signs in",
          "[client][http][oauth][cli]") {
  test_support::ScratchDir scratch("cli-bearer");
  const auto dir = scratch.root().string();
  const auto state = dir + "/state";
  const auto answers = dir + "/answers.jsonl";
  std::ofstream(answers) << "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\"}}\n";
  ProtectedServer protected_server;
  auto& as = *protected_server.authorization;
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto token = jwt_test::token(as.key,
                                     {{"iss", as.as.origin()},
                                      {"sub", "octocat"},
                                      {"aud", protected_server.url},
                                      {"exp", now + 3600},
                                      {"scope", "mcp"}},
                                     json::object(), "ES256");
  std::ofstream(dir + "/token") << token << "\n";
  const auto cli =
      "XDG_STATE_HOME='" + state + "' " + std::string(ELICITGEN_BIN) + " client --url '" + protected_server.url + "' ";

  const auto from_file = run_cli(protected_server.url, state, answers, "--bearer-token '" + dir + "/token'");
  INFO(from_file.output);
  CHECK(from_file.exit_code == 0);
  CHECK_FALSE(from_file.asked_to_sign_in);
  CHECK_THAT(from_file.output, Catch::Contains(R"(accept: {\"name\":\"octocat\"})"));
  CHECK(from_file.output.find(token) == std::string::npos);
  const auto from_stdin =
      test_support::run_command("printf '%s\\n' '" + token + "' | " + cli +
                                "--bearer-token - call github_username --answers '" + answers + "' 2>&1");
  INFO(from_stdin.out);
  CHECK(from_stdin.exit_code == 0);
  CHECK_THAT(from_stdin.out, Catch::Contains(R"(accept: {\"name\":\"octocat\"})"));
  // Nothing went to the authorization server, and nothing was stored.
  CHECK(as.as.hits("/register") == 0);
  CHECK(as.as.hits("/authorize") == 0);
  CHECK(as.as.hits("/token") == 0);
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(state) / "elicitgen" / "oauth.json"));

  // A token the server refuses ends the call at once: no sign-in, the refusal said.
  std::ofstream(dir + "/bad") << "not.a.token\n";
  const auto refused = run_cli(protected_server.url, state, answers, "--bearer-token '" + dir + "/bad'");
  INFO(refused.output);
  CHECK(refused.exit_code == 4);  // authorization
  CHECK_FALSE(refused.asked_to_sign_in);
  CHECK_THAT(refused.output, Catch::Contains("the server refused the bearer token given (HTTP 401"));
  CHECK(as.as.hits("/authorize") == 0);
  const auto refused_json = test_support::run_command(
      cli + "--json --bearer-token '" + dir + "/bad' call github_username --answers '" + answers + "' 2>/dev/null");
  CHECK(refused_json.exit_code == 4);
  const auto failure = json::parse(refused_json.out);
  test_support::check_schema("client-output.schema.json", failure);
  CHECK(failure["category"] == "auth");

  // Parked with the token: the park file names it, never holds it; resume needs it again.
  const auto park = dir + "/parked.json";
  const auto parked =
      test_support::run_command(cli + "--bearer-token '" + dir + "/token' --header 'X-Gateway: gateway secret!' " +
                                "call github_username --park '" + park + "' < /dev/null 2>&1");
  INFO(parked.out);
  REQUIRE(parked.exit_code == 75);
  const auto file = test_support::read_file(park);
  CHECK(file.find(token) == std::string::npos);
  // A value no base64 text can hold (a space, '!'), so the sealed requestState cannot contain it by chance.
  CHECK(file.find("gateway secret!") == std::string::npos);
  const auto server = json::parse(file)["server"];
  CHECK(server["auth"] == "bearer");
  CHECK(server["header_names"] == json{"X-Gateway"});
  const auto resume = std::string(ELICITGEN_BIN) + " client ";
  const auto answer = " --answer 'elicitation-1={\"name\":\"octocat\"}' < /dev/null 2>&1";
  const auto no_token = test_support::run_command(resume + "resume '" + park + "'" + answer);
  CHECK(no_token.exit_code == 2);
  CHECK_THAT(no_token.out, Catch::Contains("parked with --bearer-token, which is never written down"));
  const auto no_header =
      test_support::run_command(resume + "--bearer-token '" + dir + "/token' resume '" + park + "'" + answer);
  CHECK(no_header.exit_code == 2);
  CHECK_THAT(no_header.out, Catch::Contains("parked with --header X-Gateway"));
  const auto resumed =
      test_support::run_command(resume + "--bearer-token '" + dir +
                                "/token' --header 'x-gateway:gateway secret!' resume '" + park + "'" + answer);
  INFO(resumed.out);
  CHECK(resumed.exit_code == 0);
  CHECK_THAT(resumed.out, Catch::Contains(R"(accept: {\"name\":\"octocat\"})"));
  CHECK_FALSE(std::filesystem::exists(park));

  // Never over plain http to another host (refused before connecting), nor with --stdio.
  const auto plain = test_support::run_command(std::string(ELICITGEN_BIN) +
                                               " client --url http://mcp.example.com/mcp --bearer-token '" + dir +
                                               "/token' call x < /dev/null 2>&1");
  CHECK(plain.exit_code == 2);
  CHECK_THAT(plain.out, Catch::Contains("travel over https only"));
  const auto header_plain =
      test_support::run_command(std::string(ELICITGEN_BIN) +
                                " client --url http://mcp.example.com/mcp --header 'X-Key: v' call x < /dev/null 2>&1");
  CHECK(header_plain.exit_code == 2);
  CHECK_THAT(header_plain.out, Catch::Contains("travel over https only"));
  const auto bad_header = test_support::run_command(cli + "--header 'Mcp-Session-Id: 1' call x < /dev/null 2>&1");
  CHECK(bad_header.exit_code == 2);
  CHECK_THAT(bad_header.out, Catch::Contains("header field 'Mcp-Session-Id' cannot be sent"));
}

TEST_CASE("LoopbackRedirect: another path is 404 and the wait goes on, the callback ends it, silence times out",
          "[http][oauth]") {
  elicit::auth::LoopbackRedirect listener;
  const auto uri = listener.redirect_uri();
  REQUIRE(uri.rfind("http://127.0.0.1:", 0) == 0);
  REQUIRE(uri.size() > 9);
  CHECK(uri.substr(uri.size() - 9) == "/callback");
  auto browser = std::async(std::launch::async, [&] {
    elicit::http::FetchRequest r;
    r.url = uri.substr(0, uri.size() - 9) + "/favicon.ico";
    const auto other = elicit::http::fetch(r);
    r.url = uri + "?error=access_denied&state=s";
    const auto denied = elicit::http::fetch(r);
    return std::make_pair(other, denied);
  });
  const auto answer = listener.wait(10s);
  const auto [other, denied] = browser.get();
  CHECK(other.status == 404);
  CHECK(denied.status == 200);
  CHECK_THAT(denied.body, Catch::Contains("did not complete"));
  CHECK(denied.header("Referrer-Policy") == "no-referrer");
  CHECK(answer == uri + "?error=access_denied&state=s");
  CHECK_THROWS_AS(listener.wait(50ms), elicit::auth::RedirectTimeout);
}

}  // namespace client_oauth_cli_test
