#include "transport_failure.hpp"

#include <string_view>

#include "elicit/jsonrpc/transport.hpp"

namespace elicit::http {
namespace {

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// The URL's path ("/" when it has none), without query.
std::string path_of(const std::string& url) {
  const auto scheme_end = url.find("://");
  const auto start = url.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
  if (start == std::string::npos) return "/";
  return url.substr(start, url.find_first_of("?#", start) - start);
}

}  // namespace

std::string transport_failure_hint(const TransportFailure& f, const std::string& url) {
  const bool https = url.rfind("https://", 0) == 0;
  const std::string kind = f.kind;
  if (kind == "connect" || kind == "tls") {
    if (has(f.why, "Connection refused")) return "nothing listens there: is the server running, on this host and port?";
    if (has(f.why, "wrong version number") || has(f.why, "packet length too long") || has(f.why, "http request"))
      return "the server does not speak TLS on this port: does it speak http:// rather than https://?";
    if (has(f.why, "hostname mismatch") || has(f.why, "IP address mismatch"))
      return "the certificate names another host: connect by a name the certificate lists";
    if (has(f.why, "certificate is not trusted"))
      return "trust the CA that signed the server's certificate: elicitgen client --ca-file FILE "
             "(HttpClientOptions::ca_file)";
    return "";
  }
  if (kind == "no_answer" && !https &&
      (has(f.why, "end of stream") || has(f.why, "bad version") || has(f.why, "bad method") ||
       has(f.why, "Connection reset")))
    return "the server closed the connection without an HTTP response: does it speak https:// on this port?";
  if (kind == "http_status" && f.http_status == 404 && path_of(url) != "/mcp")
    return "the MCP endpoint is usually /mcp: is the URL's path right?";
  return "";
}

nlohmann::json transport_failure_error(const TransportFailure& f, const std::string& url) {
  const auto hint = transport_failure_hint(f, url);
  nlohmann::json data{{jsonrpc::kTransportFailure, f.kind}};
  if (f.http_status != 0) data["httpStatus"] = f.http_status;
  if (f.server_error.is_object()) data["serverError"] = f.server_error;
  return {{"code", -32000}, {"message", hint.empty() ? f.why : f.why + " (" + hint + ")"}, {"data", std::move(data)}};
}

}  // namespace elicit::http
