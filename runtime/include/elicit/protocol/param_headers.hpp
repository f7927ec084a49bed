// x-mcp-header (MCP 2026-07-28, server/tools "x-mcp-header"; Basic / Transports, Streamable HTTP,
// "Custom Headers from Tool Parameters", SEP-2243): a tool's inputSchema may mirror primitive
// parameters into `Mcp-Param-{Name}` HTTP headers, and a server that reads the body must check
// that each header agrees with it (-32020 HeaderMismatch, HTTP 400).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicit {

/// One `x-mcp-header` annotation of a tool's inputSchema.
struct ParamHeader {
  enum class Type { string, integer, boolean };
  std::string name;               ///< the annotation's value: the header is `Mcp-Param-{name}`
  std::vector<std::string> path;  ///< the chain of `properties` keys from the root to the property
  Type type = Type::string;       ///< the property's JSON Schema type
};

/// The `x-mcp-header` annotations of `input_schema`, checked against the spec's constraints: a
/// non-empty HTTP token (RFC 9110 `1*tchar`), case-insensitively unique, on a property of type
/// string, integer or boolean (never number), reached from the root through `properties` keys only
/// (an annotation under `items`, `oneOf`/`anyOf`/`allOf`/`not`, `if`/`then`/`else`, `$defs`, ... is
/// invalid). Throws std::invalid_argument naming the annotation's JSON Pointer and the reason.
std::vector<ParamHeader> param_headers_of(const nlohmann::json& input_schema);

/// Decodes an `Mcp-Name` or `Mcp-Param-*` header value (Streamable HTTP, "Value Encoding"): with
/// leading and trailing spaces and tabs removed, `=?base64?{B64}?=` is canonical padded Base64
/// (RFC 4648 section 4) of UTF-8 text; anything else is the value itself, which must be visible
/// ASCII, spaces and tabs. nullopt: invalid characters, Base64 or UTF-8.
std::optional<std::string> decode_header_value(std::string_view value);

/// The member of `method`'s params that its `Mcp-Name` header carries (Streamable HTTP, "Standard
/// Request Headers"; ext-tasks/tasks.md, "HTTP Transport"): "name" for tools/call and prompts/get,
/// "uri" for resources/read, "taskId" for tasks/get, tasks/update and tasks/cancel; nullptr for a
/// method without one.
const char* mcp_name_member(std::string_view method) noexcept;

/// Encodes a header value for `Mcp-Name` or `Mcp-Param-*` (Streamable HTTP, "Value Encoding"): the
/// value as is when it is visible ASCII and spaces (0x20-0x7E) without a leading or trailing space
/// and does not itself look like the sentinel; otherwise `=?base64?{B64}?=`, padded Base64 (RFC 4648
/// section 4) of its bytes (UTF-8 text). A tab is encoded too: RFC 9110 allows it, but intermediaries
/// differ on it. The empty string stays empty. Never throws but std::bad_alloc;
/// decode_header_value(encode_header_value(v)) == v for any UTF-8 `v`.
std::string encode_header_value(std::string_view value);

/// The `Mcp-Param-{name}` header fields of a `tools/call` with `arguments`, to send with it over
/// Streamable HTTP (2026-07-28, Streamable HTTP, "Client Behavior"): one {"Mcp-Param-" + name,
/// encoded value} per annotation whose path leads to a value in `arguments`, in the order of
/// `annotations`. A string as is, an integer in decimal (also one written 42.0), a boolean as
/// `true`/`false`, then encode_header_value. No field when the value is absent or null (the server
/// must not expect one), nor for an object or array (no header form: the server refuses the call,
/// as it refuses the arguments). Thread-safe (no state).
std::vector<std::pair<std::string, std::string>> param_header_fields(const std::vector<ParamHeader>& annotations,
                                                                     const nlohmann::json& arguments);

/// Checks the `Mcp-Param-*` headers of a `tools/call` against its `arguments` (Streamable HTTP,
/// "Server Behavior for Custom Headers"): each annotated parameter with a non-null value in the body
/// must have its header, decoded equal to the value (integers compared numerically, booleans as
/// `true`/`false`); a header without a value in the body, or one that does not decode, fails too.
/// `header(name)` gives a request header's value (name case-insensitive), nullopt when absent.
/// nullopt when they agree, else the reason, to send with -32020.
std::optional<std::string> check_param_headers(
    const std::vector<ParamHeader>& annotations, const nlohmann::json& arguments,
    const std::function<std::optional<std::string_view>(std::string_view name)>& header);

}  // namespace elicit
