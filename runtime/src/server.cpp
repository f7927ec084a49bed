#include "elicit/server.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <variant>

#include "mcp/completion_request.hpp"

namespace elicit {

ToolResult ToolResult::text(std::string text) {
  ToolResult r;
  r.content.push_back({{"type", "text"}, {"text", std::move(text)}});
  return r;
}

ToolResult ToolResult::of(std::vector<nlohmann::json> blocks) {
  ToolResult r;
  for (auto& b : blocks) r.content.push_back(std::move(b));
  return r;
}

ToolResult ToolResult::error(std::string text) {
  ToolResult r = ToolResult::text(std::move(text));
  r.is_error = true;
  return r;
}

ToolResult ToolResult::structured(nlohmann::json value) {
  ToolResult r = ToolResult::text(value.dump());
  r.structured_content = std::move(value);
  return r;
}

nlohmann::json ToolResult::to_json() const {
  nlohmann::json j{{"content", content}};
  if (is_error) j["isError"] = true;
  if (structured_content) j["structuredContent"] = *structured_content;
  return j;
}

ToolCall::ToolCall(ServerSession& session, RequestId request_id, nlohmann::json arguments, Responder responder,
                   std::optional<std::chrono::milliseconds> default_elicitation_timeout,
                   std::shared_ptr<const ModernCall> modern, const nlohmann::json& request_meta)
    : session_(session),
      request_id_(std::move(request_id)),
      arguments_(std::move(arguments)),
      responder_(std::move(responder)),
      default_timeout_(default_elicitation_timeout),
      modern_(std::move(modern)) {
  if (request_meta.is_object()) {
    const auto token = request_meta.find("progressToken");
    if (token != request_meta.end() && (token->is_string() || token->is_number_integer())) progress_token_ = *token;
  }
  // The client cancelling the call, or the session ending, cancels everything made for it.
  responder_.on_cancel([scope = scope_] { scope->cancel(); });
}

void ToolCall::on_cancel(std::function<void()> f) {
  const auto token = scope_->add(f);
  if (!token) {
    f();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  on_cancel_tokens_.push_back(*token);
}

void ToolCall::forget_cancel_callbacks() {
  std::vector<CancelScope::Token> tokens;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tokens.swap(on_cancel_tokens_);
  }
  for (const auto t : tokens) scope_->remove(t);  // they may hold this call: break the cycle
}

ElicitOptions ToolCall::elicit_options(std::optional<std::chrono::milliseconds> timeout) const {
  ElicitOptions o;
  o.timeout = timeout ? timeout : default_timeout_;
  o.related_request = request_id_;
  o.cancel_scope = scope_;
  return o;
}

MissingClientCapability::MissingClientCapability(nlohmann::json required)
    : std::runtime_error("the client did not declare a capability this request needs: " + required.dump()),
      required_(std::move(required)) {}

namespace {

// Does `have` (a ClientCapabilities object) declare everything `need` names? Objects nest; a
// member present as an object counts as declared.
bool declares(const nlohmann::json& have, const nlohmann::json& need) {
  if (!need.is_object()) return true;
  if (!have.is_object()) return false;
  for (auto it = need.begin(); it != need.end(); ++it) {
    const auto h = have.find(it.key());
    if (h == have.end() || h->is_null()) return false;
    if (it->is_object() && !it->empty() && !declares(*h, *it)) return false;
  }
  return true;
}

// The capability a request for the client needs, as a ClientCapabilities object.
nlohmann::json capability_for(const std::string& method, const nlohmann::ordered_json& params) {
  if (method == "sampling/createMessage") return {{"sampling", nlohmann::json::object()}};
  if (method == "roots/list") return {{"roots", nlohmann::json::object()}};
  if (method == "elicitation/create") {
    const auto mode = params.is_object() ? params.value("mode", std::string("form")) : std::string("form");
    return {{"elicitation", {{mode == "url" ? "url" : "form", nlohmann::json::object()}}}};
  }
  return nlohmann::json::object();
}

bool client_declares(const ClientCapabilities& caps, const nlohmann::json& need) {
  // `elicitation: {}` declares form mode (ClientCapabilities::from_json reads it so).
  if (const auto e = need.find("elicitation"); e != need.end()) {
    if (e->contains("form") && !caps.elicitation_form) return false;
    if (e->contains("url") && !caps.elicitation_url) return false;
    if (!caps.elicitation_form && !caps.elicitation_url) return false;
    auto rest = need;
    rest.erase("elicitation");
    return declares(caps.raw, rest);
  }
  return declares(caps.raw, need);
}

}  // namespace

void ToolCall::require_client_capabilities(const nlohmann::json& required) const {
  if (!client_declares(client_capabilities(), required)) throw MissingClientCapability(required);
}

std::vector<RequestOutcome> ToolCall::request_inputs(std::vector<InputRequest> requests) {
  for (const auto& r : requests) require_client_capabilities(capability_for(r.method, r.params));
  std::vector<RequestOutcome> out(requests.size());
  if (modern_) {
    bool missing = false;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      auto& r = requests[i];
      const auto prefix = r.method == "sampling/createMessage" ? "sampling"
                          : r.method == "roots/list"           ? "roots"
                                                               : "elicitation";
      const auto key = r.key.empty() ? next_key(prefix) : r.key;
      nlohmann::ordered_json request{{"method", r.method}, {"params", std::move(r.params)}};
      if (auto answer = modern_->round->answer(key, request)) {
        out[i].result = std::move(*answer);
      } else {
        missing = true;
      }
    }
    if (missing) throw InputRequired{};
    return out;
  }
  detail::require_blocking_allowed("request_inputs()", "Session::send_request()");
  std::vector<std::shared_ptr<std::promise<RequestOutcome>>> promises;
  CallOptions options;
  options.timeout = default_timeout_;
  options.context.related_request = request_id_;
  for (auto& r : requests) {
    auto p = std::make_shared<std::promise<RequestOutcome>>();
    promises.push_back(p);
    session_.rpc().send_request(
        r.method, std::move(r.params), [p](RequestOutcome o) { p->set_value(std::move(o)); }, options);
  }
  for (std::size_t i = 0; i < promises.size(); ++i) out[i] = promises[i]->get_future().get();
  return out;
}

