#include "client_assertion.hpp"

#include <chrono>
#include <memory>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <nlohmann/json.hpp>

#include "base64url.hpp"
#include "elicit/auth/oauth_client.hpp"
#include "oauth_wire.hpp"

namespace elicit::auth {

namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
  void operator()(ECDSA_SIG* p) const { ECDSA_SIG_free(p); }
};

// JOSE wants an ECDSA signature as r || s, each 32 bytes for P-256 (RFC 7518 section 3.4); OpenSSL
// gives the DER SEQUENCE.
std::string der_to_jose(const std::string& der) {
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  std::unique_ptr<ECDSA_SIG, Free> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())));
  if (!sig) throw OAuthError("private_key_jwt: the ECDSA signature cannot be read");
  const BIGNUM* r = nullptr;
  const BIGNUM* s = nullptr;
  ECDSA_SIG_get0(sig.get(), &r, &s);
  std::string out(64, '\0');
  if (BN_bn2binpad(r, reinterpret_cast<unsigned char*>(out.data()), 32) != 32 ||
      BN_bn2binpad(s, reinterpret_cast<unsigned char*>(out.data()) + 32, 32) != 32) {
    throw OAuthError("private_key_jwt: the ECDSA signature does not fit P-256");
  }
  return out;
}

}  // namespace

std::string client_assertion(const std::string& client_id, const std::string& audience,
                             const std::string& private_key_pem, const std::string& algorithm) {
  std::unique_ptr<BIO, Free> bio(BIO_new_mem_buf(private_key_pem.data(), static_cast<int>(private_key_pem.size())));
  std::unique_ptr<EVP_PKEY, Free> key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!key) throw OAuthError("private_key_jwt: the private key is not a PEM private key");
  const int type = EVP_PKEY_get_base_id(key.get());
  const std::string alg = !algorithm.empty() ? algorithm : type == EVP_PKEY_EC ? "ES256" : "RS256";
  if (!((alg == "RS256" && type == EVP_PKEY_RSA) ||
        (alg == "ES256" && type == EVP_PKEY_EC && EVP_PKEY_get_bits(key.get()) == 256))) {
    throw OAuthError("private_key_jwt: the key does not fit " + alg +
                     " (RS256 takes an RSA key, ES256 an EC P-256 key)");
  }
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const nlohmann::json header{{"alg", alg}, {"typ", "JWT"}};
  const nlohmann::json claims{{"iss", client_id},          {"sub", client_id}, {"aud", audience},
                              {"jti", random_urlsafe(16)}, {"iat", now},       {"exp", now + 300}};
  const auto input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  std::unique_ptr<EVP_MD_CTX, Free> ctx(EVP_MD_CTX_new());
  std::size_t length = 0;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()), input.size()) !=
          1) {
    throw OAuthError("private_key_jwt: signing failed");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    throw OAuthError("private_key_jwt: signing failed");
  }
  signature.resize(length);
  if (alg == "ES256") signature = der_to_jose(signature);
  return input + "." + base64url_encode(signature);
}

}  // namespace elicit::auth
