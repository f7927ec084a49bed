#include "elicit/server.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>

namespace elicit {

ToolResult ToolResult::text(std::string text) {
  ToolResult r;
  r.content.push_back({{"type", "text"}, {"text", std::move(text)}});
  return r;
}

ToolResult ToolResult::error(std::string text) {
  ToolResult r = ToolResult::text(std::move(text));
  r.is_error = true;
  return r;
}

nlohmann::json ToolResult::to_json() const {
  nlohmann::json j{{"content", content}};
  if (is_error) j["isError"] = true;
  if (structured_content) j["structuredContent"] = *structured_content;
  return j;
}

ToolCall::ToolCall(Session& session, RequestId request_id, nlohmann::json arguments, Responder responder,
                   std::optional<std::chrono::milliseconds> default_elicitation_timeout,
                   std::shared_ptr<const ModernCall> modern)
    : session_(session),
      request_id_(std::move(request_id)),
      arguments_(std::move(arguments)),
      responder_(std::move(responder)),
      default_timeout_(default_elicitation_timeout),
      modern_(std::move(modern)) {
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
  if (!modern_->capabilities.elicitation_form) {
    // MRTR: a server must not ask what the client did not declare.
    ElicitResponse r;
    r.status = ElicitStatus::unsupported;
    return r;
  }
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
  if (tools_.count(tool.name)) throw std::invalid_argument("duplicate tool " + tool.name);
  tool_order_.push_back(tool.name);
  tools_.emplace(tool.name, std::move(tool));
}

const Tool* ServerCore::find_tool(std::string_view name) const {
  const auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

nlohmann::json ServerCore::list_tools() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& name : tool_order_) {
    const auto& t = tools_.at(name);
    nlohmann::json j{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
    if (t.title) j["title"] = *t.title;
    list.push_back(std::move(j));
  }
  return {{"tools", list}};
}

nlohmann::json ServerCore::capabilities() const { return {{"tools", {{"listChanged", false}}}}; }

namespace {

void add_cache_hints(nlohmann::json& result, const CacheHints& hints) {
  result["ttlMs"] = hints.ttl.count() < 0 ? 0 : hints.ttl.count();
  result["cacheScope"] = hints.shared ? "public" : "private";
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
  std::shared_ptr<JobGate> gate = std::make_shared<JobGate>();
  std::shared_ptr<WorkerPool> pool;
  std::atomic<bool> initialized{false};

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
    session.set_client_capabilities(ClientCapabilities::from_json(p.value("capabilities", nlohmann::json::object())));
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
    nlohmann::json result{{"supportedVersions", all_protocol_versions()}, {"capabilities", core->capabilities()}};
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
      modern = modern_call(p, RequestStateBinding{"tools/call", name, arguments, ""}, *modern_request, responder);
      if (!modern) return;  // refused
    }
    auto call = std::make_shared<ToolCall>(session, r.id, std::move(arguments), responder,
                                           options.default_elicitation_timeout, modern);
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

  // The run context of a modern request: its InputRound (from the opened requestState and
  // inputResponses) and how to answer an InputRequiredResult. Null after answering -32602 for a
  // requestState that does not open.
  std::shared_ptr<const ModernCall> modern_call(const nlohmann::json& params, RequestStateBinding binding,
                                                const ModernRequest& request, const Responder& responder) {
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
    m->server_info = core->info_json();
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
  s.on_request("tools/list", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out, [&] { out.result(impl->core->list_tools()); },
        [&](const ModernRequest&) {
          auto result = impl->core->list_tools();
          add_cache_hints(result, impl->core->list_cache());
          impl->reply_modern(out, std::move(result));
        });
  });
  s.on_request("tools/call", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out, [&] { impl->call_tool(r, out, nullptr); },
        [&](const ModernRequest& m) { impl->call_tool(r, out, &m); });
  });
  s.on_notification("notifications/initialized", [](const Notification&) {});
}

Server::~Server() {
  close();
  impl_->session.wait_closed();
  impl_->gate->close_and_wait();  // a shared pool may still hold jobs of ours
}

void Server::add_tool(Tool tool) { impl_->core->add_tool(std::move(tool)); }

Session& Server::session() noexcept { return impl_->session; }
const std::shared_ptr<ServerCore>& Server::core() const noexcept { return impl_->core; }
void Server::start() { impl_->session.start(); }
void Server::wait() { impl_->session.wait_closed(); }
void Server::close() { impl_->session.close(); }

}  // namespace elicit
