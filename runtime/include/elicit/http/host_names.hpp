// Host names as the Host and Origin header fields carry them: the port taken off, and the names
// of this machine (DNS rebinding protection). Used by the Streamable HTTP server and the browser
// forms' page server.
#pragma once

#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>

#include "elicit/http/ascii_case.hpp"

namespace elicit::http {

/// The host of a Host or Origin value without its port: "localhost:8080" -> "localhost",
/// "[::1]:3000" -> "[::1]" (an IPv6 literal keeps its brackets).
inline std::string host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    return std::string(close == std::string_view::npos ? host : host.substr(0, close + 1));
  }
  return std::string(host.substr(0, host.find(':')));
}

/// Whether `host` (without a port) names this machine: localhost (in any case), 127.0.0.1 or [::1].
inline bool is_loopback_name(std::string_view host) {
  return equals_nocase(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

/// Whether `address` is a loopback address: IPv4 127.0.0.0/8, the IPv6 loopback, or an IPv4-mapped
/// IPv6 address of 127.0.0.0/8.
inline bool loopback_address(const boost::asio::ip::address& address) {
  if (address.is_v4()) return address.to_v4().is_loopback();
  const auto v6 = address.to_v6();
  if (v6.is_loopback()) return true;
  return v6.is_v4_mapped() && boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).is_loopback();
}

}  // namespace elicit::http
