#include "elicit/memory_transport.hpp"

namespace elicit {

struct MemoryTransport::Shared {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::string> inbox[2];  // inbox[side] holds what the other side sent to `side`
  bool closed = false;
};

std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> MemoryTransport::pair() {
  auto shared = std::make_shared<Shared>();
  return {std::unique_ptr<MemoryTransport>(new MemoryTransport(shared, 0)),
          std::unique_ptr<MemoryTransport>(new MemoryTransport(shared, 1))};
}

MemoryTransport::MemoryTransport(std::shared_ptr<Shared> shared, int side) : shared_(std::move(shared)), side_(side) {}

MemoryTransport::~MemoryTransport() {
  close();
  if (thread_.joinable()) {
    if (thread_.get_id() == std::this_thread::get_id()) {
      thread_.detach();  // destroyed from its own callback: let the thread unwind by itself
    } else {
      thread_.join();
    }
  }
}

void MemoryTransport::start(MessageHandler on_message, CloseHandler on_close) {
  thread_ = std::thread([this, on_message = std::move(on_message), on_close = std::move(on_close)] {
    std::unique_lock<std::mutex> lock(shared_->mutex);
    auto& inbox = shared_->inbox[side_];
    while (true) {
      shared_->cv.wait(lock, [&] { return shared_->closed || !inbox.empty(); });
      if (inbox.empty()) break;  // closed and drained
      std::string message = std::move(inbox.front());
      inbox.pop_front();
      lock.unlock();
      on_message(std::move(message));
      lock.lock();
    }
    lock.unlock();
    if (on_close) on_close();
  });
}

bool MemoryTransport::send(std::string message, const SendContext&) {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    if (shared_->closed) return false;
    shared_->inbox[1 - side_].push_back(std::move(message));
  }
  shared_->cv.notify_all();
  return true;
}

void MemoryTransport::close() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->closed = true;
  }
  shared_->cv.notify_all();
}

}  // namespace elicit
