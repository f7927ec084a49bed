// What a progressToken is (MCP 2025-11-25 and 2026-07-28, Basic, Utilities, Progress: "a string or
// integer value", sent in a request's `params._meta.progressToken`), read in one place for every
// request the server serves: tools/call and the rest (RequestContext), a 2026-07-28 request's fields
// (read_request_era) and the draft's interaction/notify. Internal to elicit::runtime.
#pragma once

#include <nlohmann/json.hpp>

namespace elicit::detail {

/// Whether `v` can be a progressToken: a string or an integer (a float, object or null cannot).
inline bool is_progress_token(const nlohmann::json& v) noexcept { return v.is_string() || v.is_number_integer(); }

/// `params._meta.progressToken` when it is a progressToken; null otherwise (no object params or
/// `_meta`, no member, or a value of another type). The reference is into `params` or to a static
/// null; never throws.
inline const nlohmann::json& progress_token_in(const nlohmann::json& params) {
  static const nlohmann::json none;
  if (!params.is_object()) return none;
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return none;
  const auto token = meta->find("progressToken");
  return token != meta->end() && is_progress_token(*token) ? *token : none;
}

}  // namespace elicit::detail
