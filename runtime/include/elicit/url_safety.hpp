// What a client checks before it offers to open the URL of a URL-mode elicitation (MCP 2025-11-25,
// Client, Elicitation, "Safe URL Handling": show the full URL, highlight the domain, warn of
// Punycode; the userInteraction draft, "Server-side request forgery": block internal addresses,
// require TLS). Nothing here fetches or resolves anything: the URL is only read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace elicit {

struct UrlSafetyOptions {
  /// Allow plain http:// to hosts other than loopback ones (development setups). Loopback
  /// (localhost, 127.0.0.0/8, ::1) may always use http.
  bool allow_plain_http = false;
  /// The MCP server runs on this machine (a child process over stdio, or a loopback URL): a
  /// loopback page is then its own (a browser form on a loopback page server, in development), and
  /// neither its IP address nor its port is warned of on every consent.
  bool server_on_loopback = false;
};

struct UrlReview {
  /// False: do not offer the URL to the user at all; `refusal` says why.
  bool allowed = false;
  std::string refusal;
  std::string scheme;  ///< "https" or "http", lower-case
  /// The host as it must be shown (the part to highlight): lower-case ASCII; each label with
  /// non-ASCII characters in its Punycode form ("xn--..."); an IPv6 literal without brackets.
  std::string host;
  std::string port;       ///< as written; empty when absent
  bool loopback = false;  ///< the host is this machine: localhost (and *.localhost), 127.0.0.0/8, ::1
  /// Things to tell the user next to the URL: an IP address instead of a name (and its range:
  /// loopback, private, link-local, unspecified), an internationalised (Punycode) host, a port;
  /// for a loopback host with UrlSafetyOptions::server_on_loopback, neither the address nor the port.
  std::vector<std::string> warnings;
};

/// Reviews `url`. Refused: anything but http and https; credentials in the URL
/// (`user:pass@host`); plain http to a host that is not loopback unless allowed; spaces, control
/// characters or backslashes anywhere; a missing, malformed or percent-encoded host; a port that
/// is not a number up to 65535; a URL over 8,192 bytes. IDN labels are converted to Punycode as
/// written (lower-cased ASCII only: no IDNA mapping or normalisation), and flagged.
UrlReview review_url(std::string_view url, const UrlSafetyOptions& options = {});

/// RFC 3492 Punycode of one label given in UTF-8 (without the "xn--" prefix); empty when the
/// label is not valid UTF-8.
std::string punycode_encode(std::string_view utf8_label);

}  // namespace elicit
