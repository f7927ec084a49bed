// The Host and Origin checks every request passes first (MCP 2025-11-25 and 2026-07-28, Streamable
// HTTP, "Security Warning": DNS rebinding).
#include "elicit/http/host_names.hpp"
#include "server_impl.hpp"

namespace elicit::http {

using namespace http::server_impl;
using http::host_without_port;
using http::is_loopback_name;

bool StreamableHttpServer::Impl::host_allowed(const HttpRequest& req) const {
  const auto raw = header(req, "Host");
  const auto host = host_without_port(raw);
  if (host.empty() || is_loopback_name(host)) return true;  // HTTP/1.0 clients may omit Host
  for (const auto& h : options.allowed_hosts) {
    if (equals_nocase(h, host) || equals_nocase(h, raw)) return true;
  }
  return false;
}

bool StreamableHttpServer::Impl::origin_allowed(const HttpRequest& req) const {
  if (!has_header(req, "Origin")) return true;  // not a browser request
  const auto origin = ascii_lower(header(req, "Origin"));
  for (const auto& o : options.allowed_origins) {
    if (equals_nocase(o, origin)) return true;
  }
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) return false;
  const auto scheme = origin.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") return false;
  return is_loopback_name(host_without_port(origin.substr(scheme_end + 3)));
}

// Checks every request passes; an error reply when it does not.
std::optional<Reply> StreamableHttpServer::Impl::refuse(const HttpRequest& req) const {
  if (!host_allowed(req) || !origin_allowed(req)) {
    return error_reply(403, -32000, "Forbidden: Host or Origin is not allowed (DNS rebinding protection)");
  }
  return std::nullopt;
}

}  // namespace elicit::http
