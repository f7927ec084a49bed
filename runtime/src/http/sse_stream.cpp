#include "sse_stream.hpp"

namespace elicit::http {

bool SseStream::push(std::string message, bool final) {
  Waker wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_ || aborted_) return false;
    queued_bytes_ += message.size();
    queue_.push_back(std::move(message));
    // Bounded: a client that never reads (or never comes back) cannot make the server hold more.
    // The final message is never the one dropped: it ends the exchange.
    while (queued_bytes_ > max_held_bytes_ && queue_.size() > 1) {
      queued_bytes_ -= queue_.front().size();
      queue_.pop_front();
      ++dropped_;
    }
    finished_ = final;
    wake = waker_;
  }
  if (wake) wake();
  return true;
}

void SseStream::abort() {
  Waker wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (aborted_) return;
    aborted_ = true;
    wake = waker_;
  }
  if (wake) wake();
}

void SseStream::attach(Waker waker) {
  bool pending = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waker_ = waker;
    pending = !queue_.empty() || finished_ || aborted_;
  }
  if (pending && waker) waker();
}

void SseStream::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  waker_ = nullptr;
}

SseStream::Batch SseStream::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  Batch b;
  b.messages.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
  queue_.clear();
  queued_bytes_ = 0;
  b.end = finished_ || aborted_;
  return b;
}

bool SseStream::ended() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return (finished_ || aborted_) && queue_.empty();
}

std::size_t SseStream::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace elicit::http
