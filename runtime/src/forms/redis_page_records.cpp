#include "forms/redis_page_records.hpp"

#include <sodium.h>

#include <array>
#include <stdexcept>
#include <utility>

namespace elicit::forms::redis_records {

namespace {

using nlohmann::json;

// The sealer's own expiry is no limit here: Redis expires the keys, and the page record carries
// its deadline. It is set past the longest page (30 days) and its answer.
constexpr auto kSealedFor = std::chrono::hours(24 * 62);

RequestStateBinding binding(std::string_view kind, std::string_view id) {
  return {std::string("elicitgen browser form ") + std::string(kind), std::string(id), nullptr, ""};
}

std::string status_name(ElicitStatus s) { return std::string(to_string(s)); }

std::optional<ElicitStatus> status_of(const std::string& name) {
  for (const auto s : {ElicitStatus::accepted, ElicitStatus::declined, ElicitStatus::cancelled}) {
    if (name == to_string(s)) return s;
  }
  return std::nullopt;
}

RequestStateOptions sealer_options(std::vector<std::string> keys, std::size_t max_bytes,
                                   std::function<std::chrono::system_clock::time_point()> clock) {
  RequestStateOptions o;
  o.keys = std::move(keys);
  o.ttl = kSealedFor;
  // Base64 of the text plus the key id, nonce, expiry and tag.
  o.max_bytes = max_bytes / 3 * 4 + 256;
  o.clock = std::move(clock);
  return o;
}

}  // namespace

FormKeys::FormKeys(const std::string& prefix, std::string_view id) : hash(redis::id_hash(id)) {
  // {<h>}: a Redis Cluster hash tag, so that one page's keys share a slot (the scripts and MGET
  // touch them together).
  page = prefix + "page:{" + hash + "}";
  answer = prefix + "answer:{" + hash + "}";
  gone = prefix + "gone:{" + hash + "}";
}

std::string answers_channel(const std::string& prefix) { return prefix + "answers"; }

RecordSealer::RecordSealer(std::vector<std::string> keys, std::size_t max_bytes,
                           std::function<std::chrono::system_clock::time_point()> clock)
    : max_bytes_(max_bytes), sealer_(sealer_options(std::move(keys), max_bytes, std::move(clock))) {}

std::string RecordSealer::seal_page(std::string_view id, const PageRecord& page) const {
  const json record{{"message", page.message}, {"schema", page.schema},           {"principal", page.principal},
                    {"csrf", page.csrf},       {"expiresIn", page.expires_in_ms}, {"deadline", page.deadline_ms}};
  std::string text;
  try {
    text = record.dump();
  } catch (const json::type_error&) {
    throw std::invalid_argument("BrowserFormPage: the message or principal is not UTF-8");
  }
  if (text.size() > max_bytes_) {
    throw std::length_error("RedisPageStore: the page takes " + std::to_string(text.size()) +
                            " bytes, more than max_page_bytes " + std::to_string(max_bytes_));
  }
  return sealer_.seal_text(text, binding("page", id));
}

std::optional<PageRecord> RecordSealer::open_page(std::string_view id, std::string_view sealed) const {
  const auto record = sealer_.open(sealed, binding("page", id));
  if (!record || !record->is_object()) return std::nullopt;
  try {
    PageRecord p;
    p.message = record->at("message").get<std::string>();
    p.schema = record->at("schema").get<std::string>();
    p.principal = record->at("principal").get<std::string>();
    p.csrf = record->at("csrf").get<std::string>();
    p.expires_in_ms = record->at("expiresIn").get<std::int64_t>();
    p.deadline_ms = record->at("deadline").get<std::int64_t>();
    return p;
  } catch (const json::exception&) {
    return std::nullopt;  // sealed by us, so never; but a record is read, not trusted
  }
}

std::string RecordSealer::seal_answer(std::string_view id, const BrowserFormAnswer& answer) const {
  std::string text = json{{"status", status_name(answer.status)}, {"content", answer.content}}.dump();
  if (text.size() > max_bytes_) {
    sodium_memzero(text.data(), text.size());
    throw std::length_error("RedisPageStore: the answer is larger than max_page_bytes");
  }
  auto sealed = sealer_.seal_text(text, binding("answer", id));
  sodium_memzero(text.data(), text.size());  // the submitted value: not left behind in freed memory
  return sealed;
}

std::optional<BrowserFormAnswer> RecordSealer::open_answer(std::string_view id, std::string_view sealed) const {
  const auto record = sealer_.open(sealed, binding("answer", id));
  if (!record || !record->is_object()) return std::nullopt;
  const auto status = record->find("status");
  if (status == record->end() || !status->is_string()) return std::nullopt;
  const auto s = status_of(status->get<std::string>());
  if (!s) return std::nullopt;
  BrowserFormAnswer a;
  a.status = *s;
  if (*s == ElicitStatus::accepted) a.content = record->value("content", json());
  return a;
}

const char* const kOpenScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 2 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '0' then redis.call('SET', KEYS[2], 'expired', 'PX', ARGV[3]) end
return 1
)lua";

const char* const kAnswerScript = R"lua(
local page = redis.call('GET', KEYS[1])
if (not page) or page ~= ARGV[1] then return 0 end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  if ARGV[4] ~= '0' then redis.call('SET', KEYS[3], 'closed', 'PX', ARGV[4]) end
  redis.call('PUBLISH', ARGV[5], ARGV[6])
  return 1
end
return 2
)lua";

const char* const kCloseScript = R"lua(
redis.call('DEL', KEYS[1], KEYS[2])
if ARGV[1] ~= '0' then
  redis.call('SET', KEYS[3], 'closed', 'PX', ARGV[1])
else
  redis.call('DEL', KEYS[3])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
)lua";

}  // namespace elicit::forms::redis_records
