// OAuthClient (oauth_client.hpp): the MCP authorization flows, client side.
#include "elicit/auth/oauth_client.hpp"

#include <algorithm>

#include "authorization_server_metadata.hpp"
#include "base64url.hpp"
#include "client_assertion.hpp"
#include "http_client.hpp"
#include "json_document.hpp"
#include "oauth_wire.hpp"
#include "token_claims.hpp"

namespace elicit::auth {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// "scheme://authority" of a canonical URI.
std::string origin_of(const std::string& canonical) {
  const auto slash = canonical.find('/', canonical.find("://") + 3);
  return canonical.substr(0, slash);
}

std::string path_of(const std::string& canonical) {
  const auto slash = canonical.find('/', canonical.find("://") + 3);
  return slash == std::string::npos ? std::string() : canonical.substr(slash);
}

// Whether the Protected Resource Metadata's `resource` may stand for the server at `server`
// (RFC 9728 section 3.3, and section 7.3 against a metadata document that speaks for another
// resource): same origin, and the server's path is the resource's path or below it.
bool resource_covers(const std::string& resource, const std::string& server) {
  std::string r;
  try {
    r = canonical_resource_uri(resource);
  } catch (const std::invalid_argument&) {
    return false;
  }
  if (origin_of(r) != origin_of(server)) return false;
  const auto rp = path_of(r);
  const auto sp = path_of(server);
  return rp.empty() || sp == rp || (sp.size() > rp.size() && sp.compare(0, rp.size(), rp) == 0 && sp[rp.size()] == '/');
}

}  // namespace

std::string canonical_resource_uri(const std::string& url) {
  const auto endpoint = parse_client_endpoint(url);  // throws std::invalid_argument
  const bool v6 = endpoint.host.find(':') != std::string::npos;
  auto host = ascii_lower(endpoint.host);
  const std::string default_port = endpoint.tls ? "443" : "80";
  auto out = std::string(endpoint.tls ? "https://" : "http://") + (v6 ? "[" + host + "]" : host) +
             (endpoint.port == default_port ? "" : ":" + endpoint.port);
  auto path = endpoint.target;
  while (!path.empty() && path.back() == '/') path.pop_back();
  return out + path;
}

nlohmann::json OAuthTokens::to_json() const {
  nlohmann::json j{{"access_token", access_token}, {"token_type", token_type}};
  if (!refresh_token.empty()) j["refresh_token"] = refresh_token;
  if (!scope.empty()) j["scope"] = scope;
  if (expires_at != 0) j["expires_at"] = expires_at;
  return j;
}

OAuthTokens OAuthTokens::from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("access_token") || !j["access_token"].is_string()) {
    throw OAuthError("stored tokens without an access_token");
  }
  OAuthTokens t;
  t.access_token = j["access_token"].get<std::string>();
  t.token_type = string_member(j, "token_type");
  if (t.token_type.empty()) t.token_type = "Bearer";
  t.refresh_token = string_member(j, "refresh_token");
  t.scope = string_member(j, "scope");
  if (j.contains("expires_at") && j["expires_at"].is_number_integer())
    t.expires_at = j["expires_at"].get<std::int64_t>();
  return t;
}

nlohmann::json OAuthClientInformation::to_json() const {
  nlohmann::json j{{"client_id", client_id}};
  if (!client_secret.empty()) j["client_secret"] = client_secret;
  if (!token_endpoint_auth_method.empty()) j["token_endpoint_auth_method"] = token_endpoint_auth_method;
  if (!private_key_pem.empty()) j["private_key_pem"] = private_key_pem;
  if (!signing_algorithm.empty()) j["signing_algorithm"] = signing_algorithm;
  return j;
}

OAuthClientInformation OAuthClientInformation::from_json(const nlohmann::json& j) {
  OAuthClientInformation i;
  if (!j.is_object()) return i;
  i.client_id = string_member(j, "client_id");
  i.client_secret = string_member(j, "client_secret");
  i.token_endpoint_auth_method = string_member(j, "token_endpoint_auth_method");
  i.private_key_pem = string_member(j, "private_key_pem");
  i.signing_algorithm = string_member(j, "signing_algorithm");
  return i;
}

struct OAuthClient::State {
  std::string server;  // canonical
  std::shared_ptr<OAuthClientProvider> provider;
  OAuthClientOptions options;

  std::mutex flow;  // one flow at a time; held while the provider is asked

