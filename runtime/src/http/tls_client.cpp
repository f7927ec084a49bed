#include "tls_client.hpp"

#include <openssl/crypto.h>
#include <openssl/x509v3.h>
#include <boost/asio/ip/address.hpp>

namespace elicit::http {

std::shared_ptr<boost::asio::ssl::context> verifying_client_context(const std::string& ca_file) {
  namespace ssl = boost::asio::ssl;
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  ctx->set_verify_mode(ssl::verify_peer);
  boost::system::error_code ec;
  if (ca_file.empty()) {
    ctx->set_default_verify_paths(ec);
    if (ec) throw std::runtime_error("cannot load the system's trusted certificates: " + ec.message());
  } else {
    ctx->load_verify_file(ca_file, ec);
    if (ec) throw std::runtime_error("cannot load the trusted certificates from " + ca_file + ": " + ec.message());
  }
  return ctx;
}

void expect_peer_name(SSL* ssl, const std::string& host) {
  auto* param = SSL_get0_param(ssl);
  boost::system::error_code not_an_address;
  boost::asio::ip::make_address(host, not_an_address);
  if (not_an_address) {
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size()) != 1 ||
        SSL_set_tlsext_host_name(ssl, host.c_str()) != 1) {
      throw std::runtime_error("cannot set the host name to verify: " + host);
    }
  } else if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {
    throw std::runtime_error("cannot set the address to verify: " + host);
  }
}

std::string handshake_failure(SSL* ssl, const std::string& host, const boost::system::error_code& error) {
  const auto verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    return "the server's certificate is not trusted for " + host + ": " + X509_verify_cert_error_string(verify);
  }
  return "the TLS handshake with " + host + " failed: " + error.message();
}

void release_thread_tls_state() noexcept { OPENSSL_thread_stop(); }

}  // namespace elicit::http
