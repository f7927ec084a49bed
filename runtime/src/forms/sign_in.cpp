#include "sign_in.hpp"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <sodium.h>

#include "auth/authorization_server_metadata.hpp"
#include "auth/id_token.hpp"
#include "auth/json_document.hpp"
#include "auth/oauth_wire.hpp"
#include "elicit/forms/page_rules.hpp"
#include "elicit/http/host_names.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/messages/catalog.hpp"
#include "elicit/request_state.hpp"
#include "page_serving.hpp"
#include "sign_in_cookies.hpp"

namespace elicit::forms {

// The HTTP client (elicit::http) and the OAuth pieces (elicit::auth) the sign-in is built from.
using auth::basic_authorization;
using auth::fetch_json;
using auth::fetch_metadata;
using auth::form_encode;
using auth::IdTokenRules;
using auth::IdTokenSubject;
using auth::JsonWebKeySet;
using auth::lists;
using auth::parse_json_document;
using auth::pkce_s256;
using auth::query_parameters;
using auth::random_urlsafe;
using auth::scope_union;
using auth::string_member;
using auth::UnknownSigningKey;
using auth::verify_id_token;
using http::fetch;
using http::FetchError;
using http::FetchOptions;
using http::FetchRequest;
using http::FetchResponse;
using http::host_without_port;
using http::is_loopback_name;

namespace {

constexpr std::string_view kSessionCookie = "__Host-elicit-form-session";
// One transaction cookie per sign-in in progress, named by the start of its state, so that two
// tabs signing in at once do not overwrite each other's.
constexpr std::string_view kTransactionCookiePrefix = "__Host-elicit-sign-in-";
constexpr std::size_t kTransactionNameChars = 16;
// A discovery that failed is not tried again before this: a down authorization server must not
// be asked once per page request.
constexpr auto kRetryDiscoveryAfter = std::chrono::seconds(5);
// The key set is fetched again for an unknown `kid` at most this often, and when older than this.
constexpr auto kRefetchKeysAfter = std::chrono::seconds(60);
constexpr auto kKeysMaxAge = std::chrono::hours(1);
constexpr int kMaxWaiting = 64;

bool equal_secret(const std::string& a, const std::string& b) {
  return a.size() == b.size() && !a.empty() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

// A refusal the sign-in makes: why it failed, for the page (no secret, nothing the peer sent): the
// catalog's titles and texts (runtime/messages/root.txt, page.sign_in.*).
struct Refusal {
  unsigned status;
  const char* title;
  const char* text;
};

constexpr const char* kFailed = "page.sign_in.title";
constexpr Refusal kUnavailable{503, kFailed, "page.sign_in.unavailable.text"};
constexpr Refusal kBusy{503, kFailed, "page.sign_in.busy.text"};
constexpr Refusal kNoTransaction{400, kFailed, "page.sign_in.no_transaction.text"};
constexpr Refusal kWrongIssuer{400, kFailed, "page.sign_in.wrong_issuer.text"};
constexpr Refusal kDenied{403, kFailed, "page.sign_in.denied.text"};
constexpr Refusal kTokenRefused{502, kFailed, "page.sign_in.token_refused.text"};
constexpr Refusal kBadIdToken{403, kFailed, "page.sign_in.bad_id_token.text"};
constexpr Refusal kSignInFirst{403, "page.sign_in.first.title", "page.sign_in.first.text"};

struct Provider {
  std::string authorization_endpoint;
  std::string token_endpoint;
  std::string jwks_uri;
  bool iss_parameter = false;  // RFC 9207 authorization_response_iss_parameter_supported
};

// Thrown by a worker step when the authorization server cannot be used: 503.
struct Unreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

void check_browser_form_sign_in(const SignIn& o) {
  if (o.client_id.empty()) throw std::invalid_argument("SignIn::client_id is required");
  if (o.cookie_keys.empty()) throw std::invalid_argument("SignIn::cookie_keys needs at least one key");
  for (const auto& k : o.cookie_keys) {
    if (k.size() != 32) throw std::invalid_argument("SignIn::cookie_keys: each key is 32 bytes");
  }
  if (o.session_lifetime <= std::chrono::milliseconds(0) || o.sign_in_timeout <= std::chrono::milliseconds(0) ||
      o.fetch_timeout <= std::chrono::milliseconds(0)) {
    throw std::invalid_argument("SignIn: session_lifetime, sign_in_timeout and fetch_timeout must be positive");
  }
  if (o.leeway < std::chrono::milliseconds(0) || o.leeway > std::chrono::minutes(5)) {
    throw std::invalid_argument("SignIn::leeway is from 0 to 300,000 ms");
  }
}

void check_sign_in_origin(const std::string& origin) {
  check_public_origin(origin);
  const auto scheme_end = origin.find("://");
  const bool https = origin.compare(0, scheme_end, "https") == 0;
  if (!https && !is_loopback_name(host_without_port(std::string_view(origin).substr(scheme_end + 3)))) {
    throw std::invalid_argument("SignIn: the pages' origin " + origin +
                                " is plain http on a host that is not loopback: browsers would not keep the sign-in's "
                                "Secure cookies (use https, e.g. PageRoutes::public_origin behind a TLS proxy)");
  }
}

std::string resolve_sign_in_issuer(const SignIn& o, const std::vector<std::string>& servers) {
  if (!o.issuer.empty()) return o.issuer;
  if (servers.size() != 1) {
    throw std::invalid_argument(
        "SignIn::issuer is needed: the pages sign in at one authorization server, and "
        "HttpServerOptions::authorization names " +
        std::to_string(servers.size()));
  }
  return servers.front();
}

struct SignInFlow::State {
  SignIn options;
  std::string issuer;
  std::string prefix;
  std::string redirect_uri;
  std::shared_ptr<PageStore> store;
  RequestStateSealer sessions;
  RequestStateSealer transactions;
  RequestStateBinding session_binding;
  RequestStateBinding transaction_binding;
  std::unique_ptr<jsonrpc::WorkerPool> workers;
  std::atomic<int> waiting{0};
  // Set when the flow is destroyed: jobs still queued then are skipped, not run (each could wait
  // for the authorization server for fetch_timeout), so the server's destruction stays bounded by
  // the two running ones.
  std::atomic<bool> stopping{false};

  std::mutex mutex;
  std::shared_ptr<const Provider> provider;
  std::chrono::steady_clock::time_point discovery_failed_at{};
  bool discovery_failed = false;
  std::shared_ptr<const JsonWebKeySet> keys;
  std::chrono::steady_clock::time_point keys_fetched_at{};

  static RequestStateOptions sealer_options(const SignIn& o, std::chrono::milliseconds ttl) {
    RequestStateOptions s;
    s.keys = o.cookie_keys;
    s.ttl = ttl;
    s.max_bytes = 3000;  // a cookie stays well under the 4,096 bytes browsers keep
    s.clock = o.clock;
    return s;
  }

  State(SignIn o, std::string iss, std::string origin, std::string pre, std::shared_ptr<PageStore> st)
      : options(std::move(o)),
        issuer(std::move(iss)),
        prefix(std::move(pre)),
        redirect_uri(origin + prefix + std::string(kSignInSegment)),
        store(std::move(st)),
        sessions(sealer_options(options, options.session_lifetime)),
        transactions(sealer_options(options, options.sign_in_timeout)) {
    // Each cookie opens only as what it was sealed as, and only for this issuer and client: a
    // transaction cookie is never a session, nor a session for another authorization server.
    session_binding.method = "elicitgen browser form session";
    session_binding.name = issuer + " " + options.client_id;
    transaction_binding.method = "elicitgen browser form sign-in";
    transaction_binding.name = session_binding.name;
  }

  std::chrono::system_clock::time_point now() const {
    return options.clock ? options.clock() : std::chrono::system_clock::now();
  }

  FetchOptions fetch_options() const {
    FetchOptions f;
    f.timeout = options.fetch_timeout;
    f.ca_file = options.ca_file;
    return f;
  }

  Reply refusal(const Refusal& r, const std::string& language) const {
    return browser_form_reply(*store, r.status,
                              render_form_status_page(messages::text(language, r.title),
                                                      messages::text(language, r.text), store->templates(), language),
                              language);
  }

  // --- the authorization server (worker threads only) ----------------------------------------

  std::shared_ptr<const Provider> discover() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (provider) return provider;
      if (discovery_failed && std::chrono::steady_clock::now() - discovery_failed_at < kRetryDiscoveryAfter) {
        throw Unreachable("discovery failed recently");
      }
    }
    try {
      const auto metadata =
          fetch_metadata(issuer, std::chrono::steady_clock::now() + options.fetch_timeout, fetch_options());
      auto p = std::make_shared<Provider>();
      p->authorization_endpoint = string_member(metadata, "authorization_endpoint");
      p->token_endpoint = string_member(metadata, "token_endpoint");
      p->jwks_uri = string_member(metadata, "jwks_uri");
      p->iss_parameter = metadata.value("authorization_response_iss_parameter_supported", false) == true;
      // MCP Authorization, "Authorization Code Protection": no PKCE S256, no sign-in.
      if (p->authorization_endpoint.empty() || p->token_endpoint.empty() || p->jwks_uri.empty() ||
          !lists(metadata, "code_challenge_methods_supported", "S256")) {
        throw FetchError(issuer + ": its metadata lacks an endpoint, the JWK Set URL or PKCE S256");
      }
      std::lock_guard<std::mutex> lock(mutex);
      provider = p;
      discovery_failed = false;
      return p;
    } catch (const FetchError& e) {
      std::lock_guard<std::mutex> lock(mutex);
      discovery_failed = true;
      discovery_failed_at = std::chrono::steady_clock::now();
      throw Unreachable(e.what());
    }
  }