  mutable std::mutex mutex;  // guards what follows
  std::string resource;      // the `resource` parameter: as the Protected Resource Metadata publishes it
  std::string issuer;
  nlohmann::json metadata;  // the authorization server's; synthesized for the 2025-03-26 fallback
  bool metadata_found = false;
  std::string resource_scopes;  // the Protected Resource Metadata's scopes_supported, joined
  std::optional<OAuthTokens> tokens;
  std::string requested_scope;  // what the last authorization asked for

  FetchOptions fetch_options() const {
    FetchOptions f;
    f.timeout = options.timeout;
    f.ca_file = options.ca_file;
    return f;
  }

  std::string header_locked() const { return tokens ? "Bearer " + tokens->access_token : std::string(); }

  // --- discovery -------------------------------------------------------------------------------

  // The Protected Resource Metadata (RFC 9728): from the challenge's URL, else the path-aware then
  // the root well-known URI. nullopt when the server publishes none (a 2025-03-26 server).
  std::optional<nlohmann::json> protected_resource_metadata(const std::map<std::string, std::string>& challenge) {
    const auto deadline = Clock::now() + options.timeout;
    std::vector<std::string> urls;
    const auto named = challenge.find("resource_metadata");
    if (named != challenge.end() && !named->second.empty()) {
      urls.push_back(named->second);
    } else {
      const auto path = path_of(server);
      if (!path.empty()) urls.push_back(origin_of(server) + "/.well-known/oauth-protected-resource" + path);
      urls.push_back(origin_of(server) + "/.well-known/oauth-protected-resource");
    }
    for (const auto& url : urls) {
      FetchResponse r;
      try {
        r = fetch_json(url, deadline, fetch_options());
      } catch (const FetchError& e) {
        throw OAuthError(std::string("protected resource metadata: ") + e.what());
      }
      if (r.status != 200) continue;
      auto doc = parse_json_document(r.body);
      if (!doc || !doc->is_object())
        throw OAuthError("protected resource metadata at " + url + " is not a JSON object");
      return std::move(*doc);
    }
    return std::nullopt;
  }

