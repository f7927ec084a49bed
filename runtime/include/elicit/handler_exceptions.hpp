// What a request handler throws, or lets pass, to end its request other than with a result: the
// 2026-07-28 run that needs input (InputRequired), the task it becomes (TaskStarted), a missing client
// capability, a JSON-RPC error of its own. Included by request_context.hpp.
#pragma once

#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"
#include "elicit/protocol/protocol_era.hpp"

namespace elicit {

/// Thrown through a blocking handler serving a 2026-07-28 request (MCP 2026-07-28) to end its run at
/// the first question without an answer; the server then answers the request with an
/// InputRequiredResult. It is not a std::exception, so `catch (const std::exception&)` lets it
/// pass: do not swallow it with `catch (...)` around elicit() (rethrow it).
struct InputRequired {};

/// Throw from a handler when the request needs a client capability the client did not declare;
/// the server answers -32021 MissingRequiredClientCapability with `data.requiredCapabilities`
/// (MCP 2026-07-28, Basic, "Per-request protocol fields"; Streamable HTTP answers it with 400).
/// A 2026-07-28 request's elicitation, sampling or roots request that the client cannot answer throws
/// it by itself; check RequestContext::client_capabilities() first to do without.
class MissingClientCapability : public std::runtime_error {
 public:
  /// `required`: a ClientCapabilities object naming what is missing, e.g. {"sampling": {}}.
  explicit MissingClientCapability(nlohmann::json required);
  const nlohmann::json& required() const noexcept { return required_; }
  RpcError to_error() const { return missing_required_client_capability(required_); }

 private:
  nlohmann::json required_;
};

/// Throw from a handler to answer its request with this JSON-RPC error instead of a result (other
/// exceptions become a tool error result, `isError: true`). In a task (tasks.hpp) it makes the task
/// `failed` with `error` = {code, message, data} (tasks.md, "Task Status": failed is for JSON-RPC
/// errors; a tool error completes the task).
class ProtocolError : public std::runtime_error {
 public:
  explicit ProtocolError(RpcError error) : std::runtime_error(error.message), error_(std::move(error)) {}
  const RpcError& error() const noexcept { return error_; }

 private:
  RpcError error_;
};

/// Thrown by RequestContext::start_task() through a blocking handler to end its run so the server
/// answers the tools/call with a task (a CreateTaskResult); the task then runs the handler again
/// from the top. Not a std::exception: do not swallow it with `catch (...)` (rethrow it).
struct TaskStarted {};

}  // namespace elicit
