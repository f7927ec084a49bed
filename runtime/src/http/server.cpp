#include "elicit/http/server.hpp"
#include "elicit/jsonrpc/timer_service.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "connection.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "session_transport.hpp"
#include "stateless_request.hpp"

namespace elicit {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using http::error_reply;
using http::Reply;
using HttpRequest = http::Request;

struct HttpSession {
  explicit HttpSession(std::size_t max_held_bytes) : transport(max_held_bytes) {}
  std::string id;
  bool priming = false;  // the client speaks 2025-11-25 or later: its POST streams start with a priming event
  http::SessionTransport transport;  // declared first: it must outlive the server
  std::unique_ptr<ServerSession> server;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "localhost:8080" -> "localhost", "[::1]:3000" -> "[::1]".
std::string host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    return std::string(close == std::string_view::npos ? host : host.substr(0, close + 1));
  }
  return std::string(host.substr(0, host.find(':')));
}

bool is_loopback_name(std::string_view host) {
  const auto h = lower(host);
  return h == "localhost" || h == "127.0.0.1" || h == "[::1]";
}

std::string_view header(const HttpRequest& req, std::string_view name) {
  const auto it = req.find(boost::beast::string_view(name.data(), name.size()));
  if (it == req.end()) return {};
  return {it->value().data(), it->value().size()};
}

bool has_header(const HttpRequest& req, std::string_view name) {
  return req.find(boost::beast::string_view(name.data(), name.size())) != req.end();
}

// One 2026-07-28 request being served: its one-request transport and the Server on the shared core.
struct StatelessExchange {
  explicit StatelessExchange(RequestId id) : transport(std::move(id)) {}
  http::StatelessRequest transport;  // declared first: it must outlive the server
  std::unique_ptr<ServerSession> server;
};

// How many StatelessExchanges exist (stop() waits for none).
struct ExchangeCount {
  std::mutex mutex;
  std::condition_variable cv;
  std::size_t live = 0;
};

