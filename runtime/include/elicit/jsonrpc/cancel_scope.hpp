// A cancellation scope: everything made for one request registers here and is cancelled with it
// (a cancelled tools/call cancels its elicitations; design notes, "Waiting").
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace elicit::jsonrpc {

/// Thread-safe. Callbacks registered with add() run exactly once when cancel() is called, on the
/// cancelling thread (for a RequestContext: the session's dispatch thread, an event thread), outside the
/// scope's lock, so a callback may call remove() or add() (which then refuses). Callbacks must not
/// block. Registrations that are no longer needed are removed, so the scope does not grow.
class CancelScope {
 public:
  using Token = std::uint64_t;

  /// Registers `f`; returns its token, or nullopt (not registering it, not calling it) when the
  /// scope is already cancelled.
  std::optional<Token> add(std::function<void()> f);
  /// Forgets a registration; harmless when it already ran or was removed.
  void remove(Token token);
  /// Cancels: runs every registered callback once. False when already cancelled. An exception from
  /// a callback is swallowed so the others still run.
  bool cancel();
  bool cancelled() const;
  /// Registrations waiting (for tests and diagnostics).
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  bool cancelled_ = false;
  Token next_ = 1;
  std::unordered_map<Token, std::function<void()>> callbacks_;
};

}  // namespace elicit::jsonrpc

// Part of the MCP layer's API (ElicitOptions::cancel_scope), so named in elicit:: as well.
namespace elicit {
using jsonrpc::CancelScope;
}  // namespace elicit