  // The key set, fetched when there is none, it is old, or `refetch` (an unknown `kid`) and the
  // last fetch is not recent.
  std::shared_ptr<const JsonWebKeySet> key_set(const Provider& p, bool refetch) {
    const auto t = std::chrono::steady_clock::now();
    {
      std::lock_guard<std::mutex> lock(mutex);
      const auto age = t - keys_fetched_at;
      if (keys && age < kKeysMaxAge && !(refetch && age >= kRefetchKeysAfter)) return keys;
      if (keys && refetch && age < kRefetchKeysAfter) return keys;
    }
    try {
      const auto r = fetch_json(p.jwks_uri, t + options.fetch_timeout, fetch_options());
      if (r.status != 200) throw FetchError(p.jwks_uri + ": HTTP " + std::to_string(r.status));
      auto set = std::make_shared<const JsonWebKeySet>(JsonWebKeySet::parse(r.body));
      std::lock_guard<std::mutex> lock(mutex);
      keys = set;
      keys_fetched_at = t;
      return set;
    } catch (const std::invalid_argument& e) {
      return keys_or_unreachable(e.what());
    } catch (const FetchError& e) {
      return keys_or_unreachable(e.what());
    }
  }

  // A key set that could not be fetched again: the one kept, if any (as jwt_verifier does: an
  // authorization server briefly down does not stop sign-ins), else 503.
  std::shared_ptr<const JsonWebKeySet> keys_or_unreachable(const char* why) {
    std::lock_guard<std::mutex> lock(mutex);
    if (keys) return keys;
    throw Unreachable(why);
  }

