#include "elicit/jsonrpc/memory_transport.hpp"

#include <atomic>
#include <chrono>
#include <vector>

namespace elicit::jsonrpc {

namespace {

// How long a delivery thread that has run out of messages watches for the next one before it
// sleeps. An in-process peer usually answers within it, and a thread that did not sleep needs no
// wake-up: no futex calls on either side, no scheduler latency (which dominated a round trip with
// one request in flight). Bounded in time, so an idle connection costs nothing after it.
constexpr auto kSpin = std::chrono::microseconds(20);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

// One lock for the connection; each side has its own inbox and its own condition variable, so a
// message wakes only the thread that delivers it, and only when that thread is asleep. The
// delivery thread takes every message waiting at once (one lock round per batch, not per message).
struct MemoryTransport::Shared {
  struct Inbox {
    std::condition_variable cv;
    std::vector<std::string> messages;  // what the other side sent to this side, in order
    bool sleeping = false;              // this side's delivery thread waits on cv
    std::atomic<bool> ready{false};     // a hint, read without the lock: messages waiting, or closed
  };
  std::mutex mutex;
  Inbox inbox[2];
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
  thread_ =
      std::thread([shared = shared_, side = side_, on_message = std::move(on_message), on_close = std::move(on_close)] {
        auto& inbox = shared->inbox[side];
        std::vector<std::string> batch;
        std::unique_lock<std::mutex> lock(shared->mutex);
        while (true) {
          if (!shared->closed && inbox.messages.empty()) {
            lock.unlock();
            const auto give_up = std::chrono::steady_clock::now() + kSpin;
            while (!inbox.ready.load(std::memory_order_acquire)) {
              for (int i = 0; i < 16; ++i) cpu_relax();
              if (std::chrono::steady_clock::now() >= give_up) break;
            }
            lock.lock();
          }
          while (!shared->closed && inbox.messages.empty()) {
            inbox.sleeping = true;
            inbox.cv.wait(lock);
            inbox.sleeping = false;
          }
          if (inbox.messages.empty()) break;  // closed and drained
          batch.swap(inbox.messages);
          inbox.ready.store(false, std::memory_order_relaxed);
          lock.unlock();
          for (auto& message : batch) on_message(std::move(message));
          batch.clear();
          lock.lock();
        }
        lock.unlock();
        if (on_close) on_close();
      });
}

bool MemoryTransport::send(std::string message, const SendContext&) {
  auto& inbox = shared_->inbox[1 - side_];
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    if (shared_->closed) return false;
    inbox.messages.push_back(std::move(message));
    inbox.ready.store(true, std::memory_order_release);
    wake = inbox.sleeping;
  }
  if (wake) inbox.cv.notify_one();
  return true;
}

void MemoryTransport::close() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->closed = true;
    shared_->inbox[0].ready.store(true, std::memory_order_release);
    shared_->inbox[1].ready.store(true, std::memory_order_release);
  }
  shared_->inbox[0].cv.notify_all();
  shared_->inbox[1].cv.notify_all();
}

}  // namespace elicit::jsonrpc
