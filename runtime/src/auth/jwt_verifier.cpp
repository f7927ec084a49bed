// jwt_verifier (jwt_verifier.hpp): finds an authorization server's keys (RFC 8414 metadata, OpenID
// Connect discovery, RFC 7517 JWK Set), keeps them, and fetches them again when a token names a key
// it has not seen (the authorization server rotated its keys) or when they are old.
#include <mutex>
#include <optional>
#include <stdexcept>

#include "authorization_server_metadata.hpp"
#include "elicit/auth/jwt_verifier.hpp"

namespace elicit::auth {

namespace {

using Clock = std::chrono::steady_clock;

struct Verifier {
  JwtVerifierOptions options;
  JwtAccessTokenRules rules;

  std::mutex mutex;  // guards what follows
  JsonWebKeySet keys;
  bool have_keys = false;
  std::uint64_t generation = 0;  // counts key sets fetched
  Clock::time_point fetched_at{};
  std::optional<Clock::time_point> last_attempt;
  std::string jwks_uri;  // options.jwks_uri, or what discovery found

  std::mutex fetching;  // one refresh at a time; the others wait for it and use its keys

  struct Snapshot {
    JsonWebKeySet keys;
    bool have_keys;
    std::uint64_t generation;
    bool stale;
  };

  Snapshot snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return {keys, have_keys, generation, have_keys && Clock::now() - fetched_at >= options.jwks_max_age};
  }

  http::FetchOptions fetch_options() const {
    http::FetchOptions o;
    o.ca_file = options.ca_file;
    return o;
  }

  // Fetches the key set unless another thread did since `seen` or the last attempt is too recent.
  // True when newer keys than generation `seen` are in place.
  bool refresh(std::uint64_t seen) {
    std::lock_guard<std::mutex> one(fetching);
    std::string uri;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (generation != seen) return true;
      const auto now = Clock::now();
      if (last_attempt && now - *last_attempt < options.jwks_refetch_interval) return false;
      last_attempt = now;
      uri = jwks_uri;
    }
    const auto deadline = Clock::now() + options.fetch_timeout;
    try {
      if (uri.empty()) {
        const auto metadata = fetch_metadata(options.issuer, deadline, fetch_options());
        const auto jwks = metadata.find("jwks_uri");
        if (jwks == metadata.end() || !jwks->is_string()) {
          throw http::FetchError(options.issuer + ": the metadata has no \"jwks_uri\"");
        }
        uri = jwks->get<std::string>();
      }
      const auto r = fetch_json(uri, deadline, fetch_options());
      if (r.status != 200) throw http::FetchError(uri + ": HTTP " + std::to_string(r.status));
      auto set = JsonWebKeySet::parse(r.body);
      std::lock_guard<std::mutex> lock(mutex);
      jwks_uri = uri;
      keys = std::move(set);
      have_keys = true;
      ++generation;
      fetched_at = Clock::now();
      return true;
    } catch (const std::exception&) {
      // Old keys stay in use when the authorization server cannot be reached; tried again after
      // jwks_refetch_interval.
      return false;
    }
  }

  AccessToken verify(std::string_view token) {
    auto s = snapshot();
    if (!s.have_keys || s.stale) {
      if (refresh(s.generation)) s = snapshot();
      if (!s.have_keys) throw http::InvalidToken("the authorization server's keys are not available");
    }
    try {
      return verify_jwt_access_token(token, s.keys, rules);
    } catch (const UnknownSigningKey&) {
      if (!refresh(s.generation)) throw;
      return verify_jwt_access_token(token, snapshot().keys, rules);
    }
  }
};

}  // namespace

http::TokenVerifier jwt_verifier(JwtVerifierOptions options) {
  if (options.issuer.empty() || options.audience.empty()) {
    throw std::invalid_argument("jwt_verifier: issuer and audience are required");
  }
  if (options.leeway < std::chrono::milliseconds(0) || options.leeway > std::chrono::minutes(5)) {
    throw std::invalid_argument("jwt_verifier: the leeway is from 0 to 300,000 ms");
  }
  auto v = std::make_shared<Verifier>();
  v->rules.issuer = options.issuer;
  v->rules.audience = options.audience;
  v->rules.leeway = options.leeway;
  v->rules.require_at_jwt_type = options.require_at_jwt_type;
  v->jwks_uri = options.jwks_uri;
  v->options = std::move(options);
  return [v](std::string_view token) { return v->verify(token); };
}

}  // namespace elicit::auth
