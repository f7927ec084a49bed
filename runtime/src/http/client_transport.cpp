// HttpClientTransport (http_client_transport.hpp): Streamable HTTP, client side, on Boost.Beast.
#include "elicit/http/client_transport.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "client_stream.hpp"
#include "elicit/http/ascii_case.hpp"
#include "elicit/jsonrpc/message.hpp"
#include "elicit/protocol/param_headers.hpp"
#include "elicit/url_safety.hpp"
#include "tls_client.hpp"
#include "transport_failure.hpp"

namespace elicit::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;

// Idle connections kept for reuse, at most. Exchanges run side by side (an SSE stream can last as
// long as a form is open), so a few more than one; more are closed once their exchange ends.
constexpr std::size_t kMaxIdleConnections = 8;

// SSE resumption (2025-11-25, Streamable HTTP, "Resumability and Redelivery"): the wait when a
// stream gave no `retry` (the SSE standard leaves it to the client), the longest `retry` honoured (a
// larger one is taken as this), and the bounds on reconnecting one request's stream.
constexpr std::chrono::milliseconds kDefaultRetry{1000};
constexpr std::chrono::milliseconds kLongestRetry{600000};
constexpr int kMaxFruitlessResumptions = 3;
constexpr int kMaxResumptions = 1000;

// Where an SSE stream stands: the last event id it gave (the SSE "last event ID buffer", sent back
// as Last-Event-ID), the last `retry` (ms), and how many events it carried.
struct SseCursor {
  std::optional<std::string> last_event_id;
  std::optional<std::chrono::milliseconds> retry;
  std::size_t events = 0;
};

// True when `name: value` may go on the wire as given: a token name and a value of visible ASCII,
// spaces and tabs (RFC 9110 sections 5.1, 5.5), so a SendContext header cannot split the request.
bool sendable_field(const std::string& name, const std::string& value) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool tchar = std::isalnum(static_cast<unsigned char>(c)) ||
                       std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!tchar) return false;
  }
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (!(u == '\t' || (u >= 0x20 && u < 0x7F))) return false;
  }
  return true;
}

// A response's Content-Type ("" when it has none).
template <class Fields>
std::string_view content_type(const Fields& head) {
  const auto v = head[bhttp::field::content_type];
  return {v.data(), v.size()};
}

}  // namespace

struct HttpClientTransport::Impl : std::enable_shared_from_this<Impl> {
  HttpClientOptions options;
  ClientEndpoint endpoint;
  std::shared_ptr<boost::asio::ssl::context> tls;  // https only
  std::shared_ptr<ClientAuthorization> oauth;      // options.authorization
  MessageHandler on_message;
  CloseHandler on_close;

  std::mutex mutex;  // guards what follows
  std::condition_variable idle;
  std::string session_id;
  std::string protocol_version;
  std::set<int> sockets;                                        // of the exchanges in progress, shut down by close()
  std::vector<std::unique_ptr<ClientStream>> idle_connections;  // kept alive for the next exchange
  // Notifications sent and not yet accepted by the server, by send order. Each message is POSTed
  // on a thread of its own, so without this a request could overtake the notification sent before
  // it: notifications/initialized must reach the server before the session's first request
  // (Lifecycle, "Initialization"; a server may only then know the client's capabilities).
  std::uint64_t next_sequence = 0;
  std::set<std::uint64_t> notifications_in_flight;
  std::condition_variable notification_done;
  std::size_t active = 0;
  std::condition_variable stopping;  // wakes resumption waits when close() begins
  bool closing = false;
  bool close_called = false;

  std::mutex deliver_mutex;  // one message at a time into the session

  void deliver(const std::string& text) {
    std::lock_guard<std::mutex> lock(deliver_mutex);
    {
      std::lock_guard<std::mutex> state(mutex);
      if (closing) return;
    }
    if (on_message) on_message(text);
  }

