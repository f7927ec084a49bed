// ServerSession (one connection, either era) and StatelessServing (one 2026-07-28 request on its
// own): a JSON-RPC connection whose requests go through the Server's method table (serving.hpp).
#include "elicit/server_session.hpp"

#include <stdexcept>

#include "serving.hpp"
#include "task_runs.hpp"

namespace elicit {

struct ServerSession::Impl {
  Impl(Transport& t, std::shared_ptr<Server> server, ServerSessionOptions o)
      : options(std::move(o)),
        pool(options.workers ? options.workers : std::make_shared<WorkerPool>(options.worker_threads)),
        rpc(t, options.session),
        serving(rpc, std::move(server), options, pool, Caller{options.principal, nullptr}, std::nullopt) {}

  ServerSessionOptions options;
  std::shared_ptr<WorkerPool> pool;
  jsonrpc::Connection rpc;
  detail::Serving serving;  // destroyed first: it waits for the handlers that use the connection
};

ServerSession::ServerSession(Transport& transport, ServerInfo info, ServerSessionOptions options) {
  auto server = std::make_shared<Server>(std::move(info), options.request_state);
  init(transport, std::move(server), std::move(options));
}

ServerSession::ServerSession(Transport& transport, std::shared_ptr<Server> server, ServerSessionOptions options) {
  init(transport, std::move(server), std::move(options));
}

void ServerSession::init(Transport& transport, std::shared_ptr<Server> server, ServerSessionOptions options) {
  if (!server) throw std::invalid_argument("ServerSession needs a Server");
  impl_ = std::make_unique<Impl>(transport, std::move(server), std::move(options));
  auto* serving = &impl_->serving;
  impl_->rpc.on_other_requests([serving](const Request& r, Responder out) { serving->dispatch(r, out); });
  impl_->rpc.on_notification("notifications/initialized", [](const Notification&) {});
}

ServerSession::~ServerSession() {
  close();
  impl_->rpc.wait_closed();
  // Tasks this session started run on its own pool: they stop with it (a shared pool's owner stops
  // them). Their tasks end failed, none of their handlers runs after this.
  if (!impl_->options.workers) impl_->serving.server()->task_runs().stop(impl_->pool);
}

void ServerSession::add_tool(Tool tool) { server()->add_tool(std::move(tool)); }
void ServerSession::add_prompt(Prompt prompt) { server()->add_prompt(std::move(prompt)); }
void ServerSession::add_resource(Resource resource) { server()->add_resource(std::move(resource)); }
void ServerSession::add_resource_template(ResourceTemplate resource_template) {
  server()->add_resource_template(std::move(resource_template));
}

SessionState& ServerSession::state() noexcept { return impl_->serving.state(); }
const std::shared_ptr<Server>& ServerSession::server() const noexcept { return impl_->serving.server(); }
void ServerSession::start() { impl_->rpc.start(); }
void ServerSession::wait() { impl_->rpc.wait_closed(); }
void ServerSession::close() {
  impl_->serving.close_listens();  // graceful: each stream gets its empty result before the end
  impl_->rpc.close();
}

namespace detail {

struct StatelessServing::Impl {
  Impl(Transport& t, std::shared_ptr<Server> server, const ServerSessionOptions& options, Caller caller,
       StatelessFields fields)
      : rpc(t, options.session),
        serving(rpc, std::move(server), options, options.workers, std::move(caller), std::move(fields)) {}

  jsonrpc::Connection rpc;
  Serving serving;
};

StatelessServing::StatelessServing(Transport& transport, std::shared_ptr<Server> server,
                                   const ServerSessionOptions& options, Caller caller, StatelessFields fields) {
  if (!server) throw std::invalid_argument("StatelessServing needs a Server");
  if (!options.workers) throw std::invalid_argument("StatelessServing needs ServerSessionOptions::workers");
  impl_ = std::make_unique<Impl>(transport, std::move(server), options, std::move(caller), std::move(fields));
  auto* serving = &impl_->serving;
  impl_->rpc.on_other_requests([serving](const Request& r, Responder out) { serving->dispatch(r, out); });
}

StatelessServing::~StatelessServing() {
  close();
  impl_->rpc.wait_closed();
}

void StatelessServing::serve(Request request) {
  impl_->rpc.start();
  impl_->rpc.deliver(std::move(request));
}

jsonrpc::Connection& StatelessServing::rpc() noexcept { return impl_->rpc; }

void StatelessServing::close() {
  impl_->serving.close_listens();
  impl_->rpc.close();
}

}  // namespace detail

}  // namespace elicit
