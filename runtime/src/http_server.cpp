#include "elicit/http_server.hpp"

#include <httplib.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace elicit {
namespace {

// One SSE response being written: the events queued for it, and whether the last one is queued.
struct SseStream {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::string> events;
  bool finished = false;  // the final event is queued: end the stream after it
  bool aborted = false;   // the session ended: end the stream now

  void push(std::string message, bool final) {
    std::lock_guard<std::mutex> lock(mutex);
    if (finished || aborted) return;
    events.push_back(std::move(message));
    finished = final;
    cv.notify_all();
  }
  void abort() {
    std::lock_guard<std::mutex> lock(mutex);
    aborted = true;
    cv.notify_all();
  }
};

// The transport of one MCP session: routes each outgoing message to the SSE stream of the request
// it belongs to, or to the session's GET stream, or holds it until a GET stream opens.
class HttpSessionTransport final : public Transport {
 public:
  void start(MessageHandler on_message, CloseHandler on_close) override {
    std::lock_guard<std::mutex> lock(mutex_);
    on_message_ = std::move(on_message);
    on_close_ = std::move(on_close);
  }

  bool send(std::string message, const SendContext& context) override {
    std::shared_ptr<SseStream> stream;
    bool final = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return false;
      if (context.related_request) {
        const auto key = to_string(*context.related_request);
        if (const auto it = request_streams_.find(key); it != request_streams_.end()) {
          stream = it->second;
          final = context.response;
          if (final) request_streams_.erase(it);
        }
      }
      if (!stream) {
        stream = standalone_;
        if (!stream) {
          // Nowhere to send it yet: keep it (bounded) for the next GET stream.
          if (held_.size() >= kMaxHeld) held_.pop_front();
          held_.push_back(std::move(message));
          return true;
        }
      }
    }
    stream->push(std::move(message), final);
    return true;
  }

  void close() override {
    CloseHandler on_close;
    std::vector<std::shared_ptr<SseStream>> streams;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return;
      closed_ = true;
      for (auto& [key, s] : request_streams_) streams.push_back(s);
      request_streams_.clear();
      if (standalone_) streams.push_back(standalone_);
      standalone_.reset();
      on_close = std::move(on_close_);
    }
    for (auto& s : streams) s->abort();
    if (on_close) on_close();
  }

  // Registers the stream for a request before the request is delivered, so nothing is missed.
  std::shared_ptr<SseStream> open_request_stream(const RequestId& id) {
    auto s = std::make_shared<SseStream>();
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return nullptr;
    request_streams_[to_string(id)] = s;
    return s;
  }

  void forget_request_stream(const RequestId& id, const std::shared_ptr<SseStream>& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = request_streams_.find(to_string(id));
    if (it != request_streams_.end() && it->second == s) request_streams_.erase(it);
  }

  // The session's GET stream; nullptr when one is already open (one at a time) or closed.
  std::shared_ptr<SseStream> open_standalone() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || standalone_) return nullptr;
    standalone_ = std::make_shared<SseStream>();
    for (auto& m : held_) standalone_->events.push_back(std::move(m));
    held_.clear();
    return standalone_;
  }

  void forget_standalone(const std::shared_ptr<SseStream>& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (standalone_ == s) standalone_.reset();
  }

  // Hands one received message to the session, one at a time per session.
  bool deliver(std::string message) {
    MessageHandler handler;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return false;
      handler = on_message_;
    }
    std::lock_guard<std::mutex> order(deliver_mutex_);
    if (handler) handler(std::move(message));
    return true;
  }

 private:
  static constexpr std::size_t kMaxHeld = 1024;
  std::mutex mutex_;
  std::mutex deliver_mutex_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  bool closed_ = false;
  std::unordered_map<std::string, std::shared_ptr<SseStream>> request_streams_;
  std::shared_ptr<SseStream> standalone_;
  std::deque<std::string> held_;
};

struct HttpSession {
  std::string id;
  HttpSessionTransport transport;  // declared first: it must outlive the server
  std::unique_ptr<Server> server;
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "localhost:8080" -> "localhost", "[::1]:3000" -> "[::1]".
std::string host_without_port(const std::string& host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    return close == std::string::npos ? host : host.substr(0, close + 1);
  }
  return host.substr(0, host.find(':'));
}

bool is_loopback_name(const std::string& host) {
  const auto h = lower(host);
  return h == "localhost" || h == "127.0.0.1" || h == "[::1]";
}

