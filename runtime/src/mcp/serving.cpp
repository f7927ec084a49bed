#include "serving.hpp"

#include <functional>
#include <map>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "completion_request.hpp"
#include "elicit/observer.hpp"
#include "elicit/typed_tool.hpp"
#include "elicitation_dialect.hpp"
#include "json_fast.hpp"
#include "listen_streams.hpp"
#include "multi_round_trip.hpp"
#include "progress_token.hpp"

namespace elicit::detail {

bool JobGate::enter() {
  std::lock_guard<std::mutex> lock(mutex);
  if (closed) return false;
  ++running;
  return true;
}

void JobGate::leave() {
  std::lock_guard<std::mutex> lock(mutex);
  --running;
  cv.notify_all();
}

void JobGate::close_and_wait() {
  std::unique_lock<std::mutex> lock(mutex);
  closed = true;
  cv.wait(lock, [&] { return running == 0; });
}

namespace {

// The request's params as the client sent them: with `_meta` put back when it was read apart
// (StatelessFields::meta_json), for what keeps a whole request (a task replays it).
nlohmann::json whole_params(const nlohmann::json& params, const StatelessFields* fields) {
  if (!fields || fields->meta_json.empty() || !params.is_object()) return params;
  auto whole = params;
  whole["_meta"] = jsonrpc::detail::parse_json(fields->meta_json);
  return whole;
}

void not_found(const Responder& out, const std::string& method, const char* note) {
  out.error({error_code::method_not_found, "Method not found: " + method + note, std::nullopt});
}

using Method = Serving::Method;
using Fields = StatelessFields;

// The methods a Server serves, by name: one table for every connection of every server, built once.
// A session-era handler runs in a 2025-11-25 session (and for a request that names no 2026-07-28
// version before initialize); a stateless one for a 2026-07-28 request.
const std::unordered_map<std::string_view, Method>& method_table() {
  static const std::unordered_map<std::string_view, Method> table{
      // MCP 2025-11-25, Lifecycle. 2026-07-28 has no initialize: a request for it whose _meta
      // names 2026-07-28 is -32601 (over HTTP the routes answer 404 before it gets here).
      {"initialize",
       {[](Serving& s, const Request& r, const Responder& out) { s.initialize(r, out); }, nullptr, nullptr, "", ""}},
      {"ping",
       {[](Serving&, const Request&, const Responder& out) { out.result(nlohmann::json::object()); },
        [](Serving& s, const Request&, const Responder& out, Fields&) {
          s.reply_stateless(out, nlohmann::json::object());
        },
        nullptr, "", ""}},
      // MCP 2026-07-28, Server, "Discovery".
      {"server/discover",
       {nullptr, [](Serving& s, const Request&, const Responder& out, Fields&) { s.discover(out); }, nullptr, "", ""}},
      // One page of a list, in both eras (MCP, Server, Utilities, "Pagination").
      {"tools/list",
       {[](Serving& s, const Request& r, const Responder& out) { s.list(r, out, false, &Server::list_tools); },
        [](Serving& s, const Request& r, const Responder& out, Fields&) { s.list(r, out, true, &Server::list_tools); },
        "tools", "", ""}},
      {"prompts/list",
       {[](Serving& s, const Request& r, const Responder& out) { s.list(r, out, false, &Server::list_prompts); },
        [](Serving& s, const Request& r, const Responder& out, Fields&) {
          s.list(r, out, true, &Server::list_prompts);
        },
        "prompts", "", ""}},
      {"resources/list",
       {[](Serving& s, const Request& r, const Responder& out) { s.list(r, out, false, &Server::list_resources); },
        [](Serving& s, const Request& r, const Responder& out, Fields&) {
          s.list(r, out, true, &Server::list_resources);
        },
        "resources", "", ""}},
      {"resources/templates/list",
       {[](Serving& s, const Request& r, const Responder& out) {
          s.list(r, out, false, &Server::list_resource_templates);
        },
        [](Serving& s, const Request& r, const Responder& out, Fields&) {
          s.list(r, out, true, &Server::list_resource_templates);
        },
        "resources", "", ""}},
      {"completion/complete",
       {[](Serving& s, const Request& r, const Responder& out) { s.complete(r, out, false); },
        [](Serving& s, const Request& r, const Responder& out, Fields&) { s.complete(r, out, true); }, "completions",
        "", ""}},
      // MCP 2025-11-25, Resources, "Subscriptions": sessions only (2026-07-28 has none).
      {"resources/subscribe",
       {[](Serving& s, const Request& r, const Responder& out) { s.subscription(r, out, true); }, nullptr, "resources",
        "", " (not in MCP 2026-07-28)"}},
      {"resources/unsubscribe",
       {[](Serving& s, const Request& r, const Responder& out) { s.subscription(r, out, false); }, nullptr, "resources",
        "", " (not in MCP 2026-07-28)"}},
      // MCP 2026-07-28, Basic, Patterns, "Subscriptions": 2026-07-28 only (2025-11-25 sessions have
      // resources/subscribe and hear of list changes without asking).
      {"subscriptions/listen",
       {nullptr, [](Serving& s, const Request& r, const Responder& out, Fields& f) { s.listen(r, out, f); }, nullptr,
        " (MCP 2026-07-28 only)", ""}},
      {"tools/call",
       {[](Serving& s, const Request& r, const Responder& out) { s.call_tool(r, out, nullptr); },
        [](Serving& s, const Request& r, const Responder& out, Fields& f) { s.call_tool(r, out, &f); }, nullptr, "",
        ""}},
      {"prompts/get",
       {[](Serving& s, const Request& r, const Responder& out) { s.get_prompt(r, out, nullptr); },
        [](Serving& s, const Request& r, const Responder& out, Fields& f) { s.get_prompt(r, out, &f); }, "prompts", "",
        ""}},
      {"resources/read",
       {[](Serving& s, const Request& r, const Responder& out) { s.read_resource(r, out, nullptr); },
        [](Serving& s, const Request& r, const Responder& out, Fields& f) { s.read_resource(r, out, &f); }, "resources",
        "", ""}},
      // The io.modelcontextprotocol/tasks extension (tasks.hpp): 2026-07-28 requests only, on a
      // server that keeps tasks. tasks/result and tasks/list were removed (-32601, like any unknown).
      {"tasks/get",
       {nullptr,
        [](Serving& s, const Request& r, const Responder& out, Fields& f) { tasks_get(s.task_serving(), r, out, f); },
        "tasks", " (MCP 2026-07-28 only)", ""}},
      {"tasks/update",
       {nullptr,
        [](Serving& s, const Request& r, const Responder& out, Fields& f) {
          tasks_update(s.task_serving(), r, out, f);
        },
        "tasks", " (MCP 2026-07-28 only)", ""}},
      {"tasks/cancel",
       {nullptr,
        [](Serving& s, const Request& r, const Responder& out, Fields& f) {
          tasks_cancel(s.task_serving(), r, out, f);
        },
        "tasks", " (MCP 2026-07-28 only)", ""}},
      // MCP 2025-11-25, Logging: the least severe level the client wants; gone in 2026-07-28 (the
      // level is per request there).
      {"logging/setLevel",
       {[](Serving& s, const Request& r, const Responder& out) { s.set_log_level(r, out); }, nullptr, nullptr, "",
        " (not in MCP 2026-07-28: set _meta io.modelcontextprotocol/logLevel per request)"}},
      // The userInteraction dialect's (elicitation_dialect.hpp): a 2025-11-25-session feature, and a
      // method only when the dialect is on ("userInteraction" is no capability of the server's).
      {"interaction/notify",
       {[](Serving& s, const Request& r, const Responder& out) { s.dialect_request(r, out); }, nullptr,
        "userInteraction", "", " (not in MCP 2026-07-28)"}},
  };
  return table;
}

}  // namespace

// A tools/call, prompts/get or resources/read, resolved to its handler: what serve_call needs.
struct Serving::Call {
  const char* method;              // for the requestState binding
  std::string name;                // the tool's or prompt's name, the resource's URI
  nlohmann::json arguments;        // what RequestContext::arguments() gives the handler
  nlohmann::json bound_arguments;  // what the requestState is bound to besides the name (2026-07-28 only)
  nlohmann::json result_members;   // added to a complete 2026-07-28 result (resources/read)
  // The blocking handler, run on a worker: returns the thunk that answers with its result.
  std::function<std::function<void()>(RequestContext&)> blocking;
  std::function<void(std::shared_ptr<RequestContext>)> async;
  // What the two may refer to and must outlive the call (a tool's handlers are referred to, not
  // copied: a copy of a std::function holding captures allocates, once per request).
  std::shared_ptr<const void> owner;
  // Validates the arguments once the context exists; false when it has answered (tools only).
  bool (*check)(const Server& server, const std::string& name, RequestContext& call) = nullptr;
  // A tool whose handler may start a task (RequestContext::start_task()).
  bool task_later = false;
  // The answer when no worker takes the call (the pool is stopping).
  std::function<void(RequestContext&)> shutting_down;
};

Serving::Serving(jsonrpc::Connection& rpc, std::shared_ptr<Server> server, const ServerSessionOptions& options,
                 std::shared_ptr<WorkerPool> pool, Caller caller, std::optional<StatelessFields> stateless)
    : rpc_(rpc),
      server_(std::move(server)),
      options_(options),
      pool_(std::move(pool)),
      caller_(std::move(caller)),
      stateless_(std::move(stateless)),
      one_request_(stateless_.has_value()),
      state_(rpc) {
  state_.set_log_rate(options_.log_rate);
  state_.set_user_interaction(options_.user_interaction);
}

Serving::~Serving() {
  close_listens();
  if (subscriber_) server_->subscriptions().detach(subscriber_);
  gate_->close_and_wait();  // a shared pool may still hold jobs of ours
}

void Serving::close_listens() {
  std::shared_ptr<ListenStreams> listens;
  {
    std::lock_guard<std::mutex> lock(listens_mutex_);
    listens = listens_;
  }
  if (listens) listens->close_all();
}

const std::shared_ptr<Subscriptions::Subscriber>& Serving::subscriber() {
  if (!subscriber_) {
    subscriber_ = server_->subscriptions().attach([rpc = &rpc_](const char* method, nlohmann::ordered_json params) {
      return rpc->notify(method, std::move(params));
    });
  }
  return subscriber_;
}

void Serving::observe(const Request& r, const Responder& out) const {
  // The era as dispatch will decide it: this connection's one 2026-07-28 request, the session's
  // version, or what the request's _meta names (refused later if it is not one we serve).
  std::string revision;
  bool task_run = false;
  if (stateless_) {
    revision = stateless_->protocol_version;
    task_run = !stateless_->task_id.empty();
  } else if (initialized_) {
    revision = session_version_;
  } else if (r.params.is_object()) {
    if (const auto meta = r.params.find("_meta"); meta != r.params.end() && meta->is_object()) {
      if (const auto v = meta->find(meta_key::protocol_version); v != meta->end() && v->is_string()) {
        revision = v->get<std::string>();
      }
    }
  }
  std::string name;
  if (r.params.is_object() && (r.method == "tools/call" || r.method == "prompts/get" || r.method == "resources/read")) {
    if (const auto n = r.params.find(r.method == "resources/read" ? "uri" : "name");
        n != r.params.end() && n->is_string()) {
      name = n->get<std::string>();
    }
  }
  auto token = caller_.access_token;
  if (!token && options_.access_token) token = options_.access_token->get();
  out.on_answered([observer = options_.observer, id = r.id, method = r.method, name = std::move(name),
                   revision = std::move(revision), token = std::move(token), task_run,
                   start = std::chrono::steady_clock::now()](const jsonrpc::Answered& answered) {
    const RequestRecord record{
        id, method, name, revision, token.get(), answered, std::chrono::steady_clock::now() - start, task_run};
    try {
      observer->request_ended(record);
    } catch (...) {  // an observer must not throw; if it does, the request is over all the same
    }
  });
}

// The era is decided once per request: a connection that carries one checked 2026-07-28 request
// knows it; else a 2025-11-25 session once initialize was received; else 2026-07-28 when the
// request's _meta says so (or the error that refuses it); else 2025-11-25.
void Serving::dispatch(const Request& r, const Responder& out) {
  if (options_.observer) observe(r, out);
  const auto& table = method_table();
  const auto it = table.find(r.method);
  if (it == table.end()) {
    not_found(out, r.method, "");
    return;
  }
  const Method& m = it->second;
  // A 2026-07-28 connection's fields are its one request's: taken (moved into the call, not
  // copied), so a second request finds none and is refused.
  std::optional<StatelessFields> fields = std::move(stateless_);
  stateless_.reset();
  if (one_request_ && !fields) {
    out.error({error_code::invalid_request, "Invalid Request: one request per 2026-07-28 exchange", std::nullopt});
    return;
  }
  if (!fields && !initialized_) {
    auto era = read_request_era(r.params);
    if (era.error) {
      out.error(std::move(*era.error));
      return;
    }
    fields = std::move(era.stateless);
  }
  if (m.capability && !(std::string_view(m.capability) == "userInteraction" ? options_.user_interaction.enabled
                                                                            : server_->offers(m.capability))) {
    not_found(out, r.method, "");
    return;
  }
  if (fields ? !m.stateless : !m.session) {
    not_found(out, r.method, fields ? m.not_in_stateless : m.not_in_session);
    return;
  }
  if (fields) {
    m.stateless(*this, r, out, *fields);
  } else {
    m.session(*this, r, out);
  }
}

void Serving::reply_stateless(const Responder& out, nlohmann::json result) const {
  stamp_stateless_result(result, server_->info_json());
  out.result(std::move(result));
}

void Serving::initialize(const Request& r, const Responder& out) {
  if (initialized_.exchange(true)) {
    // MCP 2025-11-25, Lifecycle: initialization happens once per session.
    out.error({error_code::invalid_request, "Invalid Request: already initialized", std::nullopt});
    return;
  }
  const auto& p = r.params.is_object() ? r.params : nlohmann::json::object();
  state_.set_client_capabilities(ClientCapabilities::from_json(p.value("capabilities", nlohmann::json::object())));
  // Version negotiation: answer with the client's version when we speak it, else our newest.
  std::string version = supported_protocol_versions().front();
  if (const auto v = p.find("protocolVersion"); v != p.end() && v->is_string()) {
    for (const auto& s : supported_protocol_versions()) {
      if (s == *v) version = s;
    }
  }
  session_version_ = version;
  nlohmann::json result{
      {"protocolVersion", version}, {"capabilities", server_->capabilities()}, {"serverInfo", server_->info_json()}};
  // A dialect chosen for this client may declare something of its own (the userInteraction
  // dialect: `progress`); other clients see exactly the capabilities they always did.
  if (const auto* dialect = state_.elicitation_dialect()) dialect->add_server_capabilities(result["capabilities"]);
  if (server_->info().instructions) result["instructions"] = *server_->info().instructions;
  out.result(std::move(result));
  // The capabilities said listChanged: from now on this session hears of every list change. (A
  // change while the result is on its way is not announced, but the client cannot have listed
  // yet: its next list, served after this handler returns, shows it.)
  server_->subscriptions().set_lists(subscriber(), ListFilter{true, true, true});
}

void Serving::discover(const Responder& out) {
  nlohmann::json result{{"supportedVersions", all_protocol_versions()}, {"capabilities", server_->capabilities(true)}};
  if (server_->info().instructions) result["instructions"] = *server_->info().instructions;
  add_cache_hints(result, server_->list_cache());
  reply_stateless(out, std::move(result));
}

void Serving::list(const Request& r, const Responder& out, bool stateless,
                   std::optional<nlohmann::json> (Server::*page)(std::string_view) const) {
  std::string_view cursor;
  bool given = false;
  if (const auto c = r.params.is_object() ? r.params.find("cursor") : r.params.end();
      r.params.is_object() && c != r.params.end() && !c->is_null()) {
    if (!c->is_string()) {
      out.error({error_code::invalid_params, "Invalid params: cursor must be a string", std::nullopt});
      return;
    }
    cursor = c->get_ref<const std::string&>();
    given = true;
  }
  // "" is a cursor too, one this server never makes: not the first page.
  auto result = given && cursor.empty() ? std::nullopt : (server_.get()->*page)(cursor);
  if (!result) {
    out.error({error_code::invalid_params, "Invalid params: unknown cursor", std::nullopt});
    return;
  }
  if (!stateless) {
    out.result(std::move(*result));
    return;
  }
  add_cache_hints(*result, server_->list_cache());
  reply_stateless(out, std::move(*result));
}

void Serving::complete(const Request& r, const Responder& out, bool stateless) {
  auto answer = answer_completion(*server_, r.params, [this](std::string_view line) { rpc_.log(line); });
  if (auto* error = std::get_if<RpcError>(&answer)) {
    out.error(std::move(*error));
    return;
  }
  auto& result = std::get<nlohmann::json>(answer);
  if (stateless) {
    reply_stateless(out, std::move(result));
  } else {
    out.result(std::move(result));
  }
}

void Serving::listen(const Request& r, const Responder& out, const StatelessFields& fields) {
  std::shared_ptr<ListenStreams> listens;
  {
    std::lock_guard<std::mutex> lock(listens_mutex_);
    if (!listens_) listens_ = std::make_shared<ListenStreams>(rpc_, *server_);
    listens = listens_;
  }
  listens->open(r, out, task_serving(), declares_tasks(fields.capabilities));
}

TaskServing Serving::task_serving() {
  if (!task_options_) {
    auto copy = std::make_shared<ServerSessionOptions>(options_);
    copy->workers = pool_;
    task_options_ = std::move(copy);
  }
  Caller caller{caller_.principal, caller_.access_token};
  if (!caller.access_token && options_.access_token) caller.access_token = options_.access_token->get();
  return TaskServing{server_, task_options_, std::move(caller)};
}

void Serving::call_tool(const Request& r, const Responder& out, StatelessFields* fields) {
  // The tasks extension, for a tools/call that is not itself a run of a task (tasks.hpp): a tool
  // that requires a task refuses a client without the extension (-32021, before its arguments are
  // looked at); one that starts its task at once answers with it.
  if (fields && fields->task_id.empty() && r.params.is_object()) {
    const auto name = r.params.find("name");
    const auto tool =
        name != r.params.end() && name->is_string() ? server_->find_tool(name->get_ref<const std::string&>()) : nullptr;
    if (tool && tool->task_support != TaskSupport::never) {
      const bool declared = declares_tasks(fields->capabilities);
      if (!declared && tool->task_support == TaskSupport::required) {
        out.error(tasks_required_error());
        return;
      }
      if (declared && tool->task_at_start) {
        create_task(task_serving(), whole_params(r.params, fields), out);
        return;
      }
    }
  }
  if (auto c = resolve_tool(r, out, fields != nullptr)) serve_call(r, out, fields, std::move(*c));
}

void Serving::get_prompt(const Request& r, const Responder& out, StatelessFields* fields) {
  if (auto c = resolve_prompt(r, out)) serve_call(r, out, fields, std::move(*c));
}

void Serving::read_resource(const Request& r, const Responder& out, StatelessFields* fields) {
  if (auto c = resolve_resource(r, out)) serve_call(r, out, fields, std::move(*c));
}

void Serving::set_log_level(const Request& r, const Responder& out) {
  const auto level =
      r.params.is_object() ? parse_logging_level(r.params.value("level", nlohmann::json())) : std::nullopt;
  if (!level) {
    out.error({error_code::invalid_params,
               "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, "
               "emergency",
               std::nullopt});
    return;
  }
  state_.set_log_level(*level);
  out.result(nlohmann::json::object());
}

void Serving::dialect_request(const Request& r, const Responder& out) {
  // A session that speaks no dialect never answers (the userInteraction draft: a server MUST NOT
  // respond to an interaction/notify for an interaction it did not create for this client).
  if (auto* dialect = state_.elicitation_dialect()) {
    dialect->serve(state_, r, out);
  } else {
    out.abandon();
  }
}

std::optional<Serving::Call> Serving::resolve_tool(const Request& r, const Responder& responder, bool stateless) const {
  const auto& p = r.params;
  const auto name_member = p.is_object() ? p.find("name") : p.end();
  if (name_member == p.end() || !name_member->is_string()) {
    responder.error({error_code::invalid_params, "tools/call needs params.name", std::nullopt});
    return std::nullopt;
  }
  const auto& name = name_member->get_ref<const std::string&>();
  auto tool = server_->find_tool(name);
  if (!tool) {
    responder.error({error_code::invalid_params, "Unknown tool: " + name, std::nullopt});
    return std::nullopt;
  }
  const auto given = p.find("arguments");
  auto arguments = given == p.end() ? nlohmann::json::object() : *given;
  if (!arguments.is_object()) {
    responder.error({error_code::invalid_params, "tools/call arguments must be an object", std::nullopt});
    return std::nullopt;
  }
  // The handler's arguments, and for a 2026-07-28 request the same bound into its requestState.
  Call c{"tools/call", name,  nullptr, stateless ? arguments : nullptr, nullptr, nullptr, nullptr, nullptr,
         nullptr,      false, nullptr};
  c.arguments = std::move(arguments);
  c.task_later = tool->task_support != TaskSupport::never && !tool->task_at_start;
  if (tool->async_handler) {
    c.async = std::cref(tool->async_handler);  // kept alive by c.owner
  } else {
    c.blocking = [handler = std::cref(tool->handler)](RequestContext& call) -> std::function<void()> {
      auto result = handler(call);
      return [&call, result = std::move(result)] { call.reply(result); };
    };
  }
  // Invalid arguments are a tool execution error the model can correct (MCP Tools, "Error
  // Handling"); the handler does not run.
  c.check = [](const Server& server, const std::string& tool_name, RequestContext& call) {
    auto violations = server.check_arguments(tool_name, call.arguments());
    if (violations.empty()) return true;
    ValidationResult errors;
    for (auto& v : violations)
      errors.add(std::move(v.instance_pointer), std::move(v.schema_pointer), std::move(v.message));
    call.reply(ToolResult::error(invalid_arguments_text(tool_name, errors)));
    return false;
  };
  c.shutting_down = [](RequestContext& call) { call.reply(ToolResult::error("the server is shutting down")); };
  c.owner = std::move(tool);
  return c;
}

// prompts/get and resources/read: a handler returning the result, which may elicit.
Serving::Call Serving::json_call(const char* method, std::string name, nlohmann::json arguments,
                                 nlohmann::json bound_arguments, nlohmann::json result_members,
                                 std::function<nlohmann::json(RequestContext&)> handler,
                                 AsyncJsonHandler async_handler) {
  Call c{method,
         std::move(name),
         std::move(arguments),
         std::move(bound_arguments),
         std::move(result_members),
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         nullptr};
  if (async_handler) {
    c.async = std::move(async_handler);
  } else {
    c.blocking = [handler = std::move(handler)](RequestContext& call) -> std::function<void()> {
      auto result = handler(call);
      return [&call, result = std::move(result)]() mutable { call.reply_json(std::move(result)); };
    };
  }
  c.shutting_down = [](RequestContext& call) {
    call.reply_error({error_code::internal_error, "the server is shutting down", std::nullopt});
  };
  return c;
}

std::optional<Serving::Call> Serving::resolve_prompt(const Request& r, const Responder& responder) const {
  const auto& p = r.params;
  if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
    responder.error({error_code::invalid_params, "prompts/get needs params.name", std::nullopt});
    return std::nullopt;
  }
  auto name = p["name"].get<std::string>();
  const auto found = server_->find_prompt(name);
  if (!found || (!found->handler && !found->async_handler)) {
    responder.error({error_code::invalid_params, "Unknown prompt: " + name, nlohmann::json{{"name", name}}});
    return std::nullopt;
  }
  auto arguments = p.value("arguments", nlohmann::json::object());
  if (!arguments.is_object()) {
    responder.error({error_code::invalid_params, "prompts/get arguments must be an object", std::nullopt});
    return std::nullopt;
  }
  // A prompt's requestState is bound to its arguments too (a resource's URI is its name).
  auto bound = arguments;
  return json_call("prompts/get", std::move(name), std::move(arguments), std::move(bound), nullptr, found->handler,
                   found->async_handler);
}

