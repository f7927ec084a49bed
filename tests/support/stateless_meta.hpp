// The _meta of a 2026-07-28 request from a client that declares no capabilities.
#pragma once

#include <nlohmann/json.hpp>

namespace test_support {

inline nlohmann::json stateless_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", nlohmann::json::object()},
          {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1"}}}};
}

}  // namespace test_support
