// elicit::Client over HTTPS (HttpClientTransport with TLS) against the sample HTTP server serving
// TLS with certificates made for the test: the chain verified against the CA given, by address and
// by name, in both eras; an untrusted chain, a certificate for another name, a server that does not
// speak TLS and an unreadable CA file each end in an error that says so, never in a plain-http
// retry. And persistent connections: a client's sequential requests share one connection, one the
// server dropped is replaced, and a request the server's close crossed goes once more, only once.
// Loopback only; every wait is bounded by the transport's timeouts.
#include <catch2/catch.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

#include "../cli/output_schema.hpp"
#include "../support/free_port.hpp"
#include "../support/run_command.hpp"
#include "../support/sample_http_server.hpp"
#include "../support/tcp_relay.hpp"
#include "../support/test_pki.hpp"
#include "../support/tool_text.hpp"
#include "github_username.hpp"
#include "test_paths.hpp"

namespace client_tls_test {

using namespace elicit;
using test_support::SampleHttpServer;
using test_support::text_of;

namespace {

const test_support::Pki& pki() {
  static const test_support::Pki p = [] {
    test_support::Pki made("client-tls");
    made.leaf("elsewhere", "elsewhere", "DNS:elsewhere.test");  // names neither 127.0.0.1 nor localhost
    return made;
  }();
  return p;
}

std::vector<std::string> tls_arguments(const std::string& leaf = "server") {
  return {"--tls-cert", pki().crt(leaf), "--tls-key", pki().key(leaf)};
}

std::unique_ptr<Client> client_for(const std::string& url, const std::string& ca_file,
                                   const std::string& version = "2026-07-28") {
  http::HttpClientOptions t;
  t.url = url;
  t.ca_file = ca_file;
  t.protocol_version = version;
  t.connect_timeout = std::chrono::milliseconds(5000);
  ClientOptions o;
  o.protocol_version = version;
  o.fallback_protocol_version = std::nullopt;
  o.session.log = [](std::string_view) {};
  return std::make_unique<Client>(std::make_unique<http::HttpClientTransport>(t), o);
}

// The error connect() ends with ("" when it connected).
std::string connect_error(Client& client) {
  try {
    client.connect();
  } catch (const ClientError& e) {
    return e.what();
  }
  return "";
}

std::string with_port(const std::string& host, int port) {
  return "https://" + host + ":" + std::to_string(port) + "/mcp";
}

}  // namespace

TEST_CASE("client over HTTPS: a form answered in both eras, the chain verified by address and by name",
          "[client][http][tls]") {
  SampleHttpServer server(tls_arguments());
  REQUIRE(server.url.rfind("https://127.0.0.1:", 0) == 0);
  for (const char* host : {"127.0.0.1", "localhost"}) {
    for (const char* version : {"2025-11-25", "2026-07-28"}) {
      INFO(host << " " << version);
      auto client = client_for(with_port(host, server.port()), pki().ca(), version);
      client->on_form<samples::GithubUsername>([](const ElicitationRequest&) {
        samples::GithubUsername g;
        g.name = "octocat";
        return FormAnswer<samples::GithubUsername>::accept(g);
      });
      client->connect();
      CHECK(client->protocol_version() == version);
      CHECK(text_of(client->call_tool("github_username")) == R"(accept: {"name":"octocat"})");
      CHECK_FALSE(client->list_tools().empty());
    }
  }
}

TEST_CASE("client over HTTPS: an untrusted chain, another name, no TLS: errors that say so, no downgrade",
          "[client][http][tls]") {
  SampleHttpServer server(tls_arguments());
  {
    auto client = client_for(server.url, pki().other_ca());
    const auto error = connect_error(*client);
    CHECK_THAT(error, Catch::Contains("not trusted for 127.0.0.1: unable to get local issuer certificate"));
  }
  {
    // Without a CA file the system's store decides, and it does not know the test CA.
    auto client = client_for(server.url, "");
    CHECK_THAT(connect_error(*client), Catch::Contains("not trusted for 127.0.0.1"));
  }
  SampleHttpServer elsewhere(tls_arguments("elsewhere"));
  {
    auto client = client_for(with_port("127.0.0.1", elsewhere.port()), pki().ca());
    CHECK_THAT(connect_error(*client), Catch::Contains("not trusted for 127.0.0.1: IP address mismatch"));
  }
  {
    auto client = client_for(with_port("localhost", elsewhere.port()), pki().ca());
    CHECK_THAT(connect_error(*client), Catch::Contains("not trusted for localhost: hostname mismatch"));
  }
  SampleHttpServer plain;
  REQUIRE(plain.url.rfind("http://", 0) == 0);
  {
    auto client = client_for(with_port("127.0.0.1", plain.port()), pki().ca());
    CHECK_THAT(connect_error(*client), Catch::Contains("the TLS handshake with 127.0.0.1 failed"));
  }
  http::HttpClientOptions unreadable;
  unreadable.url = server.url;
  unreadable.ca_file = pki().dir().root().string() + "/no-such-ca.pem";
  try {
    http::HttpClientTransport transport(unreadable);
    FAIL("a CA file that does not exist was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Contains("cannot load the trusted certificates from " + unreadable.ca_file));
  }
}

// A client as `elicitgen client` makes one: 2026-07-28 first, 2025-11-25 as its fallback; its log
// lines are kept in `log`.
std::unique_ptr<Client> probing_client(const std::string& url, const std::string& ca_file,
                                       std::shared_ptr<std::vector<std::string>> log) {
  http::HttpClientOptions t;
  t.url = url;
  t.ca_file = ca_file;
  t.connect_timeout = std::chrono::milliseconds(5000);
  ClientOptions o;
  o.protocol_version = "2026-07-28";
  auto mutex = std::make_shared<std::mutex>();
  o.session.log = [log, mutex](std::string_view line) {
    std::lock_guard<std::mutex> lock(*mutex);
    log->emplace_back(line);
  };
  return std::make_unique<Client>(std::make_unique<http::HttpClientTransport>(t), o);
}

TEST_CASE("client: a failure that is no answer from the server is reported once, with a hint, never as an older era",
          "[client][http][tls]") {
  SampleHttpServer tls(tls_arguments());
  SampleHttpServer elsewhere(tls_arguments("elsewhere"));
  SampleHttpServer plain;
  const auto plain_port = std::to_string(plain.port());
  const auto tls_port = std::to_string(tls.port());
  const auto closed_port = std::to_string(test_support::free_loopback_port());
  struct Case {
    std::string url, ca_file;
    std::vector<std::string> expected;  // every one in the error
  };
  const Case cases[] = {
      {"http://127.0.0.1:" + closed_port + "/mcp", "", {"Connection refused", "is the server running"}},
      {"http://127.0.0.1:" + tls_port + "/mcp", "", {"no answer from", "does it speak https://"}},
      {"https://127.0.0.1:" + plain_port + "/mcp",
       pki().ca(),
       {"wrong version number", "http:// rather than https://"}},
      {"https://127.0.0.1:" + tls_port + "/mcp", "", {"not trusted for 127.0.0.1", "--ca-file"}},
      {with_port("localhost", elsewhere.port()), pki().ca(), {"hostname mismatch", "names another host"}},
      {"http://127.0.0.1:" + plain_port + "/", "", {"HTTP 404", "the MCP endpoint is usually /mcp"}},
  };
  for (const auto& c : cases) {
    INFO(c.url);
    auto log = std::make_shared<std::vector<std::string>>();
    auto client = probing_client(c.url, c.ca_file, log);
    const auto error = connect_error(*client);
    INFO(error);
    for (const auto& e : c.expected) CHECK_THAT(error, Catch::Contains(e));
    std::string lines;
    for (const auto& l : *log) lines += l + "\n";
    INFO(lines);
    CHECK_THAT(lines, !Catch::Contains("initialize-based") && !Catch::Contains("without a usable id"));
  }
  // The same servers answer a right URL, so each failure above was the URL's.
  auto log = std::make_shared<std::vector<std::string>>();
  CHECK(connect_error(*probing_client(plain.url, "", log)).empty());
  CHECK(connect_error(*probing_client(tls.url, pki().ca(), log)).empty());
}

TEST_CASE("client over HTTP and HTTPS: sequential requests share a kept-alive connection, a dropped one is replaced",
          "[client][http][keep-alive]") {
  for (const bool tls : {false, true}) {
    INFO((tls ? "https" : "http"));
    SampleHttpServer server(tls ? tls_arguments() : std::vector<std::string>{});
    test_support::TcpRelay relay(server.port());
    const auto url = std::string(tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(relay.port()) + "/mcp";
    auto client = client_for(url, tls ? pki().ca() : "");
    client->connect();
    for (int i = 0; i < 10; ++i) CHECK_FALSE(client->list_tools().empty());
    CHECK(relay.accepted() == 1);

    // The server closes its idle connections: the next request goes on a new one.
    relay.drop_connections();
    CHECK_FALSE(client->list_tools().empty());
    CHECK(relay.accepted() == 2);

    // The server closes the kept connection as the request arrives: sent again on a new one.
    relay.close_on_send(true);
    CHECK_FALSE(client->list_tools().empty());
    CHECK(relay.accepted() == 3);

    // Every connection closes as the request arrives: one more try, then the error (no loop). With
    // TLS the new connection already fails in its handshake (the client speaks first there).
    relay.close_on_send(true, true);
    try {
      client->list_tools();
      FAIL("a request no server answered succeeded");
    } catch (const ClientError& e) {
      CHECK_THAT(e.what(),
                 Catch::Contains(tls ? "cannot connect to " + url + ": the TLS handshake with 127.0.0.1 failed"
                                     : "no answer from " + url));
    }
    CHECK(relay.accepted() == 4);
  }
}

TEST_CASE("elicitgen client --url https with --ca-file, and without it the certificate is refused",
          "[client][http][tls][cli]") {
  SampleHttpServer server(tls_arguments());
  const auto cli = std::string(ELICITGEN_BIN) + " client --url '" + server.url + "'";
  const auto trusted = test_support::run_command(cli + " --ca-file '" + pki().ca() + "' list --json 2>&1");
  CHECK(trusted.exit_code == 0);
  CHECK_THAT(trusted.out, Catch::Contains("\"github_username\""));
  // The server was reached and its TLS not accepted: exit 5, category tls (not a refused connection).
  const auto refused = test_support::run_command(cli + " list --json 2>/dev/null");
  CHECK(refused.exit_code == 5);
  INFO(refused.out);
  const auto failure = nlohmann::json::parse(refused.out);
  test_support::check_schema("client-output.schema.json", failure);
  CHECK(failure["outcome"] == "failure");
  CHECK(failure["category"] == "tls");
  CHECK_THAT(failure["message"].get<std::string>(), Catch::Contains("not trusted for 127.0.0.1"));
  const auto missing = test_support::run_command(cli + " --ca-file /nonexistent/ca.pem list 2>&1");
  CHECK(missing.exit_code != 0);
  CHECK_THAT(missing.out, Catch::Contains("/nonexistent/ca.pem"));
}

}  // namespace client_tls_test
