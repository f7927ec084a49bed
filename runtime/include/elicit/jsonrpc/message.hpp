// JSON-RPC 2.0 messages as MCP uses them (MCP 2025-11-25, Base Protocol): requests, notifications,
// responses and errors; ids are strings or integers; no batches.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace elicit::jsonrpc {

/// A request id: a string or an integer (MCP forbids null; fractional ids are rejected).
using RequestId = std::variant<std::int64_t, std::string>;

std::string to_string(const RequestId& id);
nlohmann::json id_to_json(const RequestId& id);

/// Standard JSON-RPC error codes, plus MCP's URLElicitationRequiredError.
namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
/// MCP 2025-11-25, Elicitation, "URL Elicitation Required Error".
inline constexpr int url_elicitation_required = -32042;
}  // namespace error_code

/// The `error` member of a JSON-RPC error response.
struct RpcError {
  int code = error_code::internal_error;
  std::string message;
  std::optional<nlohmann::json> data;
};

struct Request {
  RequestId id;
  std::string method;
  nlohmann::json params;  ///< null when absent
  /// The message's text as received, when the Connection keeps it (ConnectionOptions::keep_message_text):
  /// `params` is an nlohmann::json, whose objects are in sorted order, and a client shows a
  /// requestedSchema's properties in the order the server wrote them. Null otherwise.
  std::shared_ptr<const std::string> text = nullptr;
};

struct Notification {
  std::string method;
  nlohmann::json params;  ///< null when absent
};

/// A response: exactly one of `result` and `error` is set.
struct Response {
  RequestId id;
  std::optional<nlohmann::json> result;
  std::optional<RpcError> error;
};

using Message = std::variant<Request, Notification, Response>;

/// What parse_message found: a message, or the error to answer with (and the id to answer to,
/// when the text had a usable one). `ignore` is set for things that get no answer at all (a
/// response whose id is null or unusable, e.g. a peer's own parse-error report).
struct ParseResult {
  std::optional<Message> message;
  std::optional<RpcError> error;
  std::optional<RequestId> error_id;
  bool ignore = false;
};

/// Parses one message. Never throws: malformed JSON gives -32700, a structurally invalid message
/// (not an object, wrong "jsonrpc", bad id, method not a string, batch arrays) gives -32600.
ParseResult parse_message(std::string_view text);

/// Serialises a message to its JSON-RPC text form (no trailing newline).
std::string serialize(const Request& r);
std::string serialize(const Notification& n);
std::string serialize(const Response& r);
/// Serialises an outgoing request or notification whose params keep their member order (a
/// requestedSchema's property order is the order a client shows the fields in).
std::string serialize_request(const RequestId& id, std::string_view method, const nlohmann::ordered_json& params);
std::string serialize_notification(std::string_view method, const nlohmann::ordered_json& params);
/// The same request with its params already serialised (`params_json`, kept as written, the
/// envelope written around it in its own buffer; empty for none).
std::string serialize_request_text(const RequestId& id, std::string_view method, std::string params_json);
/// A result response whose result keeps its member order.
std::string serialize_response(const RequestId& id, const nlohmann::ordered_json& result);
/// A result response with its result already serialised (`result_json`, kept as written): the
/// envelope as serialize(Response) writes it (`sorted`) or as serialize_response writes it.
std::string serialize_response_text(const RequestId& id, std::string_view result_json, bool sorted);
/// An error response with a null id (for a message whose id could not be read).
std::string serialize_error_without_id(const RpcError& e);

nlohmann::json error_to_json(const RpcError& e);

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::id_to_json;
using jsonrpc::Notification;
using jsonrpc::Request;
using jsonrpc::RequestId;
using jsonrpc::Response;
using jsonrpc::RpcError;
using jsonrpc::to_string;
// The MCP layer adds its own codes to elicit::error_code (protocol_era.hpp, user_interaction.hpp).
namespace error_code {
using namespace jsonrpc::error_code;
}  // namespace error_code
}  // namespace elicit
