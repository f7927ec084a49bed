// MCP Authorization, resource-server side (Basic / Authorization; OAuth 2.1 sections 5.2-5.3,
// RFC 6750, RFC 9728): the Protected Resource Metadata document, the bearer token check of every
// request, and the scopes each operation needs.
#include "server_impl.hpp"

namespace elicit::http {

using namespace http::server_impl;

namespace {

// "https://host[:port]/path" -> {"https://host[:port]", "/path"} ("" when the URI has no path).
std::pair<std::string, std::string> split_resource(const std::string& resource) {
  const auto scheme = resource.find("://");
  const auto path = scheme == std::string::npos ? std::string::npos : resource.find('/', scheme + 3);
  if (path == std::string::npos) return {resource, ""};
  auto p = resource.substr(path);
  if (p == "/") p.clear();
  return {resource.substr(0, path), p};
}

constexpr std::string_view kWellKnown = "/.well-known/oauth-protected-resource";

// A quoted-string of an auth-param (RFC 9110 section 5.6.4): the text stripped to what may appear.
std::string auth_param(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) continue;  // control and non-ASCII bytes have no place in a header
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
bool b64token(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) ||
                          std::string_view("-._~+/").find(t[i]) != std::string_view::npos)) {
    ++i;
  }
  if (i == 0) return false;
  while (i < t.size() && t[i] == '=') ++i;
  return i == t.size();
}

bool query_has_token(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return false;
  auto query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    if (pair.substr(0, pair.find('=')) == "access_token") return true;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
}

// Whether every scope in `needed` was granted, as such or through a broader one (scope_implies).
// May throw what scope_implies throws.
bool has_all(const ResourceServerOptions& a, const std::vector<std::string>& granted,
             const std::vector<std::string>& needed) {
  return std::all_of(needed.begin(), needed.end(), [&](const std::string& n) {
    if (std::find(granted.begin(), granted.end(), n) != granted.end()) return true;
    return a.scope_implies &&
           std::any_of(granted.begin(), granted.end(), [&](const std::string& g) { return a.scope_implies(g, n); });
  });
}

// Appends the scopes `to` does not hold yet, in their order.
void add_scopes(std::vector<std::string>& to, const std::vector<std::string>& scopes) {
  for (const auto& s : scopes) {
    if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
  }
}

using ScopeMap = std::map<std::string, std::vector<std::string>, std::less<>>;

// The entry of `scopes` for the string member `key` of `params`, or null.
const ScopeMap::value_type* entry_for(const ScopeMap& scopes, const nlohmann::json& params, const char* key) {
  if (scopes.empty() || !params.is_object()) return nullptr;
  const auto member = params.find(key);
  if (member == params.end() || !member->is_string()) return nullptr;
  const auto it = scopes.find(member->get_ref<const std::string&>());
  return it == scopes.end() ? nullptr : &*it;
}

}  // namespace

Reply StreamableHttpServer::Impl::challenge(unsigned status, const char* error, const std::string& description,
                                            const std::vector<std::string>& scopes) const {
  const auto& a = *options.authorization;
  const auto [origin, path] = split_resource(a.resource);
  std::string value = "Bearer ";
  if (error) value += std::string("error=\"") + error + "\", ";
  std::string scope;
  for (const auto& s : scopes) scope += (scope.empty() ? "" : " ") + s;
  if (!scope.empty()) value += "scope=" + auth_param(scope) + ", ";
  value += "resource_metadata=" + auth_param(origin + std::string(kWellKnown) + path);
  if (error && !description.empty()) value += ", error_description=" + auth_param(description);
  Reply r;
  r.status = status;
  r.content_type = "application/json";
  nlohmann::json body = {{"error", error ? error : "unauthorized"}};
  if (!description.empty()) body["error_description"] = description;
  r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  r.headers.emplace_back("WWW-Authenticate", std::move(value));
  return r;
}