  // --- replies ---------------------------------------------------------------------------------

  Reply redirect(const std::string& location, const std::string& language) const {
    auto r = browser_form_reply(*store, 303,
                                render_form_status_page_of("page.redirecting", language, store->templates()), language);
    r.headers.emplace_back("Location", location);
    return r;
  }

  // The 303 to the authorization endpoint, with the transaction cookie.
  Reply start_sign_in(const Provider& p, const std::string& page_id, const std::string& language) const {
    const auto state = random_urlsafe(32);
    const auto nonce = random_urlsafe(32);
    const auto verifier = random_urlsafe(32);  // 43 characters (RFC 7636 section 4.1)
    std::string scope = "openid";
    for (const auto& s : options.scopes) scope = scope_union(scope, s);
    const std::vector<std::pair<std::string, std::string>> query{{"response_type", "code"},
                                                                 {"client_id", options.client_id},
                                                                 {"redirect_uri", redirect_uri},
                                                                 {"scope", scope},
                                                                 {"state", state},
                                                                 {"nonce", nonce},
                                                                 {"code_challenge", pkce_s256(verifier)},
                                                                 {"code_challenge_method", "S256"}};
    const auto& endpoint = p.authorization_endpoint;
    auto r = redirect(endpoint + (endpoint.find('?') == std::string::npos ? "?" : "&") + form_encode(query), language);
    const nlohmann::json transaction{{"state", state}, {"nonce", nonce}, {"verifier", verifier}, {"page", page_id}};
    r.headers.emplace_back("Set-Cookie",
                           set_cookie(std::string(kTransactionCookiePrefix) + state.substr(0, kTransactionNameChars),
                                      transactions.seal(transaction, transaction_binding), options.sign_in_timeout));
    return r;
  }

