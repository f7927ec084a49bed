// The routes of 2026-07-28 requests (MCP 2026-07-28, Streamable HTTP): no session; a POST is checked
// (headers against body, per-request fields) and served on the one Server, its answer the HTTP
// response.
#include "server_impl.hpp"

#include "elicit/protocol/param_headers.hpp"

namespace elicit::http {

using namespace http::server_impl;

namespace {

// Set while serve_stateless lets go of an exchange it saw answered (destroy_here): if that was the
// last reference, the exchange is destroyed on this thread instead of on a worker, saving a handoff
// per request (an asynchronous handler ran in this frame and is done; a blocking one that answered
// this fast has at most its job's last steps left, which destroying it waits for). Only there:
// elsewhere the last reference may go inside a callback of the exchange's own connection (which
// must not destroy it) or while its blocking handler still runs.
thread_local bool destroying_here = false;

void destroy_here(std::shared_ptr<StatelessExchange> ex) {
  destroying_here = true;
  ex.reset();
  destroying_here = false;
}

// Methods that exist only in sessions opened with initialize (MCP 2026-07-28 removed them): a
// 2026-07-28 request for one is 404/-32601, like an unknown method.
bool session_only_method(std::string_view method) {
  return method == "initialize" || method == "ping" || method == "logging/setLevel" ||
         method == "resources/subscribe" || method == "resources/unsubscribe";
}

// `params._meta`, when it is an object.
const nlohmann::json* meta_of(const nlohmann::json& params) {
  if (!params.is_object()) return nullptr;
  const auto meta = params.find("_meta");
  return meta != params.end() && meta->is_object() ? &*meta : nullptr;
}

const nlohmann::json* meta_member(const nlohmann::json* meta, std::string_view key) {
  if (!meta) return nullptr;
  const auto it = meta->find(key);
  return it == meta->end() ? nullptr : &*it;
}

}  // namespace

// Whether a POST without Mcp-Session-Id is a 2026-07-28 message, served statelessly.
bool StreamableHttpServer::Impl::is_stateless(const HttpRequest& req, const jsonrpc::ParseResult& parsed) {
  const bool has_version_header = has_header(req, "MCP-Protocol-Version");
  const auto version_header = header(req, "MCP-Protocol-Version");
  const nlohmann::json* params = nullptr;
  std::string_view method;
  if (parsed.message) {
    if (const auto* r = std::get_if<::elicit::Request>(&*parsed.message)) {
      params = &r->params;
      method = r->method;
    } else if (const auto* n = std::get_if<Notification>(&*parsed.message)) {
      params = &n->params;
      method = n->method;
    }
  }
  const auto* meta_version = params ? meta_member(meta_of(*params), meta_key::protocol_version) : nullptr;
  if (method == "initialize") {
    // A 2025-era client opens its session with it; only a request that names a 2026-07-28 version
    // asks for the (non-existent) 2026-07-28 initialize.
    return (has_version_header && contains(stateless_protocol_versions(), version_header)) ||
           (meta_version && meta_version->is_string() &&
            contains(stateless_protocol_versions(), meta_version->get_ref<const std::string&>()));
  }
  return (has_version_header && !session_version(version_header)) || meta_version != nullptr;
}

Reply StreamableHttpServer::Impl::handle_stateless(const HttpRequest& req, jsonrpc::ParseResult& parsed,
                                                   std::string meta_json, const Authorized* who) {
  if (const auto accept = find_header(req, "Accept")) {
    if (!contains_nocase(*accept, "application/json") && !contains_nocase(*accept, "*/*") &&
        !contains_nocase(*accept, "application/*")) {
      return error_reply(406, -32000, "Not Acceptable: the client must accept application/json");
    }
  }
  auto* request = parsed.message ? std::get_if<::elicit::Request>(&*parsed.message) : nullptr;
  if (!request) {
    if (parsed.message && std::holds_alternative<Notification>(*parsed.message)) {
      // MCP 2026-07-28 defines no client notification over Streamable HTTP (cancelling is closing
      // the response): accepted, with nothing to hand it to.
      Reply r;
      r.status = 202;
      return r;
    }
    return error_reply(400, error_code::invalid_request,
                       "Invalid Request: a client sends no JSON-RPC responses without a session");
  }
  std::optional<RequestMeta> meta =
      meta_json.empty() ? RequestMeta::of_params(request->params) : RequestMeta::of_text(meta_json);
  if (!meta) {  // not reached: the text was read as an object by the same reader
    return rpc_error_reply(
        400, request->id,
        RpcError{error_code::invalid_params, "Invalid params: params._meta is not an object", std::nullopt});
  }
  std::optional<StatelessFields> fields;
  if (auto r = check_stateless(req, *request, std::move(*meta), fields)) return std::move(*r);
  if (auto r = check_param_headers(req, *request)) return std::move(*r);
  fields->meta_json = std::move(meta_json);
  return serve_stateless(req, std::move(*request), std::move(*fields), who);
}

// x-mcp-header (MCP 2026-07-28, Streamable HTTP, "Server Behavior for Custom Headers"): a tools/call
// of a tool with annotated parameters carries each as an Mcp-Param-* header that must agree with
// the body; else 400 with -32020 (HeaderMismatch) carrying the request's id.
std::optional<Reply> StreamableHttpServer::Impl::check_param_headers(const HttpRequest& req,
                                                                     const ::elicit::Request& r) const {
  if (r.method != "tools/call" || !r.params.is_object()) return std::nullopt;
  const auto name = r.params.find("name");
  if (name == r.params.end() || !name->is_string()) return std::nullopt;
  const auto annotations = core->param_headers(name->get_ref<const std::string&>());
  if (!annotations) return std::nullopt;
  static const nlohmann::json no_arguments = nlohmann::json::object();
  const auto arguments = r.params.find("arguments");
  const auto mismatch =
      ::elicit::check_param_headers(*annotations, arguments == r.params.end() ? no_arguments : *arguments,
                                    [&](std::string_view field) { return find_header(req, field); });
  if (!mismatch) return std::nullopt;
  return rpc_error_reply(400, r.id, RpcError{error_code::header_mismatch, *mismatch, std::nullopt});
}

// The checks of MCP 2026-07-28 (Streamable HTTP, "Request Metadata" and "Server Validation";
// Versioning), in the order the official conformance suite's server-stateless probes fix
// (tests/interop/conformance/SCENARIOS.md, section 4). Every error carries the request's id.
std::optional<Reply> StreamableHttpServer::Impl::check_stateless(const HttpRequest& req, const ::elicit::Request& r,
                                                                 RequestMeta meta,
                                                                 std::optional<StatelessFields>& fields) {
  const auto fail = [&](unsigned status, int code, std::string message) {
    return rpc_error_reply(status, r.id, RpcError{code, std::move(message), std::nullopt});
  };
  // 1. The version header.
  if (!has_header(req, "MCP-Protocol-Version")) {
    return fail(400, error_code::header_mismatch, "Header mismatch: the MCP-Protocol-Version header is required");
  }
  const auto version_header = header(req, "MCP-Protocol-Version");
  // 2. The per-request fields of _meta (clientInfo is optional).
  if (!meta.present) return fail(400, error_code::invalid_params, "Invalid params: params._meta is required");
  const nlohmann::json* version = meta.protocol_version ? &*meta.protocol_version : nullptr;
  if (!version) {
    return fail(400, error_code::invalid_params,
                "Invalid params: _meta needs \"" + std::string(meta_key::protocol_version) + "\"");
  }
  if (!meta.client_capabilities || !meta.client_capabilities->is_object()) {
    return fail(400, error_code::invalid_params,
                "Invalid params: _meta needs an object \"" + std::string(meta_key::client_capabilities) + "\"");
  }
  // 3. Header and body name one version.
  if (!version->is_string() || version->get_ref<const std::string&>() != version_header) {
    return fail(400, error_code::header_mismatch,
                "Header mismatch: MCP-Protocol-Version header value " + json_text(version_header) +
                    " does not match _meta protocolVersion " +
                    version->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  // 4. A version served per request.
  if (!contains(stateless_protocol_versions(), version_header)) {
    return rpc_error_reply(400, r.id, unsupported_protocol_version(*version));
  }
  // 5. The standard request headers mirror the body.
  if (!has_header(req, "Mcp-Method")) {
    return fail(400, error_code::header_mismatch, "Header mismatch: the Mcp-Method header is required");
  }
  if (header(req, "Mcp-Method") != r.method) {
    return fail(400, error_code::header_mismatch,
                "Header mismatch: Mcp-Method header value " + json_text(header(req, "Mcp-Method")) +
                    " does not match body method " + json_text(r.method));
  }
  const char* name_field = mcp_name_member(r.method);
  if (name_field) {
    const nlohmann::json* body_name = nullptr;
    if (r.params.is_object()) {
      if (const auto it = r.params.find(name_field); it != r.params.end() && it->is_string()) body_name = &*it;
    }
    if (has_header(req, "Mcp-Name")) {
      const auto decoded = decode_header_value(header(req, "Mcp-Name"));
      if (!decoded) return fail(400, error_code::header_mismatch, "Header mismatch: Mcp-Name is not valid Base64");
      if (!body_name || *decoded != body_name->get_ref<const std::string&>()) {
        return fail(400, error_code::header_mismatch,
                    "Header mismatch: Mcp-Name header value " + json_text(*decoded) + " does not match body params." +
                        name_field);
      }
    } else if (body_name) {
      return fail(400, error_code::header_mismatch, "Header mismatch: the Mcp-Name header is required");
    }
    // No name in the body and no header: the handler answers -32602.
  }
  // 6. Methods of the 2025-11-25 era only (unknown ones are found by the Server: -32601, 404).
  if (session_only_method(r.method)) {
    return fail(404, error_code::method_not_found,
                "Method not found: " + r.method + " (not in MCP " + stateless_protocol_versions().front() + ")");
  }
  // 7. The fields themselves (capabilities, log level): read once, for serving too.
  auto era = read_request_era(std::move(meta));
  if (era.error) return rpc_error_reply(http::http_status_for_error(era.error->code), r.id, std::move(*era.error));
  if (!era.stateless) {  // not reached: the version checked above makes it a 2026-07-28 request
    return fail(400, error_code::invalid_params,
                "Invalid params: not a " + stateless_protocol_versions().front() + " request");
  }
  fields = std::move(era.stateless);
  return std::nullopt;
}

Reply StreamableHttpServer::Impl::serve_stateless(const HttpRequest& req, ::elicit::Request request,
                                                  StatelessFields fields, const Authorized* who) {
  const auto id = request.id;
  auto unavailable = [&](const std::string& why) {
    Reply r =
        rpc_error_reply(503, id, RpcError{error_code::internal_error, "Service Unavailable: " + why, std::nullopt});
    r.headers.emplace_back("Retry-After", "1");
    return r;
  };
  Caller caller{options.server.principal, nullptr};
  if (who) {
    caller = {who->principal, who->token};  // the verified token's, above any other source
  } else if (options.principal) {
    try {
      caller.principal = options.principal([&](std::string_view name) { return header(req, name); });
    } catch (...) {  // the application refuses the request; its reasons stay in the application
      return rpc_error_reply(401, id, RpcError{error_code::invalid_request, "Unauthorized", std::nullopt});
    }
  }
  auto ex = new_exchange(id);
  try {
    ex->server = std::make_unique<detail::StatelessServing>(ex->transport, core, options.server, std::move(caller),
                                                            std::move(fields));
  } catch (const std::system_error&) {  // not with the shared pool, but be safe
    return unavailable("out of resources");
  }
  std::weak_ptr<StatelessExchange> weak = ex;
  ex->transport.on_done([this, key = ex.get()] { release(key); });
  // Progress and log messages about the request may go out first, as an SSE reply.
  if (const auto accept = header(req, "Accept");
      contains_nocase(accept, "text/event-stream") || contains_nocase(accept, "*/*")) {
    ex->transport.allow_sse(options.max_held_bytes);
  }
  const auto pending = ex->transport.reply();
  auto cancel = [this, weak, id] {
    // The client closed the connection: that cancels the request (MCP 2026-07-28, Streamable
    // HTTP, "Cancellation"), through the session's own cancellation path: the call's on_cancel
    // callbacks run, a blocking handler not started yet never runs, and no answer is sent.
    if (auto e = weak.lock(); e && !e->server->rpc().closed()) {
      e->server->rpc().deliver(
          Notification{"notifications/cancelled",
                       nlohmann::json{{"requestId", id_to_json(id)}, {"reason", "the client closed the connection"}}});
      release(e.get());
    }
  };
  pending->on_abandon(cancel);
  ex->transport.on_sse_gone(cancel);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) return unavailable("the server is shutting down");
    if (stateless.size() >= options.max_stateless_requests) return unavailable("too many requests");
    stateless.emplace(ex.get(), ex);
  }
  ex->server->serve(std::move(request));
  if (auto r = pending->take()) {  // answered already (most requests are)
    // Most often this is the last reference, and this frame is outside every callback of the
    // exchange's connection, with no handler of it running: it can go here, without a worker.
    destroy_here(std::move(ex));
    return std::move(*r);
  }
  Reply r;
  r.pending = pending;
  return r;
}

// A 2026-07-28 request is over (answered, abandoned or closed): it no longer counts.
void StreamableHttpServer::Impl::release(StatelessExchange* key) {
  std::shared_ptr<StatelessExchange> ex;  // dropped after the lock
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = stateless.find(key); it != stateless.end()) {
    ex = std::move(it->second);
    stateless.erase(it);
  }
}