  // Finds the resource, its authorization server and that server's metadata, anew on each call:
  // the server may have moved to another authorization server since (MCP Authorization,
  // "Authorization Server Binding").
  void discover(const std::map<std::string, std::string>& challenge) {
    const auto prm = protected_resource_metadata(challenge);
    std::string new_resource, new_issuer, new_scopes;
    nlohmann::json new_metadata;
    bool found = true;
    if (prm) {
      new_resource = string_member(*prm, "resource");
      if (new_resource.empty()) throw OAuthError("protected resource metadata without a \"resource\"");
      if (!resource_covers(new_resource, server)) {
        throw OAuthError("the protected resource metadata is for " + new_resource + ", not for " + server +
                         " (RFC 9728 section 3.3): not authorizing");
      }
      const auto servers = prm->find("authorization_servers");
      if (servers == prm->end() || !servers->is_array() || servers->empty() || !(*servers)[0].is_string()) {
        throw OAuthError("protected resource metadata for " + new_resource + " names no authorization server");
      }
      new_issuer = (*servers)[0].get<std::string>();
      if (const auto s = prm->find("scopes_supported"); s != prm->end() && s->is_array()) {
        for (const auto& scope : *s) {
          if (scope.is_string()) new_scopes += (new_scopes.empty() ? "" : " ") + scope.get<std::string>();
        }
      }
      try {
        new_metadata = fetch_metadata(new_issuer, Clock::now() + options.timeout, fetch_options());
      } catch (const FetchError& e) {
        throw OAuthError(std::string("authorization server metadata: ") + e.what());
      }
    } else {
      // MCP 2025-03-26, "Server Metadata Discovery": the MCP server's origin is the authorization
      // server; without metadata, its default endpoints ("Fallbacks for Servers without Metadata
      // Discovery").
      new_resource = server;
      new_issuer = origin_of(server);
      const auto url = new_issuer + "/.well-known/oauth-authorization-server";
      FetchResponse r;
      try {
        r = fetch_json(url, Clock::now() + options.timeout, fetch_options());
      } catch (const FetchError& e) {
        throw OAuthError(std::string("authorization server metadata: ") + e.what());
      }
      if (r.status == 200) {
        auto doc = parse_json_document(r.body);
        if (!doc || !doc->is_object()) throw OAuthError(url + ": the metadata is not a JSON object");
        // 2025-03-26 knew no issuer check: the document the MCP server's own origin serves speaks
        // for it (an authorization server under a path there names that path as its issuer). Its
        // `issuer` is what the authorization response's `iss` is then compared with.
        const auto named = string_member(*doc, "issuer");
        if (!named.empty()) new_issuer = named;
        new_metadata = std::move(*doc);
      } else {
        found = false;
        new_metadata = {{"issuer", new_issuer},
                        {"authorization_endpoint", new_issuer + "/authorize"},
                        {"token_endpoint", new_issuer + "/token"},
                        {"registration_endpoint", new_issuer + "/register"}};
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (new_issuer != issuer || new_resource != resource) tokens.reset();  // never sent to another
    resource = std::move(new_resource);
    issuer = std::move(new_issuer);
    metadata = std::move(new_metadata);
    metadata_found = found;
    resource_scopes = std::move(new_scopes);
  }

  // --- the token endpoint ------------------------------------------------------------------------

  std::string choose_auth_method(const OAuthClientInformation& info) const {
    if (!info.token_endpoint_auth_method.empty()) return info.token_endpoint_auth_method;
    if (!info.private_key_pem.empty()) return "private_key_jwt";
    if (info.client_secret.empty()) return "none";
    // RFC 8414 section 2: client_secret_basic when the server does not say.
    const auto supported = metadata.find("token_endpoint_auth_methods_supported");
    if (supported == metadata.end() || !supported->is_array()) return "client_secret_basic";
    for (const char* m : {"client_secret_basic", "client_secret_post"}) {
      if (std::find(supported->begin(), supported->end(), m) != supported->end()) return m;
    }
    return "client_secret_basic";
  }

  // POSTs `form` to the token endpoint with the client's authentication; the tokens, or OAuthError
  // with the server's error.
  OAuthTokens token_request(std::vector<std::pair<std::string, std::string>> form, const OAuthClientInformation& info,
                            const std::string& requested_scope) {
    const auto endpoint = string_member(metadata, "token_endpoint");
    if (endpoint.empty()) throw OAuthError("the authorization server " + issuer + " has no token endpoint");
    FetchRequest request;
    request.method = "POST";
    request.url = endpoint;
    request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
    const auto method = choose_auth_method(info);
    if (method == "client_secret_basic") {
      request.headers.emplace_back("Authorization", basic_authorization(info.client_id, info.client_secret));
    } else if (method == "client_secret_post") {
      form.emplace_back("client_id", info.client_id);
      form.emplace_back("client_secret", info.client_secret);
    } else if (method == "private_key_jwt") {
      form.emplace_back("client_id", info.client_id);
      form.emplace_back("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      form.emplace_back("client_assertion",
                        client_assertion(info.client_id, issuer, info.private_key_pem, info.signing_algorithm));
    } else {
      form.emplace_back("client_id", info.client_id);
    }
    request.body = form_encode(form);
    FetchResponse r;
    try {
      r = fetch(request, fetch_options());
    } catch (const FetchError& e) {
      throw OAuthError(std::string("token endpoint: ") + e.what());
    }
    const auto doc = parse_json_document(r.body);
    if (r.status != 200) {
      std::string why = "HTTP " + std::to_string(r.status);
      if (doc && doc->is_object()) {
        const auto error = string_member(*doc, "error");
        const auto description = string_member(*doc, "error_description");
        if (!error.empty()) why += ": " + error + (description.empty() ? "" : " (" + description + ")");
      }
      throw OAuthError("the token endpoint " + endpoint + " refused: " + why);
    }
    if (!doc || !doc->is_object()) throw OAuthError("the token endpoint's answer is not a JSON object");
    OAuthTokens t;
    t.access_token = string_member(*doc, "access_token");
    t.token_type = string_member(*doc, "token_type");
    if (t.access_token.empty()) throw OAuthError("the token endpoint's answer has no access_token");
    if (!equals_nocase(t.token_type, "bearer")) {
      throw OAuthError("the token endpoint issued a \"" + t.token_type + "\" token; only Bearer is supported");
    }
    t.token_type = "Bearer";
    t.refresh_token = string_member(*doc, "refresh_token");
    t.scope = string_member(*doc, "scope");
    if (t.scope.empty()) t.scope = requested_scope;
    if (const auto e = doc->find("expires_in"); e != doc->end() && e->is_number() && e->get<double>() > 0) {
      t.expires_at = unix_now() + static_cast<std::int64_t>(e->get<double>());
    }
    return t;
  }

  // --- client identity ---------------------------------------------------------------------------

  // The client's identity at `issuer`, in the spec's order of preference: pre-registered (or saved),
  // a Client ID Metadata Document, Dynamic Client Registration (MCP Authorization, "Client
  // Registration").
  OAuthClientInformation client_information(const std::string& redirect_uri, bool client_credentials) {
    if (auto info = provider->client_information(issuer); info && !info->client_id.empty()) return *info;
    if (client_credentials) throw OAuthError("no client credentials for the authorization server " + issuer);
    const auto cimd = provider->client_metadata_url();
    if (!cimd.empty() && metadata.value("client_id_metadata_document_supported", false) == true) {
      OAuthClientInformation info;
      info.client_id = cimd;
      info.token_endpoint_auth_method = "none";
      return info;
    }
    const auto registration = string_member(metadata, "registration_endpoint");
    if (registration.empty()) {
      throw OAuthError("no client ID for the authorization server " + issuer +
                       ": none pre-registered, no Client ID Metadata Document it accepts, and no registration "
                       "endpoint");
    }
    auto body = provider->client_metadata();
    if (!body.is_object()) body = nlohmann::json::object();
    if (!body.contains("redirect_uris")) body["redirect_uris"] = nlohmann::json::array({redirect_uri});
    if (!body.contains("grant_types")) body["grant_types"] = {"authorization_code", "refresh_token"};
    if (!body.contains("response_types")) body["response_types"] = {"code"};
    if (!body.contains("token_endpoint_auth_method")) {
      body["token_endpoint_auth_method"] =
          !metadata.contains("token_endpoint_auth_methods_supported") ||
                  lists(metadata, "token_endpoint_auth_methods_supported", "none")
              ? "none"
          : lists(metadata, "token_endpoint_auth_methods_supported", "client_secret_basic") ? "client_secret_basic"
                                                                                            : "client_secret_post";
    }
    if (!body.contains("application_type")) {
      // MCP Authorization, Dynamic Client Registration: "native" for a redirect to this machine.
      const auto host = parse_client_endpoint(redirect_uri).host;
      const bool local = host == "localhost" || host == "127.0.0.1" || host == "::1";
      body["application_type"] = local ? "native" : "web";
    }
    FetchRequest request;
    request.method = "POST";
    request.url = registration;
    request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    request.body = body.dump();
    FetchResponse r;
    try {
      r = fetch(request, fetch_options());
    } catch (const FetchError& e) {
      throw OAuthError(std::string("client registration: ") + e.what());
    }
    const auto doc = parse_json_document(r.body);
    if ((r.status != 200 && r.status != 201) || !doc || !doc->is_object() || string_member(*doc, "client_id").empty()) {
      std::string why = "HTTP " + std::to_string(r.status);
      if (doc && doc->is_object() && doc->contains("error")) {
        why += ": " + string_member(*doc, "error") + " " + string_member(*doc, "error_description");
      }
      throw OAuthError("client registration at " + registration + " failed: " + why);
    }
    auto info = OAuthClientInformation::from_json(*doc);
    provider->save_client_information(issuer, info);
    return info;
  }

  // --- the grants --------------------------------------------------------------------------------

  OAuthTokens authorization_code(const std::string& scope) {
    if (metadata_found && !lists(metadata, "code_challenge_methods_supported", "S256")) {
      throw OAuthError("the authorization server " + issuer +
                       " does not list PKCE S256 in code_challenge_methods_supported: not authorizing (MCP "
                       "Authorization, \"Authorization Code Protection\")");
    }
    const auto endpoint = string_member(metadata, "authorization_endpoint");
    if (endpoint.empty()) throw OAuthError("the authorization server " + issuer + " has no authorization endpoint");
    const auto redirect_uri = provider->redirect_uri();
    if (redirect_uri.empty()) throw OAuthError("no redirect URI to receive the authorization response");
    const auto info = client_information(redirect_uri, false);
    const auto verifier = random_urlsafe(32);  // 43 characters (RFC 7636 section 4.1)
    const auto state = random_urlsafe(32);
    std::vector<std::pair<std::string, std::string>> query{
        {"response_type", "code"},         {"client_id", info.client_id},
        {"redirect_uri", redirect_uri},    {"code_challenge", pkce_s256(verifier)},
        {"code_challenge_method", "S256"}, {"state", state}};
    if (!scope.empty()) query.emplace_back("scope", scope);
    // OpenID Connect Core 1.0 section 11: an authorization server that follows it ignores
    // offline_access (so issues no refresh token) unless prompt contains consent; oidc-provider
    // does. A pure OAuth server ignores the parameter (RFC 6749 section 3.1).
    const auto scopes = split_scope(scope);
    if (std::find(scopes.begin(), scopes.end(), "offline_access") != scopes.end())
      query.emplace_back("prompt", "consent");
    query.emplace_back("resource", resource);
    const auto url = endpoint + (endpoint.find('?') == std::string::npos ? "?" : "&") + form_encode(query);
    const auto answer = provider->authorize(url);
    const auto params = query_parameters(answer);
    if (!params) throw OAuthError("the authorization response is not a valid URL query");
    const auto get = [&](const char* name) {
      const auto it = params->find(name);
      return it == params->end() ? std::optional<std::string>() : std::optional<std::string>(it->second);
    };
    // RFC 9207 section 2.4, as MCP Authorization's table says, before anything else of the answer
    // (an error too) is acted on: a present iss must be the recorded issuer exactly; an absent one
    // is refused only when the server advertises it.
    const auto iss = get("iss");
    if (iss && *iss != issuer) {
      throw OAuthError("the authorization response came from \"" + *iss + "\", not from " + issuer +
                       " (RFC 9207): not using it");
    }
    if (!iss && metadata.value("authorization_response_iss_parameter_supported", false) == true) {
      throw OAuthError("the authorization response has no iss although " + issuer + " advertises it (RFC 9207)");
    }
    if (const auto error = get("error")) {
      const auto description = get("error_description");
      throw OAuthError("the authorization server refused: " + *error + (description ? " (" + *description + ")" : ""));
    }
    if (get("state") != state) throw OAuthError("the authorization response's state does not match the request's");
    const auto code = get("code");
    if (!code || code->empty()) throw OAuthError("the authorization response has no code");
    return token_request({{"grant_type", "authorization_code"},
                          {"code", *code},
                          {"redirect_uri", redirect_uri},
                          {"code_verifier", verifier},
                          {"resource", resource}},
                         info, scope);
  }

  OAuthTokens client_credentials(const std::string& scope) {
    const auto info = client_information({}, true);
    std::vector<std::pair<std::string, std::string>> form{{"grant_type", "client_credentials"}};
    if (!scope.empty()) form.emplace_back("scope", scope);
    form.emplace_back("resource", resource);
    return token_request(std::move(form), info, scope);
  }

  std::optional<OAuthTokens> refresh(const OAuthTokens& old) {
    if (old.refresh_token.empty()) return std::nullopt;
    const auto info = provider->client_information(issuer);
    OAuthClientInformation who = info ? *info : OAuthClientInformation{};
    if (who.client_id.empty() && metadata.value("client_id_metadata_document_supported", false) == true) {
      who.client_id = provider->client_metadata_url();  // a Client ID Metadata Document client
      who.token_endpoint_auth_method = "none";
    }
    if (who.client_id.empty()) return std::nullopt;
    try {
      auto t =
          token_request({{"grant_type", "refresh_token"}, {"refresh_token", old.refresh_token}, {"resource", resource}},
                        who, old.scope);
      if (t.refresh_token.empty()) t.refresh_token = old.refresh_token;  // RFC 6749 section 6: may be kept
      return t;
    } catch (const OAuthError&) {
      return std::nullopt;  // a refused refresh: authorize anew
    }
  }

  // A new authorization with `scope` ("" for none), the tokens kept and saved.
  void authorize(const std::string& scope) {
    auto t = provider->grant_type() == "client_credentials" ? client_credentials(scope) : authorization_code(scope);
    provider->save_tokens(resource, issuer, t);
    std::lock_guard<std::mutex> lock(mutex);
    requested_scope = scope;
    tokens = std::move(t);
  }

  // The scope of a first authorization (MCP Authorization, "Scope Selection Strategy"): the
  // challenge's, else the resource's scopes_supported, else none; offline_access added when the
  // authorization server lists it and the client asks for refresh tokens (Refresh Tokens).
  std::string initial_scope(const std::map<std::string, std::string>& challenge) const {
    const auto it = challenge.find("scope");
    auto scope = it != challenge.end() ? it->second : resource_scopes;
    if (provider->grant_type() != "client_credentials" && lists(metadata, "scopes_supported", "offline_access")) {
      scope = scope_union(scope, "offline_access");
    }
    return scope;
  }
};

OAuthClient::OAuthClient(std::string server_url, std::shared_ptr<OAuthClientProvider> provider,
                         OAuthClientOptions options)
    : state_(std::make_unique<State>()) {
  if (!provider) throw std::invalid_argument("OAuthClient: no provider");
  state_->server = canonical_resource_uri(server_url);
  state_->provider = std::move(provider);
  state_->options = std::move(options);
}

OAuthClient::~OAuthClient() = default;

std::string OAuthClient::resource() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->resource;
}

std::string OAuthClient::authorization() {
  auto& s = *state_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.tokens || s.tokens->expires_at == 0 || s.tokens->expires_at > unix_now() + 30 ||
        s.tokens->refresh_token.empty()) {
      return s.header_locked();
    }
  }
  // Expires within 30 s and can be refreshed: refresh before use, one thread at a time.
  std::lock_guard<std::mutex> flow(s.flow);
  OAuthTokens old;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.tokens || s.tokens->expires_at > unix_now() + 30) return s.header_locked();
    old = *s.tokens;
  }
  if (auto t = s.refresh(old)) {
    s.provider->save_tokens(s.resource, s.issuer, *t);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.tokens = std::move(*t);
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.header_locked();
}

