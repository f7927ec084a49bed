// The routes of 2025-11-25 sessions (MCP 2025-11-25, Streamable HTTP): POST, GET and DELETE on the
// MCP endpoint with an Mcp-Session-Id, the session table and its idle reaper.
#include "server_impl.hpp"

#include "json_fast.hpp"

namespace elicit::http {

using namespace http::server_impl;

std::shared_ptr<HttpSession> StreamableHttpServer::Impl::find_session(const HttpRequest& req, Reply& rejection,
                                                                      const Authorized* who) {
  if (!has_header(req, "Mcp-Session-Id")) {
    rejection = error_reply(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = sessions.find(std::string(header(req, "Mcp-Session-Id")));
  // Another principal's session is answered as one that does not exist: its id tells nothing.
  if (it == sessions.end() || (who && it->second->principal != who->principal)) {
    rejection = error_reply(404, -32001, "Session not found");
    return nullptr;
  }
  if (who) it->second->access_token->set(who->token);  // a refreshed token, perhaps with more scopes
  return it->second;
}

std::shared_ptr<HttpSession> StreamableHttpServer::Impl::new_session(Reply& rejection, const Authorized* who) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) {
      rejection = error_reply(503, -32000, "Service Unavailable: the server is shutting down");
      return nullptr;
    }
    if (sessions.size() >= options.max_sessions) {
      rejection = error_reply(503, -32000, "Service Unavailable: too many sessions");
      rejection.headers.emplace_back("Retry-After", "5");
      return nullptr;
    }
  }
  auto s = std::make_shared<HttpSession>(options.max_held_bytes);
  s->id = new_elicitation_id();  // 128 bits from the CSPRNG: unguessable
  try {
    if (who) {
      // The session's requestStates and elicitations are bound to its principal.
      s->principal = who->principal;
      s->access_token = std::make_shared<AccessTokenSlot>();
      s->access_token->set(who->token);
      auto session_options = options.server;
      session_options.principal = who->principal;
      session_options.access_token = s->access_token;
      s->server = std::make_unique<ServerSession>(s->transport, core, session_options);
    } else {
      s->server = std::make_unique<ServerSession>(s->transport, core, options.server);
    }
  } catch (const std::system_error&) {  // no thread could be created
    rejection = error_reply(503, -32000, "Service Unavailable: out of resources");
    rejection.headers.emplace_back("Retry-After", "1");
    return nullptr;
  }
  s->server->start();
  std::lock_guard<std::mutex> lock(mutex);
  if (stopped) {
    rejection = error_reply(503, -32000, "Service Unavailable: the server is shutting down");
    return nullptr;
  }
  sessions[s->id] = s;
  return s;
}

void StreamableHttpServer::Impl::end_session(const std::string& id) {
  std::shared_ptr<HttpSession> s;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = sessions.find(id);
    if (it == sessions.end()) return;
    s = it->second;
    sessions.erase(it);
  }
  s->server->close();
}

// A version a session may speak, or the one the spec assumes when the header is absent.
bool StreamableHttpServer::Impl::session_version(std::string_view v) {
  return v == "2025-03-26" || contains(supported_protocol_versions(), v);
}

// The MCP-Protocol-Version check of a 2025-11-25 request (MCP 2025-11-25, Streamable HTTP).
std::optional<Reply> StreamableHttpServer::Impl::refuse_session_version(const HttpRequest& req) {
  if (has_header(req, "MCP-Protocol-Version") && !session_version(header(req, "MCP-Protocol-Version"))) {
    return error_reply(
        400, -32000, "Bad Request: unsupported MCP-Protocol-Version " + json_text(header(req, "MCP-Protocol-Version")));
  }
  return std::nullopt;
}

