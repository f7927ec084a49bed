#include "elicit/request_state.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace elicit {
namespace {

constexpr std::string_view kVersionPrefix = "v1.";
constexpr std::size_t kKeyBytes = crypto_aead_xchacha20poly1305_ietf_KEYBYTES;
constexpr std::size_t kKeyIdBytes = 4;
constexpr std::size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr std::size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
constexpr std::size_t kExpiryBytes = 8;
constexpr std::size_t kDigestBytes = 32;
constexpr std::size_t kHeaderBytes = kKeyIdBytes + kNonceBytes;
constexpr std::size_t kAdBytes = kVersionPrefix.size() + kKeyIdBytes + kDigestBytes;
static_assert(kKeyBytes == 32 && kNonceBytes == 24 && kTagBytes == 16, "the documented v1 format");

using Bytes = std::vector<unsigned char>;
using KeyId = std::array<unsigned char, kKeyIdBytes>;
using Digest = std::array<unsigned char, kDigestBytes>;

void require_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("requestState: libsodium could not be initialised");
}

const unsigned char* as_bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

void put_u64(Bytes& out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
}

std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

// An 8-byte big-endian length, then the bytes: no two field lists encode alike.
void update_field(crypto_generichash_state& h, std::string_view field) {
  Bytes length;
  put_u64(length, field.size());
  crypto_generichash_update(&h, length.data(), length.size());
  crypto_generichash_update(&h, as_bytes(field), field.size());
}

// The binding digest of the documented format. Throws nlohmann::json::type_error for invalid UTF-8.
Digest binding_digest(const RequestStateBinding& b) {
  static const nlohmann::json kEmptyObject = nlohmann::json::object();
  const std::string arguments = (b.arguments.is_null() ? kEmptyObject : b.arguments).dump();
  crypto_generichash_state h;
  crypto_generichash_init(&h, nullptr, 0, kDigestBytes);
  update_field(h, "elicitgen requestState binding v1");
  update_field(h, b.method);
  update_field(h, b.name);
  update_field(h, arguments);
  update_field(h, b.principal);
  Digest d;
  crypto_generichash_final(&h, d.data(), d.size());
  return d;
}

std::int64_t to_epoch_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

std::string base64(const unsigned char* data, std::size_t size, int variant) {
  std::string out(sodium_base64_ENCODED_LEN(size, variant), '\0');
  sodium_bin2base64(out.data(), out.size(), data, size, variant);
  out.pop_back();  // the terminating NUL
  return out;
}

// Decodes all of `text` or fails (libsodium also rejects non-zero padding bits).
std::optional<Bytes> from_base64(std::string_view text, int variant) {
  Bytes out(text.size() / 4 * 3 + 3);
  std::size_t n = 0;
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &n, nullptr, variant) != 0) {
    return std::nullopt;
  }
  out.resize(n);
  return out;
}

}  // namespace

struct RequestStateSealer::State {
  struct Key {
    std::array<unsigned char, kKeyBytes> bytes;
    KeyId id;
  };
  std::vector<Key> keys;  // keys[0] seals
  std::chrono::milliseconds ttl;
  std::size_t max_bytes;
  std::function<std::chrono::system_clock::time_point()> clock;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    for (auto& k : keys) sodium_memzero(k.bytes.data(), k.bytes.size());
  }

  void add_key(const unsigned char* key) {
    Key k;
    std::copy(key, key + kKeyBytes, k.bytes.begin());
    static constexpr std::string_view kIdMessage = "elicitgen requestState key id";
    std::array<unsigned char, crypto_generichash_BYTES_MIN> id;
    crypto_generichash(id.data(), id.size(), as_bytes(kIdMessage), kIdMessage.size(), k.bytes.data(), k.bytes.size());
    std::copy(id.begin(), id.begin() + kKeyIdBytes, k.id.begin());
    keys.push_back(k);
    sodium_memzero(&k, sizeof k);
  }

  std::chrono::system_clock::time_point now() const { return clock ? clock() : std::chrono::system_clock::now(); }
};

namespace {

// "v1." || key_id || binding digest.
std::array<unsigned char, kAdBytes> associated_data(const unsigned char* key_id, const Digest& digest) {
  std::array<unsigned char, kAdBytes> ad;
  auto out = std::copy(kVersionPrefix.begin(), kVersionPrefix.end(), ad.begin());
  out = std::copy(key_id, key_id + kKeyIdBytes, out);
  std::copy(digest.begin(), digest.end(), out);
  return ad;
}

}  // namespace

RequestStateSealer::RequestStateSealer(RequestStateOptions options) {
  require_sodium();
  if (options.ttl <= std::chrono::milliseconds::zero()) {
    throw std::invalid_argument("requestState: the ttl must be positive");
  }
  auto state = std::make_shared<State>();
  state->ttl = options.ttl;
  state->max_bytes = options.max_bytes;
  state->clock = std::move(options.clock);
  state->keys.reserve(std::max<std::size_t>(options.keys.size(), 1));  // no reallocation leaves key copies behind
  for (std::size_t i = 0; i < options.keys.size(); ++i) {
    if (options.keys[i].size() != kKeyBytes) {
      for (auto& key : options.keys) sodium_memzero(key.data(), key.size());
      throw std::invalid_argument("requestState: key " + std::to_string(i) + " is " +
                                  std::to_string(options.keys[i].size()) + " bytes, not 32");
    }
    state->add_key(as_bytes(options.keys[i]));
    sodium_memzero(options.keys[i].data(), options.keys[i].size());
  }
  if (state->keys.empty()) {
    std::array<unsigned char, kKeyBytes> key;
    crypto_aead_xchacha20poly1305_ietf_keygen(key.data());
    state->add_key(key.data());
    sodium_memzero(key.data(), key.size());
  }
  state_ = std::move(state);
}