bool contains(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The JSON text of a header value or body value, for error messages (any bytes: replaced).
std::string json_text(std::string_view v) {
  return nlohmann::json(std::string(v)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A JSON-RPC error response for the request `id`, with an HTTP status.
Reply rpc_error_reply(unsigned status, const RequestId& id, RpcError error) {
  Reply r;
  r.status = status;
  r.content_type = "application/json";
  r.body = jsonrpc::serialize(Response{id, std::nullopt, std::move(error)});
  return r;
}

// A header value as sent, or decoded from the Base64 sentinel form "=?base64?...?=" (MCP 2026-07-28,
// Streamable HTTP, "Value Encoding"); nullopt for a sentinel that is not valid Base64.
std::optional<std::string> decode_header_value(std::string_view v) {
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  if (v.size() < prefix.size() + suffix.size() || v.substr(0, prefix.size()) != prefix ||
      v.substr(v.size() - suffix.size()) != suffix) {
    return std::string(v);
  }
  const auto text = v.substr(prefix.size(), v.size() - prefix.size() - suffix.size());
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  std::size_t padding = 0;
  for (const char c : text) {
    int value = -1;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    if (c >= '0' && c <= '9') value = c - '0' + 52;
    if (c == '+') value = 62;
    if (c == '/') value = 63;
    if (c == '=') {
      ++padding;
      continue;
    }
    if (value < 0 || padding > 0) return std::nullopt;  // not Base64, or data after padding
    bits = ((bits << 6) | static_cast<std::uint32_t>(value)) & 0xFFFFFF;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  if (padding > 2 || count >= 6) return std::nullopt;
  return out;
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

struct StreamableHttpServer::Impl {
  Impl(std::shared_ptr<Server> c, ServerInfo i, ServerSetup s, HttpServerOptions o)
      : ioc(static_cast<int>(thread_count(o))),
        core(std::move(c)),
        info(std::move(i)),
        setup(std::move(s)),
        options(std::move(o)),
        reaper(net::make_strand(ioc)) {}

  static std::size_t thread_count(const HttpServerOptions& o) {
    if (o.io_threads > 0) return o.io_threads;
    return std::max(1u, std::thread::hardware_concurrency());
  }

  net::io_context ioc;           // first: destroyed last, after everything that holds its handlers
  std::shared_ptr<Server> core;  // what every session and 2026-07-28 request serves
  ServerInfo info;               // with setup: makes `core` at start()
  ServerSetup setup;
  // run(): woken by SIGINT/SIGTERM or by the end of stop().
  std::mutex run_mutex;
  std::condition_variable run_cv;
  bool run_wake = false;
  HttpServerOptions options;
  std::optional<tcp::acceptor> acceptor;
  // On a strand of its own: its handler re-arms it on whichever I/O thread runs it, and stop()
  // cancels it from another; an Asio timer must not be used from two threads at once (TSan showed
  // schedule_reaper's expires_after racing stop()'s cancel).
  net::steady_timer reaper;
  std::vector<std::thread> threads;
  std::atomic<int> port{0};
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::unordered_map<StatelessExchange*, std::shared_ptr<StatelessExchange>> stateless;  // being served
  std::shared_ptr<ExchangeCount> exchanges = std::make_shared<ExchangeCount>();
  std::list<std::weak_ptr<http::Connection>> connections;
  bool started = false;
  bool stopped = false;

  // --- accepting ------------------------------------------------------------------------------

  http::ConnectionLimits limits() const {
    return {options.max_request_bytes, options.max_header_bytes, options.max_header_fields, options.max_queued_bytes,
            options.request_timeout,   options.write_timeout,    options.keepalive};
  }

  void accept() {
    acceptor->async_accept(net::make_strand(ioc), [this](boost::beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
      if (!ec) {
        // SSE writes are small and must leave at once: Nagle's algorithm would hold each one for
        // the client's delayed ACK (~40 ms a response).
        boost::beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        auto c = std::make_shared<http::Connection>(std::move(socket), limits(),
                                                    [this](const HttpRequest& req) { return handle(req); });
        {
          std::lock_guard<std::mutex> lock(mutex);
          connections.push_back(c);
        }
        c->start();
        accept();
        return;
      }
      // Out of file descriptors or similar: keep serving the connections we have, retry shortly.
      auto retry = std::make_shared<net::steady_timer>(ioc, std::chrono::milliseconds(50));
      retry->async_wait([this, retry](boost::beast::error_code e) {
        if (!e) accept();
      });
    });
  }

  // --- sessions -------------------------------------------------------------------------------

  std::shared_ptr<HttpSession> find_session(const HttpRequest& req, Reply& rejection) {
    if (!has_header(req, "Mcp-Session-Id")) {
      rejection = error_reply(400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = sessions.find(std::string(header(req, "Mcp-Session-Id")));
    if (it == sessions.end()) {
      rejection = error_reply(404, -32001, "Session not found");
      return nullptr;
    }
    return it->second;
  }

  std::shared_ptr<HttpSession> new_session(Reply& rejection) {
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
      s->server = std::make_unique<ServerSession>(s->transport, core, options.server);
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

  void end_session(const std::string& id) {
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

  // Ends sessions idle past options.idle_session_timeout, and forgets connections that are gone.
  void reap() {
    const auto cutoff = std::chrono::steady_clock::now() - options.idle_session_timeout;
    std::vector<std::string> idle;
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (const auto& [id, s] : sessions) {
        if (s->transport.idle_since(cutoff)) idle.push_back(id);
      }
      connections.remove_if([](const std::weak_ptr<http::Connection>& c) { return c.expired(); });
    }
    for (const auto& id : idle) end_session(id);
  }

  void schedule_reaper() {
    const auto period = std::clamp<std::chrono::milliseconds>(options.idle_session_timeout / 4,
                                                              std::chrono::milliseconds(10), std::chrono::seconds(5));
    reaper.expires_after(period);
    reaper.async_wait([this](boost::beast::error_code ec) {
      if (ec) return;
      reap();
      schedule_reaper();
    });
  }

  // --- requests -------------------------------------------------------------------------------

  bool host_allowed(const HttpRequest& req) const {
    const auto raw = header(req, "Host");
    const auto host = host_without_port(raw);
    if (host.empty() || is_loopback_name(host)) return true;  // HTTP/1.0 clients may omit Host
    for (const auto& h : options.allowed_hosts) {
      if (lower(h) == lower(host) || lower(h) == lower(raw)) return true;
    }
    return false;
  }

  bool origin_allowed(const HttpRequest& req) const {
    if (!has_header(req, "Origin")) return true;  // not a browser request
    const auto origin = lower(header(req, "Origin"));
    for (const auto& o : options.allowed_origins) {
      if (lower(o) == origin) return true;
    }
    const auto scheme_end = origin.find("://");
    if (scheme_end == std::string::npos) return false;
    const auto scheme = origin.substr(0, scheme_end);
    if (scheme != "http" && scheme != "https") return false;
    return is_loopback_name(host_without_port(origin.substr(scheme_end + 3)));
  }

  // Checks every request passes; an error reply when it does not.
  std::optional<Reply> refuse(const HttpRequest& req) const {
    if (!host_allowed(req) || !origin_allowed(req)) {
      return error_reply(403, -32000, "Forbidden: Host or Origin is not allowed (DNS rebinding protection)");
    }
    return std::nullopt;
  }

  // A version a session may speak, or the one the spec assumes when the header is absent.
  static bool session_version(std::string_view v) {
    return v == "2025-03-26" || contains(supported_protocol_versions(), v);
  }

  // The MCP-Protocol-Version check of a 2025-11-25 request (MCP 2025-11-25, Streamable HTTP).
  static std::optional<Reply> refuse_session_version(const HttpRequest& req) {
    if (has_header(req, "MCP-Protocol-Version") && !session_version(header(req, "MCP-Protocol-Version"))) {
      return error_reply(
          400, -32000,
          "Bad Request: unsupported MCP-Protocol-Version " + json_text(header(req, "MCP-Protocol-Version")));
    }
    return std::nullopt;
  }

  Reply handle(const HttpRequest& req) {
    const auto target = std::string_view(req.target().data(), req.target().size());
    if (target.substr(0, target.find('?')) != options.path) return error_reply(404, -32000, "Not Found");
    if (auto r = refuse(req)) return std::move(*r);
    switch (req.method()) {
      case boost::beast::http::verb::post:
        return handle_post(req);
      case boost::beast::http::verb::get:
        return handle_get(req);
      case boost::beast::http::verb::delete_:
        return handle_delete(req);
      default: {
        auto r = error_reply(405, -32000, "Method Not Allowed");
        r.headers.emplace_back("Allow", "GET, POST, DELETE");
        return r;
      }
    }
  }

  // Whether a POST without Mcp-Session-Id is a 2026-07-28 message, served statelessly.
  static bool is_stateless(const HttpRequest& req, const jsonrpc::ParseResult& parsed) {
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

  Reply handle_post(const HttpRequest& req) {
    if (lower(header(req, "Content-Type")).rfind("application/json", 0) != 0) {
      return error_reply(415, -32000, "Unsupported Media Type: POST bodies are application/json");
    }
    const auto& body = req.body();
    auto parsed = jsonrpc::parse_message(body);  // the only parse: the session is handed the message
    if (parsed.error) {
      if (parsed.error_id) return rpc_error_reply(400, *parsed.error_id, std::move(*parsed.error));
      return error_reply(400, parsed.error->code, parsed.error->message);
    }
    if (!has_header(req, "Mcp-Session-Id") && is_stateless(req, parsed)) return handle_stateless(req, parsed);
    if (auto r = refuse_session_version(req)) return std::move(*r);
    if (has_header(req, "Accept")) {
      const auto accept = lower(header(req, "Accept"));
      if (accept.find("text/event-stream") == std::string::npos && accept.find("*/*") == std::string::npos) {
        return error_reply(406, -32000, "Not Acceptable: the client must accept text/event-stream");
      }
    }
    const auto* request = parsed.message ? std::get_if<::elicit::Request>(&*parsed.message) : nullptr;
    Reply reply;
    std::shared_ptr<HttpSession> session;
    if (request && request->method == "initialize") {
      session = new_session(reply);
      if (!session) return reply;
      // Priming events (SEP-1699) came with 2025-11-25; older clients may not expect empty events.
      if (const auto v = request->params.find("protocolVersion");
          request->params.is_object() && v != request->params.end() && v->is_string()) {
        session->priming = v->get<std::string>() >= "2025-11-25";
      }
      reply.headers.emplace_back("Mcp-Session-Id", session->id);
    } else {
      session = find_session(req, reply);
      if (!session) return reply;
    }
    if (!request) {  // a notification, or the client's answer to one of our requests
      // (No message: a response without a usable id, which the session only logs.)
      const bool delivered =
          parsed.message ? session->transport.deliver(std::move(*parsed.message), session->server->state().rpc())
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
    session->transport.stream_opened();
    std::weak_ptr<HttpSession> weak = session;
    reply.sse = stream;
    reply.on_sse_end = [weak, stream] {
      if (auto s = weak.lock()) {
        s->transport.stream_detached(stream);
        s->transport.stream_closed();
      }
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

  // --- 2026-07-28 requests (MCP 2026-07-28), stateless ---------------------------------------------

  Reply handle_stateless(const HttpRequest& req, jsonrpc::ParseResult& parsed) {
    if (has_header(req, "Accept")) {
      const auto accept = lower(header(req, "Accept"));
      if (accept.find("application/json") == std::string::npos && accept.find("*/*") == std::string::npos &&
          accept.find("application/*") == std::string::npos) {
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
    if (auto r = check_stateless(req, *request)) return std::move(*r);
    return serve_stateless(req, std::move(*request));
  }

  // The checks of MCP 2026-07-28 (Streamable HTTP, "Request Metadata" and "Server Validation";
  // Versioning), in the order the official conformance suite's server-stateless probes fix
  // (tests/conformance-2026/SCENARIOS.md, section 4). Every error carries the request's id.
  static std::optional<Reply> check_stateless(const HttpRequest& req, const ::elicit::Request& r) {
    const auto fail = [&](unsigned status, int code, std::string message) {
      return rpc_error_reply(status, r.id, RpcError{code, std::move(message), std::nullopt});
    };
    // 1. The version header.
    if (!has_header(req, "MCP-Protocol-Version")) {
      return fail(400, error_code::header_mismatch, "Header mismatch: the MCP-Protocol-Version header is required");
    }
    const auto version_header = header(req, "MCP-Protocol-Version");
    // 2. The per-request fields of _meta (clientInfo is optional).
    const auto* meta = meta_of(r.params);
    if (!meta) return fail(400, error_code::invalid_params, "Invalid params: params._meta is required");
    const auto* version = meta_member(meta, meta_key::protocol_version);
    if (!version) {
      return fail(400, error_code::invalid_params,
                  "Invalid params: _meta needs \"" + std::string(meta_key::protocol_version) + "\"");
    }
    const auto* capabilities = meta_member(meta, meta_key::client_capabilities);
    if (!capabilities || !capabilities->is_object()) {
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
    const char* name_field = r.method == "tools/call" || r.method == "prompts/get" ? "name"
                             : r.method == "resources/read"                        ? "uri"
                                                                                   : nullptr;
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
    return std::nullopt;
  }

  // Serves one checked 2026-07-28 request on a ServerSession of its own over a one-request transport: no
  // thread and no copy of the tools; the answer is the HTTP response, now or when it comes.
  Reply serve_stateless(const HttpRequest& req, ::elicit::Request request) {
    const auto id = request.id;
    auto unavailable = [&](const std::string& why) {
      Reply r =
          rpc_error_reply(503, id, RpcError{error_code::internal_error, "Service Unavailable: " + why, std::nullopt});
      r.headers.emplace_back("Retry-After", "1");
      return r;
    };
    auto server_options = options.server;
    if (options.principal) {
      try {
        server_options.principal = options.principal([&](std::string_view name) { return header(req, name); });
      } catch (...) {  // the application refuses the request; its reasons stay in the application
        return rpc_error_reply(401, id, RpcError{error_code::invalid_request, "Unauthorized", std::nullopt});
      }
    }
    auto ex = new_exchange(id);
    try {
      ex->server = std::make_unique<ServerSession>(ex->transport, core, std::move(server_options));
    } catch (const std::system_error&) {  // not with the shared pool, but be safe
      return unavailable("out of resources");
    }
    std::weak_ptr<StatelessExchange> weak = ex;
    ex->transport.on_done([this, key = ex.get()] { release(key); });
    // Progress and log messages about the request may go out first, as an SSE reply.
    if (const auto accept = lower(header(req, "Accept"));
        accept.find("text/event-stream") != std::string::npos || accept.find("*/*") != std::string::npos) {
      ex->transport.allow_sse(options.max_held_bytes);
    }
    const auto pending = ex->transport.reply();
    auto cancel = [this, weak, id] {
      // The client closed the connection: that cancels the request (MCP 2026-07-28, Streamable
      // HTTP, "Cancellation"), through the session's own cancellation path: the call's on_cancel
      // callbacks run, a blocking handler not started yet never runs, and no answer is sent.
      if (auto e = weak.lock(); e && !e->server->state().rpc().closed()) {
        e->server->state().rpc().deliver(Notification{
            "notifications/cancelled",
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
    ex->server->start();
    ex->server->state().rpc().deliver(std::move(request));
    if (auto r = pending->take()) return std::move(*r);  // answered already (most requests are)
    Reply r;
    r.pending = pending;
    return r;
  }

  // A 2026-07-28 request is over (answered, abandoned or closed): it no longer counts.
  void release(StatelessExchange* key) {
    std::shared_ptr<StatelessExchange> ex;  // dropped after the lock
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = stateless.find(key); it != stateless.end()) {
      ex = std::move(it->second);
      stateless.erase(it);
    }
  }

  // An exchange that, whoever lets go of it last (an I/O thread, the worker that answered, the
  // session's own callback), is destroyed on a worker: destroying its Server waits for its blocking
  // handler's last steps, which must hold up no connection (and cannot happen inside its session).
  std::shared_ptr<StatelessExchange> new_exchange(RequestId id) {
    auto count = exchanges;
    std::weak_ptr<WorkerPool> pool = options.server.workers;
    auto destroy = [pool, count](StatelessExchange* p) {
      auto job = [p, count] {
        delete p;
        std::lock_guard<std::mutex> lock(count->mutex);
        --count->live;
        count->cv.notify_all();
      };
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

  Reply handle_get(const HttpRequest& req) {
    if (auto r = refuse_session_version(req)) return std::move(*r);
    if (lower(header(req, "Accept")).find("text/event-stream") == std::string::npos) {
      return error_reply(406, -32000, "Not Acceptable: GET opens a text/event-stream");
    }
    Reply reply;
    auto session = find_session(req, reply);
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
    return reply;
  }

  Reply handle_delete(const HttpRequest& req) {
    if (auto r = refuse_session_version(req)) return std::move(*r);
    Reply reply;
    auto session = find_session(req, reply);
    if (!session) return reply;
    end_session(session->id);
    reply.status = 200;
    return reply;
  }
};

StreamableHttpServer::StreamableHttpServer(std::shared_ptr<Server> core, HttpServerOptions options) {
  if (!core) throw std::invalid_argument("StreamableHttpServer needs a ServerCore");
  auto info = core->info();
  impl_ = std::make_shared<Impl>(std::move(core), std::move(info), nullptr, std::move(options));
}

StreamableHttpServer::StreamableHttpServer(ServerInfo info, ServerSetup setup, HttpServerOptions options)
    : impl_(std::make_shared<Impl>(nullptr, std::move(info), std::move(setup), std::move(options))) {}

StreamableHttpServer::~StreamableHttpServer() { stop(); }

void StreamableHttpServer::start() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.started) throw std::logic_error("StreamableHttpServer::start() called twice");
    impl.started = true;
  }
  // One pool for the blocking tool handlers of every session and 2026-07-28 request: neither costs a
  // thread.
  if (!impl.options.server.workers) {
    impl.options.server.workers = std::make_shared<WorkerPool>(impl.options.server.worker_threads);
  }
  // The timer thread too, now: a session must not need a thread of its own (with none to be had, a
  // new session would be refused).
  if (!impl.options.server.session.timers) impl.options.server.session.timers = jsonrpc::TimerService::shared();
  if (!impl.core) {
    // The ServerSetup constructor: setup fills the one Server, once.
    auto core = std::make_shared<Server>(impl.info, impl.options.server.request_state);
    if (impl.setup) impl.setup(*core);
    std::lock_guard<std::mutex> lock(impl.mutex);
    impl.core = std::move(core);
  }
  const auto& o = impl.options;
  try {
    const auto address = net::ip::make_address(o.host);
    impl.acceptor.emplace(impl.ioc);
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(o.port));
    impl.acceptor->open(endpoint.protocol());
    impl.acceptor->set_option(net::socket_base::reuse_address(true));
    impl.acceptor->bind(endpoint);
    // The kernel's largest backlog (SOMAXCONN): a burst of connects waits in the queue, not in SYN
    // retransmission.
    impl.acceptor->listen(net::socket_base::max_listen_connections);
    impl.port = impl.acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + e.code().message());
  }
  impl.accept();
  impl.schedule_reaper();
  const auto n = Impl::thread_count(o);
  for (std::size_t i = 0; i < n; ++i) {
    impl.threads.emplace_back([&impl] {
      const jsonrpc::EventThreadScope event_thread;  // a blocking elicit() here would stall every connection
      impl.ioc.run();
    });
  }
}

void StreamableHttpServer::run() {
  start();
  wait();
}

void StreamableHttpServer::wait() {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (!impl.started) throw std::logic_error("StreamableHttpServer::wait() before start()");
  }
  // SIGINT/SIGTERM arrive on an I/O thread, which must not join itself: it only wakes this thread,
  // which stops the server.
  auto signals = std::make_shared<net::signal_set>(impl.ioc, SIGINT, SIGTERM);
  signals->async_wait([&impl](const boost::system::error_code& ec, int) {
    if (ec) return;  // cancelled by stop()
    std::lock_guard<std::mutex> lock(impl.run_mutex);
    impl.run_wake = true;
    impl.run_cv.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(impl.run_mutex);
    impl.run_cv.wait(lock, [&] { return impl.run_wake; });
  }
  net::post(impl.ioc, [signals] {
    boost::system::error_code ec;
    signals->cancel(ec);
  });
  stop();
}

int StreamableHttpServer::port() const noexcept { return impl_->port; }

std::size_t StreamableHttpServer::session_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sessions.size();
}

std::size_t StreamableHttpServer::stateless_request_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stateless.size();
}

std::shared_ptr<Server> StreamableHttpServer::server() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->core;
}

void StreamableHttpServer::stop() {
  auto& impl = *impl_;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  std::unordered_map<StatelessExchange*, std::shared_ptr<StatelessExchange>> stateless;
  std::list<std::weak_ptr<http::Connection>> connections;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopped) return;
    impl.stopped = true;
    sessions.swap(impl.sessions);
    stateless.swap(impl.stateless);
    connections = impl.connections;
  }
  net::post(impl.ioc, [&impl] {
    boost::beast::error_code ec;
    if (impl.acceptor) impl.acceptor->close(ec);
  });
  net::post(impl.reaper.get_executor(), [&impl] { impl.reaper.cancel(); });
  for (auto& [id, s] : sessions) s->server->close();    // ends every open SSE stream
  for (auto& [p, ex] : stateless) ex->server->close();  // their calls end; no answer is sent
  for (auto& weak : connections) {
    if (auto c = weak.lock()) c->close();
  }
  // Give the connections a bounded moment to write their last bytes, then stop the loop.
  for (int i = 0; i < 300; ++i) {
    bool alive = false;
    for (auto& weak : connections) alive = alive || !weak.expired();
    if (!alive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  impl.ioc.stop();
  for (auto& t : impl.threads) {
    if (t.joinable()) t.join();
  }
  impl.threads.clear();
  // 2026-07-28 requests are destroyed on the workers: wait for them, as for the sessions (whose
  // Servers end with `sessions` below), so no handler of this server runs after stop().
  stateless.clear();
  {
    std::unique_lock<std::mutex> lock(impl.exchanges->mutex);
    impl.exchanges->cv.wait(lock, [&] { return impl.exchanges->live == 0; });
  }
  std::lock_guard<std::mutex> lock(impl.run_mutex);  // run() returns once this has finished
  impl.run_wake = true;
  impl.run_cv.notify_all();
}

}  // namespace elicit
