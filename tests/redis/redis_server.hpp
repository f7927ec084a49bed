// A throwaway redis-server for tests: a child process on a free loopback port, no persistence,
// killed when the object dies (and by the kernel if this process dies first).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../support/free_port.hpp"
#include "../support/patience.hpp"
#include "elicit/request_state.hpp"

namespace test_support {

/// The path of redis-server on PATH (or in /usr/sbin, /usr/bin), or "" when it is not installed.
inline std::string find_redis_server() {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/sbin:/usr/bin:/usr/local/bin";
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string candidate = path.substr(start, end - start) + "/redis-server";
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

/// redis-server on 127.0.0.1, started by the constructor. Throws std::runtime_error with the reason
/// when redis-server is not installed or does not answer within kPatience.
class RedisServer {
 public:
  explicit RedisServer(std::optional<std::string> password = std::nullopt) : password_(std::move(password)) {
    binary_ = find_redis_server();
    if (binary_.empty()) {
      throw std::runtime_error(
          "redis-server is not installed (Debian: apt-get install redis-server; scripts/setup-debian.sh installs it): "
          "the Redis completion store tests need it");
    }
    // A port freed a moment ago may be taken again before redis binds it: a few tries.
    std::string why;
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = free_loopback_port();
      if (port_ != 0 && try_start(why)) return;
    }
    throw std::runtime_error("redis-server did not start: " + why);
  }
  ~RedisServer() { stop(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  bool running() const { return pid_ > 0; }

  /// Kills redis-server (SIGKILL, as a crash would) and reaps it.
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  /// Starts redis-server again on the same port (its data is gone: nothing is saved).
  void restart() {
    stop();
    std::string why;
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (try_start(why)) return;
    }
    throw std::runtime_error("redis-server did not restart on port " + std::to_string(port_) + ": " + why);
  }

  /// A direct connection, for checking what the store wrote. Null when it cannot connect.
  redisContext* connect() const {
    const timeval tv{5, 0};
    redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, tv);
    if (c != nullptr && c->err == 0 && password_) {
      auto* r = static_cast<redisReply*>(redisCommand(c, "AUTH %b", password_->data(), password_->size()));
      if (r != nullptr) freeReplyObject(r);
    }
    if (c != nullptr && c->err != 0) {
      redisFree(c);
      return nullptr;
    }
    return c;
  }

 private:
  bool try_start(std::string& why) {
    std::vector<std::string> args{
        binary_, "--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
        "--dir", "/tmp",   "--logfile",           ""};
    if (password_) {
      args.push_back("--requirepass");
      args.push_back(*password_);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
      why = "fork failed";
      return false;
    }
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
      if (getppid() != parent) _exit(127);
      const int null = open("/dev/null", O_RDWR);
      if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
      }
      execv(argv[0], argv.data());
      _exit(127);
    }
    pid_ = pid;
    // Bounded: until it answers PING, exits, or kPatience passes.
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        why = "redis-server exited at start (status " + std::to_string(status) + ") on port " + std::to_string(port_);
        return false;
      }
      if (redisContext* c = connect()) {
        auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
        const bool up = reply != nullptr;
        if (reply != nullptr) freeReplyObject(reply);
        redisFree(c);
        if (up) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop();
    why = "redis-server did not answer within the patience bound";
    return false;
  }

  std::optional<std::string> password_;
  std::string binary_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// One requestState key for a test binary: the stores of a test that stand for several processes
// share it, as the processes of one service share their keys.
inline std::string shared_key() {
  static const std::string key = elicit::RequestStateSealer::generate_key();
  return key;
}

}  // namespace test_support
