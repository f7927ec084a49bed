// The resource server's outbound fetch (runtime/src/http/fetch.hpp, used for authorization server
// metadata and keys): HTTPS verified against the CA given (by IP address and by name), an untrusted
// certificate refused with the host named, plain http only to loopback, bounded bodies and time.
// Certificates come from test_pki.hpp; the HTTPS peer is a StreamableHttpServer serving its
// Protected Resource Metadata. Loopback only.
#include <catch2/catch.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <elicit/http/server.hpp>

#include "../../runtime/src/http/fetch.hpp"
#include "../support/test_pki.hpp"

namespace fetch_test {

using elicit::http::fetch;
using elicit::http::FetchError;
using elicit::http::FetchOptions;
using elicit::http::FetchRequest;

namespace {

const test_support::Pki& pki() {
  static const test_support::Pki p("fetch");
  return p;
}

struct TlsServer {
  std::unique_ptr<elicit::http::StreamableHttpServer> server;
  TlsServer() {
    elicit::http::HttpServerOptions o;
    o.io_threads = 1;
    o.tls_certificate_chain_file = pki().crt("server");
    o.tls_private_key_file = pki().key("server");
    o.server.session.log = [](std::string_view) {};
    elicit::http::ResourceServerOptions a;
    a.resource = "https://127.0.0.1/mcp";
    a.authorization_servers = {"https://as.example.com"};
    a.verify = [](std::string_view) -> elicit::AccessToken { throw elicit::http::InvalidToken("no"); };
    o.authorization = a;
    o.allowed_hosts = {"localhost"};
    server = std::make_unique<elicit::http::StreamableHttpServer>(
        elicit::ServerInfo{"fetch-test", "1"}, [](elicit::Server&) {}, std::move(o));
    server->start();
  }
  std::string url(const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(server->port()) + "/.well-known/oauth-protected-resource/mcp";
  }
};

FetchOptions trusting(const std::string& ca) {
  FetchOptions o;
  o.ca_file = ca;
  o.timeout = std::chrono::seconds(30);
  return o;
}

std::string failure(const FetchRequest& r, const FetchOptions& o) {
  try {
    fetch(r, o);
  } catch (const FetchError& e) {
    return e.what();
  }
  return "fetched";
}

}  // namespace

TEST_CASE("fetch: https to a server whose certificate chains to the trusted CA, by address and by name",
          "[http][fetch]") {
  TlsServer s;
  for (const auto* host : {"127.0.0.1", "localhost"}) {
    INFO(host);
    FetchRequest r;
    r.url = s.url(host);
    const auto res = fetch(r, trusting(pki().ca()));
    CHECK(res.status == 200);
    CHECK(res.content_type == "application/json");
    CHECK(res.body.find("\"resource\":\"https://127.0.0.1/mcp\"") != std::string::npos);
  }
}

TEST_CASE("fetch: refuses what it must not follow, with the URL and the reason", "[http][fetch][hostile]") {
  TlsServer s;
  FetchRequest r;
  r.url = s.url();
  CHECK(failure(r, trusting(pki().other_ca())).find("not trusted for 127.0.0.1") != std::string::npos);
  r.url = "http://mcp.example.com/.well-known/jwks.json";  // plain http off loopback: never sent
  CHECK(failure(r, {}).find("http") != std::string::npos);
  r.url = "ftp://127.0.0.1/x";
  CHECK(failure(r, {}).find("ftp") != std::string::npos);
  r.url = "https://user:pw@127.0.0.1/x";
  CHECK(failure(r, {}).find("credentials") != std::string::npos);
  r.url = s.url();
  auto small = trusting(pki().ca());
  small.body_limit = 16;
  INFO(failure(r, small));
  CHECK(failure(r, small).find("larger than 16 bytes") != std::string::npos);
  r.method = "DELETE";
  CHECK(failure(r, trusting(pki().ca())).find("unsupported method") != std::string::npos);
}

TEST_CASE("fetch: a peer that never answers ends at the timeout", "[http][fetch][hostile]") {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor silent(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});  // never accepts
  FetchRequest r;
  r.url = "http://127.0.0.1:" + std::to_string(silent.local_endpoint().port()) + "/jwks";
  FetchOptions o;
  o.timeout = std::chrono::milliseconds(300);
  CHECK(failure(r, o).find("timed out") != std::string::npos);
}

}  // namespace fetch_test
