// Structured request logs of an MCP server (the operations wing): one JSON object per line for each
// request served and each one refused, for a log pipeline to index (journald, Loki, Elasticsearch).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/logging.hpp"
#include "elicit/observer.hpp"

namespace elicit::ops {

struct RequestLogOptions {
  /// Takes each line: one JSON object without the newline. Called from any thread, concurrently.
  /// Null (the default): the line and a newline go to stderr in one write(2), so the lines of
  /// several threads never interleave.
  std::function<void(std::string_view line)> write;
  /// Log resources/read URIs (`resource`): off by default, as a URI may carry user data. Tool and
  /// prompt names are always logged (the server's own names; an unknown one is cut to 128 bytes).
  bool resource_uris = false;
  /// Lines of a less severe level are not written (request lines are `info`; errors answered are
  /// `warning`, internal errors (-32603) `error`; refusals `warning`).
  LoggingLevel level = LoggingLevel::info;
};

/// The request log, as a ServerObserver (give it to HttpServerOptions::server.observer, or combine
/// it with Metrics through elicit/ops/observers.hpp).
///
/// A request line: {"time": RFC 3339 UTC with milliseconds, "level", "event": "request", "id" (the
/// JSON-RPC id), "revision", "method", "tool" | "prompt" | "resource" (what it names), "principal":
/// {"iss", "sub"} (with authorization), "task_run": true (a task's run), "outcome" (`result`,
/// `input_required`, `error`, `abandoned`, `cancelled`), "error_code" (errors), "latency_ms"}.
/// A refusal line: {"time", "level", "event": "refused", "status", "reason"}.
/// Never written: access tokens, requestStates, cookies, arguments, form contents, error messages
/// (they may quote arguments), and nothing a client sent beyond the id, names and version, which
/// are cut to 128 bytes each and JSON-escaped (invalid UTF-8 replaced).
/// Thread rules: every member is thread-safe.
class RequestLog : public ServerObserver {
 public:
  explicit RequestLog(RequestLogOptions options = {});

  void request_ended(const RequestRecord& record) override;
  void request_refused(unsigned status, std::string_view reason) override;

  /// A line of the application's own in the same format: {"time", "level", "event", ...fields}
  /// (`fields` an object; its members follow, and must not carry secrets).
  void event(LoggingLevel level, std::string_view event, const nlohmann::json& fields = nlohmann::json::object()) const;

 private:
  void emit(const nlohmann::ordered_json& line) const;
  RequestLogOptions options_;
};

}  // namespace elicit::ops
