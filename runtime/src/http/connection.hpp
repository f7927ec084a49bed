// One HTTP/1.1 connection on Boost.Beast: reads requests within the configured limits, hands each
// to the server's handler, and writes the reply: a plain response, or an SSE stream written as
// chunks whenever its messages arrive. Every step is an asynchronous operation on the connection's
// event loop (run by one thread, so its steps never overlap): a connection waiting for a request or for an SSE message
// holds no thread. Internal to elicit::http.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "elicit/http/routes.hpp"
#include "sse_stream.hpp"

namespace elicit::http {

namespace beast = boost::beast;
namespace net = boost::asio;
/// A JSON body with a JSON-RPC error without id: the spec's shape for HTTP-level rejections.
Reply error_reply(unsigned status, int code, const std::string& message);

struct ConnectionLimits {
  std::size_t max_body_bytes;
  std::size_t max_header_bytes;
  std::size_t max_header_fields;
  std::size_t max_queued_bytes;
  std::chrono::milliseconds request_timeout;
  std::chrono::milliseconds write_timeout;
  std::chrono::milliseconds keepalive;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Handler = std::function<Reply(const Request&)>;

  /// `tls`: when set, the connection speaks TLS with this context (handshake first).
  Connection(net::ip::tcp::socket socket, const ConnectionLimits& limits, Handler handler,
             std::shared_ptr<net::ssl::context> tls = nullptr);
  void start();
  /// Closes the socket (from any thread); pending operations end.
  void close();
  /// The server is draining (from any thread): the connection ends once idle. Closed at once if it
  /// waits for a next request with nothing of it read yet; else the response in progress says
  /// `Connection: close` and the connection ends after it.
  void wind_down();

 private:
  // The block for a request's header fields (Beast takes about 60 bytes per field besides its name
  // and value: a client's usual ten to fifteen fields fit).
  static constexpr std::size_t kFieldsBlockBytes = 1536;

  void read_request();
  void on_request(beast::error_code ec);
  void reject(unsigned status, const std::string& message);
  void respond(Reply reply);
  void write_plain(Reply reply);
  void start_sse(Reply reply);
  void await_reply(std::shared_ptr<PendingReply> pending);
  void drain_sse();
  void write_queue();
  void arm_keepalive();
  void watch_peer();
  void finish_sse();
  void after_response();
  void shutdown();

  // The deadline of the operation in progress (read of a request, write of a response or chunk),
  // kept by one timer: a request a millisecond would otherwise set and cancel a kernel timer
  // several times (Beast's tcp_stream: a timerfd_settime per operation). The timer wakes at the
  // earliest deadline set since it last woke, and then either closes the connection or waits on
  // for the deadline as it stands.
  void expires_after(std::chrono::milliseconds timeout);
  void expires_never();
  void arm_deadline();
  void fit_read_buffer();

  // Runs f with the stream requests and responses go through: the TLS stream when there is one,
  // else the socket.
  template <class F>
  void with_stream(F&& f) {
    if (tls_) {
      f(*tls_);
    } else {
      f(socket_);
    }
  }

  using TlsStream = net::ssl::stream<net::ip::tcp::socket&>;
  std::shared_ptr<net::ssl::context> tls_context_;  // kept: a certificate reload leaves this one alive
  net::ip::tcp::socket socket_;
  std::unique_ptr<TlsStream> tls_;  // over socket_; made at start()
  ConnectionLimits limits_;
  Handler handler_;
  beast::flat_buffer buffer_;
  std::size_t request_bytes_ = 0;  // of the request being read: its header and body
  // Where the header fields of the request being read live: a block kept from request to request
  // while the connection reads them (more, from the heap, for a request with many fields), reset
  // with the parser; a reply that waits frees it, as it frees the parser.
  std::unique_ptr<std::byte[]> fields_block_;
  std::optional<std::pmr::monotonic_buffer_resource> fields_arena_;
  std::optional<beast::http::request_parser<beast::http::string_body, std::pmr::polymorphic_allocator<char>>> parser_;
  bool keep_alive_ = false;
  bool closed_ = false;
  bool between_requests_ = false;  // reading a next request (wind_down may close)
  bool winding_down_ = false;
  std::string head_;  // the head of the reply being written (write_plain); its block kept for the next

  // The SSE response in progress.
  std::shared_ptr<SseStream> sse_;
  std::function<void()> on_sse_end_;
  std::shared_ptr<beast::http::response<beast::http::empty_body>> sse_head_;
  std::shared_ptr<beast::http::response_serializer<beast::http::empty_body>> sse_serializer_;
  bool head_written_ = false;
  bool sse_end_queued_ = false;
  bool sse_disconnect_ = false;
  bool sse_attached_ = false;
  std::uint64_t watch_generation_ = 0;  // which response (SSE or pending) a peer watch belongs to
  // The reply being waited for (Reply::pending), while it is.
  std::shared_ptr<PendingReply> pending_;
  std::deque<std::string> out_;  // SSE text waiting to be written as chunks
  std::size_t out_bytes_ = 0;
  bool writing_ = false;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  bool deadline_armed_ = false;
  net::steady_timer deadline_timer_;
  net::steady_timer keepalive_timer_;
};

}  // namespace elicit::http
