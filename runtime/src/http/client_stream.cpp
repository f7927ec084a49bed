#include "client_stream.hpp"

#include <poll.h>

#include <algorithm>
#include <stdexcept>

#include <boost/asio/connect.hpp>

#include "elicit/http/ascii_case.hpp"
#include "tls_client.hpp"

namespace elicit::http {

namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

}  // namespace

ClientEndpoint parse_client_endpoint(const std::string& url) {
  ClientEndpoint e;
  std::string rest;
  if (starts_with_nocase(url, "https://")) {  // the scheme is case-insensitive (RFC 3986 section 3.1)
    e.tls = true;
    rest = url.substr(8);
  } else if (starts_with_nocase(url, "http://")) {
    rest = url.substr(7);
  } else {
    throw std::invalid_argument("not an http:// or https:// URL: " + url);
  }
  const auto slash = rest.find_first_of("/?#");
  const auto authority = rest.substr(0, slash);
  e.target = slash == std::string::npos ? "/" : rest.substr(slash, rest.find('#', slash) - slash);
  if (e.target.empty() || e.target[0] != '/') e.target.insert(0, "/");
  if (authority.empty() || authority.find('@') != std::string::npos)
    throw std::invalid_argument("the URL needs a host (and no credentials): " + url);
  std::string port;
  if (authority[0] == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) throw std::invalid_argument("malformed IPv6 host: " + url);
    e.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') throw std::invalid_argument("malformed host or port: " + url);
      port = authority.substr(close + 2);
      if (port.empty()) throw std::invalid_argument("malformed host or port: " + url);
    }
  } else {
    const auto colon = authority.rfind(':');
    e.host = authority.substr(0, colon);
    if (colon != std::string::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) throw std::invalid_argument("malformed host or port: " + url);
    }
  }
  const std::string default_port = e.tls ? "443" : "80";
  e.port = port.empty() ? default_port : port;
  if (e.host.empty() || e.port.size() > 5 || e.port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(e.port) == 0 || std::stoul(e.port) > 65535)
    throw std::invalid_argument("malformed host or port: " + url);
  const bool v6 = e.host.find(':') != std::string::npos;
  e.host_header = (v6 ? "[" + e.host + "]" : e.host) + (e.port == default_port ? "" : ":" + e.port);
  return e;
}

std::unique_ptr<ClientStream> ClientStream::open(const ClientEndpoint& endpoint, ssl::context* tls,
                                                 std::chrono::milliseconds timeout, std::string& error, bool* in_tls) {
  const auto deadline = Clock::now() + timeout;
  std::unique_ptr<ClientStream> s(new ClientStream());
  tcp::resolver resolver(s->ioc_);
  tcp::resolver::results_type endpoints;
  bool done = false;
  error_code ec;
  resolver.async_resolve(endpoint.host, endpoint.port, [&](error_code e, tcp::resolver::results_type r) {
    ec = e;
    endpoints = std::move(r);
    done = true;
  });
  if (!s->run_until(done, deadline)) {
    error = "timed out resolving " + endpoint.host;
    return nullptr;
  }
  if (ec) {
    error = "cannot resolve " + endpoint.host + ": " + ec.message();
    return nullptr;
  }
  done = false;
  net::async_connect(s->socket_, endpoints, [&](error_code e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  if (!s->run_until(done, deadline)) {
    error = "timed out connecting";
    return nullptr;
  }
  if (ec) {
    error = ec.message();
    return nullptr;
  }
  if (!endpoint.tls) return s;
  if (tls == nullptr) {
    error = "no TLS context";
    return nullptr;
  }
  if (in_tls) *in_tls = true;  // from here on a failure is the TLS one
  s->tls_ = std::make_unique<ssl::stream<tcp::socket&>>(s->socket_, *tls);
  try {
    expect_peer_name(s->tls_->native_handle(), endpoint.host);
  } catch (const std::runtime_error& e) {
    error = e.what();
    return nullptr;
  }
  done = false;
  s->tls_->async_handshake(ssl::stream_base::client, [&](error_code e) {
    ec = e;
    done = true;
  });
  if (!s->run_until(done, deadline)) {
    error = "timed out in the TLS handshake with " + endpoint.host;
    return nullptr;
  }
  if (ec) {
    error = handshake_failure(s->tls_->native_handle(), endpoint.host, ec);
    return nullptr;
  }
  if (in_tls) *in_tls = false;
  return s;
}

bool ClientStream::run_until(const bool& done, Clock::time_point deadline) {
  while (!done) {
    const auto now = Clock::now();
    if (now >= deadline) return false;
    ioc_.restart();
    ioc_.run_one_for(deadline - now);
  }
  return true;
}

bool ClientStream::usable_after_idle() {
  if (!socket_.is_open()) return false;
  if (tls_ && SSL_pending(tls_->native_handle()) > 0) return false;
  pollfd p{socket_.native_handle(), POLLIN, 0};
  // Readable while idle: the server closed it (EOF), reset it, or sent what nobody asked for.
  return ::poll(&p, 1, 0) == 0;
}

void ClientStream::close() {
  error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace elicit::http
