// Client::Impl: x-mcp-header (MCP 2026-07-28, server/tools; Streamable HTTP, "Custom Headers from
// Tool Parameters"): the tools/list annotations kept per tool, the Mcp-Param-* fields of each call,
// a tool with invalid annotations left out, the retry after HeaderMismatch (client_impl.hpp).
#include "client_impl.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "elicit/protocol/protocol_era.hpp"

namespace elicit {

// The listing with every tool whose x-mcp-header annotations are invalid left out (the client
// "MUST exclude the invalid tool" and "SHOULD log a warning" naming it and why); the annotations of
// the others are kept for their calls. Replaces what an earlier listing kept.
nlohmann::json Client::Impl::screen_tools(nlohmann::json tools) {
  nlohmann::json kept = nlohmann::json::array();
  std::map<std::string, std::vector<ParamHeader>> headers;
  std::map<std::string, std::string> rejected;
  for (auto& tool : tools) {
    const auto name = tool.is_object() ? tool.value("name", nlohmann::json()) : nlohmann::json();
    const auto schema = tool.is_object() ? tool.find("inputSchema") : tool.end();
    if (!name.is_string() || schema == tool.end()) {  // nothing to mirror, or nothing to call it by
      kept.push_back(std::move(tool));
      continue;
    }
    try {
      headers[name.get<std::string>()] = param_headers_of(*schema);
      kept.push_back(std::move(tool));
    } catch (const std::invalid_argument& e) {
      rejected[name.get<std::string>()] = e.what();
      session.log("warning: tools/list: tool \"" + name.get<std::string>() +
                  "\" left out, its x-mcp-header annotation is invalid: /inputSchema" + e.what());
    }
  }
  std::lock_guard<std::mutex> lock(tools_mutex);
  tool_headers = std::move(headers);
  rejected_tools = std::move(rejected);
  tools_listed = true;
  return kept;
}

// The Mcp-Param-* fields of a call of tool `name` with `arguments`, from its listed annotations.
// Throws ClientError for a tool that was refused (its headers cannot be made right).
SendContext Client::Impl::param_context(const std::string& name, const nlohmann::json& arguments) {
  SendContext context;
  std::lock_guard<std::mutex> lock(tools_mutex);
  if (const auto r = rejected_tools.find(name); r != rejected_tools.end())
    throw ClientError(0, "tools/call " + name +
                             ": the tool was left out of tools/list: its x-mcp-header annotation is "
                             "invalid: /inputSchema" +
                             r->second);
  if (const auto h = tool_headers.find(name); h != tool_headers.end())
    context.headers = param_header_fields(h->second, arguments);
  return context;
}

nlohmann::json Client::Impl::call_tool(const std::string& name, nlohmann::json arguments,
                                       const std::shared_ptr<CancelScope>& scope, Step* step,
                                       const nlohmann::ordered_json& seeds) {
  nlohmann::ordered_json params{{"name", name}, {"arguments", arguments}};
  for (const auto& [key, value] : seeds.items()) params[key] = value;
  if (!mirrors_params()) return request("tools/call", std::move(params), {}, scope, step);
  bool listed = false;
  {
    std::lock_guard<std::mutex> lock(tools_mutex);
    listed = tools_listed;
  }
  // A host may call a tool it knows by name without listing: the annotations are read first.
  if (!listed) {
    try {
      screen_tools(list_all("tools/list", "tools"));
    } catch (const ClientError& e) {  // the call goes without; the server says if it needed them
      session.log(std::string("tools/list for x-mcp-header annotations failed: ") + e.what());
    }
  }
  auto context = param_context(name, arguments);
  try {
    return request("tools/call", params, context, scope, step);
  } catch (const ClientError& e) {
    if (e.code() != error_code::header_mismatch) throw;
    // Streamable HTTP, "Client Behavior": after HeaderMismatch the client SHOULD list the tools
    // again (the inputSchema may have changed) and retry the call with the headers it then gives.
    // Once: a second mismatch is the answer.
    session.log("tools/call " + name + ": " + e.what() + ": listing the tools again and retrying once");
    screen_tools(list_all("tools/list", "tools"));
    context = param_context(name, arguments);
    return request("tools/call", params, context, nullptr, step);
  }
}

}  // namespace elicit