std::optional<UrlOutcome> ToolCall::replay_url(std::string_view message, std::string_view url) {
  if (const auto problem = check_elicitation_url(url); !problem.empty()) throw std::invalid_argument(problem);
  if (!modern_->capabilities.elicitation_url)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
  // 2026-07-28: no elicitationId; the retry says how it went.
  nlohmann::ordered_json request{
      {"method", "elicitation/create"},
      {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", std::string(url)}}}};
  auto answer = modern_->round->answer(next_key(), request);
  if (!answer) return std::nullopt;
  const auto r = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
  UrlOutcome out;
  out.status = r.status;
  out.problem = r.problem;
  out.result = r.result;
  return out;
}

UrlOutcome ToolCall::elicit_url(std::string_view message, std::string_view url,
                                std::optional<std::chrono::milliseconds> timeout) {
  if (modern_) {
    auto out = replay_url(message, url);
    if (!out) throw InputRequired{};
    return std::move(*out);
  }
  return ::elicit::elicit_url(session_, message, url, elicit_options(timeout));
}

std::optional<RequestId> ToolCall::elicit_url_async(std::string_view message, std::string_view url,
                                                    std::function<void(UrlOutcome)> on_done,
                                                    std::optional<std::chrono::milliseconds> timeout) {
  if (modern_) {
    auto out = replay_url(message, url);
    if (!out) {
      modern_->input_required();
    } else {
      guarded(std::move(on_done))(std::move(*out));
    }
    return std::nullopt;
  }
  return ::elicit::elicit_url_async(session_, message, url, guarded(std::move(on_done)), elicit_options(timeout));
}

std::string ToolCall::interaction_id(const std::string& name) {
  if (modern_) return modern_->round->interaction_id(name);
  std::lock_guard<std::mutex> lock(mutex_);
  auto& id = interaction_ids_[name];
  if (id.empty()) id = new_elicitation_id();
  return id;
}

UrlOutcome ToolCall::elicit_url_completed(std::string_view message, std::string_view url, const std::string& id,
                                          CompletionStore& store, std::optional<std::chrono::milliseconds> timeout) {
  if (!modern_) return elicit_url(message, url, timeout);
  const auto key = next_key();
  nlohmann::ordered_json original{
      {"method", "elicitation/create"},
      {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", std::string(url)}}}};
  if (const auto problem = check_elicitation_url(url); !problem.empty()) throw std::invalid_argument(problem);
  if (!modern_->capabilities.elicitation_url)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
  auto answer = modern_->round->answer(key, original);
  if (!answer) throw InputRequired{};
  const auto r = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
  UrlOutcome out;
  out.status = r.status;
  out.problem = r.problem;
  out.result = r.result;
  if (r.status != ElicitStatus::accepted) return out;
  detail::require_blocking_allowed("elicit_url_completed()", "a blocking tool handler");
  auto done = std::make_shared<std::promise<CompletionState>>();
  auto future = done->get_future();
  store.lookup(id, [done](CompletionState s) { done->set_value(s); });
  switch (future.get()) {
    case CompletionState::complete:
      out.elicitation_id = id;
      return out;
    case CompletionState::pending: {
      auto again = original;
      again["params"]["message"] = std::string(message) +
                                   "\n\nThis has not been completed yet: open the link, finish there, then "
                                   "continue.";
      modern_->round->ask_again(key, std::move(again), original);
      throw InputRequired{};
    }
    case CompletionState::unavailable:
      break;
  }
  throw std::runtime_error("cannot tell whether the interaction was completed: the completion store is unavailable");
}

void ToolCall::reply_json(nlohmann::json result) {
  if (modern_ && modern_->result_members.is_object() && result.is_object()) {
    for (const auto& [k, v] : modern_->result_members.items()) result[k] = v;
  }
  if (modern_) stamp_modern_result(result, modern_->server_info);
  responder_.result(std::move(result));
  forget_cancel_callbacks();
}

ClientCapabilities ToolCall::client_capabilities() const {
  return modern_ ? modern_->capabilities : session_.client_capabilities();
}

void ToolCall::reply(const ToolResult& result) {
  auto j = result.to_json();
  if (modern_) stamp_modern_result(j, modern_->server_info);
  responder_.result(std::move(j));
  forget_cancel_callbacks();
}

std::optional<ElicitResponse> ToolCall::replay_form(const std::string& key, std::string_view message,
                                                    const nlohmann::ordered_json& schema) {
  // MRTR: a server must not ask what the client did not declare; the request needs it: -32021.
  if (!modern_->capabilities.elicitation_form)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"form", nlohmann::json::object()}}}});
  nlohmann::ordered_json request{
      {"method", "elicitation/create"},
      {"params", {{"mode", "form"}, {"message", std::string(message)}, {"requestedSchema", schema}}}};
  auto answer = modern_->round->answer(key, request);
  if (!answer) return std::nullopt;
  return read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
}

