#include "elicit/jsonrpc/cancel_scope.hpp"

#include <map>

namespace elicit::jsonrpc {

std::optional<CancelScope::Token> CancelScope::add(std::function<void()> f) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_) return std::nullopt;
  const Token t = next_++;
  callbacks_.emplace(t, std::move(f));
  return t;
}

void CancelScope::remove(Token token) {
  std::function<void()> f;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto it = callbacks_.find(token); it != callbacks_.end()) {
    f = std::move(it->second);
    callbacks_.erase(it);
  }
}

bool CancelScope::cancel() {
  std::map<Token, std::function<void()>> run;  // in registration order
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_) return false;
    cancelled_ = true;
    for (auto& [t, f] : callbacks_) run.emplace(t, std::move(f));
    callbacks_.clear();
  }
  for (auto& [t, f] : run) {
    try {
      f();
    } catch (...) {
    }
  }
  return true;
}

bool CancelScope::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

std::size_t CancelScope::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return callbacks_.size();
}

}  // namespace elicit::jsonrpc
