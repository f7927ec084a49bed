// The TLS server context of a StreamableHttpServer (OpenSSL through Boost.Asio's ssl::context):
// TLS 1.2 or later, a certificate chain and its private key from PEM files, and a new pair picked
// up without a restart. Internal to elicit::http.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/ssl/context.hpp>

namespace elicit::http {

class TlsCertificates {
 public:
  /// Loads the pair. Throws std::runtime_error naming the file and OpenSSL's reason when a file
  /// cannot be read or parsed, or when the key does not match the certificate.
  TlsCertificates(std::string certificate_chain_file, std::string private_key_file);

  /// The context for a new connection. When either file has changed since it was loaded (checked
  /// at most once a second), the pair is loaded again first; a pair that fails to load is skipped
  /// (the context in use stays) and tried again once the files change again. Connections keep the
  /// context they started with. Thread-safe.
  std::shared_ptr<boost::asio::ssl::context> current();

  /// How many times the pair was loaded (1 after construction).
  unsigned loads() const;

 private:
  struct Stamp {
    std::filesystem::file_time_type certificate, key;
    std::uintmax_t certificate_size = 0, key_size = 0;
    bool operator==(const Stamp& o) const {
      return certificate == o.certificate && key == o.key && certificate_size == o.certificate_size &&
             key_size == o.key_size;
    }
  };
  Stamp stamp() const;
  std::shared_ptr<boost::asio::ssl::context> load() const;

  const std::string certificate_file_, key_file_;
  mutable std::mutex mutex_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  Stamp loaded_;  // the files as they were when last tried
  std::chrono::steady_clock::time_point next_check_;
  unsigned loads_ = 0;
};

}  // namespace elicit::http
