// One connection of the Streamable HTTP client transport: TCP, or TLS over TCP (tls_client.hpp),
// opened within a deadline, then used with Beast's synchronous operations by one thread at a time.
// A connection outlives the exchange that opened it when the server keeps it alive: the transport
// keeps idle ones and reuses them (HTTP/1.1 persistent connections, RFC 9112 section 9).
// Internal to elicit::http.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

namespace elicit::http {

/// Where the transport connects: the parts of its URL.
struct ClientEndpoint {
  bool tls = false;
  std::string host;         ///< without brackets
  std::string port;         ///< digits
  std::string target;       ///< origin-form: path and query
  std::string host_header;  ///< the Host header: host (bracketed for IPv6) and a port that is not the default
};

/// Parses "http[s]://host[:port][/path][?query]". Throws std::invalid_argument saying what is wrong
/// (another scheme, credentials, a malformed host or port).
ClientEndpoint parse_client_endpoint(const std::string& url);

class ClientStream {
 public:
  /// Resolves, connects and, for https, performs the TLS handshake with `tls` (which must outlive the
  /// stream), all within `timeout`. Null when that fails, with `error` saying why (for TLS, the host
  /// and OpenSSL's reason, tls_client.hpp). `in_tls` (may be null) is set when the failure came in
  /// the TLS part (the peer name, the handshake): the server was reached, its TLS was not accepted.
  static std::unique_ptr<ClientStream> open(const ClientEndpoint& endpoint, boost::asio::ssl::context* tls,
                                            std::chrono::milliseconds timeout, std::string& error,
                                            bool* in_tls = nullptr);

  ClientStream(const ClientStream&) = delete;
  ClientStream& operator=(const ClientStream&) = delete;

  /// Calls `f` with the stream to read and write: the TCP socket or the TLS stream over it.
  template <class F>
  decltype(auto) with(F&& f) {
    if (tls_) return f(*tls_);
    return f(socket_);
  }

  /// Runs the stream's own event loop on this thread until `done` (set by a handler of an
  /// asynchronous operation started through with()) or `deadline`; false on timeout (the caller
  /// then drops the stream, abandoning what is pending).
  bool run_until(const bool& done, std::chrono::steady_clock::time_point deadline);

  /// The socket's descriptor: ::shutdown() on it ends a read blocked on another thread.
  int native_handle() { return socket_.native_handle(); }

  /// For a kept connection about to be reused: false when the server has closed it (or sent
  /// anything unasked) while it was idle.
  bool usable_after_idle();

  /// Closes the TCP connection at once (no TLS close_notify: the peer learns from the close).
  void close();

 private:
  ClientStream() : socket_(ioc_) {}
  boost::asio::io_context ioc_{1};
  boost::asio::ip::tcp::socket socket_;
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls_;
};

}  // namespace elicit::http
