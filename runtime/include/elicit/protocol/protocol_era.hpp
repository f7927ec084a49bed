// Which MCP era a request belongs to, and the per-request metadata of the 2026-07-28 era (MCP
// 2026-07-28, Basic, "_meta" and "Versioning and Compatibility"): a 2026-07-28 request carries its
// protocol version and client capabilities in `_meta`; a 2025-11-25 session is opened by `initialize`
// (2025-11-25 and 2025-06-18).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"
#include "elicit/logging.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

/// The reserved `_meta` keys of MCP 2026-07-28 (Basic, "_meta").
namespace meta_key {
inline constexpr std::string_view protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view subscription_id = "io.modelcontextprotocol/subscriptionId";
}  // namespace meta_key

/// MCP 2026-07-28 error codes (Basic, "Error codes").
namespace error_code {
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_required_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
}  // namespace error_code

/// Protocol revisions served per request, without a session (newest first).
const std::vector<std::string>& stateless_protocol_versions();
/// Protocol revisions served in a session opened with `initialize` (newest first).
const std::vector<std::string>& session_protocol_versions();
/// Both, newest first: what `server/discover` and -32022 list.
const std::vector<std::string>& all_protocol_versions();

/// A 2026-07-28 request's protocol fields, read from `params._meta`. (`io.modelcontextprotocol/clientInfo`
/// is not kept: nothing in the server reads it.)
struct StatelessFields {
  std::string protocol_version;
  ClientCapabilities capabilities;  ///< from `io.modelcontextprotocol/clientCapabilities`
  /// `io.modelcontextprotocol/logLevel`: the least severe notifications/message the client wants
  /// for this request; none when absent (then none is sent).
  std::optional<LoggingLevel> log_level;
  /// Set by the server itself, never read from the wire: the request is a run of this task
  /// (tasks.hpp), so it does not make a task of its own.
  std::string task_id;
  /// `_meta.progressToken` when it is a string or an integer (the client asks for progress
  /// notifications: Basic, Utilities, Progress); null otherwise.
  nlohmann::json progress_token;
  /// The JSON text of `params._meta` when the request's params were read without it (the Streamable
  /// HTTP server reads a 2026-07-28 request so, and puts `_meta` back from this text only where a
  /// whole request is kept: a task's); empty when `_meta`, if any, is in the params.
  std::string meta_json;
};

/// The members of a request's `params._meta` that the server reads itself, each as it came (JSON
/// values, unchecked): the 2026-07-28 protocol fields (Basic, "Per-request protocol fields"; Server,
/// Utilities, Logging) and `progressToken` (Basic, Utilities, Progress). nullopt: absent.
struct RequestMeta {
  bool present = false;                               ///< `params._meta` is an object
  std::optional<nlohmann::json> protocol_version;     ///< `io.modelcontextprotocol/protocolVersion`
  std::optional<nlohmann::json> client_capabilities;  ///< `io.modelcontextprotocol/clientCapabilities`
  std::optional<nlohmann::json> log_level;            ///< `io.modelcontextprotocol/logLevel`
  std::optional<nlohmann::json> progress_token;       ///< `progressToken`

  /// Copies the members from `params` (none present when `params` has no object `_meta`).
  static RequestMeta of_params(const nlohmann::json& params);
  /// Reads the members from `meta_json`, the text of a `_meta` object, without a document for the
  /// others. nullopt when the text is not one well-formed JSON object.
  static std::optional<RequestMeta> of_text(std::string_view meta_json);
};

/// What read_request_era found: a 2025-11-25 request (no protocol version in `_meta`), a 2026-07-28 one,
/// or the error to answer with.
struct RequestEra {
  std::optional<StatelessFields> stateless;  ///< set for a well-formed 2026-07-28 request
  std::optional<RpcError> error;             ///< set when the request must be refused
};

/// Reads the era of a request from its params (`params` may be null or not an object).
///  - no `_meta.io.modelcontextprotocol/protocolVersion`: 2025-11-25 (neither member set);
///  - a version that is not a string, or not one of stateless_protocol_versions(): -32022
///    UnsupportedProtocolVersion with `data.supported` (all_protocol_versions()) and
///    `data.requested` (MCP 2026-07-28, Versioning, "Protocol Version Negotiation");
///  - a 2026-07-28 version without an object `clientCapabilities`: -32602 Invalid params (Basic,
///    "Per-request protocol fields": a request missing a required field is malformed);
///  - a `logLevel` that names no level: -32602 (Server, Utilities, Logging, "Error Handling").
/// Never throws.
RequestEra read_request_era(const nlohmann::json& params);
/// read_request_era on members read already (e.g. RequestMeta::of_text): the same answers. The
/// capabilities are moved into ClientCapabilities::raw, not copied.
RequestEra read_request_era(RequestMeta meta);

/// -32022 for `requested` (a JSON value: the version as sent, or null).
RpcError unsupported_protocol_version(const nlohmann::json& requested);
/// -32021 MissingRequiredClientCapability; `required` is a ClientCapabilities object naming what
/// is missing, e.g. {"elicitation": {"url": {}}}.
RpcError missing_required_client_capability(nlohmann::json required);

/// Adds what every 2026-07-28 result carries: `resultType` ("complete" unless already set) and
/// `_meta.io.modelcontextprotocol/serverInfo` (`server_info`: {name, version[, title]}).
void stamp_stateless_result(nlohmann::json& result, const nlohmann::json& server_info);
void stamp_stateless_result(nlohmann::ordered_json& result, const nlohmann::json& server_info);

}  // namespace elicit
