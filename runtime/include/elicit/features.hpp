// What a server offers, as declared by the application: its identity, tools (with their results),
// prompts, resources and resource templates, and the handler signatures that serve them (MCP
// 2025-11-25 and 2026-07-28, Server Features: Tools, Prompts, Resources).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/completion.hpp"

namespace elicit {

class RequestContext;

struct ServerInfo {
  std::string name;
  std::string version;
  std::optional<std::string> title = std::nullopt;
  std::optional<std::string> instructions = std::nullopt;
};

/// CallToolResult: `content` blocks, `isError`, optional `structuredContent`.
struct ToolResult {
  nlohmann::json content = nlohmann::json::array();
  bool is_error = false;
  std::optional<nlohmann::json> structured_content;

  /// One text content block.
  static ToolResult text(std::string text);
  /// Any content blocks (elicit/content.hpp: text, image, audio, embedded resource, resource link).
  static ToolResult of(std::vector<nlohmann::json> blocks);
  /// A tool execution error (reported in the result, as MCP asks, not as a JSON-RPC error).
  static ToolResult error(std::string text);
  /// Structured content (MCP 2025-11-25, Tools, "Structured Content"): `value` (a JSON object) as
  /// structuredContent and, for clients that read only content, its JSON text as a text block.
  static ToolResult structured(nlohmann::json value);
  nlohmann::json to_json() const;
};

/// A blocking handler runs on a thread of the server's WorkerPool and may block on elicit(). A call
/// the client cancels before a thread is free never runs. Exceptions become a tool error result;
/// UrlElicitationRequired becomes a -32042 error.
using ToolHandler = std::function<ToolResult(RequestContext&)>;
/// An asynchronous handler runs on the transport's thread (an event thread: blocking calls throw
/// std::logic_error, which becomes a tool error result), must not block, and calls
/// RequestContext::reply() later (e.g. from a RequestContext::elicit_async callback). Thousands can be in
/// flight on no thread of their own.
using AsyncToolHandler = std::function<void(std::shared_ptr<RequestContext>)>;

/// A tool (MCP, Server, "Tools"). Declare it by name: `Tool::blocking(name, handler)` or
/// `Tool::async(name, handler)`, then the with_* setters; exactly one of the two handlers is set.
/// Whether a tools/call of a tool runs as a task of the io.modelcontextprotocol/tasks extension
/// (tasks.hpp; ../shared/spec/ext-tasks/tasks.md). Server policy, not shown to clients: only a
/// 2026-07-28 request whose client capabilities declare the extension can get a task; a 2025-11-25
/// session always runs the tool directly.
enum class TaskSupport {
  never,     ///< always answered directly (the default)
  optional,  ///< a task when the request declares the extension, else answered directly
  required,  ///< a task; a request that does not declare the extension gets -32021 with
             ///< data.requiredCapabilities, before the arguments are looked at
};

struct Tool {
  std::string name;
  std::string description;
  nlohmann::json input_schema = {{"type", "object"}};
  std::optional<std::string> title = std::nullopt;
  ToolHandler handler = nullptr;             ///< set this...
  AsyncToolHandler async_handler = nullptr;  ///< ...or this
  /// The JSON Schema of its structuredContent, listed as outputSchema (typed_tool.hpp sets it from a
  /// generated type and keeps the promise); none: the tool returns no structured content.
  std::optional<nlohmann::json> output_schema = std::nullopt;
  /// Check the arguments against input_schema before the handler runs (MCP Tools: servers MUST
  /// validate tool inputs): invalid ones are a tool error listing each `pointer: message`, and the
  /// handler does not run (json_schema.hpp). typed_tool turns it off: the generated type checks.
  bool validate_arguments = true;
  /// Whether a call runs as a task (TaskSupport). The Server then needs a TaskStore
  /// (Server::set_task_store; an InMemoryTaskStore is made when the first such tool is added).
  TaskSupport task_support = TaskSupport::never;
  /// With task_support optional or required: true, the task starts before the handler runs; false,
  /// the handler starts it with RequestContext::start_task() once it knows the work is long (the
  /// 2026-07-28 rounds before that, e.g. a first question, are answered on the tools/call itself).
  bool task_at_start = true;

