// The `initialize` request of a 2025-11-25 client (MCP 2025-11-25, Lifecycle), for tests that open
// a session over HTTP.
#pragma once

#include <nlohmann/json.hpp>

namespace test_support {

inline nlohmann::json session_initialize(const nlohmann::json& capabilities = nlohmann::json::object(), int id = 1) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", capabilities},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
}

}  // namespace test_support
