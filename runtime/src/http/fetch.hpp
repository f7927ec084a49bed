// One HTTP request and its response, synchronously, with a deadline: what the resource server needs
// to read an authorization server's metadata and keys (RFC 8414, RFC 7517) and to introspect a token
// (RFC 7662). https with the peer's certificate chain and host name verified (TLS 1.2+, SNI), or
// plain http to a loopback host only. No redirects, no cookies, no proxies: a response other than
// the one asked for is an error.
#pragma once

#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace elicit::http {

/// A fetch that did not produce a response: bad URL, refused scheme, resolution, connection, TLS
/// verification, timeout, an oversized or malformed response. The text names the URL and the reason.
class FetchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FetchOptions {
  /// Everything (resolve, connect, handshake, write, read) within this many milliseconds.
  std::chrono::milliseconds timeout{5000};
  /// The largest response body accepted, in bytes.
  std::size_t body_limit = 1024 * 1024;
  /// A PEM file of CA certificates to trust instead of the system store (a private CA). Empty: the
  /// system's default verify paths.
  std::string ca_file;
};

struct FetchRequest {
  std::string method = "GET";  ///< GET or POST
  std::string url;             ///< https://…, or http:// to localhost, 127.0.0.0/8 or [::1]
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  ///< sent with POST
};

struct FetchResponse {
  unsigned status = 0;
  std::string content_type;  ///< the media type, lower-case, without parameters
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  ///< every header, names as sent

  /// The first header named `name` (case-insensitive), or "".
  std::string header(const std::string& name) const;
};

/// Performs `request`. Throws FetchError (never for an HTTP status: the caller reads it). Thread-safe:
/// each call has its own connection and event loop, and blocks the calling thread up to the timeout.
FetchResponse fetch(const FetchRequest& request, const FetchOptions& options = {});

}  // namespace elicit::http
