// x-mcp-header (MCP 2026-07-28, server/tools "x-mcp-header"; Basic / Transports, Streamable HTTP,
// "Custom Headers from Tool Parameters", SEP-2243): a tool's inputSchema may mirror primitive
// parameters into `Mcp-Param-{Name}` HTTP headers, and a server that reads the body must check
// that each header agrees with it (-32020 HeaderMismatch, HTTP 400).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
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
