// A JSON document read from a peer (an authorization server's metadata, a key set, a token's
// header and claims): parsed only when it nests no deeper than a bound, without exceptions.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/content/json_depth.hpp"

namespace elicit::auth {

/// The value `text` holds; nullopt when it is not JSON or nests deeper than `max_depth`.
inline std::optional<nlohmann::json> parse_json_document(std::string_view text, std::size_t max_depth = 32) {
  if (find_too_deep(text, max_depth) != std::string_view::npos) return std::nullopt;
  auto value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) return std::nullopt;
  return value;
}

/// The string member `name` of a metadata object `j`, "" when absent or not a string.
inline std::string string_member(const nlohmann::json& j, const char* name) {
  const auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// Whether the array member `name` of `j` lists `value` (e.g. a metadata's code_challenge_methods_supported).
inline bool lists(const nlohmann::json& j, const char* name, const std::string& value) {
  const auto it = j.find(name);
  return it != j.end() && it->is_array() && std::find(it->begin(), it->end(), value) != it->end();
}

}  // namespace elicit::auth
