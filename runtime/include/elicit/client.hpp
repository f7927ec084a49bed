// An MCP client that answers elicitations (the host side), in both eras:
//  - MCP 2025-11-25 (and 2025-06-18): `initialize`, then the server's `elicitation/create`
//    requests are answered by the handlers (Client, Elicitation; Lifecycle);
//  - MCP 2026-07-28: no session; every request carries its `_meta` (protocol version, client
//    capabilities, client info), `server/discover` replaces initialize, and an input-required
//    result is answered by retrying the request with `inputResponses` and the `requestState`
//    echoed exactly (Basic, Patterns, "Multi Round-Trip Requests").
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "elicit/child_process.hpp"
#include "elicit/content/form.hpp"
#include "elicit/content/schema.hpp"
#include "elicit/jsonrpc/cancel_scope.hpp"
#include "elicit/jsonrpc/connection.hpp"
#include "elicit/jsonrpc/transport.hpp"
#include "elicit/url_safety.hpp"

namespace elicit {

/// The user's answer to an elicitation (ElicitResult, MCP Client, Elicitation, "Response Actions").
enum class ElicitAction { accept, decline, cancel };

/// "accept", "decline" or "cancel": the `action` of an ElicitResult.
std::string_view to_string(ElicitAction action) noexcept;

struct Answer {
  ElicitAction action = ElicitAction::cancel;
  /// The form's content (accept of a form only): an object of the requested properties.
  nlohmann::json content;

  static Answer accept(nlohmann::json content = nlohmann::json::object());
  /// accept with `partial` (an object; anything else counts as {}) completed by the form's
  /// defaults (apply_defaults in <elicit/form_defaults.hpp>; SEP-1034). Properties in `partial`
  /// are kept as they are: validate_content(form, answer.content) says whether they are valid.
  static Answer accept_with_defaults(const Form& form, nlohmann::json partial = nlohmann::json::object());
  static Answer decline();
  static Answer cancel();
  /// {"action": ...[, "content": {...}]}: content only for a form's accept.
  nlohmann::json to_json(bool form) const;
};

/// A typed answer to a form of type T (Client::on_form).
template <class T>
struct FormAnswer {
  ElicitAction action = ElicitAction::cancel;
  T value{};  ///< the content, for accept
  static FormAnswer accept(T value) { return {ElicitAction::accept, std::move(value)}; }
  static FormAnswer decline() { return {ElicitAction::decline, T{}}; }
  static FormAnswer cancel() { return {ElicitAction::cancel, T{}}; }
};

/// What a server asks of the user: the params of one elicitation/create, read.
struct ElicitationRequest {
  bool url_mode = false;
  std::string message;
  /// Form mode: the requestedSchema as sent (in the server's member order when it came through a
  /// Client; read_elicitation_request alone has only sorted params to go by), and its model when
  /// it is within the spec's restricted subset (schema.hpp); `form` is empty and `schema_problems`
  /// says why otherwise.
  nlohmann::ordered_json requested_schema;
  std::optional<Form> form;
  std::vector<Diagnostic> schema_problems;
  /// URL mode: the page to open, its elicitationId, and what review_url found: show
  /// `url_review.host` highlighted and its warnings before asking for consent. A handler never
  /// sees a URL the review refused (the Client declines it).
  std::string url;
  std::string elicitation_id;
  UrlReview url_review;
  /// The params as received (parsed: object members in sorted order).
  nlohmann::json params;
  /// 2026-07-28 (and tasks): the inputRequests key the question came under; a question asked again
  /// under the same key with the same params is the same question (a URL page not finished yet).
  /// Empty for a 2025-11-25 elicitation/create.
  std::string key;
};

/// Answers one elicitation. Runs on a worker thread of the Client (2025-11-25) or on the thread
/// that called the tool (2026-07-28); it may block while a person answers. What it throws becomes
/// an error response (-32603) to the server (2025-11-25) or fails the call (2026-07-28).
using ElicitationHandler = std::function<Answer(const ElicitationRequest&)>;

/// A round of questions a step call (Client::call_tool_step) stopped at instead of answering: all
/// it takes to go on later, from this process or another (MCP 2026-07-28 only; Basic, Patterns,
/// "Multi Round-Trip Requests", and the tasks extension's "Task Update Requests"). Plain data:
/// keep it (e.g. as JSON) and hand it to Client::resume_tool_step with the answers.
struct PendingInput {
  /// The inputRequests, in the server's member order: key -> {"method": "elicitation/create",
  /// "params": {...}}.
  nlohmann::ordered_json input_requests = nlohmann::ordered_json::object();
  /// An input-required result's requestState, to be echoed exactly (never read: it is the server's);
  /// null when the server gave none (then the retry carries none).
  nlohmann::json request_state;
  /// A task in `input_required` (the io.modelcontextprotocol/tasks extension): its taskId, and the
  /// task as the last tasks/get gave it. Empty and null for an input-required result.
  std::string task_id;
  nlohmann::json task;

