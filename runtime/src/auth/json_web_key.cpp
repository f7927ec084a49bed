// JsonWebKeySet (jwt_verifier.hpp): JWKs (RFC 7517, RFC 7518 section 6, RFC 8037) as OpenSSL public
// keys, and JWS signature verification (RFC 7518 section 3) with them.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "base64url.hpp"
#include "elicit/auth/jwt_verifier.hpp"
#include "json_document.hpp"

namespace elicit::auth {

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

enum class Family { rsa, ec, okp };

struct Key {
  std::string kid;
  Family family;
  std::string curve;              // EC and OKP
  std::size_t coordinate = 0;     // EC: bytes per coordinate (r and s each have this length)
  std::vector<std::string> algs;  // what it verifies: its `alg`, or those of its type
  std::shared_ptr<EVP_PKEY> pkey;
};

struct Alg {
  std::string_view name;
  Family family;
  const EVP_MD* (*md)();  // nullptr for EdDSA
  bool pss;
  std::string_view curve;  // EC and OKP
};

const EVP_MD* no_md() { return nullptr; }

constexpr Alg kAlgs[] = {
    {"RS256", Family::rsa, EVP_sha256, false, ""},     {"RS384", Family::rsa, EVP_sha384, false, ""},
    {"RS512", Family::rsa, EVP_sha512, false, ""},     {"PS256", Family::rsa, EVP_sha256, true, ""},
    {"PS384", Family::rsa, EVP_sha384, true, ""},      {"PS512", Family::rsa, EVP_sha512, true, ""},
    {"ES256", Family::ec, EVP_sha256, false, "P-256"}, {"ES384", Family::ec, EVP_sha384, false, "P-384"},
    {"ES512", Family::ec, EVP_sha512, false, "P-521"}, {"EdDSA", Family::okp, no_md, false, "Ed25519"},
};

const Alg* find_alg(std::string_view name) {
  for (const auto& a : kAlgs) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
struct BldFree {
  void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};

std::string member(const nlohmann::json& jwk, const char* name) {
  const auto it = jwk.find(name);
  if (it == jwk.end()) throw std::invalid_argument(std::string("no \"") + name + "\"");
  if (!it->is_string()) throw std::invalid_argument(std::string("\"") + name + "\" is not a string");
  auto bytes = base64url_decode(it->get_ref<const std::string&>());
  if (!bytes || bytes->empty()) throw std::invalid_argument(std::string("\"") + name + "\" is not base64url");
  return *bytes;
}

// A public key from OSSL_PARAMs, checked (an EC point on its curve).
Pkey from_params(const char* type, OSSL_PARAM_BLD* bld) {
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld));
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    throw std::invalid_argument("not a valid key");
  }
  Pkey key(raw);
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check || EVP_PKEY_public_check(check.get()) != 1) throw std::invalid_argument("not a valid public key");
  return key;
}

Key rsa_key(const nlohmann::json& jwk) {
  const auto n = member(jwk, "n");
  const auto e = member(jwk, "e");
  std::unique_ptr<BIGNUM, BnFree> bn_n(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr));
  std::unique_ptr<BIGNUM, BnFree> bn_e(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr));
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bn_n || !bn_e || !bld || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
    throw std::invalid_argument("not a valid RSA key");
  }
  // RFC 7518 section 3.3: 2048 bits or larger.
  if (BN_num_bits(bn_n.get()) < 2048) throw std::invalid_argument("an RSA key under 2048 bits");
  Key k;
  k.family = Family::rsa;
  k.pkey = from_params("RSA", bld.get());
  return k;
}

Key ec_key(const nlohmann::json& jwk, const std::string& crv) {
  std::size_t size = 0;
  const char* group = nullptr;
  if (crv == "P-256") size = 32, group = "prime256v1";
  if (crv == "P-384") size = 48, group = "secp384r1";
  if (crv == "P-521") size = 66, group = "secp521r1";
  if (!group) throw std::invalid_argument("the curve \"" + crv + "\" is not supported");
  const auto x = member(jwk, "x");
  const auto y = member(jwk, "y");
  // RFC 7518 section 6.2.1.2: each coordinate is exactly the curve's size.
  if (x.size() != size || y.size() != size) throw std::invalid_argument("coordinates of the wrong length");
  const auto point = std::string(1, '\x04') + x + y;  // SEC 1 uncompressed point
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) != 1) {
    throw std::invalid_argument("not a valid EC key");
  }
  Key k;
  k.family = Family::ec;
  k.curve = crv;
  k.coordinate = size;
  k.pkey = from_params("EC", bld.get());
  return k;
}

Key okp_key(const nlohmann::json& jwk, const std::string& crv) {
  if (crv != "Ed25519") throw std::invalid_argument("the curve \"" + crv + "\" is not supported");
  const auto x = member(jwk, "x");
  if (x.size() != 32) throw std::invalid_argument("an Ed25519 key is 32 bytes");
  Pkey raw(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(x.data()),
                                       x.size()));
  if (!raw) throw std::invalid_argument("not a valid Ed25519 key");
  Key k;
  k.family = Family::okp;
  k.curve = crv;
  k.pkey = std::move(raw);
  return k;
}

