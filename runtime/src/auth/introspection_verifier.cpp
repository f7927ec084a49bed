// introspection_verifier (introspection_verifier.hpp): RFC 7662 with a bounded cache of answers.
#include "elicit/auth/introspection_verifier.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include <sodium.h>

#include "authorization_server_metadata.hpp"
#include "json_document.hpp"
#include "oauth_wire.hpp"
#include "token_claims.hpp"

namespace elicit::auth {

namespace {

using Clock = std::chrono::steady_clock;

std::string token_key(std::string_view token) {
  std::string digest(crypto_hash_sha256_BYTES, '\0');
  crypto_hash_sha256(reinterpret_cast<unsigned char*>(digest.data()),
                     reinterpret_cast<const unsigned char*>(token.data()), token.size());
  return digest;
}

std::optional<double> numeric(const nlohmann::json& answer, const char* name) {
  const auto it = answer.find(name);
  if (it == answer.end() || !it->is_number() || !std::isfinite(it->get<double>())) return std::nullopt;
  return it->get<double>();
}

struct Answer {
  std::shared_ptr<const AccessToken> token;  // null: refused
  std::string refusal;
  Clock::time_point until;
};

struct Introspector {
  IntrospectionVerifierOptions options;
  std::string authorization;  // "Basic ..."

  std::mutex mutex;  // guards what follows
  std::string endpoint;
  std::unordered_map<std::string, Answer> cache;
  std::deque<std::string> order;  // cache keys, oldest first

  http::FetchOptions fetch_options() const {
    http::FetchOptions o;
    o.ca_file = options.ca_file;
    return o;
  }

  std::string find_endpoint(Clock::time_point deadline) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!endpoint.empty()) return endpoint;
    }
    const auto metadata = fetch_metadata(options.issuer, deadline, fetch_options());
    const auto it = metadata.find("introspection_endpoint");
    if (it == metadata.end() || !it->is_string()) {
      throw http::FetchError(options.issuer + ": the metadata has no \"introspection_endpoint\"");
    }
    std::lock_guard<std::mutex> lock(mutex);
    endpoint = it->get<std::string>();
    return endpoint;
  }

  // The checks of an answer; returns the token or throws InvalidToken. `valid_for`: how long the
  // answer may be kept (until exp).
  AccessToken check(const nlohmann::json& answer, std::chrono::milliseconds& valid_for) const {
    if (!answer.is_object()) throw http::InvalidToken("the introspection answer is not a JSON object");
    if (answer.value("active", nlohmann::json()) != true) throw http::InvalidToken("the token is not active");
    if (const auto iss = answer.find("iss"); iss != answer.end() && *iss != options.issuer) {
      throw http::InvalidToken("the token was not issued by " + options.issuer);
    }
    const auto aud = answer.find("aud");
    if (aud == answer.end()) {
      if (options.require_audience) throw http::InvalidToken("the token names no audience (\"aud\")");
    } else if (!names_audience(*aud, options.audience)) {
      throw http::InvalidToken("the token is not meant for " + options.audience + " (\"aud\")");
    }
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const double leeway = std::chrono::duration<double>(options.leeway).count();
    if (const auto exp = numeric(answer, "exp")) {
      if (now > *exp + leeway) throw http::InvalidToken("the token has expired");
      valid_for = std::min(valid_for, std::chrono::milliseconds(static_cast<long long>((*exp - now) * 1000)));
    }
    if (const auto nbf = numeric(answer, "nbf"); nbf && now + leeway < *nbf) {
      throw http::InvalidToken("the token is not valid yet (\"nbf\")");
    }
    AccessToken t;
    t.issuer = options.issuer;
    t.subject = subject_of(answer);
    if (const auto scope = answer.find("scope"); scope != answer.end() && scope->is_string()) {
      t.scopes = split_scope(scope->get_ref<const std::string&>());
    }
    t.claims = answer;
    return t;
  }

  void remember(std::string key, Answer a) {
    if (options.cache_ttl <= std::chrono::milliseconds(0) || options.cache_entries == 0) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (cache.insert_or_assign(key, std::move(a)).second) order.push_back(std::move(key));
    while (cache.size() > options.cache_entries && !order.empty()) {
      cache.erase(order.front());
      order.pop_front();
    }
    // A key is in `order` once (a replaced answer keeps its place), so the two stay the same size;
    // expired answers stay until replaced or evicted.
  }

  AccessToken verify(std::string_view token) {
    auto key = token_key(token);
    {
      std::lock_guard<std::mutex> lock(mutex);
      const auto it = cache.find(key);
      if (it != cache.end() && Clock::now() < it->second.until) {
        if (!it->second.token) throw http::InvalidToken(it->second.refusal);
        return *it->second.token;
      }
    }
    const auto deadline = Clock::now() + options.fetch_timeout;
    http::FetchResponse r;
    try {
      http::FetchRequest request;
      request.method = "POST";
      request.url = find_endpoint(deadline);
      request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                         {"Accept", "application/json"},
                         {"Authorization", authorization}};
      request.body = form_encode({{"token", std::string(token)}, {"token_type_hint", "access_token"}});
      auto o = fetch_options();
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left <= std::chrono::milliseconds(0)) throw http::FetchError("no time left to introspect");
      o.timeout = left;
      r = http::fetch(request, o);
    } catch (const http::FetchError&) {
      throw http::InvalidToken("the authorization server cannot be reached to check the token");
    }
    if (r.status != 200) throw http::InvalidToken("the authorization server could not check the token");
    const auto answer = parse_json_document(r.body);
    auto valid_for = options.cache_ttl;
    try {
      if (!answer) throw http::InvalidToken("the introspection answer is not JSON");
      auto t = std::make_shared<const AccessToken>(check(*answer, valid_for));
      if (valid_for > std::chrono::milliseconds(0)) remember(std::move(key), {t, "", Clock::now() + valid_for});
      return *t;
    } catch (const http::InvalidToken& e) {
      remember(std::move(key), {nullptr, e.what(), Clock::now() + std::min(valid_for, options.cache_ttl)});
      throw;
    }
  }
};

}  // namespace

http::TokenVerifier introspection_verifier(IntrospectionVerifierOptions options) {
  if (options.issuer.empty() || options.audience.empty() || options.client_id.empty()) {
    throw std::invalid_argument("introspection_verifier: issuer, audience and client_id are required");
  }
  if (options.leeway < std::chrono::milliseconds(0) || options.leeway > std::chrono::minutes(5)) {
    throw std::invalid_argument("introspection_verifier: the leeway is from 0 to 300,000 ms");
  }
  auto v = std::make_shared<Introspector>();
  v->authorization = basic_authorization(options.client_id, options.client_secret);
  v->endpoint = options.introspection_endpoint;
  v->options = std::move(options);
  return [v](std::string_view token) { return v->verify(token); };
}

}  // namespace elicit::auth
