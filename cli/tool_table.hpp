// What `elicitgen client` says about a server's tools: the table of `client ... list` and the
// error for a tool that does not exist. Both take the tools as tools/list gave them (every page,
// elicit::Client::list_tools) and trust nothing in them: entries that are not objects, names that
// are not strings and control characters (shown escaped, terminal_safe) are all handled.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace elicitgen {

/// A table for people, one tool per line in the server's order, columns separated by two spaces:
/// NAME, TITLE (the tool's `title`, else `annotations.title`, else "-"; the column is left out when
/// no tool has one) and DESCRIPTION (its first line). Whether a tool elicits is not shown: neither
/// revision's tools/list says so (MCP 2025-11-25 and 2026-07-28, Tool and ToolAnnotations). Columns
/// are aligned by code points (a wide character counts as one). Each line ends in '\n'; "" for no
/// tools. `tools` is a JSON array (anything else counts as empty).
std::string tool_table(const nlohmann::json& tools);

/// The names of `tools` (entries without a string name are left out), in order.
std::vector<std::string> tool_names(const nlohmann::json& tools);

/// "unknown tool 'x'; available: a, b, c" (or "...; the server offers no tools"), escaped for a
/// terminal; nullopt when `name` is one of `tools` (then the server refused the call for another
/// reason, which its own message says).
std::optional<std::string> unknown_tool_message(const std::string& name, const nlohmann::json& tools);

}  // namespace elicitgen
