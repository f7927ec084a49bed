// What a server tells an operator about its work (metrics, structured logs): each request it
// answers, with its era, method, the tool, prompt or resource it names, its caller and how it ended,
// and the elicitations waiting for a person. The seam the operations wing (elicit/ops/) plugs into;
// the runtime itself records nothing.
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>

#include "elicit/access_token.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/message.hpp"

namespace elicit {

/// One request a server served, as it ended.
struct RequestRecord {
  const RequestId& id;
  /// The JSON-RPC method, as sent.
  std::string_view method;
  /// What the request names: tools/call and prompts/get `params.name`, resources/read `params.uri`
  /// (which may carry user data: a log should think before writing it); empty for other methods.
  std::string_view name;
  /// The protocol revision it was served in ("2026-07-28", or the session's negotiated one, e.g.
  /// "2025-11-25"); empty when it was refused before its era was known, or before initialize.
  std::string_view revision;
  /// The caller's verified access token (MCP Authorization: its issuer and subject say who), or
  /// null without authorization. Never log the token itself: this holds none.
  const AccessToken* token;
  /// How it ended: a result (input_required when it was a 2026-07-28 InputRequiredResult), an
  /// error (with its code and message), abandoned, or cancelled / its connection gone.
  const jsonrpc::Answered& answered;
  /// From dispatch to the end, as measured on this process's steady clock.
  std::chrono::steady_clock::duration latency;
  /// The request is a run of a task (tasks.hpp): its answer goes to the task, not a client.
  bool task_run = false;
};

/// How a request ended, as metrics and logs name it: "result", "input_required", "error",
/// "abandoned" or "cancelled".
inline std::string_view outcome_name(const jsonrpc::Answered& a) noexcept {
  switch (a.kind) {
    case jsonrpc::Answered::Kind::result:
      return a.input_required ? "input_required" : "result";
    case jsonrpc::Answered::Kind::error:
      return "error";
    case jsonrpc::Answered::Kind::abandoned:
      return "abandoned";
    case jsonrpc::Answered::Kind::cancelled:
      break;
  }
  return "cancelled";
}

/// Sees what a server does (ServerSessionOptions::observer; HttpServerOptions::server's one sees
/// every session's and every 2026-07-28 request's). Its members run on any thread, concurrently,
/// often on an I/O thread: they must be thread-safe, quick, must not block and must not throw
/// (what one throws is swallowed). The defaults do nothing.
class ServerObserver {
 public:
  virtual ~ServerObserver() = default;
  /// A request from a client is over (answered or not): once per request the server dispatched.
  virtual void request_ended(const RequestRecord& record) { (void)record; }
  /// A request the HTTP transport refused before any server saw it, with its HTTP status and a
  /// stable reason (elicit/http/server.hpp, HttpRefusal): e.g. a bearer token missing or refused.
  virtual void request_refused(unsigned status, std::string_view reason) {
    (void)status;
    (void)reason;
  }
};

/// The elicitations (elicitation/create, and interaction/create of the userInteraction dialect)
/// this process has sent to 2025-11-25 clients and that await their answer now: a person with a
/// form or a URL open. 2026-07-28 questions are not counted: the server holds nothing while the
/// client asks (the input-required results count them as they go out). Thread-safe.
std::size_t waiting_elicitations() noexcept;

}  // namespace elicit
