// What serving the MCP methods of one JSON-RPC connection takes, and the table of those methods
// (MCP 2025-11-25 and 2026-07-28, Server Features; Basic, Lifecycle and Patterns). Shared by
// elicit::ServerSession (a connection that may open a 2025-11-25 session) and
// detail::StatelessServing (one 2026-07-28 request on its own). Internal to the runtime.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "elicit/server_session.hpp"
#include "task_runs.hpp"

namespace elicit::detail {

class ListenStreams;

// Keeps a connection's jobs on a (possibly shared) pool from touching it once it is gone: jobs that
// start after close_and_wait() skip their handler, and close_and_wait() waits for the running ones.
struct JobGate {
  std::mutex mutex;
  std::condition_variable cv;
  bool closed = false;
  int running = 0;

  bool enter();
  void leave();
  void close_and_wait();
};

// The MCP side of one JSON-RPC connection a Server serves: the connection's SessionState, the pool
// its blocking handlers run on, and (2025-11-25 sessions) its subscriptions; dispatch() serves a
// request through the method table. Requests reach dispatch() one at a time, on the connection's
// dispatch thread; close() and the destructor may run on any other.
class Serving {
 public:
  // `rpc` and `options` must outlive this object. `stateless`: the fields of the one 2026-07-28
  // request this connection carries, already checked (the era is then decided; nothing reads it
  // again; a second request is refused); nullopt for a connection whose requests each say their era. `caller`: whose
  // requests these are; without its access token, each request reads options.access_token's slot.
  Serving(jsonrpc::Connection& rpc, std::shared_ptr<Server> server, const ServerSessionOptions& options,
          std::shared_ptr<WorkerPool> pool, Caller caller, std::optional<StatelessFields> stateless);
  // Detaches the subscriptions and waits for running blocking handlers. Call after the connection
  // has closed.
  ~Serving();
  Serving(const Serving&) = delete;
  Serving& operator=(const Serving&) = delete;

  // Serves one request by its method's entry in the table, in the request's era: -32601 for a
  // method the table does not have, the server does not offer, or the era does not know.
  void dispatch(const Request& r, const Responder& out);
  // Ends every subscriptions/listen stream gracefully (each gets its empty result).
  void close_listens();

  SessionState& state() noexcept { return state_; }
  const std::shared_ptr<Server>& server() const noexcept { return server_; }

  // An entry of the method table (serving.cpp): its handler in a 2025-11-25 session and for a
  // 2026-07-28 request (null: not a method of that era, answered -32601 with the note after the
  // name), and the member of the server's capabilities it needs (null: none; -32601 when the
  // server does not offer it, as its capabilities say).
  struct Method {
    void (*session)(Serving&, const Request&, const Responder&);
    void (*stateless)(Serving&, const Request&, const Responder&, StatelessFields&);
    const char* capability;
    const char* not_in_session;
    const char* not_in_stateless;
  };

  // What the table's entries call.
  void reply_stateless(const Responder& out, nlohmann::json result) const;
  void initialize(const Request& r, const Responder& out);
  void discover(const Responder& out);
  // One page of a list; 2026-07-28 results carry caching hints.
  void list(const Request& r, const Responder& out, bool stateless,
            std::optional<nlohmann::json> (Server::*page)(std::string_view) const);
  void complete(const Request& r, const Responder& out, bool stateless);
  void subscription(const Request& r, const Responder& out, bool subscribe);
  void listen(const Request& r, const Responder& out, const StatelessFields& fields);
  // tools/call, prompts/get, resources/read; `fields` null in a session.
  void call_tool(const Request& r, const Responder& out, StatelessFields* fields);
  void get_prompt(const Request& r, const Responder& out, StatelessFields* fields);
  void read_resource(const Request& r, const Responder& out, StatelessFields* fields);
  void set_log_level(const Request& r, const Responder& out);
  // A method of the session's elicitation dialect (elicitation_dialect.hpp): interaction/notify.
  void dialect_request(const Request& r, const Responder& out);
  const ServerSessionOptions& options() const noexcept { return options_; }
  // What a task made by this connection's request is run with (task_runs.hpp).
  TaskServing task_serving();

 private:
  struct Call;

  std::optional<Call> resolve_tool(const Request& r, const Responder& out, bool stateless) const;
  std::optional<Call> resolve_prompt(const Request& r, const Responder& out) const;
  std::optional<Call> resolve_resource(const Request& r, const Responder& out) const;
  // A call of a handler that returns its result as JSON (prompts, resources).
  static Call json_call(const char* method, std::string name, nlohmann::json arguments, nlohmann::json bound_arguments,
                        nlohmann::json result_members, std::function<nlohmann::json(RequestContext&)> handler,
                        AsyncJsonHandler async_handler);
  // A 2026-07-28 call takes `fields->capabilities` (moved into its StatelessCall).
  void serve_call(const Request& r, const Responder& out, StatelessFields* fields, Call c);
  // This connection as a listener of the Server's changes (2025-11-25 sessions), made on first use.
  const std::shared_ptr<Subscriptions::Subscriber>& subscriber();
  // Tells options_.observer how `r` ends (observer.hpp), once it does.
  void observe(const Request& r, const Responder& out) const;

  jsonrpc::Connection& rpc_;
  std::shared_ptr<Server> server_;
  const ServerSessionOptions& options_;
  std::shared_ptr<WorkerPool> pool_;
  Caller caller_;
  std::optional<StatelessFields> stateless_;  // until its request takes it (dispatch)
  bool one_request_;                          // a connection of one 2026-07-28 request
  SessionState state_;
  std::shared_ptr<JobGate> gate_ = std::make_shared<JobGate>();
  std::atomic<bool> initialized_{false};
  std::string session_version_;                               // negotiated by initialize (dispatch thread only)
  std::shared_ptr<Subscriptions::Subscriber> subscriber_;     // dispatch thread only, until destroyed
  std::mutex listens_mutex_;                                  // guards listens_ (close() is any thread)
  std::shared_ptr<ListenStreams> listens_;                    // made at the first subscriptions/listen
  std::shared_ptr<const ServerSessionOptions> task_options_;  // options_ for task runs, made at first use
};

}  // namespace elicit::detail
