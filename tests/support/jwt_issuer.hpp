// An authorization server stand-in for the JWT verifier tests: signing keys made with OpenSSL
// (RSA 2048, EC P-256, Ed25519), their JWK Set, tokens signed with them in compact JWS form, and a
// loopback HTTP server that serves the metadata and key set documents and counts each fetch.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <sodium.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace jwt_test {

inline std::string b64url(std::string_view bytes) {
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

inline std::string bn_bytes(const EVP_PKEY* key, const char* name, int pad = 0) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) throw std::runtime_error(std::string("no ") + name);
  std::string out(pad ? static_cast<std::size_t>(pad) : static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(out.size()));
  BN_free(bn);
  return out;
}

/// One signing key and its public JWK.
class SigningKey {
 public:
  /// kind: "RSA" (RS256 / PS256), "EC" (ES256 on P-256), "Ed25519" (EdDSA); bits for RSA.
  SigningKey(std::string kind, std::string kid, unsigned bits = 2048) : kind_(std::move(kind)), kid_(std::move(kid)) {
    EVP_PKEY* k = kind_ == "RSA"  ? EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits))
                  : kind_ == "EC" ? EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")
                                  : EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    if (!k) throw std::runtime_error("key generation failed");
    key_.reset(k, EVP_PKEY_free);
  }

  const std::string& kid() const { return kid_; }

  /// The public JWK (no `alg` unless given).
  nlohmann::json jwk(const std::string& alg = "") const {
    nlohmann::json j;
    if (kind_ == "RSA") {
      j = {{"kty", "RSA"},
           {"n", b64url(bn_bytes(key_.get(), OSSL_PKEY_PARAM_RSA_N))},
           {"e", b64url(bn_bytes(key_.get(), OSSL_PKEY_PARAM_RSA_E))}};
    } else if (kind_ == "EC") {
      j = {{"kty", "EC"},
           {"crv", "P-256"},
           {"x", b64url(bn_bytes(key_.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32))},
           {"y", b64url(bn_bytes(key_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32))}};
    } else {
      std::string x(32, '\0');
      std::size_t n = x.size();
      EVP_PKEY_get_raw_public_key(key_.get(), reinterpret_cast<unsigned char*>(x.data()), &n);
      j = {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", b64url(x)}};
    }
    if (!kid_.empty()) j["kid"] = kid_;
    j["use"] = "sig";
    if (!alg.empty()) j["alg"] = alg;
    return j;
  }

  /// The private key as PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----").
  std::string private_pem() const {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
      throw std::runtime_error("PEM export");
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
  }

  /// The JWS signature of `input` with `alg` (RS256, PS256, ES256, EdDSA), raw bytes.
  std::string sign(const std::string& alg, std::string_view input) const {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    EVP_PKEY_CTX* pctx = nullptr;
    const EVP_MD* md = alg == "EdDSA" ? nullptr : EVP_sha256();
    if (EVP_DigestSignInit(ctx.get(), &pctx, md, nullptr, key_.get()) != 1) throw std::runtime_error("sign init");
    if (alg == "PS256") {
      EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING);
      EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST);
    }
    std::size_t n = 0;
    const auto* data = reinterpret_cast<const unsigned char*>(input.data());
    EVP_DigestSign(ctx.get(), nullptr, &n, data, input.size());
    std::string sig(n, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &n, data, input.size()) != 1)
      throw std::runtime_error("sign");
    sig.resize(n);
    if (alg != "ES256") return sig;
    // DER ECDSA-Sig-Value -> R || S (RFC 7518 section 3.4).
    const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG* es = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
    std::string raw(64, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(es), reinterpret_cast<unsigned char*>(raw.data()), 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(es), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
    ECDSA_SIG_free(es);
    return raw;
  }

 private:
  std::string kind_;
  std::string kid_;
  std::shared_ptr<EVP_PKEY> key_;
};