  /// A tool served by a blocking handler (on a pool worker; it may block on elicit()). E.g.
  /// `Tool::blocking("register", handler).with_description("Registers the user")`.
  static Tool blocking(std::string name, ToolHandler handler) {
    Tool t;
    t.name = std::move(name);
    t.handler = std::move(handler);
    return t;
  }
  /// A tool served by an asynchronous handler (on an event thread; it must not block and answers
  /// with RequestContext::reply(), e.g. from an elicit_async callback).
  static Tool async(std::string name, AsyncToolHandler handler) {
    Tool t;
    t.name = std::move(name);
    t.async_handler = std::move(handler);
    return t;
  }
  // Named setters, chained on a temporary (each returns it) or applied to a variable.
  Tool&& with_description(std::string text) && {
    description = std::move(text);
    return std::move(*this);
  }
  Tool& with_description(std::string text) & {
    description = std::move(text);
    return *this;
  }
  Tool&& with_title(std::string text) && {
    title = std::move(text);
    return std::move(*this);
  }
  Tool& with_title(std::string text) & {
    title = std::move(text);
    return *this;
  }
  /// The JSON Schema of the arguments (an object schema; default {"type": "object"}).
  Tool&& with_input_schema(nlohmann::json schema) && {
    input_schema = std::move(schema);
    return std::move(*this);
  }
  Tool& with_input_schema(nlohmann::json schema) & {
    input_schema = std::move(schema);
    return *this;
  }
  /// Runs calls as tasks (TaskSupport); `at_start` as task_at_start.
  Tool&& with_task_support(TaskSupport support, bool at_start = true) && {
    task_support = support;
    task_at_start = at_start;
    return std::move(*this);
  }
  Tool& with_task_support(TaskSupport support, bool at_start = true) & {
    task_support = support;
    task_at_start = at_start;
    return *this;
  }
  Tool&& with_output_schema(nlohmann::json schema) && {
    output_schema = std::move(schema);
    return std::move(*this);
  }
  Tool& with_output_schema(nlohmann::json schema) & {
    output_schema = std::move(schema);
    return *this;
  }
};

/// An argument of a prompt (MCP, Server, "Prompts").
struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
  /// Answers completion/complete for this argument (completion.hpp); none: no values offered.
  Completer complete = nullptr;
};

/// Asynchronous prompt and resource handlers: run on the transport's thread (must not block); they
/// answer later, from any thread, with RequestContext::reply_json (or reply_error), typically from an
/// elicit_async callback. Exceptions, and in the 2026-07-28 era the end of the run at an unanswered
/// question, are handled as for an AsyncToolHandler.
using AsyncJsonHandler = std::function<void(std::shared_ptr<RequestContext>)>;

/// A prompt. Its handler runs like a blocking tool handler (on a pool worker) and returns a
/// GetPromptResult ({"messages": [...]}, optionally "description"); it may elicit and ask the
/// client through its RequestContext in both eras (2026-07-28: prompts/get may answer input_required; MCP
/// 2026-07-28, MRTR, "Supported Requests"). RequestContext::arguments() are the prompt's arguments.
struct Prompt {
  std::string name;
  std::string description;
  std::vector<PromptArgument> arguments;
  std::optional<std::string> title = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                ///< ...or this

  /// A prompt served by a blocking handler (on a pool worker), returning a GetPromptResult.
  static Prompt blocking(std::string name, std::function<nlohmann::json(RequestContext&)> handler) {
    Prompt p;
    p.name = std::move(name);
    p.handler = std::move(handler);
    return p;
  }
  /// A prompt served by an asynchronous handler (answers with RequestContext::reply_json()).
  static Prompt async(std::string name, AsyncJsonHandler handler) {
    Prompt p;
    p.name = std::move(name);
    p.async_handler = std::move(handler);
    return p;
  }
  Prompt&& with_description(std::string text) && {
    description = std::move(text);
    return std::move(*this);
  }
  Prompt& with_description(std::string text) & {
    description = std::move(text);
    return *this;
  }
  Prompt&& with_title(std::string text) && {
    title = std::move(text);
    return std::move(*this);
  }
  Prompt& with_title(std::string text) & {
    title = std::move(text);
    return *this;
  }
  Prompt&& with_argument(PromptArgument argument) && {
    arguments.push_back(std::move(argument));
    return std::move(*this);
  }
  Prompt& with_argument(PromptArgument argument) & {
    arguments.push_back(std::move(argument));
    return *this;
  }
};

