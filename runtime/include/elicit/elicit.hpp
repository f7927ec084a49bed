// The umbrella header of elicit::runtime: everything a server or a host (client) of MCP elicitation
// needs, with the layers below it. Streamable HTTP (<elicit/http/...>, elicit::http) and the Redis
// completion store (<elicit/redis/...>, elicit::redis) are libraries of their own, included apart.
/**
 * \mainpage elicitgen: typed C++17 for MCP elicitation
 *
 * An MCP server asks its user for input with elicitation: a form described by a restricted JSON
 * Schema (`requestedSchema`), or a URL to open. elicitgen generates a plain C++ struct per schema
 * (`elicitgen_generate()` in CMake) and this runtime sends the form and reads the answer back as a
 * validated value, under MCP 2025-11-25 (a session opened with `initialize`, `elicitation/create`)
 * and MCP 2026-07-28 (stateless requests, input-required results carrying `inputRequests` and a
 * sealed `requestState`) with the same handler code. The guides are in the repository's `docs/`;
 * this reference covers the public headers, whose folder names the library to link:
 *
 * | include | library | what |
 * | --- | --- | --- |
 * | `<elicit/content/...>` | `elicit::content` | the form model and its rules: what generated types need |
 * | `<elicit/jsonrpc/...>` | `elicit::jsonrpc` | JSON-RPC 2.0, transports, timers, worker pool |
 * | `<elicit/...>` | `elicit::runtime` | MCP: server, elicitation in both revisions, client |
 * | `<elicit/http/...>` | `elicit::http` | Streamable HTTP server and client transport |
 * | `<elicit/redis/...>` | `elicit::redis` | URL-mode completions shared through Redis |
 *
 * Where to start:
 * - elicit::Server: the offer (tools, prompts, resources), one per process;
 *   elicit::Tool, elicit::Prompt, elicit::Resource, elicit::ToolResult declare and answer them.
 * - elicit::ServerSession: one 2025-11-25 connection over a elicit::jsonrpc::Transport
 *   (elicit::jsonrpc::StdioTransport for stdio).
 * - elicit::http::StreamableHttpServer: both revisions over Streamable HTTP (elicit::http::HttpServerOptions).
 * - elicit::RequestContext: what a handler gets; `elicit<T>()`, `elicit_async<T>()`, `elicit_url()`
 *   ask the user and end in an elicit::Outcome.
 * - elicit::decode(), elicit::validate(), elicit::requested_schema(): the generated types' API
 *   (`<elicit/content/form.hpp>`).
 * - elicit::Client: the host side, answering elicitations (elicit::Answer, elicit::FormAnswer).
 * - elicit::RequestStateSealer and elicit::CompletionStore: the 2026-07-28 round's state and
 *   URL-mode completion across processes (elicit::RedisCompletionStore).
 * - elicit::TaskStore and elicit::TaskSupport: long calls as tasks of the io.modelcontextprotocol/tasks
 *   extension (`<elicit/tasks.hpp>`), with the same handlers.
 * - elicit::jsonrpc::Connection: the JSON-RPC peer under both sides, reached by `rpc()`.
 */
#pragma once

#include "elicit/client.hpp"
#include "elicit/completion.hpp"
#include "elicit/completion_store.hpp"
#include "elicit/content_blocks.hpp"
#include "elicit/elicitation.hpp"
#include "elicit/jsonrpc/memory_transport.hpp"
#include "elicit/jsonrpc/stdio_transport.hpp"
#include "elicit/logging.hpp"
#include "elicit/protocol/user_interaction.hpp"
#include "elicit/server_session.hpp"
#include "elicit/tasks.hpp"
#include "elicit/typed_tool.hpp"