/// A compact JWS of `claims` with `header` (alg and kid filled from the key unless set).
inline std::string token(const SigningKey& key, nlohmann::json claims, nlohmann::json header = nlohmann::json::object(),
                         const std::string& alg = "RS256") {
  if (!header.contains("alg")) header["alg"] = alg;
  if (!header.contains("kid") && !key.kid().empty()) header["kid"] = key.kid();
  if (!header.contains("typ")) header["typ"] = "at+jwt";
  const auto input = b64url(header.dump()) + "." + b64url(claims.dump());
  return input + "." + b64url(key.sign(header["alg"].get<std::string>(), input));
}

/// HS256 over `input` keyed with `secret` (for the "HMAC with the public key" attack).
inline std::string hs256(std::string_view secret, std::string_view input) {
  unsigned char out[32];
  std::size_t n = 0;
  EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, secret.data(), secret.size(),
            reinterpret_cast<const unsigned char*>(input.data()), input.size(), out, sizeof out, &n);
  return std::string(reinterpret_cast<char*>(out), n);
}

/// Serves documents at paths over loopback HTTP (or answers from a handler given the request's body
/// and Authorization header) and counts the requests for each path.
class DocumentServer {
 public:
  DocumentServer() : acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~DocumentServer() {
    ioc_.stop();
    thread_.join();
  }
  int port() const { return acceptor_.local_endpoint().port(); }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port()); }

  void set(const std::string& path, std::string body, unsigned status = 200) {
    std::lock_guard<std::mutex> lock(mutex_);
    docs_[path] = {status, std::move(body)};
  }
  using Handler =
      std::function<std::pair<unsigned, std::string>(const std::string& body, const std::string& authorization)>;
  void handle(const std::string& path, Handler h) {
    std::lock_guard<std::mutex> lock(mutex_);
    handlers_[path] = std::move(h);
  }
  /// A request as a route sees it, and what the route answers (a redirect when `location` is set).
  struct Request {
    std::string method, target, body, authorization;
  };
  struct Response {
    unsigned status = 200;
    std::string body;
    std::string location;
  };
  /// Answers every request whose path (the target without its query) is `path`.
  void route(const std::string& path, std::function<Response(const Request&)> r) {
    std::lock_guard<std::mutex> lock(mutex_);
    routes_[path] = std::move(r);
  }
  int hits(const std::string& path) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = hits_.find(path);
    return it == hits_.end() ? 0 : it->second;
  }

 private:
  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, boost::asio::ip::tcp::socket s) {
      if (ec) return;
      serve(std::move(s));
      accept();
    });
  }
  // One request per connection, answered in the loop thread (the tests' documents are small).
  void serve(boost::asio::ip::tcp::socket s) {
    namespace http = boost::beast::http;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> req;
    boost::system::error_code ec;
    http::read(s, buffer, req, ec);
    if (ec) return;
    const std::string path(req.target());
    http::response<http::string_body> res;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++hits_[path.substr(0, path.find('?'))];  // counted by path, the query aside
      const auto it = docs_.find(path);
      const auto h = handlers_.find(path);
      const auto r = routes_.find(path.substr(0, path.find('?')));
      if (r != routes_.end()) {
        const auto answer = r->second(
            {std::string(req.method_string()), path, req.body(), std::string(req[http::field::authorization])});
        res.result(answer.status);
        res.body() = answer.body;
        if (!answer.location.empty()) res.set(http::field::location, answer.location);
      } else if (h != handlers_.end()) {
        const auto [status, body] = h->second(req.body(), std::string(req[http::field::authorization]));
        res.result(status);
        res.body() = body;
      } else if (it == docs_.end()) {
        res.result(404);
      } else {
        res.result(it->second.first);
        res.body() = it->second.second;
      }
    }
    res.version(11);
    res.set(http::field::content_type, "application/json");
    res.keep_alive(false);
    res.prepare_payload();
    http::write(s, res, ec);
    s.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  }

  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mutex_;
  std::map<std::string, std::pair<unsigned, std::string>> docs_;
  std::map<std::string, int> hits_;
  std::map<std::string, Handler> handlers_;
  std::map<std::string, std::function<Response(const Request&)>> routes_;
  std::thread thread_;
};

}  // namespace jwt_test
