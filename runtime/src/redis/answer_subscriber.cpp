#include "answer_subscriber.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>

#include "connection_pool.hpp"

namespace elicit::redis_detail {

AnswerSubscriber::AnswerSubscriber(RedisOptions options, std::string channel,
                                   std::function<void(std::string)> on_message, std::function<void()> on_subscribed)
    : options_(std::move(options)),
      channel_(std::move(channel)),
      on_message_(std::move(on_message)),
      on_subscribed_(std::move(on_subscribed)) {}

AnswerSubscriber::~AnswerSubscriber() { stop(); }

void AnswerSubscriber::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_ || stopping_) return;
  thread_ = std::thread([this] { run(); });
  started_ = true;
}

void AnswerSubscriber::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    // A read blocked without a timeout (messages come when they come) returns once the socket is
    // shut down; the fd stays open (and so cannot be reused) until the thread closes it.
    if (fd_ >= 0) shutdown(fd_, SHUT_RDWR);
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool AnswerSubscriber::stopping() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

void AnswerSubscriber::run() {
  const SigpipeBlock block;
  auto pause = std::chrono::milliseconds(50);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    Connection c = connect(options_);
    bool subscribed = false;
    if (c) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        fd_ = c->fd;
      }
      Reply reply(static_cast<redisReply*>(redisCommand(c.get(), "SUBSCRIBE %b", channel_.data(), channel_.size())));
      // Subscribed: from now on replies come only when something is published, so no read timeout
      // (TCP keepalive notices a peer that vanished).
      subscribed = reply && c->err == 0 && reply->type == REDIS_REPLY_ARRAY &&
                   redisSetTimeout(c.get(), timeval{0, 0}) == REDIS_OK && redisEnableKeepAlive(c.get()) == REDIS_OK;
    }
    if (!subscribed && !stopping()) report_error(options_);
    if (subscribed) {
      pause = std::chrono::milliseconds(50);
      on_subscribed_();
      for (;;) {
        void* raw = nullptr;
        if (redisGetReply(c.get(), &raw) != REDIS_OK || raw == nullptr) {
          if (!stopping()) report_error(options_);  // stop() shuts the socket down: no failure
          break;
        }
        const Reply message(static_cast<redisReply*>(raw));
        // ["message", channel, payload]
        if (message->type == REDIS_REPLY_ARRAY && message->elements == 3 &&
            message->element[0]->type == REDIS_REPLY_STRING && message->element[2]->type == REDIS_REPLY_STRING &&
            std::string_view(message->element[0]->str, message->element[0]->len) == "message") {
          on_message_(std::string(message->element[2]->str, message->element[2]->len));
        }
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fd_ = -1;
    }
    c.reset();
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, pause, [this] { return stopping_; })) return;
    pause = std::min(pause * 2, std::chrono::milliseconds(1000));
  }
}

}  // namespace elicit::redis_detail
