// The client side of Streamable HTTP (MCP 2025-11-25 and 2026-07-28, Transports, "Streamable
// HTTP"): every message is POSTed to the endpoint; a request's answer comes back as JSON or as an
// SSE stream carrying the server's messages about it (elicitation/create, progress) and then its
// response. 2025-11-25: the Mcp-Session-Id that initialize's answer gives is sent on every later
// POST and the session is ended with DELETE on close. 2026-07-28: no session; each request carries
// MCP-Protocol-Version, Mcp-Method and, for tools/call, prompts/get and resources/read, Mcp-Name.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "elicit/http/client_authorization.hpp"
#include "elicit/jsonrpc/transport.hpp"

namespace elicit::http {

struct HttpClientOptions {
  /// The MCP endpoint, "https://host[:port]/path" or "http://host[:port]/path". https: TLS 1.2 or
  /// later, the server's certificate chain verified against the system's trusted certificates (or
  /// `ca_file`) and required to name the URL's host (SNI for a DNS name); never a fallback to plain
  /// http.
  std::string url;
  /// A PEM file of CA certificates to trust instead of the system's (a private CA). Empty: the
  /// system's default verify paths (Debian: /etc/ssl/certs, from ca-certificates).
  std::string ca_file{};
  /// MCP-Protocol-Version of every POST but initialize: the version the client speaks (for a
  /// 2025-11-25 session, replaced by the one initialize's answer names).
  std::string protocol_version = "2026-07-28";
  /// Largest message or SSE event accepted, in bytes; a larger one ends that POST's exchange.
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  /// Resolving, connecting and the TLS handshake together, at most (ms).
  std::chrono::milliseconds connect_timeout{10000};
  /// MCP authorization (Basic / Authorization; client_authorization.hpp): when set, every request
  /// carries its authorization() (`Authorization: Bearer`, never in the URL); a 401 renews the token
  /// (ClientAuthorization::unauthorized: e.g. a kept token, a refresh, or a new authorization, at
  /// most one new authorization per request) and sends the request again; a 403 is sent again when
  /// ClientAuthorization::forbidden says so (a step-up on `insufficient_scope`). A renewal that
  /// throws ends the request with a JSON-RPC error (-32000) whose message says why. The OAuth 2.1
  /// client of the authorization wing is one: `std::make_shared<auth::OAuthClient>(url, provider,
  /// options)` (elicit/auth/oauth_client.hpp, link elicit::auth). The constructor throws
  /// std::invalid_argument unless the URL is https (or plain http to a loopback host).
  std::shared_ptr<ClientAuthorization> authorization{};
  /// Header fields sent with every request (POST, GET, DELETE), e.g. a gateway's key: {name, value}.
  /// Not the transport's own (Host, Content-*, Accept, Connection, Transfer-Encoding, TE, Upgrade,
  /// Last-Event-ID, Authorization: that is `authorization`'s) nor any `Mcp-*` or `MCP-*` field;
  /// names are RFC 9110 tokens, values visible ASCII, spaces and tabs. The constructor throws
  /// std::invalid_argument for one that is not. They travel as given: a secret belongs on https
  /// (or loopback), which the caller checks (review_url).
  std::vector<std::pair<std::string, std::string>> headers{};
};

/// One POST per message, each answered on a thread of its own that lives as long as its response
/// stream; messages reach on_message one at a time. Connections persist (HTTP/1.1 keep-alive): one
/// whose response was read to the end is kept (up to 8 idle) and reused by a later POST; a kept
/// connection the server closed meanwhile is noticed before use, or, when the close crosses the
/// request, the POST is sent once more on a new connection. A request whose POST fails (no
/// connection, a certificate not trusted, an HTTP error without a JSON-RPC body) is answered locally
/// with a JSON-RPC error for its id (-32000; the message says why: the host and OpenSSL's reason for
/// TLS, or the HTTP status), so nothing waits forever. A message is
/// not POSTed before every notification sent earlier was accepted (so notifications/initialized
/// precedes the first request). A 2025-11-25 session's GET stream (messages unrelated to a request)
/// is opened once notifications/initialized is accepted. SendContext::headers go with the message's
/// POST (elicit::Client puts a 2026-07-28 tools/call's `Mcp-Param-*` fields there).
///
/// A request's SSE stream that ends before its response, after an event with an id (2025-11-25,
/// Streamable HTTP: the server "MAY close the connection" and the client "SHOULD then poll"), is
/// resumed with GET and `Last-Event-ID`, after the `retry` the stream last gave (ms; 1000 when it gave
/// none); the resumed stream is read until the response, and resumed again the same way. Bounded:
/// 3 resumptions in a row that bring no event, or 1000 in all, end the request with -32000 (as does a
/// stream without an event id: nothing to resume from). Not for a 2026-07-28 request (its streams are
/// not resumable, Streamable HTTP 2026-07-28). Not yet: resuming the session's GET stream.
class HttpClientTransport final : public Transport {
 public:
  /// Throws std::invalid_argument for a URL that is not http[s]://host[:port][/path], and for https
  /// when the trusted certificates cannot be loaded (`ca_file` unreadable or not PEM).
  explicit HttpClientTransport(HttpClientOptions options);
  ~HttpClientTransport() override;
  void start(MessageHandler on_message, CloseHandler on_close) override;
  bool send(std::string message, const SendContext& context) override;
  /// Ends every exchange in progress (their connections are shut down), DELETEs a 2025-11-25
  /// session, joins the threads and calls on_close. Not from on_message.
  void close() override;
  /// The endpoint URL (HttpClientOptions::url).
  std::string peer() const override;
  /// True: SendContext::headers are sent.
  bool carries_headers() const noexcept override { return true; }

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace elicit::http
