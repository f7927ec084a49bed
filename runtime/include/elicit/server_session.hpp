// One MCP session of a Server: a connection over one transport (a stdio process, one Streamable
// HTTP session), serving both revisions (MCP 2026-07-28, "Versioning and Compatibility").
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "elicit/access_token.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/transport.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/logging.hpp"
#include "elicit/observer.hpp"
#include "elicit/request_context.hpp"
#include "elicit/request_state.hpp"
#include "elicit/server.hpp"
#include "elicit/session_state.hpp"

namespace elicit {

struct ServerSessionOptions {
  /// Threads for blocking tool handlers when `workers` is null: at most this many blocking calls
  /// run at once; more wait in FIFO order.
  std::size_t worker_threads = 4;
  /// A pool to share, e.g. one for every session of an HTTP server: then at most workers->size()
  /// blocking handlers run at once across all of them. Null: the server makes its own.
  std::shared_ptr<WorkerPool> workers;
  /// Timeout for elicitations a tool makes without one (ms; 2025-11-25 era). None (the default): no limit.
  std::optional<std::chrono::milliseconds> default_elicitation_timeout;
  /// Sealing of requestState, for a ServerSession that makes its own Server.
  RequestStateOptions request_state;
  /// The authenticated principal of the requests this server serves ("" when the transport knows
  /// none), e.g. the OS user of a stdio process or, per 2026-07-28 HTTP request,
  /// HttpServerOptions::principal. Every requestState is bound to it (RequestStateBinding): a
  /// state sealed for one principal is -32602 "Invalid or expired requestState" for another
  /// (MCP 2026-07-28, Basic, Patterns, "Multi Round-Trip Requests", "requestState" security).
  std::string principal;
  /// The verified access token of the session's requests (MCP Authorization), set by a transport
  /// that checks tokens (elicit::http::StreamableHttpServer with HttpServerOptions::authorization) as each
  /// request arrives; RequestContext::access_token() reads it when the request is dispatched. Null:
  /// no token.
  std::shared_ptr<AccessTokenSlot> access_token;
  /// The rate limit of RequestContext::log() messages per connection (a stdio connection in either era,
  /// a Streamable HTTP session, or one 2026-07-28 request over Streamable HTTP); more are dropped
  /// (log() returns false). Default: bursts of 100, 50 per second. nullopt: no limit.
  std::optional<LogRateLimit> log_rate = LogRateLimit{};
  /// The opt-in userInteraction dialect (user_interaction.hpp): off by default. When enabled, a
  /// 2025-11-25 session whose client declares `userInteraction` and not `elicitation` gets its
  /// elicitations as interaction/create, and interaction/notify is served.
  UserInteractionOptions user_interaction;
  /// Sees each request served and how it ended, for metrics and logs (observer.hpp). Null (the
  /// default): nothing is recorded and nothing is paid.
  std::shared_ptr<ServerObserver> observer;
  jsonrpc::ConnectionOptions session;
};

/// An MCP server over one transport (a stdio process, one Streamable HTTP session), serving both
/// eras (MCP 2026-07-28, "Versioning and Compatibility"):
///  - `initialize` opens a 2025-11-25 session (2025-11-25, 2025-06-18) for the rest of the connection;
///    a second one is refused with -32600 and changes nothing;
///  - until then, a request whose `_meta` names 2026-07-28 is served statelessly: its client
///    capabilities are read from that request alone; every result carries `resultType` and the
///    server's identity; tools/call may answer an InputRequiredResult; `server/discover` answers;
///    an unknown version gets -32022, a missing clientCapabilities -32602;
///  - a request with neither is served as 2025-11-25 (capabilities unknown).
/// Changes to what the Server offers reach an initialized 2025-11-25 session as
/// `notifications/<kind>/list_changed`, and a 2026-07-28 client through `subscriptions/listen`
/// (MCP 2026-07-28, Basic, Patterns, "Subscriptions": acknowledged first, every notification tagged
/// with the listen request's id; at most 64 streams per connection; ended by the client's
/// cancellation or, gracefully with an empty result, by close()).
class ServerSession {
 public:
  /// The transport must outlive the server. Throws std::system_error if it makes its own WorkerPool
  /// and a thread cannot be created.
  ServerSession(Transport& transport, ServerInfo info, ServerSessionOptions options = {});
  /// A server sharing `core` (its tools and requestState keys) with others.
  ServerSession(Transport& transport, std::shared_ptr<Server> core, ServerSessionOptions options = {});
  ~ServerSession();
  ServerSession(const ServerSession&) = delete;
  ServerSession& operator=(const ServerSession&) = delete;

  /// Adds a tool to this server's Server (shared with any other server on the same core), at
  /// any time and from any thread; the change is announced (see Server). Throws
  /// std::invalid_argument for a duplicate name or a tool without a handler.
  void add_tool(Tool tool);
  /// Adds a prompt / a resource / a resource template to this server's Server, as add_tool().
  void add_prompt(Prompt prompt);
  void add_resource(Resource resource);
  void add_resource_template(ResourceTemplate resource_template);

  /// The MCP state of this session: client capabilities, URL-mode bookkeeping, the log level.
  SessionState& state() noexcept;
  /// The JSON-RPC connection this session runs on (sending, cancelling, closing).
  jsonrpc::Connection& rpc() noexcept { return state().rpc(); }
  /// The Server this session serves (its tools, prompts, resources and requestState keys).
  const std::shared_ptr<Server>& server() const noexcept;
  void start();
  /// Blocks until the transport closes (the client went away or close() was called).
  void wait();
  void run() {
    start();
    wait();
  }
  /// Closes the session: each open subscriptions/listen stream first gets its empty result (a
  /// graceful end); blocking handlers still running see their elicitations end transport_closed.
  /// The destructor waits for this session's running handlers to return.
  void close();

 private:
  void init(Transport& transport, std::shared_ptr<Server> server, ServerSessionOptions options);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

namespace detail {

/// One 2026-07-28 request served on its own, without a session (MCP 2026-07-28, Streamable HTTP:
/// each POST carries one request): a JSON-RPC connection over the request's transport, and the
/// methods of `server` with the era already decided from the checked `fields`. For transports
/// that see each request apart (elicit::http::StreamableHttpServer); a stdio connection is a
/// ServerSession. Nothing is built per request but the connection and its MCP state: no thread,
/// no copy of the options or of the method table.
class StatelessServing {
 public:
  /// `transport` and `options` must outlive this object; `options.workers` must be set (the
  /// shared pool blocking handlers run on). `caller`: the request's principal (as
  /// ServerSessionOptions::principal) and access token. Throws std::invalid_argument for a null
  /// server or no workers.
  StatelessServing(Transport& transport, std::shared_ptr<Server> server, const ServerSessionOptions& options,
                   Caller caller, StatelessFields fields);
  /// Closes, then waits for the request's blocking handler (if one runs) to return.
  ~StatelessServing();
  StatelessServing(const StatelessServing&) = delete;
  StatelessServing& operator=(const StatelessServing&) = delete;

  /// Starts the transport and serves `request` (its answer goes out through the transport, now or
  /// later). Once. Throws what the transport's start() throws.
  void serve(Request request);
  /// The connection the request came in on (its cancellation: deliver notifications/cancelled).
  jsonrpc::Connection& rpc() noexcept;
  /// Ends the request: an open subscriptions/listen stream gets its empty result; a running
  /// handler's elicitations end transport_closed.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace detail

}  // namespace elicit