RequestStateSealer::~RequestStateSealer() = default;
RequestStateSealer::RequestStateSealer(const RequestStateSealer&) = default;
RequestStateSealer& RequestStateSealer::operator=(const RequestStateSealer&) = default;

std::string RequestStateSealer::seal(const nlohmann::json& payload, const RequestStateBinding& binding) const {
  const State& s = *state_;
  std::string text = payload.dump();
  const std::size_t binary = kHeaderBytes + kTagBytes + kExpiryBytes + text.size();
  const std::size_t sealed =
      kVersionPrefix.size() + sodium_base64_ENCODED_LEN(binary, sodium_base64_VARIANT_URLSAFE_NO_PADDING) - 1;
  if (binary < text.size() || sealed > s.max_bytes) {
    throw std::length_error("requestState: the sealed state would be " + std::to_string(sealed) +
                            " bytes, more than max_bytes (" + std::to_string(s.max_bytes) + ")");
  }
  const State::Key& key = s.keys.front();
  const Digest digest = binding_digest(binding);

  const std::int64_t now = to_epoch_ms(s.now());
  const std::int64_t ttl = s.ttl.count();
  const std::int64_t expiry =
      now > std::numeric_limits<std::int64_t>::max() - ttl ? std::numeric_limits<std::int64_t>::max() : now + ttl;
  Bytes plain;
  plain.reserve(kExpiryBytes + text.size());
  put_u64(plain, static_cast<std::uint64_t>(expiry));
  plain.insert(plain.end(), text.begin(), text.end());

  Bytes out(binary);
  std::copy(key.id.begin(), key.id.end(), out.begin());
  unsigned char* nonce = out.data() + kKeyIdBytes;
  randombytes_buf(nonce, kNonceBytes);
  const auto ad = associated_data(key.id.data(), digest);
  unsigned long long cipher_len = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + kHeaderBytes, &cipher_len, plain.data(), plain.size(),
                                             ad.data(), ad.size(), nullptr, nonce, key.bytes.data());
  sodium_memzero(plain.data(), plain.size());
  sodium_memzero(text.data(), text.size());
  return std::string(kVersionPrefix) + base64(out.data(), out.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

std::optional<nlohmann::json> RequestStateSealer::open(std::string_view state,
                                                       const RequestStateBinding& binding) const {
  const State& s = *state_;
  if (state.size() > s.max_bytes || state.substr(0, kVersionPrefix.size()) != kVersionPrefix) return std::nullopt;
  const auto binary = from_base64(state.substr(kVersionPrefix.size()), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  if (!binary || binary->size() < kHeaderBytes + kTagBytes + kExpiryBytes) return std::nullopt;

  Digest digest;
  try {
    digest = binding_digest(binding);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // arguments that no state can have been sealed with
  }
  const unsigned char* id = binary->data();
  const unsigned char* nonce = id + kKeyIdBytes;
  const unsigned char* cipher = binary->data() + kHeaderBytes;
  const std::size_t cipher_len = binary->size() - kHeaderBytes;
  const auto ad = associated_data(id, digest);
  Bytes plain(cipher_len - kTagBytes);
  for (const State::Key& key : s.keys) {
    if (sodium_memcmp(key.id.data(), id, kKeyIdBytes) != 0) continue;
    unsigned long long plain_len = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain.data(), &plain_len, nullptr, cipher, cipher_len, ad.data(),
                                                   ad.size(), nonce, key.bytes.data()) != 0) {
      continue;  // another key with the same id, or tampered with
    }
    const auto expiry = static_cast<std::int64_t>(get_u64(plain.data()));
    std::optional<nlohmann::json> payload;
    if (to_epoch_ms(s.now()) < expiry) {
      auto value = nlohmann::json::parse(plain.begin() + kExpiryBytes, plain.begin() + plain_len, nullptr, false);
      if (!value.is_discarded()) payload = std::move(value);
    }
    sodium_memzero(plain.data(), plain.size());
    return payload;
  }
  return std::nullopt;
}

std::string RequestStateSealer::generate_key() {
  require_sodium();
  std::string key(kKeyBytes, '\0');
  randombytes_buf(key.data(), key.size());
  return key;
}

std::string RequestStateSealer::key_to_base64(std::string_view key) {
  return base64(as_bytes(key), key.size(), sodium_base64_VARIANT_ORIGINAL);
}

std::optional<std::string> RequestStateSealer::key_from_base64(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  const bool urlsafe = text.find_first_of("-_") != std::string_view::npos;
  const bool padded = !text.empty() && text.back() == '=';
  const int variant = urlsafe ? (padded ? sodium_base64_VARIANT_URLSAFE : sodium_base64_VARIANT_URLSAFE_NO_PADDING)
                              : (padded ? sodium_base64_VARIANT_ORIGINAL : sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
  auto binary = from_base64(text, variant);
  if (!binary || binary->size() != kKeyBytes) {
    if (binary) sodium_memzero(binary->data(), binary->size());
    return std::nullopt;
  }
  std::string key(binary->begin(), binary->end());
  sodium_memzero(binary->data(), binary->size());
  return key;
}

}  // namespace elicit