  /// The questions, read as the Client reads them (ElicitationRequest::key set, a form's schema in
  /// the server's order, a URL reviewed with `url_safety`), in the server's order.
  std::vector<ElicitationRequest> questions(const UrlSafetyOptions& url_safety = {}) const;
};

/// Answers one question of a step call now, or returns nullopt: not now. One nullopt stops the
/// round: none of its answers are sent, and the whole round becomes CallStep::pending. Runs on the
/// calling thread.
using StepAnswerer = std::function<std::optional<Answer>(const ElicitationRequest&)>;

/// Where a step call stopped: exactly one of the two is set.
struct CallStep {
  std::optional<nlohmann::json> result;  ///< the CallToolResult: the call is over
  std::optional<PendingInput> pending;   ///< the round of questions left for later
};

/// A JSON-RPC error the server answered with, or a protocol failure of the client (code 0: the
/// server broke the protocol, e.g. more input-required rounds than ClientOptions::max_rounds).
class ClientError : public std::runtime_error {
 public:
  ClientError(int code, const std::string& message, nlohmann::json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const noexcept { return code_; }
  const nlohmann::json& data() const noexcept { return data_; }

 private:
  int code_;
  nlohmann::json data_;
};

struct ClientOptions {
  /// "2026-07-28" (per-request metadata, no session) or "2025-11-25" / "2025-06-18" (initialize).
  /// In both, ElicitationRequest::requested_schema and `form` keep the server's property order
  /// (read from the message's text: the session keeps it, jsonrpc::ConnectionOptions::keep_message_text).
  std::string protocol_version = "2026-07-28";
  /// With a 2026-07-28 protocol_version: the initialize-based version to speak with a server that
  /// turns out not to speak that era (MCP 2026-07-28, Versioning, "Backward Compatibility"):
  /// connect() probes with server/discover, and any error that is not a recognized 2026-07-28 one
  /// (-32020, -32021, -32022; over HTTP, a 4xx without one), or no answer within probe_timeout,
  /// makes it fall back to `initialize` with this version. A -32022 naming another 2026-07-28
  /// version retries with it instead. nullopt: no fallback (the probe's failure is thrown), as when
  /// one era is forced (`elicitgen client --protocol`).
  std::optional<std::string> fallback_protocol_version = "2025-11-25";
  /// How long connect()'s server/discover probe waits for an answer (ms) before it takes the server
  /// for an initialize-based one (only with a fallback_protocol_version).
  std::chrono::milliseconds probe_timeout{10000};
  /// Names the server for the era cache: once connect() has found that a server speaks an
  /// initialize-based revision, later clients in this process with the same key skip the probe and
  /// initialize at once (the versioning page: the era cached per server), sparing a round trip, or
  /// probe_timeout with a server that never answers server/discover. Empty (the default): the
  /// transport's peer() (an HttpClientTransport's URL), or Client::spawn's command line; no caching
  /// when both are empty. A cached server that fails initialize is forgotten.
  std::string server_key;
  /// clientInfo / `io.modelcontextprotocol/clientInfo`.
  nlohmann::json client_info = {{"name", "elicitgen-client"}, {"version", "1"}};
  /// Declare URL-mode elicitation (the handler then also gets URL requests). Off by default: a
  /// host that opens URLs must show them safely first (MCP Client, Elicitation, "Safe URL Handling").
  bool url_elicitation = false;
  /// Declare form elicitation (and URL with url_elicitation) even with no handler: for a client
  /// whose questions go to call_tool_step's answerer. Without it and without a handler, no
  /// elicitation capability is declared, and servers do not ask.
  bool declare_elicitation = false;
  /// Speak the userInteraction dialect (user_interaction.hpp; user-interaction-draft.md) instead of
  /// standard elicitation: declare `userInteraction: {types: ["prompt"(, "ua")]}` and no
  /// `elicitation`, and answer interaction/create. `prompt` goes to the form handlers (on_form,
  /// then on_elicitation) as a form request; `ua` to on_elicitation as a URL request (reviewed as
  /// URL mode; "ua" is listed only with url_elicitation and an on_elicitation handler).
  /// Accept answers {"content": ...} (prompt) or {} (ua); decline answers error -1 ("User did
  /// not consent to the interaction", the draft's example); cancel answers error -2. 2025-11-25
  /// protocol versions only (2025-11-25, 2025-06-18): connect() throws ClientError for a
  /// 2026-07-28 client asking for it; the draft belongs to no revision of that era.
  bool user_interaction = false;
  /// How URL-mode requests are reviewed (url_safety.hpp).
  UrlSafetyOptions url_safety;
  /// Input-required rounds of one request, at most (2026-07-28; and questions asked by one task);
  /// one more is a ClientError.
  std::size_t max_rounds = 16;
  /// 2026-07-28: declare the io.modelcontextprotocol/tasks extension on every request, so a server
  /// may answer a tools/call with a task (ext-tasks/tasks.md). The client then follows the task:
  /// tasks/get every `pollIntervalMs` (10 ms to 60 s), its inputRequests answered by the same
  /// handlers as other elicitations (tasks/update), until it ends; call_tool() returns a completed
  /// task's result and throws ClientError for a failed one (its JSON-RPC error) or a cancelled one.
  bool tasks = true;
  /// Called on the calling thread each time a followed task's status changes, with the task as the
  /// server last gave it (taskId, status, statusMessage, ...): e.g. to show status lines.
  std::function<void(const nlohmann::json& task)> on_task_status;
  /// 2026-07-28, with `tasks`: while following a task, also listen for its status notifications
  /// (a `subscriptions/listen` request naming the task in `notifications.taskIds`; ext-tasks/tasks.md,
  /// "Task Status Notifications"). Each notifications/tasks for the task cuts the wait short (the
  /// task is then read with tasks/get), and once the server has acknowledged the task the wait
  /// between reads grows from `pollIntervalMs` to 60 s (a read in case the stream was lost). A
  /// server that refuses the listen, or a stream that ends, leaves the client polling every
  /// `pollIntervalMs`. The listen request is cancelled when the task ends. Off by default: it keeps
  /// one more request (over HTTP, one more connection) open per task followed.
  bool task_notifications = false;
  /// Timeout of each request to the server (ms); none by default (a tool may wait for a person).
  std::optional<std::chrono::milliseconds> request_timeout;
  jsonrpc::ConnectionOptions session;
};

/// An MCP client over one transport. connect() first; then call_tool() and the list_*() calls
/// from any thread except the transport's (they block). Handlers are set before connect().
/// Thread-safe after connect(); requests in parallel each keep their own input-required rounds
/// (a requestState is never shared between them).
class Client {
 public:
  /// Over `transport`, which must outlive the client. Throws std::invalid_argument for a
  /// protocol_version it does not speak.
  explicit Client(Transport& transport, ClientOptions options = {});
  /// Over a transport the client owns, e.g. an http::HttpClientTransport
  /// (elicit/http_client_transport.hpp, library elicit::http).
  explicit Client(std::unique_ptr<Transport> transport, ClientOptions options = {});
  /// Starts `argv` as a child process and speaks MCP on its stdin and stdout (its stderr goes
  /// where `child` says). Throws what ChildProcess::spawn throws.
  static std::unique_ptr<Client> spawn(const std::vector<std::string>& argv, ClientOptions options = {},
                                       ChildProcessOptions child = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// Answers every elicitation no typed handler took. Without any handler the client does not
  /// declare the elicitation capability, and servers do not ask.
  void on_elicitation(ElicitationHandler handler);
  /// Answers the form elicitations whose requestedSchema is exactly T's (a type elicitgen
  /// generated) with a T: accepted content is T's JSON. Checked before on_elicitation's handler,
  /// in the order added. `T{}` holds the schema's defaults: FormAnswer<T>::accept(T{}) accepts them.
  template <class T>
  void on_form(std::function<FormAnswer<T>(const ElicitationRequest&)> handler) {
    add_form_handler(nlohmann::json(::elicit::requested_schema<T>()),
                     [handler = std::move(handler)](const ElicitationRequest& request) {
                       auto answer = handler(request);
                       Answer out;
                       out.action = answer.action;
                       if (answer.action == ElicitAction::accept) out.content = nlohmann::json(answer.value);
                       return out;
                     });
  }

  /// 2025-11-25: initialize and notifications/initialized; 2026-07-28: server/discover, falling
  /// back to initialize (ClientOptions::fallback_protocol_version) with a server of the earlier
  /// era. Returns the result (capabilities, serverInfo, ...). Throws ClientError for an error
  /// response or a server that speaks no version this client may use. Once.
  nlohmann::json connect();
  /// After connect(): the protocol version in use ("2026-07-28", or the initialize result's).
  std::string protocol_version() const;
  /// After connect(): the server's {name, version[, title]} (initialize's serverInfo, or the
  /// `io.modelcontextprotocol/serverInfo` of server/discover's `_meta`; null when it sent none) and
  /// its capabilities.
  const nlohmann::json& server_info() const noexcept;
  const nlohmann::json& server_capabilities() const noexcept;

  /// tools/call: the CallToolResult (a tool error is a result with isError, not a throw). Throws
  /// ClientError for a JSON-RPC error.
  /// 2026-07-28 over a transport that carries headers (Transport::carries_headers(): Streamable
  /// HTTP): the arguments of the tool's `x-mcp-header` properties also go as `Mcp-Param-{Name}`
  /// headers (SendContext::headers; encoded as param_header_fields in <elicit/protocol/param_headers.hpp>
  /// says: Streamable HTTP, "Custom Headers from Tool Parameters"), from the annotations of the last
  /// list_tools() (the tools are listed first when they never were). A tool list_tools() left out
  /// is not called: ClientError (code 0) saying why. After -32020 (HeaderMismatch) the tools are
  /// listed again and the call retried once with the headers then found.
  nlohmann::json call_tool(const std::string& name, nlohmann::json arguments = nlohmann::json::object());
  /// call_tool() that the caller may stop, from any thread, by cancelling `scope` (not null): the
  /// request in flight is cancelled (notifications/cancelled; over Streamable HTTP its connection
  /// ends), and a call that became a task (the tasks extension) gets `tasks/cancel` before this
  /// returns (tasks.md, "tasks/cancel"; ClientOptions::on_task_status then hears "cancelled"). Throws
  /// ClientError (code 0, "...: cancelled by the caller") when the scope cancelled the call,
  /// already cancelled included; std::invalid_argument for a null scope. An elicitation being
  /// answered (a handler asking the user) is not interrupted: the cancel takes effect after it.
  nlohmann::json call_tool(const std::string& name, nlohmann::json arguments,
                           const std::shared_ptr<CancelScope>& scope);
  /// tools/call that stops at a round of questions instead of waiting for them to be answered
  /// (MCP 2026-07-28): what an agent or a script does when the answers come later, perhaps from
  /// another process. Each question goes to `answer` (not to the handlers of on_elicitation and
  /// on_form); when it answers every question of a round, the call goes on as call_tool() does;
  /// the first nullopt ends the call with CallStep::pending, none of that round's answers sent. A
  /// null `answer` stops at the first round. The server learns nothing of the stop: an
  /// input-required result needs no goodbye, and a task in `input_required` keeps waiting (no
  /// tasks/cancel). URL requests that review_url refuses are declined without asking `answer`.
  /// Declare what the questions may be before connect(): ClientOptions::declare_elicitation (or a
  /// handler) and url_elicitation. Throws ClientError as call_tool() does, and ClientError (code 0)
  /// before sending anything when the session is of the 2025-11-25 era, where the server's
  /// elicitation/create waits on the open session and cannot be left for later. `scope` as in
  /// call_tool() (may be null).
  CallStep call_tool_step(const std::string& name, nlohmann::json arguments, const StepAnswerer& answer = nullptr,
                          const std::shared_ptr<CancelScope>& scope = nullptr);
  /// Goes on with a call that stopped at `pending`, from this Client or one in another process
  /// connected to the same server (the same `name` and `arguments`: a requestState is bound to them):
  /// `input_responses` (key -> ElicitResult, Answer::to_json) answer its round; an input-required
  /// round is retried (a new tools/call with inputResponses and the requestState, MRTR "Client
  /// Requirements"), a task's round goes as tasks/update and the task is followed. Later rounds go
  /// to `answer` as in call_tool_step(); in a task, a key already answered is not asked again (keys
  /// are unique over a task's life: tasks.md, "Input Requests"). Throws ClientError as
  /// call_tool_step(); a requestState the server no longer opens (expired, other keys) or a task
  /// it no longer knows come back as its error (-32602 from elicitgen servers).
  CallStep resume_tool_step(const std::string& name, nlohmann::json arguments, const PendingInput& pending,
                            nlohmann::ordered_json input_responses, const StepAnswerer& answer = nullptr,
                            const std::shared_ptr<CancelScope>& scope = nullptr);
  /// prompts/get and resources/read, which may also ask for input in 2026-07-28.
  nlohmann::json get_prompt(const std::string& name, nlohmann::json arguments = nlohmann::json::object());
  nlohmann::json read_resource(const std::string& uri);
  /// Every page of tools/list, prompts/list, resources/list: the entries (e.g. the tools array).
  /// list_tools(), 2026-07-28 over a transport that carries headers: a tool whose inputSchema has an
  /// invalid `x-mcp-header` annotation (param_headers_of throws) is left out, with a warning naming
  /// the tool and the reason written to ClientOptions::session.log (MCP 2026-07-28, server/tools,
  /// "x-mcp-header": clients "MUST exclude the invalid tool"); the others' annotations are kept for
  /// call_tool(), replacing those of an earlier listing.
  nlohmann::json list_tools();
  nlohmann::json list_prompts();
  nlohmann::json list_resources();

  /// The JSON-RPC session underneath (for requests this class has no method for).
  jsonrpc::Connection& rpc() noexcept;
  /// Ends the connection (a spawned child is then ended by the destructor).
  void close();

 private:
  struct Impl;
  void add_form_handler(nlohmann::json schema, ElicitationHandler handler);
  std::unique_ptr<ChildProcess> child_;  // destroyed last: after the transport stops reading it
  std::unique_ptr<Transport> owned_transport_;
  std::unique_ptr<Impl> impl_;
};

/// Reads elicitation/create params into an ElicitationRequest (never throws; a form whose schema
/// is outside the subset has no `form` and says why in `schema_problems`; a URL is reviewed with
/// `url_safety`).
ElicitationRequest read_elicitation_request(const nlohmann::json& params, const UrlSafetyOptions& url_safety = {});

}  // namespace elicit
