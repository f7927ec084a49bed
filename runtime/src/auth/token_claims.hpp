// Claims both token verifiers read the same way: a JWT access token's (RFC 9068 section 2.2) and an
// introspection answer's (RFC 7662 section 2.2) `aud`, `sub` and `scope` have one shape.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/http/authorization.hpp"

namespace elicit::auth {

/// Whether `aud` (a string, or an array of strings) names `audience` (RFC 7519 section 4.1.3).
inline bool names_audience(const nlohmann::json& aud, const std::string& audience) {
  return (aud.is_string() && aud == audience) ||
         (aud.is_array() && std::find(aud.begin(), aud.end(), audience) != aud.end());
}

/// `sub`, a non-empty string; throws InvalidToken otherwise.
inline std::string subject_of(const nlohmann::json& claims) {
  const auto sub = claims.find("sub");
  if (sub == claims.end() || !sub->is_string() || sub->get_ref<const std::string&>().empty()) {
    throw http::InvalidToken("the token has no subject (\"sub\")");
  }
  return sub->get<std::string>();
}

/// The scopes of a space-separated `scope` (RFC 6749 section 3.3), empty ones skipped.
inline std::vector<std::string> split_scope(std::string_view scope) {
  std::vector<std::string> out;
  while (!scope.empty()) {
    const auto space = scope.find(' ');
    if (space != 0) out.emplace_back(scope.substr(0, space));
    if (space == std::string_view::npos) break;
    scope.remove_prefix(space + 1);
  }
  return out;
}

}  // namespace elicit::auth
