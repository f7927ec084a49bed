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
                   std::optional<std::chrono::milliseconds> default_elicitation_timeout)
    : session_(session),
      request_id_(std::move(request_id)),
      arguments_(std::move(arguments)),
      responder_(std::move(responder)),
      default_timeout_(default_elicitation_timeout) {
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

void ToolCall::reply(const ToolResult& result) {
  responder_.result(result.to_json());
  forget_cancel_callbacks();
}

void ToolCall::reply_error(RpcError error) {
  responder_.error(std::move(error));
  forget_cancel_callbacks();
}

void ToolCall::run_answering_failures(Session& session, const Responder& responder, const std::function<void()>& f) {
  try {
    f();
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
void run_guarded(ToolCall& call, F&& handler) {
  try {
    handler();
  } catch (const UrlElicitationRequired& e) {
    call.reply_error(e.to_error());
  } catch (const std::exception& e) {
    call.reply(ToolResult::error(e.what()));
  } catch (...) {
    call.reply(ToolResult::error("the tool failed"));
  }
}

}  // namespace

struct Server::Impl {
  Impl(Transport& t, ServerInfo i, ServerOptions o)
      : info(std::move(i)),
        options(std::move(o)),
        session(t, options.session),
        pool(options.workers ? options.workers : std::make_shared<WorkerPool>(options.worker_threads)) {}

  ServerInfo info;
  ServerOptions options;
  std::map<std::string, Tool> tools;  // sorted: tools/list is stable
  std::vector<std::string> tool_order;
  Session session;
  std::shared_ptr<JobGate> gate = std::make_shared<JobGate>();
  std::shared_ptr<WorkerPool> pool;
  std::atomic<bool> initialized{false};

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
    nlohmann::json server_info{{"name", info.name}, {"version", info.version}};
    if (info.title) server_info["title"] = *info.title;
    nlohmann::json result{{"protocolVersion", version},
                          {"capabilities", {{"tools", {{"listChanged", false}}}}},
                          {"serverInfo", server_info}};
    if (info.instructions) result["instructions"] = *info.instructions;
    return result;
  }

  nlohmann::json list_tools() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& name : tool_order) {
      const auto& t = tools.at(name);
      nlohmann::json j{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
      if (t.title) j["title"] = *t.title;
      list.push_back(std::move(j));
    }
    return {{"tools", list}};
  }

  void call_tool(const Request& r, Responder responder) {
    const auto& p = r.params;
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
      responder.error({error_code::invalid_params, "tools/call needs params.name", std::nullopt});
      return;
    }
    const auto name = p["name"].get<std::string>();
    const auto it = tools.find(name);
    if (it == tools.end()) {
      responder.error({error_code::invalid_params, "Unknown tool: " + name, std::nullopt});
      return;
    }
    auto arguments = p.value("arguments", nlohmann::json::object());
    if (!arguments.is_object()) {
      responder.error({error_code::invalid_params, "tools/call arguments must be an object", std::nullopt});
      return;
    }
    auto call =
        std::make_shared<ToolCall>(session, r.id, std::move(arguments), responder, options.default_elicitation_timeout);
    const Tool& tool = it->second;
    if (tool.async_handler) {
      run_guarded(*call, [&] { tool.async_handler(call); });
      return;
    }
    const bool posted = pool->post([gate = gate, handler = tool.handler, call] {
      if (!gate->enter()) return;  // the server is gone or going
      if (!call->cancelled()) run_guarded(*call, [&] { call->reply(handler(*call)); });
      gate->leave();
    });
    if (!posted) call->reply(ToolResult::error("the server is shutting down"));
  }
};

Server::Server(Transport& transport, ServerInfo info, ServerOptions options)
    : impl_(std::make_unique<Impl>(transport, std::move(info), std::move(options))) {
  auto* impl = impl_.get();
  auto& s = impl_->session;
  s.on_request("initialize", [impl](const Request& r, Responder out) { impl->initialize(r, out); });
  s.on_request("ping", [](const Request&, Responder out) { out.result(nlohmann::json::object()); });
  s.on_request("tools/list", [impl](const Request&, Responder out) { out.result(impl->list_tools()); });
  s.on_request("tools/call", [impl](const Request& r, Responder out) { impl->call_tool(r, std::move(out)); });
  s.on_notification("notifications/initialized", [](const Notification&) {});
}

Server::~Server() {
  close();
  impl_->session.wait_closed();
  impl_->gate->close_and_wait();  // a shared pool may still hold jobs of ours
}

void Server::add_tool(Tool tool) {
  if (!tool.handler && !tool.async_handler) throw std::invalid_argument("tool " + tool.name + " has no handler");
  if (impl_->tools.count(tool.name)) throw std::invalid_argument("duplicate tool " + tool.name);
  impl_->tool_order.push_back(tool.name);
  impl_->tools.emplace(tool.name, std::move(tool));
}

Session& Server::session() noexcept { return impl_->session; }
void Server::start() { impl_->session.start(); }
void Server::wait() { impl_->session.wait_closed(); }
void Server::close() { impl_->session.close(); }

}  // namespace elicit