OAuthClient::Renewal OAuthClient::unauthorized(const std::string& sent_authorization,
                                               const std::string& www_authenticate) {
  auto& s = *state_;
  std::lock_guard<std::mutex> flow(s.flow);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto current = s.header_locked();
    if (!current.empty() && current != sent_authorization) return Renewal::other_token;  // another thread's
  }
  const auto challenge = bearer_challenge(www_authenticate).value_or(std::map<std::string, std::string>{});
  s.discover(challenge);
  std::optional<OAuthTokens> known;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    known = s.tokens;
  }
  // Tokens kept for this resource and issuer (a store of an earlier run) that are not the ones
  // refused: used as they are while they last, else refreshed.
  if (!known) {
    if (auto stored = s.provider->tokens(s.resource, s.issuer);
        stored && "Bearer " + stored->access_token != sent_authorization) {
      if (stored->expires_at == 0 || stored->expires_at > unix_now() + 30) {
        std::lock_guard<std::mutex> lock(s.mutex);
        s.tokens = std::move(stored);
        return Renewal::other_token;
      }
      known = std::move(stored);
    }
  }
  if (known) {
    if (auto t = s.refresh(*known)) {
      s.provider->save_tokens(s.resource, s.issuer, *t);
      std::lock_guard<std::mutex> lock(s.mutex);
      s.tokens = std::move(*t);
      return Renewal::refreshed;
    }
    s.provider->discard_tokens(s.resource, s.issuer);
  }
  s.authorize(s.initial_scope(challenge));
  return Renewal::authorized;
}