void ToolCall::ask_form_again(const std::string& key, std::string_view message, const nlohmann::ordered_json& schema,
                              const std::string& reason) {
  nlohmann::ordered_json original{
      {"method", "elicitation/create"},
      {"params", {{"mode", "form"}, {"message", std::string(message)}, {"requestedSchema", schema}}}};
  auto again = original;
  again["params"]["message"] = std::string(message) + "\n\nThe previous answer was not accepted: " + reason;
  modern_->round->ask_again(key, std::move(again), original);
}

std::string ToolCall::why_invalid(const std::string& problem, const ValidationResult& errors) {
  if (errors.ok()) return problem;
  std::string out;
  for (const auto& e : errors.errors) {
    if (!out.empty()) out += "; ";
    out += (e.pointer.empty() ? std::string("the form") : e.pointer.substr(1)) + ": " + e.message;
  }
  return out;
}

void ToolCall::reply_error(RpcError error) {
  responder_.error(std::move(error));
  forget_cancel_callbacks();
}

void ToolCall::run_answering_failures(Session& session, const Responder& responder, const ModernCall* modern,
                                      const std::function<void()>& f) {
  try {
    f();
  } catch (const InputRequired&) {
    if (modern) modern->input_required();
  } catch (const MissingClientCapability& e) {
    responder.error(e.to_error());
  } catch (const UrlElicitationRequired& e) {
    responder.error(e.to_error());
  } catch (const std::exception& e) {
    session.log(std::string("a tool's elicitation callback threw: ") + e.what());
    responder.result(ToolResult::error(e.what()).to_json());
  } catch (...) {
    session.log("a tool's elicitation callback threw");
    responder.result(ToolResult::error("the tool failed").to_json());
  }
}

namespace {

// Keeps a server's jobs on a (possibly shared) pool from touching it once it is gone: jobs that start
// after close() skip their handler, and the server waits for the running ones.
struct JobGate {
  std::mutex mutex;
  std::condition_variable cv;
  bool closed = false;
  int running = 0;

  bool enter() {
    std::lock_guard<std::mutex> lock(mutex);
    if (closed) return false;
    ++running;
    return true;
  }
  void leave() {
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    cv.notify_all();
  }
  void close_and_wait() {
    std::unique_lock<std::mutex> lock(mutex);
    closed = true;
    cv.wait(lock, [&] { return running == 0; });
  }
};

// Runs a tool handler and maps what it throws: UrlElicitationRequired becomes a -32042 error,
// anything else a tool error result (MCP reports tool failures in the result, not as JSON-RPC errors).
template <class F>
void run_guarded(ToolCall& call, const ModernCall* modern, F&& handler) {
  try {
    handler();
  } catch (const InputRequired&) {
    if (modern) modern->input_required();
  } catch (const MissingClientCapability& e) {
    call.reply_error(e.to_error());
  } catch (const UrlElicitationRequired& e) {
    call.reply_error(e.to_error());
  } catch (const std::exception& e) {
    call.reply(ToolResult::error(e.what()));
  } catch (...) {
    call.reply(ToolResult::error("the tool failed"));
  }
}

}  // namespace

// --- ServerCore ---------------------------------------------------------------------------------

