// The header fields of a request carrying a bearer token, for the resource-server tests: JSON
// posting, `Authorization: Bearer <token>`, and with `session` the 2025-11-25 session's fields.
#pragma once

#include <string>

#include "http_client.hpp"

namespace test_support {

inline http_test::Headers bearer_headers(const std::string& token, const std::string& session = "") {
  auto h = http_test::kAccept;
  h.emplace_back("Authorization", "Bearer " + token);
  if (!session.empty()) {
    h.emplace_back("Mcp-Session-Id", session);
    h.emplace_back("MCP-Protocol-Version", "2025-11-25");
  }
  return h;
}

}  // namespace test_support
