// The client end of a connection (in memory, or the stdio transport over pipes), driven by hand:
// tests read what the server sent and answer however they like (late, twice, out of order,
// malformed).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <elicit/jsonrpc/memory_transport.hpp>
#include <nlohmann/json.hpp>

#include "patience.hpp"

class FakeClient {
 public:
  explicit FakeClient(std::unique_ptr<elicit::Transport> end) : end_(std::move(end)) {
    end_->start(
        [this](std::string m) {
          {
            std::lock_guard<std::mutex> lock(mutex_);
            inbox_.push_back(std::move(m));
          }
          cv_.notify_all();
        },
        [this] {
          {
            std::lock_guard<std::mutex> lock(mutex_);
            closed_ = true;
          }
          cv_.notify_all();
        });
  }

  void send_text(std::string text) { end_->send(std::move(text), {}); }
  void send(const nlohmann::json& j) { send_text(j.dump()); }
  void respond(const nlohmann::json& id, const nlohmann::json& result) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
  }
  void request(const nlohmann::json& id, const std::string& method,
               const nlohmann::json& params = nlohmann::json::object()) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  }
  void notify(const std::string& method, const nlohmann::json& params = nlohmann::json::object()) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }

  /// The next message the server sent, or nullopt after `timeout`.
  std::optional<nlohmann::json> next(std::chrono::milliseconds timeout = test_support::kPatience) {
    auto text = next_text(timeout);
    if (!text) return std::nullopt;
    return nlohmann::json::parse(*text);
  }

  /// The next message exactly as it came over the wire.
  std::optional<std::string> next_text(std::chrono::milliseconds timeout = test_support::kPatience) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return !inbox_.empty(); })) return std::nullopt;
    auto text = std::move(inbox_.front());
    inbox_.pop_front();
    return text;
  }

  /// Initializes as an MCP client with these capabilities and returns the initialize result.
  nlohmann::json initialize(const nlohmann::json& capabilities, const std::string& version = "2025-11-25") {
    request("init", "initialize",
            {{"protocolVersion", version},
             {"capabilities", capabilities},
             {"clientInfo", {{"name", "fake"}, {"version", "1"}}}});
    auto r = next();
    notify("notifications/initialized");
    return r ? (*r)["result"] : nlohmann::json();
  }

  bool wait_closed(std::chrono::milliseconds timeout = test_support::kPatience) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return closed_; });
  }

  elicit::Transport& transport() { return *end_; }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> inbox_;
  bool closed_ = false;
  std::unique_ptr<elicit::Transport> end_;
};