ServerCore::ServerCore(ServerInfo info, RequestStateOptions request_state, CacheHints list_cache)
    : info_(std::move(info)), sealer_(std::move(request_state)), list_cache_(list_cache) {
  info_json_ = {{"name", info_.name}, {"version", info_.version}};
  if (info_.title) info_json_["title"] = *info_.title;
}

void ServerCore::add_tool(Tool tool) {
  if (!tool.handler && !tool.async_handler) throw std::invalid_argument("tool " + tool.name + " has no handler");
  const auto key = tool.name;
  tools_.add(key, std::move(tool), "tool");
}

void ServerCore::add_prompt(Prompt prompt) {
  if (!prompt.handler && !prompt.async_handler)
    throw std::invalid_argument("prompt " + prompt.name + " has no handler");
  for (const auto& a : prompt.arguments) completions_ = completions_ || a.complete;
  const auto key = prompt.name;
  prompts_.add(key, std::move(prompt), "prompt");
}

void ServerCore::add_resource(Resource resource) {
  if (!resource.handler && !resource.async_handler)
    throw std::invalid_argument("resource " + resource.uri + " has no handler");
  const auto key = resource.uri;
  resources_.add(key, std::move(resource), "resource");
}

void ServerCore::add_resource_template(ResourceTemplate t) {
  if (!t.handler && !t.async_handler)
    throw std::invalid_argument("resource template " + t.uri_template + " has no handler");
  UriTemplate matcher(t.uri_template);  // throws for a template it cannot match
  for (const auto& [variable, completer] : t.completions) {
    const auto& vars = matcher.variables();
    if (std::find(vars.begin(), vars.end(), variable) == vars.end())
      throw std::invalid_argument("resource template " + t.uri_template + " has no variable " + variable +
                                  " to complete");
    completions_ = completions_ || completer;
  }
  const auto key = t.uri_template;
  const auto& added = templates_.add(key, std::move(t), "resource template");
  template_matchers_.emplace_back(std::move(matcher), &added);
}

const Tool* ServerCore::find_tool(std::string_view name) const { return tools_.find(name); }
const Prompt* ServerCore::find_prompt(std::string_view name) const { return prompts_.find(name); }
const Resource* ServerCore::find_resource(std::string_view uri) const { return resources_.find(uri); }
const ResourceTemplate* ServerCore::find_resource_template(std::string_view uri_template) const {
  return templates_.find(uri_template);
}

const ResourceTemplate* ServerCore::match_resource_template(std::string_view uri,
                                                            std::map<std::string, std::string>& variables) const {
  for (const auto& [matcher, t] : template_matchers_) {
    if (auto found = matcher.match(uri)) {
      variables = std::move(*found);
      return t;
    }
  }
  return nullptr;
}