  // A JSON-RPC error for request `id` made here, when the server gave none: marked as the
  // transport's (transport_failure.hpp), with a hint where one is known.
  void fail_request(const nlohmann::json& id, const TransportFailure& failure) {
    if (id.is_null()) return;
    nlohmann::json e{{"jsonrpc", "2.0"}, {"id", id}, {"error", transport_failure_error(failure, options.url)}};
    deliver(e.dump());
  }

  // A connection for the next exchange: a kept one the server has not closed (reused = true), or a
  // new one within `timeout`. Registered for close(). Null, with `error` saying why, when none can be
  // had or the transport is closing.
  // `in_tls` (may be null): set when a new connection failed in its TLS handshake.
  std::unique_ptr<ClientStream> take_connection(std::chrono::milliseconds timeout, bool& reused, std::string& error,
                                                bool* in_tls = nullptr) {
    reused = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (!idle_connections.empty()) {
        auto kept = std::move(idle_connections.back());
        idle_connections.pop_back();
        if (kept->usable_after_idle()) {
          sockets.insert(kept->native_handle());
          reused = true;
          return kept;
        }
      }
    }
    auto fresh = ClientStream::open(endpoint, tls.get(), timeout, error, in_tls);
    if (!fresh) return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (closing) {
      error = "the transport is closing";
      return nullptr;
    }
    sockets.insert(fresh->native_handle());
    return fresh;
  }

  // The exchange on `connection` is over. `reusable`: its response was read to the end and the
  // server keeps the connection alive, so it is kept for a later exchange; otherwise it is closed.
  void release(std::unique_ptr<ClientStream> connection, bool reusable) {
    std::lock_guard<std::mutex> lock(mutex);
    sockets.erase(connection->native_handle());
    if (reusable && !closing && idle_connections.size() < kMaxIdleConnections) {
      idle_connections.push_back(std::move(connection));
    } else {
      connection->close();
    }
  }

  // Waits until every notification sent before message `sequence` has been accepted (or failed),
  // or the transport closes. Bounded: each of those exchanges ends within the connect timeout
  // plus the server's answer, and close() shuts them down.
  void wait_for_earlier_notifications(std::uint64_t sequence) {
    std::unique_lock<std::mutex> lock(mutex);
    notification_done.wait(lock, [&] {
      return closing || notifications_in_flight.empty() || *notifications_in_flight.begin() >= sequence;
    });
  }

  void notification_finished(std::uint64_t sequence) {
    std::lock_guard<std::mutex> lock(mutex);
    notifications_in_flight.erase(sequence);
    notification_done.notify_all();
  }

  // The caller's HttpClientOptions::headers, and the current access token, on a request that is not
  // retried after a 401 (the GET stream, DELETE): authorization must be on every request (MCP
  // Authorization, "Token Requirements").
  template <class Request>
  void set_authorization(Request& req) {
    for (const auto& [name, value] : options.headers) req.set(name, value);  // checked by the constructor
    if (!oauth) return;
    const auto value = oauth->authorization();
    if (!value.empty()) req.set(bhttp::field::authorization, value);
  }

  // Sends `req` and reads the answer's head into a new parser. A kept connection the server closed
  // just as the request went out fails before any byte of an answer arrives: the server never read
  // the request, so it goes once more on a new one (as browsers and curl do). A second failure, or
  // one on a new connection, is left in `ec`. False, with `why`, when no connection can be had.
  bool send_and_read_head(bhttp::request<bhttp::string_body>& req, std::unique_ptr<ClientStream>& connection,
                          beast::flat_buffer& buffer, std::optional<bhttp::response_parser<bhttp::string_body>>& parser,
                          beast::error_code& ec, std::string& why, bool& in_tls) {
    for (int attempt = 0;; ++attempt) {
      bool reused = false;
      connection = take_connection(options.connect_timeout, reused, why, &in_tls);
      if (!connection) return false;
      ec = {};
      buffer.clear();
      parser.emplace();
      parser->body_limit(options.max_message_bytes);
      parser->header_limit(64 * 1024);
      connection->with([&](auto& stream) { bhttp::write(stream, req, ec); });
      if (!ec) connection->with([&](auto& stream) { bhttp::read_header(stream, buffer, *parser, ec); });
      if (ec && reused && attempt == 0 && buffer.size() == 0) {
        release(std::move(connection), false);
        continue;
      }
      return true;
    }
  }

  // One POST and its answer: the body of a thread.
  // `fields`: SendContext::headers, sent with the POST.
  void exchange(const std::string& text, const nlohmann::json& message, std::uint64_t sequence,
                const std::vector<std::pair<std::string, std::string>>& fields) {
    wait_for_earlier_notifications(sequence);
    const auto id = message.contains("method") && message.contains("id") ? message["id"] : nlohmann::json();
    const auto method = message.value("method", std::string());
    bool answered = false;
    // An error response with a null id (JSON-RPC 2.0: the server could not tell which request it
    // answers; servers send one with a 400 or a 404): kept, and reported as this request's failure
    // with its HTTP status, rather than delivered where no request can take it.
    nlohmann::json null_id_error;
    // Each message the server sends back: the response to this request is noted, and an
    // initialize result names the session's protocol version.
    const auto received = [&](const std::string& data) {
      const auto m = nlohmann::json::parse(data, nullptr, false);
      if (!m.is_discarded() && m.is_object() && !id.is_null() && !m.contains("method") && m.contains("error") &&
          m.contains("id") && m["id"].is_null() && m["error"].is_object()) {
        null_id_error = m["error"];
        return;
      }
      if (!m.is_discarded() && m.is_object() && !id.is_null() && m.value("id", nlohmann::json()) == id &&
          !m.contains("method")) {
        answered = true;
        if (method == "initialize" && m.contains("result") && m["result"].is_object()) {
          std::lock_guard<std::mutex> lock(mutex);
          protocol_version = m["result"].value("protocolVersion", protocol_version);
        }
      }
      deliver(data);
    };
    bhttp::request<bhttp::string_body> req{bhttp::verb::post, endpoint.target, 11};
    req.set(bhttp::field::host, endpoint.host_header);
    req.set(bhttp::field::content_type, "application/json");
    req.set(bhttp::field::accept, "application/json, text/event-stream");
    // A 2026-07-28 request's header names the version its _meta carries (they must match,
    // Streamable HTTP, "Protocol Version Header"; the client may retry another version after
    // -32022); otherwise the session's.
    std::string meta_version;
    {
      if (const auto p = message.find("params"); p != message.end() && p->is_object()) {
        if (const auto m = p->find("_meta"); m != p->end() && m->is_object()) {
          const auto v = m->find("io.modelcontextprotocol/protocolVersion");
          if (v != m->end() && v->is_string()) meta_version = v->get<std::string>();
        }
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (method != "initialize")
          req.set("MCP-Protocol-Version", meta_version.empty() ? protocol_version : meta_version);
        if (!session_id.empty()) req.set("Mcp-Session-Id", session_id);
      }
      if (!method.empty()) {
        req.set("Mcp-Method", method);
        const auto& p = message.value("params", nlohmann::json::object());
        const char* name_field = mcp_name_member(method);
        if (name_field && p.is_object() && p.contains(name_field) && p[name_field].is_string())
          req.set("Mcp-Name", encode_header_value(p[name_field].get<std::string>()));
      }
      // The caller's fields (a tools/call's Mcp-Param-*), never in place of the transport's own.
      for (const auto& [name, value] : fields) {
        const auto l = ascii_lower(name);
        const bool own = l == "host" || l == "content-type" || l == "content-length" || l == "accept" ||
                         l == "transfer-encoding" || l == "connection" || l == "mcp-protocol-version" ||
                         l == "mcp-session-id" || l == "mcp-method" || l == "mcp-name" || l == "last-event-id" ||
                         l == "authorization";
        if (!own && sendable_field(name, value)) req.set(name, value);
      }
      for (const auto& [name, value] : options.headers) req.set(name, value);  // checked by the constructor
      req.body() = text;
      req.prepare_payload();
    }
    std::unique_ptr<ClientStream> connection;
    beast::error_code ec;
    beast::flat_buffer buffer;
    std::optional<bhttp::response_parser<bhttp::string_body>> parser_slot;
    // MCP Authorization: a 401 is answered with a renewed token (ClientAuthorization::unauthorized)
    // and the request sent again; a 403 as ClientAuthorization::forbidden says (the OAuth client
    // steps up on insufficient_scope, a bounded number of times).
    std::optional<ClientAuthorization::Renewal> renewed;  // this request's last answer to a 401
    int renewals = 0;
    int step_ups = 0;
    for (;;) {
      std::string sent_authorization;
      if (oauth) {
        sent_authorization = oauth->authorization();
        if (!sent_authorization.empty()) req.set(bhttp::field::authorization, sent_authorization);
      }
      std::string why;
      bool in_tls = false;
      if (!send_and_read_head(req, connection, buffer, parser_slot, ec, why, in_tls)) {
        // A server reached whose TLS was not accepted (certificate, name, protocol) is told apart
        // from one not reached at all.
        fail_request(id, {in_tls ? "tls" : "connect", "cannot connect to " + options.url + ": " + why});
        return;
      }
      if (!oauth || ec) break;
      const auto& head = parser_slot->get();
      const auto status = head.result_int();
      if (status != 401 && status != 403) break;
      std::string challenges;
      for (auto [it, end] = head.equal_range(bhttp::field::www_authenticate); it != end; ++it)
        challenges += (challenges.empty() ? "" : ", ") + std::string(it->value());
      bool again = false;
      try {
        // After a 401: a token at hand, a refresh, a new authorization, each refused in turn, is
        // tried once more; a new authorization refused ends it (no second sign-in for one request).
        if (status == 401 && renewed != ClientAuthorization::Renewal::authorized && renewals < 3) {
          ++renewals;
          renewed = oauth->unauthorized(sent_authorization, challenges);
          again = true;
        } else if (status == 403 && !challenges.empty()) {
          again = oauth->forbidden(sent_authorization, challenges, step_ups++);
        }
      } catch (const std::exception& e) {  // e.g. auth::OAuthError, or what its provider threw
        release(std::move(connection), false);
        fail_request(id, {"authorization", "authorization for " + options.url + " failed: " + e.what()});
        return;
      }
      if (!again) break;
      // The refusal's body is read so that the connection can carry the retry.
      if (!parser_slot->is_done())
        connection->with([&](auto& stream) { bhttp::read(stream, buffer, *parser_slot, ec); });
      release(std::move(connection), !ec && parser_slot->is_done() && parser_slot->keep_alive());
    }
    auto& parser = *parser_slot;
    // A notification is accepted once the server has answered its POST (202, or a body): later
    // messages may go now. After notifications/initialized, only once the session's GET stream is
    // open too: a server sends a request made outside any request's stream (e.g. a tool's
    // elicitation that names no request) there, and fails it when no stream is open yet.
    if (id.is_null()) {
      const int code = ec ? 0 : static_cast<int>(parser.get().result_int());
      bool has_session = false;
      {
        std::lock_guard<std::mutex> lock(mutex);
        has_session = !session_id.empty();
      }
      if (method == "notifications/initialized" && code >= 200 && code < 300 && has_session) {
        auto opened = std::make_shared<std::promise<void>>();
        auto ready = opened->get_future();
        // listen() sets it once its answer's head is read or failed (close() shuts the socket
        // down); a server that holds the head back delays the session by connect_timeout at most.
        if (spawn([this, opened] { listen(*opened); })) ready.wait_for(options.connect_timeout);
      }
      notification_finished(sequence);
    }
    if (ec) {
      release(std::move(connection), false);
      if (!answered) fail_request(id, {"no_answer", "no answer from " + options.url + ": " + ec.message()});
      return;
    }
    const auto& head = parser.get();
    const int status = static_cast<int>(head.result_int());
    if (const auto sid = head.find("Mcp-Session-Id"); sid != head.end()) {
      std::lock_guard<std::mutex> lock(mutex);
      session_id = std::string(sid->value());
    }
    // Read before the body is: nothing refers into the parser's head afterwards.
    const bool sse = starts_with_nocase(content_type(head), "text/event-stream");
    const bool json_body = starts_with_nocase(content_type(head), "application/json");
    SseCursor cursor;
    if (sse) {
      read_events(*connection, buffer, parser, received, cursor);
    } else if (status != 202 && !parser.is_done()) {  // a 202 has no body to wait for
      connection->with([&](auto& stream) { bhttp::read(stream, buffer, parser, ec); });
    }
    const bool reusable = !ec && parser.is_done() && parser.keep_alive();
    std::string body;
    if (!ec && status != 202 && json_body) body = std::move(parser.get().body());
    // Kept before the answer is delivered: the caller's next request, sent as soon as it has this
    // answer, then finds the connection idle and reuses it.
    release(std::move(connection), reusable);
    if (!body.empty()) received(body);
    // A request's stream that ended before its response, after an event id: resumed (2025-11-25;
    // 2026-07-28 streams are not resumable, and a request's version is in its _meta then).
    if (sse && !answered && !id.is_null() && cursor.last_event_id && meta_version.empty())
      resume(cursor, received, answered);
    if (!answered) {
      std::string why = "HTTP " + std::to_string(status) + " from " + options.url;
      if (null_id_error.is_object() && null_id_error.contains("message") && null_id_error["message"].is_string())
        why += ": " + null_id_error["message"].get<std::string>();
      else
        why += " without a JSON-RPC response";
      fail_request(id, {"http_status", std::move(why), status, std::move(null_id_error)});
    }
  }

  // Reads SSE events until the stream ends, or until `*until` is true after an event; each event's
  // data lines, joined, is one message. `cursor` follows the stream's ids and retry.
  template <class Received>
  void read_events(ClientStream& connection, beast::flat_buffer& buffer,
                   bhttp::response_parser<bhttp::string_body>& parser, const Received& received, SseCursor& cursor,
                   const bool* until = nullptr) {
    std::string pending;
    while (!parser.is_done() && !(until && *until)) {
      beast::error_code ec;
      connection.with([&](auto& stream) { bhttp::read_some(stream, buffer, parser, ec); });
      if (ec && ec != bhttp::error::need_buffer) return;
      pending += parser.get().body();
      parser.get().body().clear();
      if (pending.size() > options.max_message_bytes) return;  // one event that large: refused
      while (!(until && *until)) {
        // Events end with a blank line; lines end with \n, \r\n or \r.
        std::size_t end = std::string::npos, skip = 0;
        for (const char* sep : {"\r\n\r\n", "\n\n", "\r\r"}) {
          const auto at = pending.find(sep);
          if (at != std::string::npos && at < end) {
            end = at;
            skip = std::char_traits<char>::length(sep);
          }
        }
        if (end == std::string::npos) break;
        const auto event = pending.substr(0, end);
        pending.erase(0, end + skip);
        std::string data;
        bool has_data = false;
        std::size_t start = 0;
        while (start <= event.size()) {
          auto stop = event.find_first_of("\r\n", start);
          if (stop == std::string::npos) stop = event.size();
          const auto line = event.substr(start, stop - start);
          if (line.rfind("data:", 0) == 0) {
            auto value = line.substr(5);
            if (!value.empty() && value[0] == ' ') value.erase(0, 1);
            if (has_data) data += '\n';
            data += value;
            has_data = true;
          } else if (line.rfind("id:", 0) == 0) {
            // The SSE standard: an id with a NUL is ignored; an empty one resets the buffer.
            auto value = line.substr(3);
            if (!value.empty() && value[0] == ' ') value.erase(0, 1);
            if (value.find('\0') == std::string::npos) {
              if (value.empty()) {
                cursor.last_event_id.reset();
              } else {
                cursor.last_event_id = value;
              }
            }
          } else if (line.rfind("retry:", 0) == 0) {
            // ASCII digits only, else ignored (the SSE standard).
            auto value = line.substr(6);
            if (!value.empty() && value[0] == ' ') value.erase(0, 1);
            if (!value.empty() && value.size() <= 9 && value.find_first_not_of("0123456789") == std::string::npos)
              cursor.retry = std::min(std::chrono::milliseconds(std::stol(value)), kLongestRetry);
          }
          start = stop + 1;
        }
        ++cursor.events;
        if (has_data && !data.empty()) received(data);  // an empty data is a priming event
      }
    }
  }

  // Runs `body` on a thread of its own, counted in `active` (close() waits for it). False when the
  // transport is closing or no thread can be had.
  template <class Body>
  bool spawn(Body body) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (closing) return false;
      ++active;
    }
    auto self = shared_from_this();
    try {
      std::thread([self, body = std::move(body)] {
        try {
          body();
        } catch (const std::exception&) {  // e.g. allocation: the stream just ends
        }
        release_thread_tls_state();  // before close() can see this thread done (tls_client.hpp)
        std::lock_guard<std::mutex> lock(self->mutex);
        --self->active;
        self->idle.notify_all();
      }).detach();
    } catch (const std::system_error&) {
      std::lock_guard<std::mutex> lock(mutex);
      --active;
      return false;
    }
    return true;
  }

  // Resumes a request's SSE stream that ended before `answered` (2025-11-25, Streamable HTTP,
  // "Resumability and Redelivery"): waits the stream's `retry` (the client "MUST respect" it), GETs
  // with Last-Event-ID and reads the resumed stream until the response; again while the stream ends
  // without it. Bounded (kMaxResumptions, kMaxFruitlessResumptions); close() ends the wait at once.
  template <class Received>
  void resume(SseCursor& cursor, const Received& received, const bool& answered) {
    int fruitless = 0;
    for (int attempt = 0;
         attempt < kMaxResumptions && fruitless < kMaxFruitlessResumptions && !answered && cursor.last_event_id;
         ++attempt) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        stopping.wait_for(lock, cursor.retry.value_or(kDefaultRetry), [&] { return closing; });
        if (closing) return;
      }
      const auto events_before = cursor.events;
      bool reused = false;
      std::string why;
      auto connection = take_connection(options.connect_timeout, reused, why);
      if (!connection) return;
      bhttp::request<bhttp::empty_body> req{bhttp::verb::get, endpoint.target, 11};
      req.set(bhttp::field::host, endpoint.host_header);
      req.set(bhttp::field::accept, "text/event-stream");
      req.set("Last-Event-ID", *cursor.last_event_id);
      set_authorization(req);
      {
        std::lock_guard<std::mutex> lock(mutex);
        req.set("MCP-Protocol-Version", protocol_version);
        if (!session_id.empty()) req.set("Mcp-Session-Id", session_id);
      }
      beast::error_code ec;
      beast::flat_buffer buffer;
      bhttp::response_parser<bhttp::string_body> parser;
      parser.body_limit(std::numeric_limits<std::uint64_t>::max());  // each event is limited by read_events
      parser.header_limit(64 * 1024);
      connection->with([&](auto& stream) { bhttp::write(stream, req, ec); });
      if (!ec) connection->with([&](auto& stream) { bhttp::read_header(stream, buffer, parser, ec); });
      const auto& head = parser.get();
      if (!ec && head.result_int() == 200 && starts_with_nocase(content_type(head), "text/event-stream"))
        read_events(*connection, buffer, parser, received, cursor, &answered);
      // Read to its end only when the server ended it; otherwise (the response came) it is closed.
      release(std::move(connection), !ec && parser.is_done() && parser.keep_alive());
      fruitless = cursor.events == events_before ? fruitless + 1 : 0;
    }
  }

  // The session's GET stream (2025-11-25, Streamable HTTP, "Listening for Messages from the
  // Server"): what the server sends outside any request's POST stream, e.g. an elicitation/create
  // a tool makes without naming its request, or notifications/elicitation/complete. Opened once,
  // after notifications/initialized was accepted; a server without one answers 405. Not reopened
  // when it ends (resuming with Last-Event-ID: not yet).
  void listen(std::promise<void>& opened) {
    // Set however this ends: the POST that started it waits for it.
    struct Opened {
      std::promise<void>& p;
      bool done = false;
      void set() {
        if (!done) p.set_value();
        done = true;
      }
      ~Opened() { set(); }
    } signal{opened};
    bool reused = false;
    std::string why;
    auto connection = take_connection(options.connect_timeout, reused, why);
    if (!connection) return;
    beast::error_code ec;
    bhttp::request<bhttp::empty_body> req{bhttp::verb::get, endpoint.target, 11};
    req.set(bhttp::field::host, endpoint.host_header);
    req.set(bhttp::field::accept, "text/event-stream");
    set_authorization(req);
    {
      std::lock_guard<std::mutex> lock(mutex);
      req.set("MCP-Protocol-Version", protocol_version);
      if (!session_id.empty()) req.set("Mcp-Session-Id", session_id);
    }
    connection->with([&](auto& stream) { bhttp::write(stream, req, ec); });
    beast::flat_buffer buffer;
    bhttp::response_parser<bhttp::string_body> parser;
    // The stream lasts as long as the session: no limit on its total length (each event is
    // still limited by read_events).
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    parser.header_limit(64 * 1024);
    if (!ec) connection->with([&](auto& stream) { bhttp::read_header(stream, buffer, parser, ec); });
    signal.set();
    const auto& head = parser.get();
    SseCursor cursor;
    if (!ec && head.result_int() == 200 && starts_with_nocase(content_type(head), "text/event-stream"))
      read_events(
          *connection, buffer, parser, [this](const std::string& data) { deliver(data); }, cursor);
    release(std::move(connection), false);
  }

  void remove_session() {
    std::string sid;
    {
      std::lock_guard<std::mutex> lock(mutex);
      sid = session_id;
    }
    if (sid.empty()) return;
    bool reused = false;
    std::string why;
    auto connection = take_connection(std::chrono::milliseconds(1000), reused, why);
    if (!connection) return;
    bhttp::request<bhttp::empty_body> req{bhttp::verb::delete_, endpoint.target, 11};
    req.set(bhttp::field::host, endpoint.host_header);
    req.set("Mcp-Session-Id", sid);
    req.set("MCP-Protocol-Version", protocol_version);
    set_authorization(req);
    beast::error_code ec;
    connection->with([&](auto& stream) { bhttp::write(stream, req, ec); });
    // The answer is not waited for: the session ends either way.
    release(std::move(connection), false);
  }
};