std::optional<Serving::Call> Serving::resolve_resource(const Request& r, const Responder& responder) const {
  const auto& p = r.params;
  if (!p.is_object() || !p.contains("uri") || !p["uri"].is_string()) {
    responder.error({error_code::invalid_params, "resources/read needs params.uri", std::nullopt});
    return std::nullopt;
  }
  auto uri = p["uri"].get<std::string>();
  std::function<nlohmann::json(RequestContext&)> handler;
  AsyncJsonHandler async_handler;
  std::map<std::string, std::string> variables;
  bool from_template = false;
  if (const auto found = server_->find_resource(uri)) {
    handler = found->handler;
    async_handler = found->async_handler;
  } else if (const auto t = server_->match_resource_template(uri, variables)) {
    handler = t->handler;
    async_handler = t->async_handler;
    from_template = true;
  }
  if (!handler && !async_handler) {
    // MCP 2026-07-28 answers an unknown resource with -32602 (Invalid Params), as for prompts.
    responder.error({error_code::invalid_params, "Resource not found: " + uri, nlohmann::json{{"uri", uri}}});
    return std::nullopt;
  }
  nlohmann::json arguments{{"uri", uri}};
  if (from_template) arguments["variables"] = variables;
  // 2026-07-28: a complete resources/read result carries caching hints.
  auto members = nlohmann::json::object();
  add_cache_hints(members, server_->list_cache());
  return json_call("resources/read", std::move(uri), std::move(arguments), nlohmann::json(), std::move(members),
                   std::move(handler), std::move(async_handler));
}

