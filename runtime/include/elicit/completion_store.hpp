// Where URL-mode elicitations are marked complete (MCP 2026-07-28, Client, "Elicitation", "URL Mode
// Elicitation Requests"; changelog item 11). In 2026-07-28 a URL-mode elicitation has no
// elicitationId and no completion notification: the application's web page (an OAuth callback, a
// payment page) marks its interaction complete here, and the MCP server asks here when the client
// retries the request. Several server processes may share one store (redis_completion_store.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

namespace elicit {

enum class CompletionState {
  pending,     ///< not marked complete, or its mark has expired
  complete,    ///< marked complete and not expired
  unavailable  ///< the store could not be reached: neither complete nor known to be pending
};

/// "pending", "complete" or "unavailable".
std::string_view to_string(CompletionState state) noexcept;

/// Where out-of-band (URL mode) interactions are marked complete. Thread-safe.
class CompletionStore {
 public:
  virtual ~CompletionStore() = default;
  /// Marks `id` (any bytes) complete for `ttl` ms from now, replacing an earlier mark and its ttl.
  /// Returns false when the store could not be reached. Throws std::invalid_argument when `ttl` is
  /// not positive. May block the calling thread (see the implementation).
  virtual bool complete(std::string_view id, std::chrono::milliseconds ttl) = 0;
  /// Looks `id` up and calls `done` exactly once with its state: at once on the calling thread, or
  /// later on a thread of the store's own (see the implementation). Never blocks the caller; `done`
  /// must not block either.
  virtual void lookup(std::string_view id, std::function<void(CompletionState)> done) = 0;
};

struct InMemoryCompletionStoreOptions {
  /// The most ids marked complete at once; at the bound a new mark drops the one closest to
  /// expiry (with one ttl for all: the oldest). At least 1.
  std::size_t max_entries = 100'000;
  /// The clock for expiry. Null: std::chrono::steady_clock::now.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

/// A CompletionStore in this process's memory, for one server process (the web page that marks
/// interactions complete must run in the same process). complete() always returns true and never
/// blocks; lookup() calls `done` at once on the calling thread (an exception from `done` reaches
/// the caller). Memory: max_entries ids plus a few pointers each.
class InMemoryCompletionStore final : public CompletionStore {
 public:
  /// Throws std::invalid_argument when max_entries is 0.
  explicit InMemoryCompletionStore(InMemoryCompletionStoreOptions options = {});
  ~InMemoryCompletionStore() override;
  InMemoryCompletionStore(const InMemoryCompletionStore&) = delete;
  InMemoryCompletionStore& operator=(const InMemoryCompletionStore&) = delete;

  bool complete(std::string_view id, std::chrono::milliseconds ttl) override;
  void lookup(std::string_view id, std::function<void(CompletionState)> done) override;
  /// Ids marked complete and not yet expired.
  std::size_t size() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace elicit