nlohmann::json ServerCore::list_tools() const {
  nlohmann::json list = nlohmann::json::array();
  tools_.for_each([&](const Tool& t) {
    nlohmann::json j{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
    if (t.title) j["title"] = *t.title;
    if (t.output_schema) j["outputSchema"] = *t.output_schema;
    list.push_back(std::move(j));
  });
  return {{"tools", list}};
}

nlohmann::json ServerCore::list_prompts() const {
  nlohmann::json list = nlohmann::json::array();
  prompts_.for_each([&](const Prompt& p) {
    nlohmann::json j{{"name", p.name}, {"description", p.description}};
    if (p.title) j["title"] = *p.title;
    if (!p.arguments.empty()) {
      auto& args = j["arguments"] = nlohmann::json::array();
      for (const auto& a : p.arguments)
        args.push_back({{"name", a.name}, {"description", a.description}, {"required", a.required}});
    }
    list.push_back(std::move(j));
  });
  return {{"prompts", list}};
}

nlohmann::json ServerCore::list_resources() const {
  nlohmann::json list = nlohmann::json::array();
  resources_.for_each([&](const Resource& r) {
    nlohmann::json j{{"uri", r.uri}, {"name", r.name}, {"description", r.description}};
    if (r.mime_type) j["mimeType"] = *r.mime_type;
    list.push_back(std::move(j));
  });
  return {{"resources", list}};
}

nlohmann::json ServerCore::list_resource_templates() const {
  nlohmann::json list = nlohmann::json::array();
  templates_.for_each([&](const ResourceTemplate& t) {
    nlohmann::json j{{"uriTemplate", t.uri_template}, {"name", t.name}, {"description", t.description}};
    if (t.mime_type) j["mimeType"] = *t.mime_type;
    if (t.title) j["title"] = *t.title;
    list.push_back(std::move(j));
  });
  return {{"resourceTemplates", list}};
}

nlohmann::json ServerCore::capabilities(bool modern) const {
  // logging: ToolCall::log() (logging/setLevel in a legacy session, logLevel per modern request).
  nlohmann::json caps{{"tools", {{"listChanged", false}}}, {"logging", nlohmann::json::object()}};
  if (!prompts_.empty()) caps["prompts"] = {{"listChanged", false}};
  // subscribe: resources/subscribe in legacy sessions (notify_resource_updated).
  if (!resources_.empty() || !templates_.empty()) caps["resources"] = {{"subscribe", !modern}, {"listChanged", false}};
  if (completions_) caps["completions"] = nlohmann::json::object();
  return caps;
}

namespace {

void add_cache_hints(nlohmann::json& result, const CacheHints& hints) {
  result["ttlMs"] = hints.ttl.count() < 0 ? 0 : hints.ttl.count();
  result["cacheScope"] = hints.shared ? "public" : "private";
}

// The request's params._meta, or null.
const nlohmann::json& meta_of_params(const nlohmann::json& params) {
  static const nlohmann::json none;
  if (!params.is_object()) return none;
  const auto it = params.find("_meta");
  return it == params.end() ? none : *it;
}

// MCP 2026-07-28, MRTR, "Server Requirements": the state answers nothing more than this.
RpcError invalid_request_state() {
  return {error_code::invalid_params, "Invalid or expired requestState", std::nullopt};
}

}  // namespace

// --- Server -------------------------------------------------------------------------------------

struct Server::Impl {
  Impl(Transport& t, std::shared_ptr<ServerCore> c, ServerOptions o)
      : core(std::move(c)),
        options(std::move(o)),
        session(t, options.session),
        pool(options.workers ? options.workers : std::make_shared<WorkerPool>(options.worker_threads)) {}

  std::shared_ptr<ServerCore> core;
  ServerOptions options;
  Session session;
  ServerSession mcp{session};  // the MCP state of a legacy session: client capabilities, URL-mode ids
  std::shared_ptr<JobGate> gate = std::make_shared<JobGate>();
  std::shared_ptr<WorkerPool> pool;
  std::atomic<bool> initialized{false};
  // This session's resources/subscribe memberships (legacy only); detached by ~Server.
  std::shared_ptr<ResourceSubscriptions::Subscriber> subscriber = core->subscriptions().attach(session);

  // Serves `r` in its era: a legacy session once initialize was received; else modern when its
  // _meta says so (or the error that refuses it); else legacy.
  template <class Legacy, class Modern>
  void by_era(const Request& r, const Responder& out, Legacy&& legacy, Modern&& modern) {
    if (initialized) {
      legacy();
      return;
    }
    auto era = read_request_era(r.params);
    if (era.error) {
      out.error(std::move(*era.error));
    } else if (era.modern) {
      modern(*era.modern);
    } else {
      legacy();
    }
  }

  void reply_modern(const Responder& out, nlohmann::json result) const {
    stamp_modern_result(result, core->info_json());
    out.result(std::move(result));
  }

  void initialize(const Request& r, const Responder& out) {
    if (initialized.exchange(true)) {
      // MCP 2025-11-25, Lifecycle: initialization happens once per session.
      out.error({error_code::invalid_request, "Invalid Request: already initialized", std::nullopt});
      return;
    }
    out.result(initialize_result(r));
  }

  nlohmann::json initialize_result(const Request& r) {
    const auto& p = r.params.is_object() ? r.params : nlohmann::json::object();
    mcp.set_client_capabilities(ClientCapabilities::from_json(p.value("capabilities", nlohmann::json::object())));
    // Version negotiation: answer with the client's version when we speak it, else our newest.
    std::string version = supported_protocol_versions().front();
    if (const auto v = p.find("protocolVersion"); v != p.end() && v->is_string()) {
      for (const auto& s : supported_protocol_versions()) {
        if (s == *v) version = s;
      }
    }
    nlohmann::json result{
        {"protocolVersion", version}, {"capabilities", core->capabilities()}, {"serverInfo", core->info_json()}};
    if (core->info().instructions) result["instructions"] = *core->info().instructions;
    return result;
  }

  // MCP 2026-07-28, Server, "Discovery".
  void discover(const Responder& out) const {
    nlohmann::json result{{"supportedVersions", all_protocol_versions()}, {"capabilities", core->capabilities(true)}};
    if (core->info().instructions) result["instructions"] = *core->info().instructions;
    add_cache_hints(result, core->list_cache());
    reply_modern(out, std::move(result));
  }

  void call_tool(const Request& r, Responder responder, const ModernRequest* modern_request) {
    const auto& p = r.params;
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
      responder.error({error_code::invalid_params, "tools/call needs params.name", std::nullopt});
      return;
    }
    const auto name = p["name"].get<std::string>();
    const Tool* tool = core->find_tool(name);
    if (!tool) {
      responder.error({error_code::invalid_params, "Unknown tool: " + name, std::nullopt});
      return;
    }
    auto arguments = p.value("arguments", nlohmann::json::object());
    if (!arguments.is_object()) {
      responder.error({error_code::invalid_params, "tools/call arguments must be an object", std::nullopt});
      return;
    }
    std::shared_ptr<const ModernCall> modern;
    if (modern_request) {
      if (auto e = check_input_responses(p)) {
        responder.error(std::move(*e));
        return;
      }
      modern = modern_call(p, RequestStateBinding{"tools/call", name, arguments, options.principal}, *modern_request,
                           responder);
      if (!modern) return;  // refused
    }
    auto call = std::make_shared<ToolCall>(mcp, r.id, std::move(arguments), responder,
                                           options.default_elicitation_timeout, modern, meta_of_params(p));
    if (tool->async_handler) {
      run_guarded(*call, modern.get(), [&] { tool->async_handler(call); });
      return;
    }
    const bool posted = pool->post([gate = gate, handler = tool->handler, call, modern] {
      if (!gate->enter()) return;  // the server is gone or going
      if (!call->cancelled()) {
        run_guarded(*call, modern.get(), [&] {
          auto result = handler(*call);
          // A handler that swallowed InputRequired still has questions open: they win.
          if (modern && modern->round->input_required()) {
            modern->input_required();
          } else {
            call->reply(result);
          }
        });
      }
      gate->leave();
    });
    if (!posted) call->reply(ToolResult::error("the server is shutting down"));
  }

  // prompts/get and resources/read: a blocking handler returning the result, which may elicit.
  void call_json(const Request& r, Responder responder, const ModernRequest* modern_request, bool prompt) {
    const auto& p = r.params;
    const char* member = prompt ? "name" : "uri";
    if (!p.is_object() || !p.contains(member) || !p[member].is_string()) {
      responder.error({error_code::invalid_params,
                       std::string(prompt ? "prompts/get" : "resources/read") + " needs params." + member,
                       std::nullopt});
      return;
    }
    const auto name = p[member].get<std::string>();
    std::function<nlohmann::json(ToolCall&)> handler;
    AsyncJsonHandler async_handler;
    std::map<std::string, std::string> variables;
    bool from_template = false;
    if (prompt) {
      if (const auto* found = core->find_prompt(name)) {
        handler = found->handler;
        async_handler = found->async_handler;
      }
    } else if (const auto* found = core->find_resource(name)) {
      handler = found->handler;
      async_handler = found->async_handler;
    } else if (const auto* t = core->match_resource_template(name, variables)) {
      handler = t->handler;
      async_handler = t->async_handler;
      from_template = true;
    }
    if (!handler && !async_handler) {
      // MCP 2026-07-28 answers an unknown resource with -32602 (Invalid Params), as for prompts.
      responder.error({error_code::invalid_params, (prompt ? "Unknown prompt: " : "Resource not found: ") + name,
                       nlohmann::json{{member, name}}});
      return;
    }
    auto arguments = prompt ? p.value("arguments", nlohmann::json::object()) : nlohmann::json{{"uri", name}};
    if (from_template) arguments["variables"] = variables;
    if (!arguments.is_object()) {
      responder.error({error_code::invalid_params, "prompts/get arguments must be an object", std::nullopt});
      return;
    }
    std::shared_ptr<const ModernCall> modern;
    if (modern_request) {
      if (auto e = check_input_responses(p)) {
        responder.error(std::move(*e));
        return;
      }
      modern = modern_call(p,
                           RequestStateBinding{prompt ? "prompts/get" : "resources/read", name,
                                               prompt ? arguments : nlohmann::json(), options.principal},
                           *modern_request, responder, prompt ? nlohmann::json() : resource_result_members());
      if (!modern) return;
    }
    auto call = std::make_shared<ToolCall>(mcp, r.id, std::move(arguments), responder,
                                           options.default_elicitation_timeout, modern, meta_of_params(p));
    if (async_handler) {
      run_guarded(*call, modern.get(), [&] { async_handler(call); });
      return;
    }
    const bool posted = pool->post([gate = gate, handler, call, modern] {
      if (!gate->enter()) return;
      if (!call->cancelled()) {
        run_guarded(*call, modern.get(), [&] {
          auto result = handler(*call);
          if (modern && modern->round->input_required()) {
            modern->input_required();
          } else {
            call->reply_json(std::move(result));
          }
        });
      }
      gate->leave();
    });
    if (!posted) call->reply_error({error_code::internal_error, "the server is shutting down", std::nullopt});
  }

  void subscription(const Request& r, const Responder& out, bool subscribe) {
    const auto uri = r.params.is_object() ? r.params.value("uri", nlohmann::json()) : nlohmann::json();
    if (!uri.is_string()) {
      out.error({error_code::invalid_params, "resources/(un)subscribe needs params.uri", std::nullopt});
      return;
    }
    const auto& u = uri.get_ref<const std::string&>();
    auto& subs = core->subscriptions();
    if (!subscribe) {
      subs.unsubscribe(subscriber, u);  // unsubscribing from what is not subscribed changes nothing
      out.result(nlohmann::json::object());
      return;
    }
    std::map<std::string, std::string> unused;
    if (!core->find_resource(u) && !core->match_resource_template(u, unused)) {
      out.error({error_code::invalid_params, "Resource not found: " + u, nlohmann::json{{"uri", u}}});
      return;
    }
    if (!subs.subscribe(subscriber, u)) {
      out.error(
          {error_code::invalid_params,
           "Too many subscriptions: at most " + std::to_string(ResourceSubscriptions::max_per_session) + " per session",
           std::nullopt});
      return;
    }
    out.result(nlohmann::json::object());
  }

  // The run context of a modern request: its InputRound (from the opened requestState and
  // inputResponses) and how to answer an InputRequiredResult. Null after answering -32602 for a
  // requestState that does not open.
  // 2026-07-28: a complete resources/read result carries caching hints.
  nlohmann::json resource_result_members() const {
    nlohmann::json members = nlohmann::json::object();
    add_cache_hints(members, core->list_cache());
    return members;
  }

  std::shared_ptr<const ModernCall> modern_call(const nlohmann::json& params, RequestStateBinding binding,
                                                const ModernRequest& request, const Responder& responder,
                                                nlohmann::json result_members = nullptr) {
    nlohmann::json carried;
    if (const auto s = params.find("requestState"); s != params.end()) {
      auto opened = core->sealer().open(s->get_ref<const std::string&>(), binding);
      if (!opened) {
        responder.error(invalid_request_state());
        return nullptr;
      }
      carried = std::move(*opened);
    }
    auto m = std::make_shared<ModernCall>();
    m->round = std::make_shared<InputRound>(carried, params.value("inputResponses", nlohmann::json()));
    m->capabilities = request.capabilities;
    m->log_level = request.log_level;
    m->server_info = core->info_json();
    m->result_members = std::move(result_members);
    std::weak_ptr<InputRound> weak_round = m->round;
    m->input_required = [core = core, responder, weak_round, binding = std::move(binding), log = &session] {
      const auto round = weak_round.lock();
      if (!round) return;
      nlohmann::ordered_json result{{"resultType", "input_required"}, {"inputRequests", round->input_requests()}};
      try {
        result["requestState"] = core->sealer().seal(round->state(), binding);
      } catch (const std::exception& e) {
        log->log(std::string("cannot seal requestState: ") + e.what());
        auto error = ToolResult::error("the answers gathered so far are too large to carry").to_json();
        stamp_modern_result(error, core->info_json());
        responder.result(std::move(error));
        return;
      }
      result["_meta"] = {{std::string(meta_key::server_info), core->info_json()}};
      responder.result_ordered(std::move(result));
    };
    return m;
  }
};