bool OAuthClient::forbidden(const std::string& sent_authorization, const std::string& www_authenticate,
                            int step_ups_so_far) {
  const auto challenge = bearer_challenge(www_authenticate);
  if (!challenge) return false;
  const auto error = challenge->find("error");
  if (error == challenge->end() || error->second != "insufficient_scope") return false;
  return insufficient_scope(sent_authorization, www_authenticate, step_ups_so_far);
}

bool OAuthClient::insufficient_scope(const std::string& sent_authorization, const std::string& www_authenticate,
                                     int step_ups_so_far) {
  auto& s = *state_;
  if (step_ups_so_far >= s.options.max_step_ups) return false;
  std::lock_guard<std::mutex> flow(s.flow);
  std::string asked;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto current = s.header_locked();
    if (!current.empty() && current != sent_authorization) return true;
    asked = s.requested_scope.empty() && s.tokens ? s.tokens->scope : s.requested_scope;
  }
  const auto challenge = bearer_challenge(www_authenticate).value_or(std::map<std::string, std::string>{});
  const auto wanted = challenge.find("scope");
  if (wanted == challenge.end() || wanted->second.empty()) return false;  // nothing to ask for
  // Scopes already granted and refused anyway: asking again cannot help (MCP Authorization,
  // "Step-Up Authorization Flow": track scope upgrade attempts).
  const auto wider = scope_union(asked, wanted->second);
  if (split_scope(wider).size() == split_scope(scope_union(asked, "")).size()) return false;
  if (s.issuer.empty()) s.discover(challenge);
  s.authorize(wider);
  return true;
}

}  // namespace elicit::auth
