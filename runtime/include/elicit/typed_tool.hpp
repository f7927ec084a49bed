// Tools with typed arguments and typed structured output, from elicitgen-generated types (MCP
// 2025-11-25, Server, Tools: "Tool" inputSchema / outputSchema, "Structured Content"; the same in
// 2026-07-28). A flat requestedSchema is also a valid tool inputSchema, so a schema file written for
// a form can describe a tool's arguments or its result, and the generated type reads and checks it.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "elicit/server_session.hpp"

namespace elicit {

namespace detail {
// "Invalid arguments for tool <name>:" and one "pointer: message" line per error ("/" for the
// arguments object itself).
std::string invalid_arguments_text(const std::string& tool, const ValidationResult& errors);
// A tool error saying the handler's result broke its own outputSchema (a server bug); the errors go
// to the text so that its author sees them.
ToolResult invalid_output_result(const std::string& tool, const ValidationResult& errors);
}  // namespace detail

/// A blocking tool whose arguments are `Args`, a generated type: inputSchema is
/// requested_schema<Args>(); before `handler` runs, the arguments are decoded and checked with
/// decode<Args> (types, required properties, every constraint). Invalid arguments never reach the
/// handler: the call answers a tool error (isError) listing every error by JSON Pointer into the
/// arguments, e.g. "/age: must be at least 0", so the model can correct its call.
///
/// `handler(RequestContext&, Args)` returns either a ToolResult, or a value of a generated type `Result`:
/// then the tool declares outputSchema requested_schema<Result>() and answers with
/// ToolResult::structured (structuredContent, and the same JSON as a text block). A Result that
/// fails validate(result) is answered as a tool error instead, as the schema promises clients.
/// Everything else is as for Tool::handler (a worker thread; it may elicit; exceptions become tool
/// errors).
template <class Args, class Handler>
Tool typed_tool(std::string name, std::string description, Handler handler) {
  using Returned = std::invoke_result_t<Handler&, RequestContext&, Args&&>;
  Tool tool;
  tool.name = std::move(name);
  tool.description = std::move(description);
  tool.input_schema = nlohmann::json(requested_schema<Args>());
  tool.validate_arguments = false;  // decode<Args> below checks the same schema, with its own messages
  if constexpr (!std::is_same_v<Returned, ToolResult>) {
    tool.output_schema = nlohmann::json(requested_schema<Returned>());
  }
  tool.handler = [tool_name = tool.name, handler = std::move(handler)](RequestContext& call) mutable -> ToolResult {
    auto decoded = decode<Args>(call.arguments());
    if (!decoded) return ToolResult::error(detail::invalid_arguments_text(tool_name, decoded.errors));
    if constexpr (std::is_same_v<Returned, ToolResult>) {
      return handler(call, std::move(*decoded.value));
    } else {
      Returned result = handler(call, std::move(*decoded.value));
      if (auto errors = validate(result); !errors.ok()) return detail::invalid_output_result(tool_name, errors);
      nlohmann::json structured;
      to_json(structured, result);
      return ToolResult::structured(std::move(structured));
    }
  };
  return tool;
}

}  // namespace elicit
