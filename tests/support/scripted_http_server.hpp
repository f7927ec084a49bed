// A scripted HTTP server on loopback for client tests: each request on a connection of its own,
// read whole (head and Content-Length body) and answered with whatever the test's function returns
// (the whole HTTP response text). Plain sockets, so that a test controls every byte. Bounded: at most
// 64 connections, each read ends at the declared length or EOF; the destructor stops it.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace test_support {

// One HTTP request as the server read it: the method, the header fields (names in lower case) and
// the body parsed (null for none).
struct Seen {
  std::string method;
  std::map<std::string, std::string> headers;
  nlohmann::json body;
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Answers each request on a connection of its own (every answer says Connection: close) with what
// `answer` returns: the whole HTTP response. Bounded: at most 64 connections, each read ends at the
// declared length or EOF; the destructor stops it.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::function<std::string(const Seen&)> answer) : answer_(std::move(answer)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    socklen_t n = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &n);
    url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/mcp";
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedServer() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  std::vector<Seen> seen() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seen_;
  }
  std::string url;

 private:
  void serve() {
    for (int i = 0; i < 64; ++i) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string in;
      char buf[4096];
      std::size_t body_at = std::string::npos, length = 0;
      Seen s;
      while (body_at == std::string::npos || in.size() < body_at + length) {
        const auto r = ::read(c, buf, sizeof buf);
        if (r <= 0) break;
        in.append(buf, static_cast<std::size_t>(r));
        if (body_at == std::string::npos && (body_at = in.find("\r\n\r\n")) != std::string::npos) {
          body_at += 4;
          s.method = in.substr(0, in.find(' '));
          std::size_t at = in.find("\r\n") + 2;
          while (at < body_at - 2) {
            const auto end = in.find("\r\n", at);
            const auto line = in.substr(at, end - at);
            const auto colon = line.find(':');
            auto name = line.substr(0, colon);
            for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            auto value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            s.headers[name] = value;
            at = end + 2;
          }
          length = s.headers.count("content-length") ? std::stoul(s.headers["content-length"]) : 0;
        }
      }
      if (body_at != std::string::npos && length > 0)
        s.body = nlohmann::json::parse(in.substr(body_at), nullptr, false);
      const auto out = answer_(s);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen_.push_back(std::move(s));
      }
      (void)!::write(c, out.data(), out.size());
      ::close(c);
    }
  }
  std::function<std::string(const Seen&)> answer_;
  mutable std::mutex mutex_;
  std::vector<Seen> seen_;
  int fd_ = -1;
  std::thread thread_;
};

inline std::string json_response(const nlohmann::json& message, int status = 200) {
  const auto text = message.dump();
  return "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Bad Request") +
         "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + std::to_string(text.size()) +
         "\r\n\r\n" + text;
}

}  // namespace test_support