void json_error(httplib::Response& res, int status, int code, const std::string& message) {
  res.status = status;
  res.set_content(
      nlohmann::json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}}.dump(),
      "application/json");
}

}  // namespace

struct StreamableHttpServer::Impl {
  Impl(ServerInfo i, SessionSetup s, HttpServerOptions o)
      : info(std::move(i)), setup(std::move(s)), options(std::move(o)) {}

  ServerInfo info;
  SessionSetup setup;
  HttpServerOptions options;
  httplib::Server http;
  std::thread thread;
  int port = 0;
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  bool stopped = false;

  bool host_allowed(const httplib::Request& req) const {
    const auto host = host_without_port(req.get_header_value("Host"));
    if (host.empty() || is_loopback_name(host)) return true;  // HTTP/1.0 clients may omit Host
    for (const auto& h : options.allowed_hosts) {
      if (lower(h) == lower(host) || lower(h) == lower(req.get_header_value("Host"))) return true;
    }
    return false;
  }

  bool origin_allowed(const httplib::Request& req) const {
    if (!req.has_header("Origin")) return true;  // not a browser request
    const auto origin = req.get_header_value("Origin");
    for (const auto& o : options.allowed_origins) {
      if (lower(o) == lower(origin)) return true;
    }
    const auto scheme_end = origin.find("://");
    if (scheme_end == std::string::npos) return false;
    const auto scheme = lower(origin.substr(0, scheme_end));
    if (scheme != "http" && scheme != "https") return false;
    return is_loopback_name(host_without_port(origin.substr(scheme_end + 3)));
  }

  // Common checks; false when `res` already holds the rejection.
  bool admit(const httplib::Request& req, httplib::Response& res) const {
    if (!host_allowed(req) || !origin_allowed(req)) {
      json_error(res, 403, -32000, "Forbidden: Host or Origin is not allowed (DNS rebinding protection)");
      return false;
    }
    if (req.has_header("MCP-Protocol-Version")) {
      const auto v = req.get_header_value("MCP-Protocol-Version");
      bool known = v == "2025-03-26";  // the spec's assumed default when the header is absent
      for (const auto& s : supported_protocol_versions()) known = known || s == v;
      if (!known) {
        json_error(res, 400, -32000, "Bad Request: unsupported MCP-Protocol-Version " + v);
        return false;
      }
    }
    return true;
  }