HttpClientTransport::HttpClientTransport(HttpClientOptions options) : impl_(std::make_shared<Impl>()) {
  auto& i = *impl_;
  i.options = std::move(options);
  i.protocol_version = i.options.protocol_version;
  try {
    i.endpoint = parse_client_endpoint(i.options.url);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("HttpClientTransport: ") + e.what());
  }
  if (i.endpoint.tls) {
    try {
      i.tls = verifying_client_context(i.options.ca_file);
    } catch (const std::runtime_error& e) {
      throw std::invalid_argument(std::string("HttpClientTransport: ") + e.what());
    }
  }
  for (const auto& [name, value] : i.options.headers) {
    const auto l = ascii_lower(name);
    const bool own = l == "host" || l.rfind("content-", 0) == 0 || l == "accept" || l == "connection" ||
                     l == "transfer-encoding" || l == "te" || l == "upgrade" || l == "last-event-id" ||
                     l == "authorization" || l.rfind("mcp-", 0) == 0;
    if (own || !sendable_field(name, value))
      throw std::invalid_argument("HttpClientTransport: header field '" + name + "' cannot be sent: " +
                                  (own ? "the transport sets it" : "not a token name and a visible-ASCII value"));
  }
  if (i.options.authorization) {
    // OAuth 2.1 section 1.5: bearer tokens travel over TLS only (loopback is this machine).
    if (!review_url(i.options.url).allowed) {
      throw std::invalid_argument("HttpClientTransport: authorization needs https (plain http only to loopback): " +
                                  i.options.url);
    }
    i.oauth = i.options.authorization;
  }
}

