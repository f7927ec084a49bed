// Client::Impl (client.hpp's elicit::Client), the host side of elicitation in both eras, by job:
// the era probe and the protocol version (era.cpp), the answers to the server's questions in both
// eras and the userInteraction dialect (answers.cpp), the request and its 2026-07-28 round trips
// (round_trips.cpp), following a task to its end (task_following.cpp), the x-mcp-header cache of
// tools/list (tool_headers.cpp); connect() and the public calls (client.cpp).
#pragma once

#include <condition_variable>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "elicit/client.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/protocol/param_headers.hpp"

namespace elicit {

namespace client_detail {
// Throws the ClientError that says why `method` got no result (its JSON-RPC error, or the failure).
[[noreturn]] void throw_outcome(const RequestOutcome& o, const std::string& method);
// The object at `path` of a message's text, in the sender's member order (null when there is no
// text or it leads to no object): the parsed form sorts members; a requestedSchema's order is the form's.
nlohmann::ordered_json ordered_at(const std::shared_ptr<const std::string>& text,
                                  std::initializer_list<const char*> path);
}  // namespace client_detail

struct Client::Impl {
  Impl(Transport& transport, ClientOptions o)
      : options(std::move(o)),
        session(transport, keep_text(options.session)),
        carries_headers(transport.carries_headers()),
        server_key(options.server_key.empty() ? transport.peer() : options.server_key),
        version(options.protocol_version) {}

  // The session keeps the text of what it receives: the only place where a requestedSchema's
  // property order survives (its parsed form sorts them).
  static jsonrpc::ConnectionOptions keep_text(jsonrpc::ConnectionOptions o) {
    o.keep_message_text = true;
    return o;
  }

  ClientOptions options;
  jsonrpc::Connection session;
  const bool carries_headers;  // the transport sends SendContext::headers (Streamable HTTP)
  std::string server_key;      // for the era cache; "" when the server has no name
  std::vector<std::pair<nlohmann::json, ElicitationHandler>> form_handlers;
  ElicitationHandler fallback;
  // 2025-11-25: the server's elicitation/create arrives on the transport's thread, which must not
  // block; its handler, which may wait for a person, runs here.
  std::unique_ptr<WorkerPool> workers;
  bool stateless = false;
  nlohmann::json server_info;
  nlohmann::json server_capabilities;
  // The version 2026-07-28 requests carry: ClientOptions::protocol_version until a server answers one
  // with -32022 naming another 2026-07-28 version this client speaks (requests run in parallel, so it
  // is guarded).
  mutable std::mutex version_mutex;
  std::string version;

  // --- the era probe and the version (era.cpp) ---
  // connect()'s 2026-07-28 part: server/discover's result, or nullopt when the server is of the
  // initialize-based era (then initialize with the fallback version; `from_cache`: known so from
  // an earlier client of this process, without a probe).
  std::optional<nlohmann::json> discover(bool& from_cache);
  // initialize failed after the era cache said the server was of that era: the next client probes.
  void forget_era();
  std::string current_version() const;
  // After -32022 (Versioning, "Protocol Version Negotiation": the client SHOULD select a mutually
  // supported version from `supported` and retry): the version to retry with, the newest 2026-07-28
  // one both speak; none when the server lists none (only 2025-11-25 versions, or no list).
  std::optional<std::string> mutual_version(const std::optional<nlohmann::json>& data) const;
  // connect()'s server/discover (MCP 2026-07-28, Versioning, "Backward Compatibility"): its result,
  // or nullopt when the server is of the initialize-based era and a fallback version is set.
  std::optional<nlohmann::json> probe();
  static bool modern_error(int code);
  // Whether server/discover's failure says the server is of the initialize-based era (MCP
  // 2026-07-28, Versioning, "Backward Compatibility", and its transport pages): an answer from the
  // server that is not a recognized modern error; silence until the probe's timeout (stdio); over
  // Streamable HTTP, a 400 whose body is no modern error. Not: a failure of the transport itself (a
  // closed port, TLS, a wrong path's 404, a broken connection), which says nothing of the era and is
  // reported as itself instead of being followed by an initialize that fails the same way.
  static bool legacy_answer(const RequestOutcome& o);
  // Keeps what connect()'s result says of the server.
  nlohmann::json remember(nlohmann::json result);

