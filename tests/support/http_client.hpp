// A small blocking HTTP/1.1 client on Boost.Beast for the Streamable HTTP tests: whole requests,
// SSE streams read event by event, and raw sockets for misbehaving clients. Reads are blocking
// (Beast's stream deadlines apply only to asynchronous operations): a server that never answers is
// caught by the test's CTest timeout, not here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "form_page.hpp"

namespace http_test {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Headers = std::vector<std::pair<std::string, std::string>>;

inline const Headers kAccept{{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}};

struct Response {
  int status = 0;                              ///< 0 when no response arrived (connection closed or timed out)
  std::map<std::string, std::string> headers;  ///< lower-case names
  std::string body;
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

/// One connection to the server under test.
class Connection {
 public:
  explicit Connection(int port) : stream_(io_context()) {
    stream_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  }

  /// Sends a request (Host: 127.0.0.1 unless given).
  void send(bhttp::verb method, const std::string& target, const Headers& headers, const std::string& body = "") {
    bhttp::request<bhttp::string_body> req{method, target, 11};
    bool host = false;
    for (const auto& [k, v] : headers) {
      req.set(k, v);
      host = host || beast::iequals(k, "Host");
    }
    if (!host) req.set(bhttp::field::host, "127.0.0.1");
    req.body() = body;
    req.prepare_payload();
    bhttp::write(stream_, req);
  }

  /// Reads the head of the next response (status and headers), leaving the body to read.
  Response read_head() {
    parser_.emplace();
    parser_->body_limit(64 * 1024 * 1024);
    Response r;
    beast::error_code ec;
    bhttp::read_header(stream_, buffer_, *parser_, ec);
    if (ec) return r;
    r.status = static_cast<int>(parser_->get().result_int());
    for (const auto& f : parser_->get()) {
      r.headers[to_lower(std::string(f.name_string()))] = std::string(f.value());
    }
    return r;
  }

  /// Reads the rest of the body of the response whose head was read (to the end of the stream).
  std::string read_body() {
    beast::error_code ec;
    bhttp::read(stream_, buffer_, *parser_, ec);
    return parser_->get().body();
  }

  /// Reads SSE data until one whole event ("...\n\n") is there; the event's `data:` JSON, or
  /// nullopt when the stream ended (or the patience ran out). Comments (keepalives) are skipped
  /// unless `comments` is set.
  std::optional<std::string> next_event(bool comments = false) {
    while (true) {
      const auto end = pending_.find("\n\n");
      if (end != std::string::npos) {
        std::string event = pending_.substr(0, end);
        pending_.erase(0, end + 2);
        if (event.rfind(":", 0) == 0 && !comments) continue;
        return event;
      }
      if (!read_some_body()) return std::nullopt;
    }
  }

  /// The JSON-RPC message of the next `data:` event.
  std::optional<nlohmann::json> next_message() {
    while (auto e = next_event()) {
      const auto pos = e->find("data: ");
      if (pos == std::string::npos) continue;
      const auto line_end = e->find('\n', pos);
      const auto data = e->substr(pos + 6, line_end == std::string::npos ? std::string::npos : line_end - pos - 6);
      if (data.empty()) continue;  // a priming event
      return nlohmann::json::parse(data);
    }
    return std::nullopt;
  }

  Response request(bhttp::verb method, const std::string& target, const Headers& headers,
                   const std::string& body = "") {
    send(method, target, headers, body);
    auto r = read_head();
    if (r.status != 0) r.body = read_body();
    return r;
  }

  tcp::socket& socket() { return stream_.socket(); }
  /// True when the server closed the connection (a read returns EOF or an error).
  bool closed_by_peer() {
    char c;
    beast::error_code ec;
    stream_.read_some(net::buffer(&c, 1), ec);
    return ec == net::error::eof || ec == net::error::connection_reset || ec == bhttp::error::end_of_stream;
  }

 private:
  static std::string to_lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // Reads one chunk's worth of the body being streamed into pending_. False at its end.
  bool read_some_body() {
    if (parser_->is_done()) return false;
    parser_->get().body().clear();
    beast::error_code ec;
    bhttp::read_some(stream_, buffer_, *parser_, ec);
    if (ec && ec != bhttp::error::need_buffer) return false;
    pending_ += parser_->get().body();
    parser_->get().body().clear();
    return true;
  }

  // Only synchronous operations: one io_context serves every connection and is never run.
  static net::io_context& io_context() {
    static net::io_context ioc;
    return ioc;
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::response_parser<bhttp::string_body>> parser_;
  std::string pending_;
};

}  // namespace http_test