HttpClientTransport::~HttpClientTransport() { close(); }

std::string HttpClientTransport::peer() const { return impl_->options.url; }

void HttpClientTransport::start(MessageHandler on_message, CloseHandler on_close) {
  impl_->on_message = std::move(on_message);
  impl_->on_close = std::move(on_close);
}

bool HttpClientTransport::send(std::string message, const SendContext& context) {
  auto message_json = nlohmann::json::parse(message, nullptr, false);
  if (message_json.is_discarded() || !message_json.is_object()) return false;
  const bool notification = message_json.contains("method") && !message_json.contains("id");
  std::uint64_t sequence = 0;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (impl_->closing) return false;
    ++impl_->active;
    sequence = impl_->next_sequence++;
    if (notification) impl_->notifications_in_flight.insert(sequence);
  }
  auto impl = impl_;
  try {
    std::thread([impl, sequence, notification, message = std::move(message), message_json = std::move(message_json),
                 fields = context.headers] {
      try {
        impl->exchange(message, message_json, sequence, fields);
      } catch (const std::exception& e) {  // e.g. allocation; the request must still end
        const auto id = message_json.contains("method") ? message_json.value("id", nlohmann::json()) : nlohmann::json();
        impl->fail_request(id, {"exchange", std::string("the exchange failed: ") + e.what()});
      }
      if (notification) impl->notification_finished(sequence);  // however it ended
      release_thread_tls_state();  // before close() can see this thread done (tls_client.hpp)
      std::lock_guard<std::mutex> lock(impl->mutex);
      --impl->active;
      impl->idle.notify_all();
    }).detach();
  } catch (const std::system_error&) {  // no thread to be had: the message is not sent
    std::lock_guard<std::mutex> lock(impl_->mutex);
    --impl_->active;
    impl_->notifications_in_flight.erase(sequence);
    impl_->notification_done.notify_all();
    return false;
  }
  return true;
}

void HttpClientTransport::close() {
  auto& i = *impl_;
  {
    std::lock_guard<std::mutex> lock(i.mutex);
    if (i.close_called) return;
    i.close_called = true;
  }
  i.remove_session();
  {
    std::unique_lock<std::mutex> lock(i.mutex);
    i.closing = true;
    i.notification_done.notify_all();
    i.stopping.notify_all();
    for (const int fd : i.sockets) ::shutdown(fd, SHUT_RDWR);  // ends blocked reads at once
    i.idle.wait(lock, [&] { return i.active == 0; });
    i.idle_connections.clear();
  }
  // No delivery is in progress any more (closing is checked under deliver_mutex).
  std::lock_guard<std::mutex> lock(i.deliver_mutex);
  if (i.on_close) i.on_close();
}

}  // namespace elicit::http
