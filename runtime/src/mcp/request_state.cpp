#include "elicit/request_state.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "json_fast.hpp"

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

void put_u64(unsigned char* out, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) out[i] = static_cast<unsigned char>(v);
}

std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

// An 8-byte big-endian length, then the bytes: no two field lists encode alike.
void update_field(crypto_generichash_state& h, std::string_view field) {
  unsigned char length[8];
  put_u64(length, field.size());
  crypto_generichash_update(&h, length, sizeof length);
  crypto_generichash_update(&h, as_bytes(field), field.size());
}

// payload.dump() (strict: nlohmann::json::type_error for invalid UTF-8), appended to `out` by the
// runtime's serializer, which writes the same bytes without nlohmann's per-character escaping.
void append_dump(std::string& out, const nlohmann::json& payload) {
  jsonrpc::detail::append_dump(out, payload, nlohmann::json::error_handler_t::strict);
}

// The binding digest of the documented format. Throws nlohmann::json::type_error for invalid UTF-8.
Digest binding_digest(const RequestStateBinding& b) {
  std::string arguments;
  if (b.arguments.is_null()) {
    arguments = "{}";
  } else {
    append_dump(arguments, b.arguments);
  }
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

// Base64url without padding (RFC 4648, section 5) of the sealed bytes, by table. Not libsodium's
// sodium_bin2base64 / sodium_base642bin: those avoid tables so as to be constant-time for secrets
// (keys, below), at many instructions a character, while the sealed bytes (key id, nonce,
// ciphertext and tag) are public. The decoder is as strict as libsodium's: only the alphabet, no
// length of 1 mod 4, zero unused bits in the last character.
constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

struct Base64UrlValues {
  signed char of[256] = {};
  constexpr Base64UrlValues() {
    for (auto& v : of) v = -1;
    for (int i = 0; i < 64; ++i) of[static_cast<unsigned char>(kBase64Url[i])] = static_cast<signed char>(i);
  }
};
constexpr Base64UrlValues kBase64UrlValues{};

void append_base64url(std::string& out, const unsigned char* data, std::size_t size) {
  const std::size_t at = out.size();
  out.resize(at + (size * 4 + 2) / 3);
  char* o = out.data() + at;
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
    *o++ = kBase64Url[v >> 18];
    *o++ = kBase64Url[(v >> 12) & 63];
    *o++ = kBase64Url[(v >> 6) & 63];
    *o++ = kBase64Url[v & 63];
  }
  if (size - i == 1) {
    *o++ = kBase64Url[data[i] >> 2];
    *o++ = kBase64Url[(data[i] & 3) << 4];
  } else if (size - i == 2) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 8) | data[i + 1];
    *o++ = kBase64Url[v >> 10];
    *o++ = kBase64Url[(v >> 4) & 63];
    *o++ = kBase64Url[(v & 15) << 2];
  }
}

std::optional<Bytes> from_base64url(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  Bytes out(text.size() / 4 * 3 + (text.size() % 4 == 0 ? 0 : text.size() % 4 - 1));
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  unsigned char* o = out.data();
  std::size_t i = 0;
  for (; i + 4 <= text.size(); i += 4) {
    const int a = kBase64UrlValues.of[t[i]], b = kBase64UrlValues.of[t[i + 1]];
    const int c = kBase64UrlValues.of[t[i + 2]], d = kBase64UrlValues.of[t[i + 3]];
    if ((a | b | c | d) < 0) return std::nullopt;
    const auto v = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6 | d);
    *o++ = static_cast<unsigned char>(v >> 16);
    *o++ = static_cast<unsigned char>(v >> 8);
    *o++ = static_cast<unsigned char>(v);
  }
  const std::size_t left = text.size() - i;
  if (left >= 2) {
    const int a = kBase64UrlValues.of[t[i]], b = kBase64UrlValues.of[t[i + 1]];
    const int c = left == 3 ? kBase64UrlValues.of[t[i + 2]] : 0;
    if ((a | b | c) < 0) return std::nullopt;
    const auto v = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6);
    if ((left == 2 && (v & 0xFFFF) != 0) || (left == 3 && (v & 0xFF) != 0)) return std::nullopt;  // unused bits
    *o++ = static_cast<unsigned char>(v >> 16);
    if (left == 3) *o++ = static_cast<unsigned char>(v >> 8);
  }
  return out;
}

