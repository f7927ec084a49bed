// The one subscriber connection of a forms::RedisPageStore: hears which pages were answered or closed
// (any process) on the answers channel, and says when it has (re)subscribed, so that the store can
// check its waiters again for what it may have missed while not subscribed. Internal to
// elicit::redis.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "elicit/redis/completion_store.hpp"

namespace elicit::redis_detail {

class AnswerSubscriber {
 public:
  /// `on_message(payload)` for each message on `channel`, and `on_subscribed()` after each
  /// successful SUBSCRIBE: both on the subscriber's thread, so they must not block (they post).
  AnswerSubscriber(RedisOptions options, std::string channel, std::function<void(std::string)> on_message,
                   std::function<void()> on_subscribed);
  /// stop()s.
  ~AnswerSubscriber();
  AnswerSubscriber(const AnswerSubscriber&) = delete;
  AnswerSubscriber& operator=(const AnswerSubscriber&) = delete;

  /// Starts the thread on the first call (later calls do nothing). Throws std::system_error when
  /// the thread cannot be started. It connects, subscribes, reads; when the connection fails it
  /// connects again after a pause that grows from 50 ms to 1 s, until stop(). Each failure to
  /// connect or subscribe, and each break of the connection not caused by stop(), is reported to
  /// options.on_error (on the subscriber's thread, under no lock).
  void start();
  /// Wakes the thread (shutting its socket down, so a blocked read returns) and joins it.
  /// Idempotent; not from on_message or on_subscribed.
  void stop();

 private:
  void run();
  bool stopping();  // takes mutex_

  const RedisOptions options_;
  const std::string channel_;
  const std::function<void(std::string)> on_message_;
  const std::function<void()> on_subscribed_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool started_ = false;   // guarded by mutex_
  bool stopping_ = false;  // guarded by mutex_
  int fd_ = -1;            // the connection's socket while it is open; guarded by mutex_
  std::thread thread_;
};

}  // namespace elicit::redis_detail
