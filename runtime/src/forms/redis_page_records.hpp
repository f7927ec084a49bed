// What RedisPageStore keeps in Redis, and how: key names, the sealed page and answer records,
// and the Lua scripts that make opening and answering atomic across processes. Internal to
// elicit::forms_redis.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/browser_forms.hpp"
#include "elicit/redis/key_hash.hpp"
#include "elicit/request_state.hpp"

namespace elicit::forms::redis_records {

/// The keys of one page: `<prefix>page:{<h>}`, `answer:{<h>}`, `gone:{<h>}`, where <h> is the hex
/// BLAKE2b-128 of the id (Redis holds no URL), in braces so that Redis Cluster keeps a page's keys
/// in one slot.
struct FormKeys {
  FormKeys(const std::string& prefix, std::string_view id);
  std::string hash;  ///< <h>, 32 hex digits: what the answers channel carries
  std::string page;
  std::string answer;
  std::string gone;
};

/// The channel answers and closes are published on: `<prefix>answers`, carrying <h>.
std::string answers_channel(const std::string& prefix);

/// A page as kept: what handle() needs to show and check it.
struct PageRecord {
  std::string message;
  std::string schema;  ///< the requestedSchema's JSON text, property order kept
  std::string principal;
  std::string csrf;
  std::int64_t expires_in_ms = 0;
  std::int64_t deadline_ms = 0;  ///< unanswered: takes answers until then (ms since the Unix epoch)
};

/// Seals and opens records with the shared keys (RequestStateSealer: XChaCha20-Poly1305-IETF), the
/// associated data binding the kind ("page" or "answer") and the page's id. Thread-safe.
class RecordSealer {
 public:
  /// `max_bytes`: the largest record's JSON text; sealed text is longer (base64, nonce, tag).
  RecordSealer(std::vector<std::string> keys, std::size_t max_bytes,
               std::function<std::chrono::system_clock::time_point()> clock);

  /// Throws std::length_error beyond max_bytes, std::invalid_argument for text that is not UTF-8.
  std::string seal_page(std::string_view id, const PageRecord& page) const;
  /// nullopt when it does not open (another key, another id, tampered with, malformed).
  std::optional<PageRecord> open_page(std::string_view id, std::string_view sealed) const;

  /// Throws std::length_error beyond max_bytes.
  std::string seal_answer(std::string_view id, const BrowserFormAnswer& answer) const;
  std::optional<BrowserFormAnswer> open_answer(std::string_view id, std::string_view sealed) const;

 private:
  std::size_t max_bytes_;
  RequestStateSealer sealer_;
};

/// KEYS page, gone; ARGV sealed page, px, gone px. Sets the page unless one is there (a retry
/// asks the same page again), and the id's "expired" marker with it (none for gone px "0"). 1 when
/// set, 0 when kept, 2 when the id's page has ended (its marker stands): not set again, so a
/// 2026-07-28 retry finds it gone.
extern const char* const kOpenScript;
/// KEYS page, answer, gone; ARGV the sealed page as shown, sealed answer, px, gone px, channel, <h>.
/// 1: answered (the page now lives as long as its answer; marker "closed" unless gone px is "0";
/// <h> published);
/// 2: answered already; 0: the page is gone, or is another one (closed and opened again).
extern const char* const kAnswerScript;
/// KEYS page, answer, gone; ARGV gone px, channel, <h>: deletes page and answer, marks "closed"
/// (gone px "0": deletes the marker too, so nothing of the page is left), publishes <h>.
extern const char* const kCloseScript;

}  // namespace elicit::forms::redis_records