Reply StreamableHttpServer::Impl::handle_post(const HttpRequest& req, const Authorized* who) {
  if (const auto type = header(req, "Content-Type"); !starts_with_nocase(type, "application/json")) {
    return error_reply(415, -32000, "Unsupported Media Type: POST bodies are application/json");
  }
  const auto& body = req.body();
  // The only parse: the session is handed the message. A request whose version header names a
  // 2026-07-28 revision is read with its params' _meta apart, as text: the few members the server
  // reads are picked from it (RequestMeta::of_text) without a document for the rest.
  const bool no_session = !has_header(req, "Mcp-Session-Id");
  const bool stateless_header =
      no_session && contains(stateless_protocol_versions(), header(req, "MCP-Protocol-Version"));
  std::string meta_json;
  auto parsed =
      stateless_header ? jsonrpc::detail::parse_message_meta_apart(body, meta_json) : jsonrpc::parse_message(body);
  if (who) {  // before anything else: authorize() left the scopes of a JSON POST to this check
    const auto* r = parsed.message ? std::get_if<::elicit::Request>(&*parsed.message) : nullptr;
    if (auto refused = check_scopes(r, *who)) return std::move(*refused);
  }
  if (parsed.error) {
    if (parsed.error_id) return rpc_error_reply(400, *parsed.error_id, std::move(*parsed.error));
    return error_reply(400, parsed.error->code, parsed.error->message);
  }
  if (no_session && (stateless_header || is_stateless(req, parsed))) {
    return handle_stateless(req, parsed, std::move(meta_json), who);
  }
  if (auto r = refuse_session_version(req)) return std::move(*r);
  if (const auto accept = find_header(req, "Accept")) {
    if (!contains_nocase(*accept, "text/event-stream") && !contains_nocase(*accept, "*/*")) {
      return error_reply(406, -32000, "Not Acceptable: the client must accept text/event-stream");
    }
  }
  const auto* request = parsed.message ? std::get_if<::elicit::Request>(&*parsed.message) : nullptr;
  Reply reply;
  std::shared_ptr<HttpSession> session;
  if (request && request->method == "initialize") {
    session = new_session(reply, who);
    if (!session) return reply;
    // Priming events (SEP-1699) came with 2025-11-25; older clients may not expect empty events.
    if (const auto v = request->params.find("protocolVersion");
        request->params.is_object() && v != request->params.end() && v->is_string()) {
      session->priming = v->get<std::string>() >= "2025-11-25";
    }
    reply.headers.emplace_back("Mcp-Session-Id", session->id);
  } else {
    session = find_session(req, reply, who);
    if (!session) return reply;
  }
  if (!request) {  // a notification, or the client's answer to one of our requests
    // (No message: a response without a usable id, which the session only logs.)
    const bool delivered = parsed.message
                               ? session->transport.deliver(std::move(*parsed.message), session->server->state().rpc())
                               : session->transport.deliver(body);
    if (!delivered) return error_reply(404, -32001, "Session not found");
    reply.status = 202;
    return reply;
  }
  bool duplicate = false;
  auto stream = session->transport.open_request_stream(request->id, duplicate);
  if (duplicate) {  // answered here, as JSON: the first request keeps its stream
    Reply r;
    r.content_type = "application/json";
    r.body = jsonrpc::serialize(
        Response{request->id, std::nullopt,
                 RpcError{error_code::invalid_request,
                          "Invalid Request: id " + to_string(request->id) + " is already in use", std::nullopt}});
    return r;
  }
  if (!stream) return error_reply(404, -32001, "Session not found");
  attach_stream(session, stream, reply);
  {
    // In flight until its stream ends (drain() waits for it).
    std::lock_guard<std::mutex> lock(mutex);
    ++session_requests;
  }
  reply.on_sse_end = [this, detach = std::move(reply.on_sse_end)] {
    detach();
    std::lock_guard<std::mutex> lock(mutex);
    --session_requests;
  };
  if (session->priming) {
    // An event id before anything else, so a client that loses the connection can resume, and
    // how long to wait before it does (MCP 2025-11-25, Streamable HTTP, SSE polling).
    reply.sse_preamble = "id: " + std::to_string(stream->number()) +
                         "-0\nretry: " + std::to_string(options.sse_retry.count()) + "\ndata: \n\n";
  }
  session->transport.deliver(std::move(*parsed.message), session->server->state().rpc());
  return reply;
}

Reply StreamableHttpServer::Impl::handle_get(const HttpRequest& req, const Authorized* who) {
  if (auto r = refuse_session_version(req)) return std::move(*r);
  if (!contains_nocase(header(req, "Accept"), "text/event-stream")) {
    return error_reply(406, -32000, "Not Acceptable: GET opens a text/event-stream");
  }
  Reply reply;
  auto session = find_session(req, reply, who);
  if (!session) return reply;
  std::shared_ptr<http::SseStream> stream;
  if (has_header(req, "Last-Event-ID")) {
    // Resumption: the stream the id names, from the event after it.
    auto [resume, s] = session->transport.resume(header(req, "Last-Event-ID"));
    if (resume == http::SessionTransport::Resume::busy) {
      return error_reply(409, -32000, "Conflict: that stream is being read on another connection");
    }
    if (resume == http::SessionTransport::Resume::unknown) {
      return error_reply(404, -32000, "Not Found: Last-Event-ID names no stream or event this session holds");
    }
    stream = std::move(s);
  } else {
    stream = session->transport.claim_standalone();
    if (!stream) return error_reply(409, -32000, "Conflict: this session already has a GET stream");
  }
  attach_stream(session, stream, reply);
  return reply;
}

// Makes `stream` the body of `reply` (a POST's request stream or a GET stream): counted open while
// a connection reads it; when that connection ends, the stream is detached (it keeps its events for
// a resumption) and the standalone GET stream (number 0) can be claimed again.
void StreamableHttpServer::Impl::attach_stream(const std::shared_ptr<HttpSession>& session,
                                               const std::shared_ptr<http::SseStream>& stream, Reply& reply) {
  session->transport.stream_opened();
  std::weak_ptr<HttpSession> weak = session;
  reply.sse = stream;
  reply.on_sse_end = [weak, stream] {
    if (auto s = weak.lock()) {
      if (stream->number() == 0) s->transport.release_standalone();
      s->transport.stream_detached(stream);
      s->transport.stream_closed();
    }
  };
}

Reply StreamableHttpServer::Impl::handle_delete(const HttpRequest& req, const Authorized* who) {
  if (auto r = refuse_session_version(req)) return std::move(*r);
  Reply reply;
  auto session = find_session(req, reply, who);
  if (!session) return reply;
  end_session(session->id);
  reply.status = 200;
  return reply;
}

}  // namespace elicit::http
