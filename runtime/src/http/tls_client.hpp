// The client side of TLS, for every outbound connection the runtime makes (fetch.cpp, the Streamable
// HTTP client transport): TLS 1.2 or later, the peer's certificate chain verified against the system
// store or a given CA file, and the certificate required to name the host the URL names (a DNS name
// with SNI, or an IP address as an iPAddress entry). Never a silent downgrade: a verification
// failure ends the connection with an error that names the host and OpenSSL's reason.
// Internal to elicit::http.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <openssl/ssl.h>
#include <boost/asio/ssl/context.hpp>
#include <boost/system/error_code.hpp>

namespace elicit::http {

/// A context that verifies peers: the system's default verify paths, or only the CA certificates
/// in the PEM file `ca_file` when it is not empty. Throws std::runtime_error naming the file and
/// the reason when the trusted certificates cannot be loaded. The context is not changed afterwards,
/// so connections on any thread may share it.
std::shared_ptr<boost::asio::ssl::context> verifying_client_context(const std::string& ca_file);

/// Before the handshake of `ssl`: the certificate must name `host` (without brackets); SNI is sent
/// for a DNS name. Throws std::runtime_error when OpenSSL refuses the name.
void expect_peer_name(SSL* ssl, const std::string& host);

/// Why the handshake of `ssl` with `host` failed, for an error message: "the server's certificate
/// is not trusted for HOST: REASON" when verification failed, else "the TLS handshake with HOST
/// failed: " and `error`'s message.
std::string handshake_failure(SSL* ssl, const std::string& host, const boost::system::error_code& error);

/// Frees the calling thread's OpenSSL state (its error queue, which a failed handshake fills) now
/// rather than when the thread ends. A detached thread calls it last, before it tells whoever
/// waits for it that it is done: otherwise that waiter (HttpClientTransport::close(), then the
/// process's exit) can run while the thread is still tearing that state down, and a leak checker
/// at exit finds it half freed. Harmless on a thread that never used OpenSSL.
void release_thread_tls_state() noexcept;

}  // namespace elicit::http
