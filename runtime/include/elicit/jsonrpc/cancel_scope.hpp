// A cancellation scope: everything made for one request registers here and is cancelled with it
// (a cancelled tools/call cancels its elicitations; design notes, "Waiting").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "elicit/jsonrpc/connection.hpp"

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

/// Sends a request tied to `scope` (jsonrpc::Connection::send_request_serialized otherwise): while
/// it waits, cancelling the scope cancels it (Connection::cancel with `reason`: the peer gets
/// notifications/cancelled, MCP 2025-11-25, Base Protocol, "Cancellation"), from any thread, also
/// between the registration and the send; its registration is removed when it completes, so the
/// scope does not grow. `on_done` runs exactly once. Returns the id, or nullopt when the scope was
/// already cancelled: nothing is sent, and `on_done` has run with `cancelled` (or
/// `transport_closed` on a closed connection). A null `scope` is a plain send.
std::optional<RequestId> send_request_in_scope(Connection& connection, const char* method, std::string params_json,
                                               ResponseHandler on_done, CallOptions options,
                                               const std::shared_ptr<CancelScope>& scope, const char* reason);

}  // namespace elicit::jsonrpc

// Part of the MCP layer's API (ElicitOptions::cancel_scope), so named in elicit:: as well.
namespace elicit {
using jsonrpc::CancelScope;
}  // namespace elicit