/// A resource. Its handler returns a ReadResourceResult ({"contents": [...]}) and may elicit like
/// a prompt's (2026-07-28: resources/read may answer input_required). RequestContext::arguments() is
/// {"uri": ...}.
struct Resource {
  std::string uri;
  std::string name;
  std::string description;
  std::optional<std::string> mime_type = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                ///< ...or this

  /// A resource served by a blocking handler (on a pool worker), returning a ReadResourceResult.
  static Resource blocking(std::string uri, std::string name, std::function<nlohmann::json(RequestContext&)> handler) {
    Resource r;
    r.uri = std::move(uri);
    r.name = std::move(name);
    r.handler = std::move(handler);
    return r;
  }
  /// A resource served by an asynchronous handler (answers with RequestContext::reply_json()).
  static Resource async(std::string uri, std::string name, AsyncJsonHandler handler) {
    Resource r;
    r.uri = std::move(uri);
    r.name = std::move(name);
    r.async_handler = std::move(handler);
    return r;
  }
  Resource&& with_description(std::string text) && {
    description = std::move(text);
    return std::move(*this);
  }
  Resource& with_description(std::string text) & {
    description = std::move(text);
    return *this;
  }
  Resource&& with_mime_type(std::string type) && {
    mime_type = std::move(type);
    return std::move(*this);
  }
  Resource& with_mime_type(std::string type) & {
    mime_type = std::move(type);
    return *this;
  }
};

/// A resource template (MCP 2025-11-25, Server, Resources, "Resource Templates"): resources/read of
/// a URI that no Resource has and that `uri_template` matches (uri_template.hpp: `{var}` and
/// `{+var}`; templates are tried in the order added) runs its handler like a Resource's, with
/// RequestContext::arguments() {"uri": ..., "variables": {name: percent-decoded value, ...}}.
struct ResourceTemplate {
  std::string uri_template;
  std::string name;
  std::string description;
  std::optional<std::string> mime_type = std::nullopt;
  std::function<nlohmann::json(RequestContext&)> handler = nullptr;  ///< set this...
  AsyncJsonHandler async_handler = nullptr;                          ///< ...or this
  /// completion/complete for a variable (ref/resource with this uri_template), by variable name.
  std::map<std::string, Completer> completions = {};
  std::optional<std::string> title = std::nullopt;

  /// A resource template served by a blocking handler (on a pool worker).
  static ResourceTemplate blocking(std::string uri_template, std::string name,
                                   std::function<nlohmann::json(RequestContext&)> handler) {
    ResourceTemplate r;
    r.uri_template = std::move(uri_template);
    r.name = std::move(name);
    r.handler = std::move(handler);
    return r;
  }
  /// A resource template served by an asynchronous handler (answers with RequestContext::reply_json()).
  static ResourceTemplate async(std::string uri_template, std::string name, AsyncJsonHandler handler) {
    ResourceTemplate r;
    r.uri_template = std::move(uri_template);
    r.name = std::move(name);
    r.async_handler = std::move(handler);
    return r;
  }
  ResourceTemplate&& with_description(std::string text) && {
    description = std::move(text);
    return std::move(*this);
  }
  ResourceTemplate& with_description(std::string text) & {
    description = std::move(text);
    return *this;
  }
  ResourceTemplate&& with_title(std::string text) && {
    title = std::move(text);
    return std::move(*this);
  }
  ResourceTemplate& with_title(std::string text) & {
    title = std::move(text);
    return *this;
  }
  ResourceTemplate&& with_mime_type(std::string type) && {
    mime_type = std::move(type);
    return std::move(*this);
  }
  ResourceTemplate& with_mime_type(std::string type) & {
    mime_type = std::move(type);
    return *this;
  }
  /// completion/complete of `variable` (a variable of the template).
  ResourceTemplate&& with_completion(std::string variable, Completer completer) && {
    completions[std::move(variable)] = std::move(completer);
    return std::move(*this);
  }
  ResourceTemplate& with_completion(std::string variable, Completer completer) & {
    completions[std::move(variable)] = std::move(completer);
    return *this;
  }
};

}  // namespace elicit