  // The redirect back, its transaction opened: iss, error, the code exchanged, the ID token
  // checked, then the session. On a worker thread.
  Reply finish_sign_in(const std::map<std::string, std::string>& params, const nlohmann::json& transaction,
                       const std::string& clear_transaction, const std::string& language) {
    auto refuse = [&](const Refusal& why) {
      auto r = refusal(why, language);
      r.headers.emplace_back("Set-Cookie", clear_transaction);
      return r;
    };
    const auto get = [&](const char* name) -> const std::string* {
      const auto it = params.find(name);
      return it == params.end() ? nullptr : &it->second;
    };
    try {
      const auto p = discover();
      // RFC 9207 section 2.4: before anything else of the answer (an error too) is believed.
      const auto iss = get("iss");
      if ((iss && *iss != issuer) || (!iss && p->iss_parameter)) return refuse(kWrongIssuer);
      if (get("error")) return refuse(kDenied);
      const auto code = get("code");
      if (!code || code->empty()) return refuse(kDenied);

      FetchRequest request;
      request.method = "POST";
      request.url = p->token_endpoint;
      request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
      std::vector<std::pair<std::string, std::string>> form{
          {"grant_type", "authorization_code"},
          {"code", *code},
          {"redirect_uri", redirect_uri},
          {"code_verifier", transaction.at("verifier").get<std::string>()}};
      if (options.client_secret.empty()) {
        form.emplace_back("client_id", options.client_id);
      } else {
        request.headers.emplace_back("Authorization", basic_authorization(options.client_id, options.client_secret));
      }
      request.body = form_encode(form);
      FetchResponse answer;
      try {
        answer = fetch(request, fetch_options());
      } catch (const FetchError&) {
        return refuse(kUnavailable);
      }
      const auto doc = parse_json_document(answer.body);
      if (answer.status != 200 || !doc || !doc->is_object()) return refuse(kTokenRefused);
      const auto id_token = string_member(*doc, "id_token");
      if (id_token.empty()) return refuse(kTokenRefused);

      IdTokenRules rules;
      rules.issuer = issuer;
      rules.client_id = options.client_id;
      rules.nonce = transaction.at("nonce").get<std::string>();
      rules.leeway = options.leeway;
      IdTokenSubject who;
      try {
        who = verify_id_token(id_token, *key_set(*p, false), rules, now());
      } catch (const UnknownSigningKey&) {
        // A key the set did not have yet (rotation): once more with the set fetched again.
        who = verify_id_token(id_token, *key_set(*p, true), rules, now());
      }
      const nlohmann::json session{{"iss", who.issuer}, {"sub", who.subject}};
      auto r = redirect(prefix + transaction.at("page").get<std::string>(), language);
      r.headers.emplace_back("Set-Cookie", clear_transaction);
      r.headers.emplace_back(
          "Set-Cookie", set_cookie(kSessionCookie, sessions.seal(session, session_binding), options.session_lifetime));
      return r;
    } catch (const Unreachable&) {
      return refuse(kUnavailable);
    } catch (const http::InvalidToken&) {
      return refuse(kBadIdToken);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (...) {
      return refuse(kBadIdToken);
    }
  }
};

namespace {

// Runs `job` on a worker, answering through a pending reply; 503 at once when too many wait.
// `language`: the refusals' (the request's, page_language()).
Reply later(const std::shared_ptr<SignInFlow::State>& state, const std::string& language, std::function<Reply()> job) {
  if (state->waiting.fetch_add(1) >= kMaxWaiting) {
    state->waiting.fetch_sub(1);
    return state->refusal(kBusy, language);
  }
  auto pending = std::make_shared<PendingReply>();
  pending->on_abandon([] {});
  const bool posted = state->workers->post([state, pending, language, job = std::move(job)] {
    Reply r;
    try {
      r = state->stopping ? state->refusal(kUnavailable, language) : job();
    } catch (...) {
      r = browser_form_refusal(*state->store, 500, "page.internal_error", language);
    }
    state->waiting.fetch_sub(1);
    pending->fulfil(std::move(r));
  });
  if (!posted) {
    state->waiting.fetch_sub(1);
    return state->refusal(kUnavailable, language);
  }
  Reply r;
  r.pending = std::move(pending);
  return r;
}

}  // namespace

SignInFlow::SignInFlow(SignIn options, std::string issuer, std::string origin, std::string prefix,
                       std::shared_ptr<PageStore> store) {
  check_browser_form_sign_in(options);
  check_sign_in_origin(origin);
  state_ = std::make_shared<State>(std::move(options), std::move(issuer), std::move(origin), std::move(prefix),
                                   std::move(store));
  state_->workers = std::make_unique<jsonrpc::WorkerPool>(2);
}

SignInFlow::~SignInFlow() {
  state_->stopping = true;
  state_->workers.reset();  // skips what is queued, waits for what runs (each fetch bounded), joins
}

std::string SignInFlow::principal_of(std::string_view cookie_field) const {
  const auto value = cookie_value(cookie_field, kSessionCookie);
  if (!value) return {};
  const auto session = state_->sessions.open(*value, state_->session_binding);
  if (!session || !session->is_object()) return {};
  const auto iss = session->find("iss");
  const auto sub = session->find("sub");
  if (iss == session->end() || sub == session->end() || !iss->is_string() || !sub->is_string()) return {};
  // Exactly as the resource server writes a token's principal (authorization_routes.cpp), so that
  // the page's binding and the browser's compare equal.
  return nlohmann::json::array({*iss, *sub}).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Reply SignInFlow::serve(const PageRoutes& routes, const Request& req, std::string_view path, bool peer_loopback) {
  const auto& state = state_;
  const auto language = page_language(routes, req);
  const auto segment = path.size() > state->prefix.size() ? path.substr(state->prefix.size()) : std::string_view();
  if (segment == kSignInSegment) {
    if (req.method() != beast::http::verb::get) {
      return browser_form_reply(*state->store, 405,
                                render_form_status_page_of("page.sign_in.method", language, state->store->templates()),
                                language, "GET");
    }
    const std::string target(req.target());
    auto params = query_parameters(target);
    if (!params) return state->refusal(kNoTransaction, language);
    const auto s = params->find("state");
    if (s == params->end() || s->second.size() < kTransactionNameChars) return state->refusal(kNoTransaction, language);
    const auto name = std::string(kTransactionCookiePrefix) + s->second.substr(0, kTransactionNameChars);
    const auto value = cookie_value(field(req, "Cookie"), name);
    auto transaction = value ? state->transactions.open(*value, state->transaction_binding) : std::nullopt;
    // The state must be the one this browser's cookie was sealed with (RFC 6749 section 10.12:
    // CSRF against the redirect URI), and the page one the prefix serves.
    if (!transaction || !transaction->is_object() || !transaction->contains("nonce") ||
        !transaction->contains("verifier") || !transaction->contains("page") || !transaction->at("page").is_string() ||
        !equal_secret(transaction->value("state", std::string()), s->second) ||
        !PageRules::valid_id(transaction->at("page").get_ref<const std::string&>())) {
      return state->refusal(kNoTransaction, language);
    }
    auto clear = set_cookie(name, "", std::chrono::milliseconds(0));
    return later(state, language,
                 [state, params = std::move(*params), transaction = std::move(*transaction), clear = std::move(clear),
                  language] { return state->finish_sign_in(params, transaction, clear, language); });
  }

  auto principal = principal_of(field(req, "Cookie"));
  if (principal.empty() && PageRules::valid_id(segment)) {
    if (req.method() == beast::http::verb::post) return state->refusal(kSignInFirst, language);
    if (req.method() == beast::http::verb::get) {
      const std::string id(segment);
      std::shared_ptr<const Provider> known;
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        known = state->provider;
      }
      if (known) return state->start_sign_in(*known, id, language);
      return later(state, language, [state, id, language] {
        try {
          return state->start_sign_in(*state->discover(), id, language);
        } catch (const Unreachable&) {
          return state->refusal(kUnavailable, language);
        }
      });
    }
  }
  return serve_browser_form(state->store, routes, req, path, peer_loopback, principal);
}

}  // namespace elicit::forms
