#include "tls_certificates.hpp"

#include <stdexcept>
#include <system_error>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace elicit::http {

namespace ssl = boost::asio::ssl;

namespace {

// OpenSSL's reason for the last failure, e.g. "PEM routines::no start line".
std::string openssl_reason(const boost::system::error_code& ec) {
  const auto text = ec.message();
  return text.empty() ? "unknown error" : text;
}

}  // namespace

TlsCertificates::TlsCertificates(std::string certificate_chain_file, std::string private_key_file)
    : certificate_file_(std::move(certificate_chain_file)), key_file_(std::move(private_key_file)) {
  loaded_ = stamp();
  context_ = load();
  loads_ = 1;
  next_check_ = std::chrono::steady_clock::now() + std::chrono::seconds(1);
}

TlsCertificates::Stamp TlsCertificates::stamp() const {
  // Errors read as "no such file" stamps: a file being replaced is tried again at the next check.
  std::error_code ec;
  Stamp s;
  s.certificate = std::filesystem::last_write_time(certificate_file_, ec);
  s.certificate_size = std::filesystem::file_size(certificate_file_, ec);
  s.key = std::filesystem::last_write_time(key_file_, ec);
  s.key_size = std::filesystem::file_size(key_file_, ec);
  return s;
}

std::shared_ptr<ssl::context> TlsCertificates::load() const {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  // TLS 1.2 and 1.3 only; no compression (CRIME); a fresh key per handshake.
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::no_compression |
                   ssl::context::single_dh_use);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(certificate_file_, ec);
  if (ec) {
    throw std::runtime_error("TLS certificate chain " + certificate_file_ + ": " + openssl_reason(ec));
  }
  ctx->use_private_key_file(key_file_, ssl::context::pem, ec);
  // OpenSSL checks the key against the certificate as it loads it ("key values mismatch").
  if (ec && ec.message().find("mismatch") != std::string::npos) {
    throw std::runtime_error("TLS private key " + key_file_ + " does not match the certificate in " +
                             certificate_file_);
  }
  if (ec) throw std::runtime_error("TLS private key " + key_file_ + ": " + openssl_reason(ec));
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
    ERR_clear_error();
    throw std::runtime_error("TLS private key " + key_file_ + " does not match the certificate in " +
                             certificate_file_);
  }
  return ctx;
}

std::shared_ptr<ssl::context> TlsCertificates::current() {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now < next_check_) return context_;
  next_check_ = now + std::chrono::seconds(1);
  const auto s = stamp();
  if (s == loaded_) return context_;
  loaded_ = s;
  try {
    context_ = load();
    ++loads_;
  } catch (const std::exception&) {
    // Half-written files, or a key not yet matching its new certificate: keep serving with the
    // pair in use; the next change is tried again.
  }
  return context_;
}

unsigned TlsCertificates::loads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loads_;
}

}  // namespace elicit::http