// Serves a resolved call in the request's era: a 2026-07-28 request opens its round first (and
// ends with an InputRequiredResult at the first unanswered question); a blocking handler runs on
// the pool, an asynchronous one here.
void Serving::serve_call(const Request& r, const Responder& responder, StatelessFields* fields, Call c) {
  std::shared_ptr<const StatelessCall> stateless;
  if (fields) {
    auto opened = open_stateless_call(
        server_, r.params, RequestStateBinding{c.method, c.name, std::move(c.bound_arguments), caller_.principal},
        std::move(fields->capabilities), fields->log_level, responder, rpc_, std::move(c.result_members));
    if (!opened) return;  // refused, answered
    opened->task_id = fields->task_id;
    if (c.task_later && fields->task_id.empty() && declares_tasks(opened->capabilities)) {
      // RequestContext::start_task(): the request becomes a task that replays it, answers included.
      opened->start_task = [serving = task_serving(), params = whole_params(r.params, fields), responder] {
        create_task(serving, params, responder);
      };
    }
    stateless = std::move(opened);
  }
  Caller caller{caller_.principal, caller_.access_token};
  if (!caller.access_token && options_.access_token) caller.access_token = options_.access_token->get();
  // A 2026-07-28 request's token was read with its fields (its _meta may not be in the params).
  auto call = std::make_shared<RequestContext>(
      state_, r.id, std::move(c.arguments), responder, options_.default_elicitation_timeout, stateless,
      fields ? fields->progress_token : progress_token_in(r.params), std::move(caller), server_->browser_forms());
  if (c.check && !c.check(*server_, c.name, *call)) return;
  if (c.async) {
    call->run_answering_failures([&] { c.async(call); });
    return;
  }
  const bool posted = pool_->post([gate = gate_, run = c.blocking, owner = c.owner, call, stateless] {
    if (!gate->enter()) return;  // the server is gone or going
    if (!call->cancelled()) {
      call->run_answering_failures([&] {
        auto answer = run(*call);
        // A handler that swallowed InputRequired still has questions open: they win.
        if (stateless && stateless->round->input_required()) {
          stateless->input_required();
        } else {
          answer();
        }
      });
    }
    gate->leave();
  });
  if (!posted) c.shutting_down(*call);
}

void Serving::subscription(const Request& r, const Responder& out, bool subscribe) {
  const auto uri = r.params.is_object() ? r.params.value("uri", nlohmann::json()) : nlohmann::json();
  if (!uri.is_string()) {
    out.error({error_code::invalid_params, "resources/(un)subscribe needs params.uri", std::nullopt});
    return;
  }
  const auto& u = uri.get_ref<const std::string&>();
  auto& subs = server_->subscriptions();
  if (!subscribe) {
    subs.unsubscribe(subscriber(), u);  // unsubscribing from what is not subscribed changes nothing
    out.result(nlohmann::json::object());
    return;
  }
  std::map<std::string, std::string> unused;
  if (!server_->find_resource(u) && !server_->match_resource_template(u, unused)) {
    out.error({error_code::invalid_params, "Resource not found: " + u, nlohmann::json{{"uri", u}}});
    return;
  }
  if (!subs.subscribe(subscriber(), u)) {
    out.error(
        {error_code::invalid_params,
         "Too many subscriptions: at most " + std::to_string(Subscriptions::max_uris_per_subscriber) + " per session",
         std::nullopt});
    return;
  }
  out.result(nlohmann::json::object());
}

}  // namespace elicit::detail