// Keys (secrets) go through libsodium's constant-time codec.
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
  // The plaintext in one buffer: the expiry's 8 bytes (written by seal_plain), then the payload's
  // JSON. Room for a typical payload (a few answered forms), so that the buffer zeroed there is
  // usually the only copy: growing it leaves the earlier part in freed memory. Under 1 KiB, so that
  // glibc serves it from its per-thread cache: a larger block costs more than the AEAD (callgrind).
  std::string plain(kExpiryBytes, '\0');
  plain.reserve(kExpiryBytes + 480);
  append_dump(plain, payload);
  return seal_plain(plain, binding);
}

std::string RequestStateSealer::seal_text(std::string_view payload_json, const RequestStateBinding& binding) const {
  std::string plain;
  plain.reserve(kExpiryBytes + payload_json.size());  // one block: see seal()
  plain.append(kExpiryBytes, '\0');
  plain += payload_json;
  return seal_plain(plain, binding);
}

std::string RequestStateSealer::seal_plain(std::string& plain, const RequestStateBinding& binding) const {
  const State& s = *state_;
  const std::size_t text_size = plain.size() - kExpiryBytes;
  const std::size_t binary = kHeaderBytes + kTagBytes + kExpiryBytes + text_size;
  const std::size_t sealed =
      kVersionPrefix.size() + sodium_base64_ENCODED_LEN(binary, sodium_base64_VARIANT_URLSAFE_NO_PADDING) - 1;
  if (binary < text_size || sealed > s.max_bytes) {
    throw std::length_error("requestState: the sealed state would be " + std::to_string(sealed) +
                            " bytes, more than max_bytes (" + std::to_string(s.max_bytes) + ")");
  }
  const State::Key& key = s.keys.front();
  const Digest digest = binding_digest(binding);

  const std::int64_t now = to_epoch_ms(s.now());
  const std::int64_t ttl = s.ttl.count();
  const std::int64_t expiry =
      now > std::numeric_limits<std::int64_t>::max() - ttl ? std::numeric_limits<std::int64_t>::max() : now + ttl;
  put_u64(reinterpret_cast<unsigned char*>(plain.data()), static_cast<std::uint64_t>(expiry));

  Bytes out(binary);
  std::copy(key.id.begin(), key.id.end(), out.begin());
  unsigned char* nonce = out.data() + kKeyIdBytes;
  randombytes_buf(nonce, kNonceBytes);
  const auto ad = associated_data(key.id.data(), digest);
  unsigned long long cipher_len = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + kHeaderBytes, &cipher_len, as_bytes(plain), plain.size(),
                                             ad.data(), ad.size(), nullptr, nonce, key.bytes.data());
  sodium_memzero(plain.data(), plain.size());
  std::string sealed_text;
  sealed_text.reserve(sealed);
  sealed_text += kVersionPrefix;
  append_base64url(sealed_text, out.data(), out.size());
  return sealed_text;
}

std::optional<nlohmann::json> RequestStateSealer::open(std::string_view state,
                                                       const RequestStateBinding& binding) const {
  const State& s = *state_;
  if (state.size() > s.max_bytes || state.substr(0, kVersionPrefix.size()) != kVersionPrefix) return std::nullopt;
  const auto binary = from_base64url(state.substr(kVersionPrefix.size()));
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
      // The runtime's parser gives nlohmann's document for plain JSON (what seal() writes); nlohmann
      // parses anything else.
      const std::string_view text(reinterpret_cast<const char*>(plain.data()) + kExpiryBytes, plain_len - kExpiryBytes);
      nlohmann::json value;
      if (jsonrpc::detail::parse_plain_json(text, value)) {
        payload = std::move(value);
      } else if (value = nlohmann::json::parse(text, nullptr, false); !value.is_discarded()) {
        payload = std::move(value);
      }
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
