#include "authorization_server_metadata.hpp"

#include "json_document.hpp"

namespace elicit::auth {

std::vector<std::string> metadata_urls(const std::string& issuer) {
  const auto scheme = issuer.find("://");
  const auto slash = scheme == std::string::npos ? std::string::npos : issuer.find('/', scheme + 3);
  const auto origin = issuer.substr(0, slash);
  auto path = slash == std::string::npos ? std::string() : issuer.substr(slash);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.empty()) {
    return {origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"};
  }
  return {origin + "/.well-known/oauth-authorization-server" + path,
          origin + "/.well-known/openid-configuration" + path, origin + path + "/.well-known/openid-configuration"};
}

FetchResponse fetch_json(const std::string& url, std::chrono::steady_clock::time_point deadline, FetchOptions options) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (left <= std::chrono::milliseconds(0)) throw FetchError(url + ": no time left to fetch it");
  options.timeout = left;
  FetchRequest r;
  r.url = url;
  r.headers = {{"Accept", "application/json"}};
  return fetch(r, options);
}

nlohmann::json fetch_metadata(const std::string& issuer, std::chrono::steady_clock::time_point deadline,
                              const FetchOptions& options) {
  std::string tried;
  for (const auto& url : metadata_urls(issuer)) {
    const auto r = fetch_json(url, deadline, options);
    if (r.status != 200) {
      tried += (tried.empty() ? "" : ", ") + url + " (" + std::to_string(r.status) + ")";
      continue;
    }
    auto doc = parse_json_document(r.body);
    if (!doc || !doc->is_object()) throw FetchError(url + ": the metadata is not a JSON object");
    // RFC 8414 section 3.3: metadata naming another issuer must not be used.
    if (doc->value("issuer", nlohmann::json()) != issuer) {
      throw FetchError(url + ": the metadata's \"issuer\" is not " + issuer);
    }
    return std::move(*doc);
  }
  throw FetchError("no authorization server metadata for " + issuer + ": " + tried);
}

}  // namespace elicit::auth