  // --- answers to the server's questions (answers.cpp) ---
  // What the capabilities declare: forms with a handler, or for step calls (declare_elicitation).
  bool has_handler() const { return fallback || !form_handlers.empty() || options.declare_elicitation; }
  // URL requests are declared and answered only with url_elicitation on and a handler that sees
  // them (form handlers never do), or a step call's answerer.
  bool handles_url() const { return options.url_elicitation && (fallback || options.declare_elicitation); }
  nlohmann::json capabilities() const;
  // One question read as the handlers see it (schema in the server's order, URL reviewed, `key`).
  ElicitationRequest question(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                              const std::string& key) const;
  // The decline for a URL the review refused (never offered to anyone; said in the log), else nullopt.
  std::optional<nlohmann::json> refused_url(const ElicitationRequest& request);
  // 2026-07-28 requests also declare the tasks extension (the client follows a task to its end).
  nlohmann::json request_capabilities() const;
  nlohmann::ordered_json meta() const;
  // The answer to one elicitation/create: a typed handler whose schema it is, else the fallback,
  // else cancel (nobody here can show it).
  // `ordered`: the same params in the server's member order (null when unknown).
  nlohmann::json answer(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                        const std::string& key = "");
  // The answer to one interaction/create (the userInteraction dialect): the interaction is read
  // as the elicitation it stands for and answered by the same handlers; the ElicitResult is then
  // put in the draft's shape. `text`: the request's text, for the schema's member order.
  void answer_interaction(const nlohmann::json& params, const std::shared_ptr<const std::string>& text,
                          const Responder& out);
  // A step call (Client::call_tool_step, resume_tool_step): its answerer, and where it stopped.
  struct Step {
    const StepAnswerer* answer = nullptr;  // null, or empty: stop at the first round
    std::optional<PendingInput> pending;   // set when the call stopped at a round
  };
  // The answers to an input-required result's or a task's inputRequests, by the same handlers as
  // any elicitation, or in a step call by its answerer: nullopt when it stopped (step->pending is
  // then the caller's to fill). `ordered`: the same requests in the server's member order (null
  // when unknown). Keys in `skip` are left out (a task's keys already answered).
  std::optional<nlohmann::ordered_json> answer_inputs(const std::string& method, const nlohmann::json& requests,
                                                      const nlohmann::ordered_json& ordered_requests,
                                                      Step* step = nullptr, const std::set<std::string>& skip = {});

  // --- requests and their 2026-07-28 round trips (round_trips.cpp) ---
  // `scope` (may be null): cancelling it cancels the request (notifications/cancelled; over HTTP the
  // request's connection ends), which then throws ClientError "cancelled by the caller".
  RequestOutcome call(const std::string& method, nlohmann::ordered_json params, const SendContext& context = {},
                      const std::shared_ptr<CancelScope>& scope = nullptr);
  // One request of the era: 2025-11-25 as is; 2026-07-28 with _meta, retried while the server answers
  // input_required, each retry a new request (a new id) with the answers and the state it gave.
  // `context`: what goes to the transport with each of the requests (a tools/call's Mcp-Param-*
  // fields: the arguments, and so the fields, are the same in every round).
  // `step` (may be null): a step call, which returns null with step->pending set where it stopped.
  nlohmann::json request(const std::string& method, nlohmann::ordered_json params, const SendContext& context = {},
                         const std::shared_ptr<CancelScope>& scope = nullptr, Step* step = nullptr);
  nlohmann::json list_all(const std::string& method, const char* member);
  static ClientError cancelled_by_caller(const std::string& method) {
    return ClientError(0, method + ": cancelled by the caller");
  }

