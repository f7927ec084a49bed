// The TLS listener (HttpServerOptions::tls_certificate_chain_file / tls_private_key_file): a client
// that trusts the certificate gets served; one that does not, plain HTTP and TLS 1.1 are refused
// and the server keeps serving; a new certificate is used from the next connection on; bad files
// fail start(). Certificates are made here with the openssl command. Loopback only; every wait is
// bounded.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <boost/asio/ssl.hpp>
#include <elicit/http/server.hpp>

#include "../support/http_client.hpp"
#include "../support/patience.hpp"
#include "../support/run_command.hpp"
#include "../support/scratch_dir.hpp"
#include "../support/session_initialize.hpp"
#include "../support/test_pki.hpp"

namespace tls_test {

namespace {

namespace ssl = boost::asio::ssl;
using http_test::beast::error_code;
using http_test::bhttp::verb;
using nlohmann::json;

const test_support::Pki& pki() {
  static const test_support::Pki p("tls");
  return p;
}

struct TlsResult {
  bool handshake = false;
  std::string error;    // of the handshake, when it failed
  std::string peer_cn;  // the server certificate's common name
  int status = 0;       // of the POST, when there was one
  std::string body;
};

// One HTTPS POST of `body` to the server on `port`, trusting `ca` (and checking the name
// 127.0.0.1), with TLS versions [min, max].
TlsResult tls_post(int port, const std::string& ca, const std::string& body, int min_version = TLS1_2_VERSION,
                   int max_version = 0) {
  TlsResult out;
  boost::asio::io_context ioc;
  ssl::context ctx(ssl::context::tls_client);
  ctx.load_verify_file(ca);
  ctx.set_verify_mode(ssl::verify_peer);
  SSL_CTX_set_min_proto_version(ctx.native_handle(), min_version);
  if (max_version != 0) {
    SSL_CTX_set_max_proto_version(ctx.native_handle(), max_version);
    SSL_CTX_set_security_level(ctx.native_handle(), 0);  // let this client offer the old version
  }
  ssl::stream<http_test::tcp::socket> stream(ioc, ctx);
  stream.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
  stream.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  error_code ec;
  stream.handshake(ssl::stream_base::client, ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  out.handshake = true;
  X509* cert = SSL_get_peer_certificate(stream.native_handle());
  if (cert != nullptr) {
    char cn[256] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
    out.peer_cn = cn;
    X509_free(cert);
  }
  http_test::bhttp::request<http_test::bhttp::string_body> req{verb::post, "/mcp", 11};
  req.set(http_test::bhttp::field::host, "127.0.0.1");
  for (const auto& [k, v] : http_test::kAccept) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  http_test::bhttp::write(stream, req, ec);
  if (ec) return out;
  http_test::beast::flat_buffer buffer;
  http_test::bhttp::response<http_test::bhttp::string_body> res;
  http_test::bhttp::read(stream, buffer, res, ec);
  if (ec) return out;
  out.status = static_cast<int>(res.result_int());
  out.body = res.body();
  return out;
}

const std::string kInitialize = test_support::session_initialize().dump();

elicit::http::HttpServerOptions tls_options(const std::string& crt, const std::string& key) {
  elicit::http::HttpServerOptions o;
  o.io_threads = 2;
  o.tls_certificate_chain_file = crt;
  o.tls_private_key_file = key;
  o.server.session.log = [](std::string_view) {};
  return o;
}

std::unique_ptr<elicit::http::StreamableHttpServer> start(elicit::http::HttpServerOptions o) {
  auto s = std::make_unique<elicit::http::StreamableHttpServer>(
      elicit::ServerInfo{"tls-test", "1", std::nullopt, std::nullopt}, [](elicit::Server&) {}, std::move(o));
  s->start();
  return s;
}

bool served(const TlsResult& r) {
  return r.handshake && r.status == 200 && r.body.find("\"result\"") != std::string::npos;
}

}  // namespace

TEST_CASE("TLS: a client that trusts the certificate is served, in a session", "[http][tls]") {
  const auto& p = pki();
  auto server = start(tls_options(p.crt("server"), p.key("server")));
  const auto r = tls_post(server->port(), p.ca(), kInitialize);
  INFO(r.error << " " << r.status << " " << r.body);
  CHECK(served(r));
  CHECK(r.peer_cn == "first");
  CHECK(server->session_count() == 1);
}

TEST_CASE("TLS: an untrusted certificate, plain HTTP and TLS 1.1 are refused and the server keeps serving",
          "[http][tls][hostile]") {
  const auto& p = pki();
  auto server = start(tls_options(p.crt("server"), p.key("server")));

  const auto untrusted = tls_post(server->port(), p.other_ca(), kInitialize);
  CHECK_FALSE(untrusted.handshake);
  CHECK(untrusted.error.find("certificate verify failed") != std::string::npos);

  // Plain HTTP to the TLS port gets no HTTP response: the handshake fails and the connection closes.
  http_test::Connection plain(server->port());
  plain.send(verb::post, "/mcp", http_test::kAccept, kInitialize);
  CHECK(plain.read_head().status == 0);

  const auto old = tls_post(server->port(), p.ca(), kInitialize, TLS1_VERSION, TLS1_1_VERSION);
  CHECK_FALSE(old.handshake);
  CHECK(old.error.find("protocol version") != std::string::npos);  // the server's alert: TLS 1.2 at least

  CHECK(server->session_count() == 0);
  CHECK(served(tls_post(server->port(), p.ca(), kInitialize)));
  CHECK(server->session_count() == 1);
}

TEST_CASE("TLS: a new certificate written to the files is used from the next connection on", "[http][tls]") {
  const auto& p = pki();
  // Copies the server may watch, replaced below.
  const auto crt = pki().dir().root() / "live.crt";
  const auto key = pki().dir().root() / "live.key";
  std::filesystem::copy_file(p.crt("server"), crt, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(p.key("server"), key, std::filesystem::copy_options::overwrite_existing);
  auto server = start(tls_options(crt.string(), key.string()));
  REQUIRE(tls_post(server->port(), p.ca(), kInitialize).peer_cn == "first");

  // A half-written pair (a new certificate, the old key) is skipped: the first pair stays in use.
  std::filesystem::copy_file(p.crt("server2"), crt, std::filesystem::copy_options::overwrite_existing);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(2500);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto r = tls_post(server->port(), p.ca(), kInitialize);
    REQUIRE(served(r));
    REQUIRE(r.peer_cn == "first");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  // The key follows: the next connection after the next check (at most a second) gets the new pair.
  std::filesystem::copy_file(p.key("server2"), key, std::filesystem::copy_options::overwrite_existing);
  std::string cn;
  const auto until = std::chrono::steady_clock::now() + test_support::kPatience;
  for (int i = 0; i < 1000 && std::chrono::steady_clock::now() < until && cn != "second"; ++i) {
    const auto r = tls_post(server->port(), p.ca(), kInitialize);
    REQUIRE(served(r));
    cn = r.peer_cn;
    if (cn != "second") std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(cn == "second");
}

TEST_CASE("TLS: start() names the file that cannot be used", "[http][tls]") {
  const auto& p = pki();
  const auto missing = pki().dir().root().string() + "/missing.crt";
  auto with = [](const std::string& crt, const std::string& key) {
    elicit::http::StreamableHttpServer s(
        elicit::ServerInfo{"tls-test", "1", std::nullopt, std::nullopt}, [](elicit::Server&) {}, tls_options(crt, key));
    s.start();
  };
  CHECK_THROWS_WITH(with(missing, p.key("server")), Catch::Contains("missing.crt"));
  CHECK_THROWS_WITH(with(p.crt("server"), p.crt("server")), Catch::Contains("server.crt"));  // not a key
  CHECK_THROWS_WITH(with(p.crt("server"), p.key("server2")), Catch::Contains("does not match"));
  elicit::http::HttpServerOptions half;
  half.tls_certificate_chain_file = p.crt("server");
  CHECK_THROWS_AS(start(half), std::invalid_argument);
}

}  // namespace tls_test
