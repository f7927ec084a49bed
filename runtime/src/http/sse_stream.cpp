#include "sse_stream.hpp"

namespace elicit::http {

bool SseStream::push(std::string message, bool final) {
  Waker wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_ || aborted_) return false;
    queued_bytes_ += message.size();
    queue_.push_back({next_seq_++, std::move(message)});
    // Bounded: a client that never reads (or never comes back) cannot make the server hold more.
    // The final message is never the one dropped: it ends the exchange.
    while (queued_bytes_ > max_held_bytes_ && queue_.size() > 1) {
      queued_bytes_ -= queue_.front().message.size();
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

void SseStream::disconnect() {
  Waker wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!waker_) return;  // no connection to close
    disconnect_ = true;
    wake = waker_;
  }
  if (wake) wake();
}

bool SseStream::attach(Waker waker) {
  bool pending = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (waker_) return false;
    waker_ = waker;
    disconnect_ = false;
    pending = !queue_.empty() || finished_ || aborted_;
  }
  if (pending && waker) waker();
  return true;
}

bool SseStream::attached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<bool>(waker_);
}

void SseStream::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  waker_ = nullptr;
  disconnect_ = false;
}

bool SseStream::replay_after(std::uint64_t seq) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Complete when nothing between `seq` and what is held has been dropped.
  std::uint64_t oldest = next_seq_;
  if (!queue_.empty()) oldest = queue_.front().seq;
  if (!history_.empty()) oldest = history_.front().seq;
  const bool complete = oldest <= seq + 1;
  std::deque<Event> again;
  for (const auto& e : history_) {
    if (e.seq > seq) {
      queued_bytes_ += e.message.size();
      again.push_back(e);
    }
  }
  for (auto& e : queue_) again.push_back(std::move(e));
  queue_ = std::move(again);
  // What is queued again is in the history already: take() must not add it twice.
  while (!history_.empty() && history_.back().seq > seq) {
    history_bytes_ -= history_.back().message.size();
    history_.pop_back();
  }
  return complete;
}

SseStream::Batch SseStream::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  Batch b;
  b.events.assign(queue_.begin(), queue_.end());
  for (auto& e : queue_) {
    history_bytes_ += e.message.size();
    history_.push_back(std::move(e));
  }
  queue_.clear();
  queued_bytes_ = 0;
  trim_history_locked();
  b.end = finished_ || aborted_;
  b.disconnect = disconnect_;
  return b;
}

void SseStream::trim_history_locked() {
  while (history_bytes_ > max_held_bytes_ && !history_.empty()) {
    history_bytes_ -= history_.front().message.size();
    history_.pop_front();
  }
}

void SseStream::mark_delivered() {
  std::lock_guard<std::mutex> lock(mutex_);
  delivered_ = true;
  history_.clear();
  history_bytes_ = 0;
}

bool SseStream::delivered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return delivered_;
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
