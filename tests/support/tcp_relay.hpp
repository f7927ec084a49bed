// A TCP relay on loopback between a client and a server, for tests that need to see or break the
// connections a client makes: it counts the connections it accepts, can close every connection at
// once (a server dropping idle keep-alive connections), and can close a connection the moment the
// client sends on it (a server that closes as a request crosses). Bytes pass through unchanged, so
// TLS runs end to end. Every thread ends in the destructor (sockets shut down, threads joined).
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

namespace test_support {

class TcpRelay {
 public:
  /// Listens on a free loopback port and relays each connection to 127.0.0.1:`target_port`.
  explicit TcpRelay(int target_port)
      : target_port_(target_port), acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept_thread_ = std::thread([this] { accept_loop(); });
  }

  ~TcpRelay() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // ends the blocked accept
      for (auto& c : connections_) c->shut();
    }
    accept_thread_.join();
    for (auto& t : pumps_) t.join();
  }

  int port() const { return acceptor_.local_endpoint().port(); }

  /// Relays the connections accepted from now on to `target_port` (e.g. a server started after the
  /// relay, because its configuration names the relay's port).
  void retarget(int target_port) { target_port_ = target_port; }

  /// Connections accepted so far.
  int accepted() const { return accepted_; }

  /// Closes every connection relayed so far, both sides.
  void drop_connections() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& c : connections_) c->shut();
  }

  /// While on: a connection is closed (both sides, nothing forwarded) as soon as the client sends on
  /// it. Only connections that were already open when it was turned on, unless `new_ones_too`.
  void close_on_send(bool on, bool new_ones_too = false) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& c : connections_) c->close_on_send = on;
    close_new_on_send_ = on && new_ones_too;
  }

 private:
  using tcp = boost::asio::ip::tcp;
  struct Connection {
    explicit Connection(boost::asio::io_context& ioc) : client(ioc), server(ioc) {}
    tcp::socket client, server;
    std::atomic<bool> close_on_send{false};
    void shut() {
      ::shutdown(client.native_handle(), SHUT_RDWR);
      ::shutdown(server.native_handle(), SHUT_RDWR);
    }
  };

  void accept_loop() {
    for (;;) {
      auto c = std::make_shared<Connection>(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(c->client, ec);
      if (ec) return;  // shut down by the destructor
      c->server.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(target_port_)}, ec);
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      ++accepted_;
      if (ec) {
        c->shut();
        continue;
      }
      c->close_on_send = close_new_on_send_;
      connections_.push_back(c);
      pumps_.emplace_back([c] { pump(*c, c->client, c->server, true); });
      pumps_.emplace_back([c] { pump(*c, c->server, c->client, false); });
    }
  }

  static void pump(Connection& c, tcp::socket& from, tcp::socket& to, bool from_client) {
    char data[16384];
    for (;;) {
      boost::system::error_code ec;
      const auto n = from.read_some(boost::asio::buffer(data), ec);
      if (ec || (from_client && c.close_on_send)) break;
      boost::asio::write(to, boost::asio::buffer(data, n), ec);
      if (ec) break;
    }
    c.shut();  // one side ended: so does the other direction
  }

  std::atomic<int> target_port_;
  boost::asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread accept_thread_;
  std::mutex mutex_;
  bool stopping_ = false;
  bool close_new_on_send_ = false;
  std::atomic<int> accepted_{0};
  std::vector<std::shared_ptr<Connection>> connections_;
  std::vector<std::thread> pumps_;
};

}  // namespace test_support
