#include "elicit/completion_store.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace elicit {

std::string_view to_string(CompletionState state) noexcept {
  switch (state) {
    case CompletionState::pending:
      return "pending";
    case CompletionState::complete:
      return "complete";
    case CompletionState::unavailable:
      return "unavailable";
  }
  return "unknown";
}

struct InMemoryCompletionStore::State {
  using Clock = std::chrono::steady_clock;
  using ByExpiry = std::multimap<Clock::time_point, const std::string*>;

  std::size_t max_entries;
  std::function<Clock::time_point()> clock;
  std::mutex mutex;
  std::unordered_map<std::string, ByExpiry::iterator> entries;  // id -> its place in by_expiry
  ByExpiry by_expiry;  // points at the keys of `entries` (stable: unordered_map nodes do not move)

  Clock::time_point now() const { return clock ? clock() : Clock::now(); }

  // Drops the entry closest to expiry. Needs the lock and an entry.
  void drop_first() {
    const auto first = by_expiry.begin();
    const std::string* id = first->second;
    by_expiry.erase(first);
    entries.erase(*id);
  }

  // Drops every entry expired at `at`. Needs the lock.
  void purge(Clock::time_point at) {
    while (!by_expiry.empty() && by_expiry.begin()->first <= at) drop_first();
  }
};

InMemoryCompletionStore::InMemoryCompletionStore(InMemoryCompletionStoreOptions options)
    : state_(std::make_unique<State>()) {
  if (options.max_entries == 0) throw std::invalid_argument("InMemoryCompletionStore: max_entries must be at least 1");
  state_->max_entries = options.max_entries;
  state_->clock = std::move(options.clock);
}

InMemoryCompletionStore::~InMemoryCompletionStore() = default;

bool InMemoryCompletionStore::complete(std::string_view id, std::chrono::milliseconds ttl) {
  if (ttl <= std::chrono::milliseconds::zero()) throw std::invalid_argument("CompletionStore: ttl must be positive");
  std::lock_guard<std::mutex> lock(state_->mutex);
  const auto now = state_->now();
  state_->purge(now);
  // now + ttl, saturating at the clock's end instead of overflowing.
  using TimePoint = State::Clock::time_point;
  const auto left = now < TimePoint() ? TimePoint::max().time_since_epoch() : TimePoint::max() - now;
  const auto expiry = ttl >= std::chrono::duration_cast<std::chrono::milliseconds>(left) ? TimePoint::max() : now + ttl;

  auto found = state_->entries.find(std::string(id));
  if (found != state_->entries.end()) {
    state_->by_expiry.erase(found->second);
  } else {
    if (state_->entries.size() >= state_->max_entries) state_->drop_first();
    found = state_->entries.emplace(std::string(id), State::ByExpiry::iterator()).first;
  }
  found->second = state_->by_expiry.emplace(expiry, &found->first);
  return true;
}

void InMemoryCompletionStore::lookup(std::string_view id, std::function<void(CompletionState)> done) {
  CompletionState result;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->purge(state_->now());
    result = state_->entries.count(std::string(id)) != 0 ? CompletionState::complete : CompletionState::pending;
  }
  done(result);
}

std::size_t InMemoryCompletionStore::size() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->purge(state_->now());
  return state_->entries.size();
}

}  // namespace elicit