Server::Server(Transport& transport, ServerInfo info, ServerOptions options) {
  auto core = std::make_shared<ServerCore>(std::move(info), options.request_state);
  init(transport, std::move(core), std::move(options));
}

Server::Server(Transport& transport, std::shared_ptr<ServerCore> core, ServerOptions options) {
  init(transport, std::move(core), std::move(options));
}

void Server::init(Transport& transport, std::shared_ptr<ServerCore> core, ServerOptions options) {
  if (!core) throw std::invalid_argument("Server needs a ServerCore");
  impl_ = std::make_unique<Impl>(transport, std::move(core), std::move(options));
  auto* impl = impl_.get();
  auto& s = impl_->session;
  s.on_request("initialize", [impl](const Request& r, Responder out) { impl->initialize(r, out); });
  s.on_request("ping", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out, [&] { out.result(nlohmann::json::object()); },
        [&](const ModernRequest&) { impl->reply_modern(out, nlohmann::json::object()); });
  });
  s.on_request("server/discover", [impl](const Request& r, Responder out) {
    // Modern only; a legacy session knows no such method.
    impl->by_era(
        r, out,
        [&] {
          out.error({error_code::method_not_found, "Method not found: server/discover", std::nullopt});
        },
        [&](const ModernRequest&) { impl->discover(out); });
  });
  // A list: the same in both eras; modern results carry caching hints.
  // A feature the server does not offer (no prompt, no resource added) is not a method of it:
  // -32601, as its capabilities say (2026-07-28 discover checks the two agree).
  const auto offered = [impl](const char* capability, const Responder& out, const char* method) {
    if (impl->core->capabilities().contains(capability)) return true;
    out.error({error_code::method_not_found, std::string("Method not found: ") + method, std::nullopt});
    return false;
  };
  // A list: the same in both eras; modern results carry caching hints.
  const auto on_list = [&s, impl, offered](const char* method, const char* capability,
                                           nlohmann::json (ServerCore::*list)() const) {
    s.on_request(method, [impl, offered, method, capability, list](const Request& r, Responder out) {
      impl->by_era(
          r, out,
          [&] {
            if (offered(capability, out, method)) out.result((impl->core.get()->*list)());
          },
          [&](const ModernRequest&) {
            if (!offered(capability, out, method)) return;
            auto result = (impl->core.get()->*list)();
            add_cache_hints(result, impl->core->list_cache());
            impl->reply_modern(out, std::move(result));
          });
    });
  };
  on_list("tools/list", "tools", &ServerCore::list_tools);
  on_list("prompts/list", "prompts", &ServerCore::list_prompts);
  on_list("resources/list", "resources", &ServerCore::list_resources);
  on_list("resources/templates/list", "resources", &ServerCore::list_resource_templates);
  s.on_request("completion/complete", [impl, offered](const Request& r, Responder out) {
    if (!offered("completions", out, "completion/complete")) return;
    auto answer = answer_completion(*impl->core, r.params,
                                    [impl](std::string_view line) { impl->session.log(std::string(line)); });
    if (auto* error = std::get_if<RpcError>(&answer)) {
      out.error(std::move(*error));
      return;
    }
    auto& result = std::get<nlohmann::json>(answer);
    impl->by_era(
        r, out, [&] { out.result(std::move(result)); },
        [&](const ModernRequest&) { impl->reply_modern(out, std::move(result)); });
  });
  // MCP 2025-11-25, Resources, "Subscriptions": legacy sessions only (2026-07-28 has none).
  for (const bool subscribe : {true, false}) {
    const char* method = subscribe ? "resources/subscribe" : "resources/unsubscribe";
    s.on_request(method, [impl, offered, subscribe, method](const Request& r, Responder out) {
      if (!offered("resources", out, method)) return;
      impl->by_era(
          r, out, [&] { impl->subscription(r, out, subscribe); },
          [&](const ModernRequest&) {
            out.error({error_code::method_not_found,
                       std::string("Method not found: ") + method + " (not in MCP 2026-07-28)", std::nullopt});
          });
    });
  }
  for (const bool prompt : {true, false}) {
    const char* method = prompt ? "prompts/get" : "resources/read";
    s.on_request(method, [impl, offered, prompt, method](const Request& r, Responder out) {
      if (!offered(prompt ? "prompts" : "resources", out, method)) return;
      impl->by_era(
          r, out, [&] { impl->call_json(r, out, nullptr, prompt); },
          [&](const ModernRequest& m) { impl->call_json(r, out, &m, prompt); });
    });
  }
  s.on_request("tools/call", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out, [&] { impl->call_tool(r, out, nullptr); },
        [&](const ModernRequest& m) { impl->call_tool(r, out, &m); });
  });
  // MCP 2025-11-25, Logging: the least severe level the client wants; gone in 2026-07-28 (the
  // level is per request there).
  s.on_request("logging/setLevel", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out,
        [&] {
          const auto level =
              r.params.is_object() ? parse_logging_level(r.params.value("level", nlohmann::json())) : std::nullopt;
          if (!level) {
            out.error({error_code::invalid_params,
                       "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, "
                       "emergency",
                       std::nullopt});
            return;
          }
          impl->mcp.set_log_level(*level);
          out.result(nlohmann::json::object());
        },
        [&](const ModernRequest&) {
          out.error({error_code::method_not_found,
                     "Method not found: logging/setLevel (not in MCP 2026-07-28: set _meta "
                     "io.modelcontextprotocol/logLevel per request)",
                     std::nullopt});
        });
  });
  s.on_notification("notifications/initialized", [](const Notification&) {});
}

Server::~Server() {
  close();
  impl_->core->subscriptions().detach(impl_->subscriber);
  impl_->session.wait_closed();
  impl_->gate->close_and_wait();  // a shared pool may still hold jobs of ours
}

void Server::add_tool(Tool tool) { impl_->core->add_tool(std::move(tool)); }
void Server::add_prompt(Prompt prompt) { impl_->core->add_prompt(std::move(prompt)); }
void Server::add_resource(Resource resource) { impl_->core->add_resource(std::move(resource)); }
void Server::add_resource_template(ResourceTemplate resource_template) {
  impl_->core->add_resource_template(std::move(resource_template));
}

ServerSession& Server::session() noexcept { return impl_->mcp; }
const std::shared_ptr<ServerCore>& Server::core() const noexcept { return impl_->core; }
void Server::start() { impl_->session.start(); }
void Server::wait() { impl_->session.wait_closed(); }
void Server::close() { impl_->session.close(); }

}  // namespace elicit