Key parse_key(const nlohmann::json& jwk) {
  if (!jwk.is_object()) throw std::invalid_argument("not an object");
  const auto kty = jwk.find("kty");
  if (kty == jwk.end() || !kty->is_string()) throw std::invalid_argument("no \"kty\"");
  const auto use = jwk.find("use");
  if (use != jwk.end() && *use != "sig") throw std::invalid_argument("\"use\" is not \"sig\"");
  const auto ops = jwk.find("key_ops");
  if (ops != jwk.end() && !(ops->is_array() && std::find(ops->begin(), ops->end(), "verify") != ops->end())) {
    throw std::invalid_argument("\"key_ops\" does not include \"verify\"");
  }
  const auto crv = jwk.find("crv");
  const std::string curve = crv != jwk.end() && crv->is_string() ? crv->get<std::string>() : "";
  Key k;
  const auto& type = kty->get_ref<const std::string&>();
  if (type == "RSA") {
    k = rsa_key(jwk);
  } else if (type == "EC") {
    k = ec_key(jwk, curve);
  } else if (type == "OKP") {
    k = okp_key(jwk, curve);
  } else if (type == "oct") {
    throw std::invalid_argument("a symmetric key (\"oct\") cannot verify a public signature");
  } else {
    throw std::invalid_argument("the key type \"" + type + "\" is not supported");
  }
  for (const auto& a : kAlgs) {
    if (a.family == k.family && (k.family == Family::rsa || a.curve == k.curve)) k.algs.emplace_back(a.name);
  }
  const auto alg = jwk.find("alg");
  if (alg != jwk.end()) {
    if (!alg->is_string() || std::find(k.algs.begin(), k.algs.end(), alg->get<std::string>()) == k.algs.end()) {
      throw std::invalid_argument("\"alg\" " + alg->dump() + " does not fit the key");
    }
    k.algs = {alg->get<std::string>()};
  }
  const auto kid = jwk.find("kid");
  if (kid != jwk.end()) {
    if (!kid->is_string()) throw std::invalid_argument("\"kid\" is not a string");
    k.kid = kid->get<std::string>();
  }
  return k;
}

// RFC 7518 section 3.4: R || S, each the curve's size, as the DER ECDSA-Sig-Value OpenSSL verifies.
std::optional<std::string> ecdsa_der(std::string_view signature, std::size_t coordinate) {
  if (signature.size() != 2 * coordinate) return std::nullopt;
  const auto* bytes = reinterpret_cast<const unsigned char*>(signature.data());
  BIGNUM* r = BN_bin2bn(bytes, static_cast<int>(coordinate), nullptr);
  BIGNUM* s = BN_bin2bn(bytes + coordinate, static_cast<int>(coordinate), nullptr);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  if (!r || !s || !sig || ECDSA_SIG_set0(sig, r, s) != 1) {
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  unsigned char* der = nullptr;
  const int n = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);  // frees r and s
  if (n <= 0) return std::nullopt;
  std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(n));
  OPENSSL_free(der);
  return out;
}

bool verify_with(const Key& key, const Alg& alg, std::string_view input, std::string_view signature) {
  std::string der;
  if (alg.family == Family::ec) {
    auto d = ecdsa_der(signature, key.coordinate);
    if (!d) return false;
    der = std::move(*d);
    signature = der;
  }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_PKEY_CTX* pctx = nullptr;
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), &pctx, alg.md(), nullptr, key.pkey.get()) != 1) return false;
  if (alg.pss && (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1 ||
                  EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1)) {
    return false;
  }
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

}  // namespace

struct JsonWebKeySet::Impl {
  std::vector<Key> keys;
  std::vector<std::string> skipped;
};

JsonWebKeySet::JsonWebKeySet() : impl_(std::make_shared<Impl>()) {}

JsonWebKeySet JsonWebKeySet::parse(std::string_view document) {
  const auto doc = parse_json_document(document);
  if (!doc) throw std::invalid_argument("the JWK Set is not JSON (or nests too deeply)");
  if (!doc->is_object()) throw std::invalid_argument("the JWK Set is not a JSON object");
  const auto keys = doc->find("keys");
  if (keys == doc->end() || !keys->is_array()) throw std::invalid_argument("/keys: missing or not an array");
  auto impl = std::make_shared<Impl>();
  for (std::size_t i = 0; i < keys->size(); ++i) {
    try {
      impl->keys.push_back(parse_key((*keys)[i]));
    } catch (const std::invalid_argument& e) {
      impl->skipped.push_back("/keys/" + std::to_string(i) + ": " + e.what());
    }
  }
  JsonWebKeySet set;
  set.impl_ = std::move(impl);
  return set;
}

std::size_t JsonWebKeySet::size() const { return impl_->keys.size(); }

bool JsonWebKeySet::has_key_id(std::string_view kid) const {
  return std::any_of(impl_->keys.begin(), impl_->keys.end(), [&](const Key& k) { return k.kid == kid; });
}

const std::vector<std::string>& JsonWebKeySet::skipped() const { return impl_->skipped; }

void JsonWebKeySet::verify_signature(std::string_view alg_name, std::string_view kid, std::string_view signing_input,
                                     std::string_view signature) const {
  const Alg* alg = find_alg(alg_name);
  if (!alg) {
    throw http::InvalidToken(alg_name == "none" ? "unsigned tokens (alg \"none\") are not accepted"
                                                : "the signature algorithm is not accepted");
  }
  bool named = false, fitting = false;
  for (const auto& key : impl_->keys) {
    if (!kid.empty() && key.kid != kid) continue;
    named = true;
    if (std::find(key.algs.begin(), key.algs.end(), alg_name) == key.algs.end()) continue;
    fitting = true;
    if (verify_with(key, *alg, signing_input, signature)) return;
  }
  if (!named) throw UnknownSigningKey("the token is signed with a key the authorization server does not publish");
  if (!fitting) throw http::InvalidToken("the signature algorithm does not fit the signing key");
  throw http::InvalidToken("the signature does not verify");
}

}  // namespace elicit::auth
