// Host names as the Host and Origin header fields carry them: the port taken off, and the names
// of this machine (DNS rebinding protection). Internal to elicit::http.
#pragma once

#include <string>
#include <string_view>

#include "ascii_case.hpp"

namespace elicit::http {

// "localhost:8080" -> "localhost", "[::1]:3000" -> "[::1]".
inline std::string host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    return std::string(close == std::string_view::npos ? host : host.substr(0, close + 1));
  }
  return std::string(host.substr(0, host.find(':')));
}

// localhost, 127.0.0.1 or [::1], in any case.
inline bool is_loopback_name(std::string_view host) {
  return equals_nocase(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

}  // namespace elicit::http
