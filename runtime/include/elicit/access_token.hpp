// Who a request comes from when the transport verified an access token (MCP 2026-07-28 and
// 2025-11-25, Basic / Authorization): what the token says, for handlers (RequestContext::
// access_token()), and the slot a session's transport keeps it in as the client refreshes it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicit {

/// What a verified access token says.
struct AccessToken {
  std::string issuer;                                ///< `iss`: the authorization server that issued it
  std::string subject;                               ///< `sub`: the user (or client) it was issued for
  std::vector<std::string> scopes;                   ///< granted scopes (`scope`, space-separated in a JWT)
  nlohmann::json claims = nlohmann::json::object();  ///< every claim the verifier read, for handlers

  /// Whether `scope` was granted.
  bool has_scope(std::string_view scope) const {
    for (const auto& s : scopes) {
      if (s == scope) return true;
    }
    return false;
  }
};

/// Who sends a request: the principal its requestStates and elicitations are bound to, and the
/// access token it carried.
struct Caller {
  /// "" when the transport knows none; with MCP authorization, the JSON text `["<iss>","<sub>"]`.
  std::string principal;
  /// Null without authorization (or, in a session, when the slot is read instead).
  std::shared_ptr<const AccessToken> access_token;
};

/// The access token of the requests a session serves. A client may present a new token on any
/// request (refreshed, or with more scopes after a 403 insufficient_scope): the transport sets it
/// as each request arrives, and each request reads it as it is dispatched. Thread-safe.
class AccessTokenSlot {
 public:
  void set(std::shared_ptr<const AccessToken> token) {
    std::lock_guard<std::mutex> lock(mutex_);
    token_ = std::move(token);
  }
  std::shared_ptr<const AccessToken> get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return token_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const AccessToken> token_;
};

}  // namespace elicit
