#include "elicit/server.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

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

ToolCall::ToolCall(Session& session, RequestId request_id, nlohmann::json arguments, Responder responder)
    : session_(session),
      request_id_(std::move(request_id)),
      arguments_(std::move(arguments)),
      responder_(std::move(responder)) {}

ElicitOptions ToolCall::elicit_options(std::optional<std::chrono::milliseconds> timeout) const {
  ElicitOptions o;
  o.timeout = timeout;
  o.related_request = request_id_;
  return o;
}

void ToolCall::reply(const ToolResult& result) { responder_.result(result.to_json()); }
void ToolCall::reply_error(RpcError error) { responder_.error(std::move(error)); }

namespace {

// A fixed pool for blocking tool handlers: elicit() blocks a worker, never the transport thread.
class WorkerPool {
 public:
  explicit WorkerPool(std::size_t n) {
    for (std::size_t i = 0; i < (n == 0 ? 1 : n); ++i) threads_.emplace_back([this] { loop(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void post(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left to run
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
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
      : info(std::move(i)), options(std::move(o)), session(t, options.session), pool(options.worker_threads) {}

  ServerInfo info;
  ServerOptions options;
  std::map<std::string, Tool> tools;  // sorted: tools/list is stable
  std::vector<std::string> tool_order;
  Session session;
  WorkerPool pool;

  nlohmann::json initialize(const Request& r) {
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
    auto call = std::make_shared<ToolCall>(session, r.id, std::move(arguments), responder);
    const Tool& tool = it->second;
    if (tool.async_handler) {
      run_guarded(*call, [&] { tool.async_handler(call); });
      return;
    }
    pool.post([handler = tool.handler, call] { run_guarded(*call, [&] { call->reply(handler(*call)); }); });
  }
};

Server::Server(Transport& transport, ServerInfo info, ServerOptions options)
    : impl_(std::make_unique<Impl>(transport, std::move(info), std::move(options))) {
  auto* impl = impl_.get();
  auto& s = impl_->session;
  s.on_request("initialize", [impl](const Request& r, Responder out) { out.result(impl->initialize(r)); });
  s.on_request("ping", [](const Request&, Responder out) { out.result(nlohmann::json::object()); });
  s.on_request("tools/list", [impl](const Request&, Responder out) { out.result(impl->list_tools()); });
  s.on_request("tools/call", [impl](const Request& r, Responder out) { impl->call_tool(r, std::move(out)); });
  s.on_notification("notifications/initialized", [](const Notification&) {});
}

Server::~Server() {
  close();
  impl_->session.wait_closed();
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
