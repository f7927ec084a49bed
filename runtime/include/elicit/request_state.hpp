// Sealing the `requestState` of an input-required result (MCP 2026-07-28, Basic, Patterns,
// "Multi Round-Trip Requests", "Server Requirements"): the client echoes the string on its retry,
// so it is attacker-controlled input. Sealed with an AEAD, bound to the request and the principal,
// and given an expiry, so that any server process holding the key can serve the next round and
// nobody else can read, forge, replay elsewhere, or keep it past its time.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicit {

/// What a requestState is bound to: the spec's "identifier for the originating request" (method
/// and a digest of its salient parameters) and "the authenticated principal". A state opens only
/// with a binding equal to the one it was sealed with.
struct RequestStateBinding {
  std::string method;        ///< "tools/call", "prompts/get" or "resources/read"
  std::string name;          ///< the tool or prompt name, or the resource URI
  nlohmann::json arguments;  ///< the request's arguments: an object, or null (the same as {})
  std::string principal;     ///< the authenticated principal; "" when the transport knows none
};

struct RequestStateOptions {
  /// Raw keys of exactly 32 bytes each. The first seals; every one opens (rotation: put the new key
  /// first and keep the old one until its states have expired). Empty: the sealer makes one random
  /// key of its own, so only that sealer (and its copies) can open its states.
  std::vector<std::string> keys;
  /// How long a sealed state opens, from the moment it is sealed. Must be positive.
  std::chrono::milliseconds ttl = std::chrono::minutes(10);
  /// The longest sealed string in bytes: seal() throws beyond it, open() rejects longer input
  /// before decoding anything.
  std::size_t max_bytes = 16 * 1024;
  /// The wall clock for expiry (states may be opened by another process). Null: system_clock::now.
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// The message of the -32602 error a 2026-07-28 retry gets when its requestState does not open
/// (expired, tampered with, sealed for another principal or request): MCP 2026-07-28, Basic,
/// Patterns, "Multi Round-Trip Requests", "Server Requirements" (it says nothing more).
inline constexpr std::string_view invalid_request_state_message = "Invalid or expired requestState";

/// Seals JSON payloads into requestState strings and opens them. Thread-safe: immutable after
/// construction. Copies share the same keys (cheap); a moved-from sealer stays usable (a move is
/// a copy). Keys are zeroed in memory when the last copy is destroyed.
///
/// Format, version 1 (all of it opaque to clients):
///
///     "v1." base64url-without-padding( key_id[4] || nonce[24] || ciphertext )
///
/// - key_id: the first 4 bytes of BLAKE2b-128 keyed with the key over "elicitgen requestState key
///   id"; it picks the opening key, so a rotation tries one key (two only on a 2^-32 collision).
/// - nonce: 24 random bytes per seal (libsodium randombytes_buf).
/// - ciphertext: XChaCha20-Poly1305-IETF (libsodium crypto_aead_xchacha20poly1305_ietf) of
///   plaintext = expiry (int64 big-endian, milliseconds since the Unix epoch) || payload.dump(),
///   with its 16-byte tag, and associated data = "v1." || key_id || binding digest.
/// - binding digest: BLAKE2b-256 of the length-prefixed fields (each an 8-byte big-endian length,
///   then the bytes) "elicitgen requestState binding v1", method, name, arguments, principal;
///   arguments as nlohmann::json::dump() (object keys sorted, so their order does not matter; null
///   counts as {}).
///
/// The payload is unreadable without the key; any change to the string, another key, another
/// binding or a passed expiry makes open() fail. Not single-use: a state opens any number of times
/// until it expires (the spec asks servers needing at-most-once to enforce it themselves).
class RequestStateSealer {
 public:
  /// Throws std::invalid_argument when a key is not 32 bytes or the ttl is not positive, and
  /// std::runtime_error when libsodium cannot be initialised.
  explicit RequestStateSealer(RequestStateOptions options = {});
  ~RequestStateSealer();
  RequestStateSealer(const RequestStateSealer&);
  RequestStateSealer& operator=(const RequestStateSealer&);

  /// Seals `payload` (any JSON value) bound to `binding`, expiring ttl after now. Throws
  /// std::length_error when the result would exceed max_bytes, and nlohmann::json::type_error when
  /// a string in the payload or the arguments is not valid UTF-8.
  std::string seal(const nlohmann::json& payload, const RequestStateBinding& binding) const;
  /// seal() of a payload given as its JSON text, `payload_json`, exactly as
  /// `payload.dump()` writes it (sealed as it is). Throws as seal() does, but for the payload's
  /// UTF-8 (the text is the caller's).
  std::string seal_text(std::string_view payload_json, const RequestStateBinding& binding) const;

  /// The payload sealed in `state`, or nullopt for any failure: longer than max_bytes, not version
  /// 1, not base64url, too short, no key with its key id, tampered with, sealed for another
  /// binding, or expired. Never throws for any `state`; says nothing about which check failed.
  std::optional<nlohmann::json> open(std::string_view state, const RequestStateBinding& binding) const;

  /// 32 random bytes (libsodium randombytes_buf), a key for RequestStateOptions::keys. Throws
  /// std::runtime_error when libsodium cannot be initialised.
  static std::string generate_key();
  /// `key` in standard base64 with padding (44 characters for 32 bytes, as `openssl rand -base64
  /// 32` prints), for configuration files and environment variables.
  static std::string key_to_base64(std::string_view key);
  /// The raw key from base64 (standard or URL-safe alphabet, padded or not; surrounding ASCII
  /// whitespace ignored), or nullopt unless `text` is such base64 of exactly 32 bytes.
  static std::optional<std::string> key_from_base64(std::string_view text);

 private:
  // Seals `plain`: 8 bytes for the expiry, then the payload's text; zeroes it once encrypted.
  std::string seal_plain(std::string& plain, const RequestStateBinding& binding) const;

  struct State;
  std::shared_ptr<const State> state_;
};

}  // namespace elicit