// An exchange that, whoever lets go of it last (an I/O thread, the worker that answered, the
// session's own callback), is destroyed on a worker: destroying its serving waits for its blocking
// handler's last steps, which must hold up no connection (and cannot happen inside its session).
// The exception is destroy_here(), for an exchange answered before serve_stateless returns.
std::shared_ptr<StatelessExchange> StreamableHttpServer::Impl::new_exchange(RequestId id) {
  auto count = exchanges;
  std::weak_ptr<WorkerPool> pool = options.server.workers;
  auto destroy = [pool, count](StatelessExchange* p) {
    auto job = [p, count] {
      delete p;
      std::lock_guard<std::mutex> lock(count->mutex);
      --count->live;
      count->cv.notify_all();
    };
    if (destroying_here) {
      destroying_here = false;  // for this exchange only, not for any its destruction lets go of
      job();
      return;
    }
    if (const auto workers = pool.lock(); workers && workers->post(job)) return;
    job();  // the pool is going (stop() waited for every exchange already): nothing runs there
  };
  auto* p = new StatelessExchange(std::move(id));
  {
    std::lock_guard<std::mutex> lock(count->mutex);
    ++count->live;
  }
  return std::shared_ptr<StatelessExchange>(p, std::move(destroy));  // on bad_alloc: destroy(p)
}

}  // namespace elicit::http
