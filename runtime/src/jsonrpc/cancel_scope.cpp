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

namespace {

// Ties one request to a scope. The scope callback cancels the request once its id is known;
// cancelling between registration and the send is remembered and applied right after the send; a
// response that wins the race makes Connection::cancel return false, which is fine.
struct ScopeLink {
  std::mutex mutex;
  std::optional<RequestId> id;
  bool cancel_requested = false;
  bool finished = false;
};

}  // namespace

std::optional<RequestId> send_request_in_scope(Connection& connection, const char* method, std::string params_json,
                                               ResponseHandler on_done, CallOptions options,
                                               const std::shared_ptr<CancelScope>& scope, const char* reason) {
  if (!scope) return connection.send_request_serialized(method, std::move(params_json), std::move(on_done), options);
  auto link = std::make_shared<ScopeLink>();
  const auto token = scope->add([link, &connection, reason] {
    std::optional<RequestId> id;
    {
      std::lock_guard<std::mutex> lock(link->mutex);
      if (link->finished) return;
      if (!link->id) {
        link->cancel_requested = true;
        return;
      }
      id = link->id;
    }
    connection.cancel(*id, reason);
  });
  if (!token) {
    on_done(RequestOutcome{std::nullopt, std::nullopt,
                           connection.closed() ? RequestFailure::transport_closed : RequestFailure::cancelled});
    return std::nullopt;
  }
  const auto id = connection.send_request_serialized(
      method, std::move(params_json),
      [link, scope, token = *token, on_done = std::move(on_done)](RequestOutcome o) {
        {
          std::lock_guard<std::mutex> lock(link->mutex);
          link->finished = true;
        }
        scope->remove(token);  // the scope keeps only what is still open
        on_done(std::move(o));
      },
      std::move(options));
  bool cancel_now = false;
  {
    std::lock_guard<std::mutex> lock(link->mutex);
    link->id = id;
    cancel_now = link->cancel_requested && !link->finished;
  }
  if (cancel_now) connection.cancel(id, reason);
  return id;
}

}  // namespace elicit::jsonrpc
