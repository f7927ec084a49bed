// StatelessCall: what the server gives a RequestContext serving a 2026-07-28 request. Machinery
// between serving and RequestContext; a handler never builds one.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "elicit/features.hpp"
#include "elicit/logging.hpp"
#include "elicit/protocol/input_round.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

/// What a RequestContext serving a 2026-07-28 request (MCP 2026-07-28) needs: the run's InputRound, the
/// client capabilities of this request, and how to end the run with an InputRequiredResult.
struct StatelessCall {
  std::shared_ptr<InputRound> round;
  ClientCapabilities capabilities;
  /// Answers the request with the InputRequiredResult of `round` (once; later answers are ignored).
  std::function<void()> input_required;
  /// `_meta.io.modelcontextprotocol/serverInfo` of every result (the Server's, shared; never null).
  std::shared_ptr<const nlohmann::json> server_info;
  /// Members added to the complete result (resources/read: `ttlMs`, `cacheScope`); null: none.
  nlohmann::json result_members;
  /// `_meta["io.modelcontextprotocol/logLevel"]`: messages below it, or all without it, are not sent.
  std::optional<LoggingLevel> log_level;
  /// Set when this request is a run of a task (tasks.hpp): the task's id.
  std::string task_id;
  /// Set when the request may still become a task (a tool whose calls may run as tasks, from a
  /// client declaring the extension, not yet in one): answers the request with a new task that
  /// replays it (RequestContext::start_task()). Once; later answers are ignored.
  std::function<void()> start_task;
};

}  // namespace elicit