std::optional<Reply> StreamableHttpServer::Impl::serve_metadata(const HttpRequest& req, std::string_view path) const {
  if (!options.authorization) return std::nullopt;
  const auto& a = *options.authorization;
  const auto resource_path = split_resource(a.resource).second;
  if (path != std::string(kWellKnown) + resource_path && path != kWellKnown) return std::nullopt;
  // A public document: browser-based clients read it from any origin (CORS, with the preflight
  // their MCP-Protocol-Version header causes). It carries nothing a cross-origin page could abuse.
  if (req.method() == boost::beast::http::verb::options) {
    Reply r;
    r.status = 204;
    r.headers.emplace_back("Access-Control-Allow-Origin", "*");
    r.headers.emplace_back("Access-Control-Allow-Methods", "GET");
    r.headers.emplace_back("Access-Control-Allow-Headers", "MCP-Protocol-Version");
    r.headers.emplace_back("Access-Control-Max-Age", "86400");
    return r;
  }
  if (req.method() != boost::beast::http::verb::get) {
    auto r = error_reply(405, -32000, "Method Not Allowed");
    r.headers.emplace_back("Allow", "GET, OPTIONS");
    return r;
  }
  nlohmann::json doc = {{"resource", a.resource},
                        {"authorization_servers", a.authorization_servers},
                        {"bearer_methods_supported", {"header"}},
                        {"resource_name", info.title.value_or(info.name)}};
  if (!a.scopes_supported.empty()) doc["scopes_supported"] = a.scopes_supported;
  Reply r;
  r.status = 200;
  r.content_type = "application/json";
  r.body = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  r.headers.emplace_back("Cache-Control", "max-age=3600");
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

std::optional<Reply> StreamableHttpServer::Impl::authorize(const HttpRequest& req, Authorized& who) const {
  const auto& a = *options.authorization;
  const auto& hint = a.required_scopes.empty() ? a.scopes_supported : a.required_scopes;
  // OAuth 2.1 section 5.1.1 and MCP: never in the URI, where logs and Referer headers keep it.
  if (query_has_token(std::string_view(req.target().data(), req.target().size()))) {
    return challenge(400, "invalid_request", "access tokens are accepted only in the Authorization header", {});
  }
  const auto field = header(req, "Authorization");
  constexpr std::string_view scheme = "bearer ";
  if (!starts_with_nocase(field, scheme)) {
    // No credentials (or another scheme): the challenge carries no error code (RFC 6750 section 3.1).
    return challenge(401, nullptr, "", hint);
  }
  const auto token = field.substr(scheme.size());
  if (!b64token(token)) return challenge(400, "invalid_request", "malformed Bearer credentials", {});
  AccessToken t;
  try {
    t = a.verify(token);
  } catch (const InvalidToken& e) {
    return challenge(401, "invalid_token", e.what(), hint);
  } catch (...) {
    return error_reply(500, -32603, "Internal error: the access token could not be checked");
  }
  who.principal =
      nlohmann::json::array({t.issuer, t.subject}).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  who.token = std::make_shared<const AccessToken>(std::move(t));
  // A JSON POST is checked once its body is read (check_scopes): the scopes its operation needs go
  // into one challenge with these, so that one authorization round gets them all.
  if (req.method() == boost::beast::http::verb::post &&
      starts_with_nocase(header(req, "Content-Type"), "application/json")) {
    return std::nullopt;
  }
  try {
    if (has_all(a, who.token->scopes, a.required_scopes)) return std::nullopt;
  } catch (...) {  // from scope_implies
    return error_reply(500, -32603, "Internal error: the token's scopes could not be checked");
  }
  return challenge(403, "insufficient_scope", "the token lacks a required scope", a.required_scopes);
}

std::optional<Reply> StreamableHttpServer::Impl::check_scopes(const ::elicit::Request* r, const Authorized& who) const {
  const auto& a = *options.authorization;
  const auto& granted = who.token->scopes;
  try {
    // What the operation needs besides required_scopes, and what it is, for the description (only a
    // name found in a map: the text of the request is not echoed).
    std::vector<std::string> more;
    std::string what = "the operation";
    if (r) {
      if (const auto it = a.method_scopes.find(r->method); it != a.method_scopes.end()) add_scopes(more, it->second);
      const ScopeMap::value_type* named = nullptr;
      const char* kind = "";
      if (r->method == "tools/call") {
        named = entry_for(a.tool_scopes, r->params, "name");
        kind = "the tool ";
      } else if (r->method == "prompts/get") {
        named = entry_for(a.prompt_scopes, r->params, "name");
        kind = "the prompt ";
      } else if (r->method == "resources/read") {
        named = entry_for(a.resource_scopes, r->params, "uri");
        kind = "the resource ";
      }
      if (named) {
        add_scopes(more, named->second);
        what = kind + named->first;
      }
      if (a.operation_scopes) add_scopes(more, a.operation_scopes(*r));
    }
    if (more.empty()) {
      if (has_all(a, granted, a.required_scopes)) return std::nullopt;
      return challenge(403, "insufficient_scope", "the token lacks a required scope", a.required_scopes);
    }
    // Every scope the request needs in one challenge, required_scopes first.
    auto needed = a.required_scopes;
    add_scopes(needed, more);
    if (has_all(a, granted, needed)) return std::nullopt;
    return challenge(403, "insufficient_scope", what + " needs more scopes", needed);
  } catch (...) {  // from operation_scopes or scope_implies: the application's reasons stay in it
    return error_reply(500, -32603, "Internal error: the scopes of the request could not be determined");
  }
}

}  // namespace elicit::http