  // --- following a task (task_following.cpp) ---
  // ClientOptions::task_notifications: what a followed task's wait hears from the listen stream.
  struct TaskWake {
    std::mutex mutex;
    std::condition_variable cv;
    bool cancelled = false;     // the caller's scope
    bool changed = false;       // a notifications/tasks since the last read
    bool acknowledged = false;  // the server agreed to send the task's notifications
    bool listen_ended = false;  // the listen request ended (refused, or its stream closed)
    void set(bool TaskWake::*flag) {
      std::lock_guard<std::mutex> lock(mutex);
      this->*flag = true;
      cv.notify_all();
    }
  };
  class Listen;  // a subscriptions/listen request for one followed task
  std::mutex listeners_mutex;
  std::multimap<std::string, std::weak_ptr<TaskWake>> task_listeners;  // by task id
  // Tells the waits following task `id` (a notification came for it), on the transport's thread.
  void tell_listeners(const std::string& id, bool TaskWake::*flag);
  // The notifications a listen stream brings: notifications/tasks (a DetailedTask) and the
  // acknowledgement naming the tasks the server will report on.
  void listen_for_tasks();
  // A request the server answered with a task (the io.modelcontextprotocol/tasks extension):
  // tasks/get every pollIntervalMs until the task ends, its questions answered with tasks/update;
  // the result of a completed task, ClientError for a failed (its JSON-RPC error) or cancelled one.
  // `scope` (may be null): cancelling it sends tasks/cancel and throws "cancelled by the caller"
  // (tasks.md, "tasks/cancel": the client stops the task it no longer wants).
  // `step` (may be null): a step call, which returns null with step->pending set at a round its
  // answerer left for later. `answered`: keys already answered (a resumed task's), never asked again.
  nlohmann::json follow_task(const std::string& method, nlohmann::json task,
                             const std::shared_ptr<CancelScope>& scope = nullptr, Step* step = nullptr,
                             std::set<std::string> answered = {});
  // A tasks/* request about task `id` (its taskId and this client's _meta added): the outcome with
  // a result (its text too, for the server's member order), else the ClientError thrown.
  RequestOutcome task_request(const char* method, const std::string& id, nlohmann::ordered_json params,
                              const std::shared_ptr<CancelScope>& scope);
  // resume_tool_step of a task: tasks/update with the answers, then the task followed.
  nlohmann::json resume_task(const std::string& method, const PendingInput& pending, nlohmann::ordered_json responses,
                             const std::shared_ptr<CancelScope>& scope, Step& step);

  // --- x-mcp-header (tool_headers.cpp) ---
  // x-mcp-header (MCP 2026-07-28, server/tools, "x-mcp-header"; Streamable HTTP, "Custom Headers
  // from Tool Parameters"): over a transport with headers, each tool's annotations as the last
  // complete tools/list gave them, by tool name, and the tools refused for invalid ones, with why.
  std::mutex tools_mutex;  // guards what follows: calls and listings run in parallel
  std::map<std::string, std::vector<ParamHeader>> tool_headers;
  std::map<std::string, std::string> rejected_tools;
  bool tools_listed = false;

  bool mirrors_params() const { return stateless && carries_headers; }
  // The listing with every tool whose x-mcp-header annotations are invalid left out (the client
  // "MUST exclude the invalid tool" and "SHOULD log a warning" naming it and why); the annotations of
  // the others are kept for their calls. Replaces what an earlier listing kept.
  nlohmann::json screen_tools(nlohmann::json tools);
  // The Mcp-Param-* fields of a call of tool `name` with `arguments`, from its listed annotations.
  // Throws ClientError for a tool that was refused (its headers cannot be made right).
  SendContext param_context(const std::string& name, const nlohmann::json& arguments);
  // `seeds`: members added to the first request's params (a resumed call's inputResponses and
  // requestState); `step` as for request().
  nlohmann::json call_tool(const std::string& name, nlohmann::json arguments,
                           const std::shared_ptr<CancelScope>& scope = nullptr, Step* step = nullptr,
                           const nlohmann::ordered_json& seeds = nlohmann::ordered_json::object());
};

}  // namespace elicit