  std::shared_ptr<HttpSession> find_session(const httplib::Request& req, httplib::Response& res) {
    if (!req.has_header("Mcp-Session-Id")) {
      json_error(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = sessions.find(req.get_header_value("Mcp-Session-Id"));
    if (it == sessions.end()) {
      json_error(res, 404, -32001, "Session not found");
      return nullptr;
    }
    return it->second;
  }

  std::shared_ptr<HttpSession> new_session() {
    auto s = std::make_shared<HttpSession>();
    s->id = new_elicitation_id();  // 128 bits from the CSPRNG: unguessable
    s->server = std::make_unique<Server>(s->transport, info, options.server);
    if (setup) setup(*s->server);
    s->server->start();
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) return nullptr;
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

  // Streams `stream` as SSE until its final event, the session's end, or the client's departure.
  void stream_sse(httplib::Response& res, std::shared_ptr<SseStream> stream, std::function<void()> on_end) {
    res.set_header("Cache-Control", "no-cache");
    const auto keepalive = options.keepalive;
    res.set_chunked_content_provider(
        "text/event-stream",
        [stream, keepalive](std::size_t, httplib::DataSink& sink) {
          std::unique_lock<std::mutex> lock(stream->mutex);
          while (true) {
            if (!stream->events.empty()) {
              auto event = "event: message\ndata: " + std::move(stream->events.front()) + "\n\n";
              stream->events.pop_front();
              const bool last = stream->events.empty() && stream->finished;
              lock.unlock();
              if (!sink.write(event.data(), event.size())) return false;
              if (last) {
                sink.done();
                return true;
              }
              lock.lock();
              continue;
            }
            if (stream->aborted) {
              lock.unlock();
              sink.done();
              return true;
            }
            if (!stream->cv.wait_for(lock, keepalive, [&] { return !stream->events.empty() || stream->aborted; })) {
              lock.unlock();
              static constexpr char kPing[] = ": keepalive\n\n";
              if (!sink.is_writable() || !sink.write(kPing, sizeof kPing - 1)) return false;  // client gone
              lock.lock();
            }
          }
        },
        [on_end = std::move(on_end)](bool) { on_end(); });
  }

  void handle_post(const httplib::Request& req, httplib::Response& res) {
    if (!admit(req, res)) return;
    if (lower(req.get_header_value("Content-Type")).rfind("application/json", 0) != 0) {
      json_error(res, 415, -32000, "Unsupported Media Type: POST bodies are application/json");
      return;
    }
    if (req.has_header("Accept")) {
      const auto accept = lower(req.get_header_value("Accept"));
      if (accept.find("text/event-stream") == std::string::npos && accept.find("*/*") == std::string::npos) {
        json_error(res, 406, -32000, "Not Acceptable: the client must accept text/event-stream");
        return;
      }
    }
    auto parsed = parse_message(req.body);
    if (parsed.error) {
      json_error(res, 400, parsed.error->code, parsed.error->message);
      return;
    }
    const auto* request = parsed.message ? std::get_if<Request>(&*parsed.message) : nullptr;
    std::shared_ptr<HttpSession> session;
    if (request && request->method == "initialize") {
      session = new_session();
      if (!session) {
        json_error(res, 503, -32000, "Server is shutting down");
        return;
      }
      res.set_header("Mcp-Session-Id", session->id);
    } else {
      session = find_session(req, res);
      if (!session) return;
    }
    if (!request) {  // a notification, or the client's response to our request
      session->transport.deliver(req.body);
      res.status = 202;
      return;
    }
    auto stream = session->transport.open_request_stream(request->id);
    if (!stream) {
      json_error(res, 404, -32001, "Session not found");
      return;
    }
    const auto id = request->id;
    std::weak_ptr<HttpSession> weak = session;
    session->transport.deliver(req.body);
    stream_sse(res, stream, [weak, id, stream] {
      if (auto s = weak.lock()) s->transport.forget_request_stream(id, stream);
    });
  }

  void handle_get(const httplib::Request& req, httplib::Response& res) {
    if (!admit(req, res)) return;
    if (lower(req.get_header_value("Accept")).find("text/event-stream") == std::string::npos) {
      json_error(res, 406, -32000, "Not Acceptable: GET opens a text/event-stream");
      return;
    }
    auto session = find_session(req, res);
    if (!session) return;
    auto stream = session->transport.open_standalone();
    if (!stream) {
      json_error(res, 409, -32000, "Conflict: this session already has a GET stream");
      return;
    }
    std::weak_ptr<HttpSession> weak = session;
    stream_sse(res, stream, [weak, stream] {
      if (auto s = weak.lock()) s->transport.forget_standalone(stream);
    });
  }

  void handle_delete(const httplib::Request& req, httplib::Response& res) {
    if (!admit(req, res)) return;
    auto session = find_session(req, res);
    if (!session) return;
    end_session(session->id);
    res.status = 200;
  }
};

StreamableHttpServer::StreamableHttpServer(ServerInfo info, SessionSetup setup, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(info), std::move(setup), std::move(options))) {
  auto* impl = impl_.get();
  auto& http = impl_->http;
  const auto threads = impl_->options.http_threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(impl_->options.max_request_bytes);
  http.set_read_timeout(impl_->options.io_timeout);
  http.set_write_timeout(impl_->options.io_timeout);
  const auto& path = impl_->options.path;
  http.Post(path, [impl](const httplib::Request& req, httplib::Response& res) { impl->handle_post(req, res); });
  http.Get(path, [impl](const httplib::Request& req, httplib::Response& res) { impl->handle_get(req, res); });
  http.Delete(path, [impl](const httplib::Request& req, httplib::Response& res) { impl->handle_delete(req, res); });
}

StreamableHttpServer::~StreamableHttpServer() { stop(); }

void StreamableHttpServer::start() {
  auto& o = impl_->options;
  impl_->port =
      o.port == 0 ? impl_->http.bind_to_any_port(o.host) : (impl_->http.bind_to_port(o.host, o.port) ? o.port : -1);
  if (impl_->port <= 0) throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port));
  impl_->thread = std::thread([impl = impl_.get()] { impl->http.listen_after_bind(); });
}

int StreamableHttpServer::port() const noexcept { return impl_->port; }

std::size_t StreamableHttpServer::session_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sessions.size();
}

void StreamableHttpServer::stop() {
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopped = true;
    sessions.swap(impl_->sessions);
  }
  for (auto& [id, s] : sessions) s->server->close();  // ends every open SSE stream
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace elicit
