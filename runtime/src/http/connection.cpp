#include "connection.hpp"

#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <tuple>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <nlohmann/json.hpp>

#include "elicit/http/ascii_case.hpp"

namespace elicit::http {

namespace bhttp = beast::http;

Reply error_reply(unsigned status, int code, const std::string& message) {
  Reply r;
  r.status = status;
  r.content_type = "application/json";
  r.body = nlohmann::json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

void PendingReply::on_abandon(std::function<void()> f) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_abandon_ = std::move(f);
}

bool PendingReply::fulfil(Reply reply) {
  std::function<void(Reply)> waiter;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_ || reply_) return false;
    on_abandon_ = nullptr;  // it may hold what gives the reply: break the cycle
    if (!waiter_) {
      reply_ = std::move(reply);
      return true;
    }
    done_ = true;
    waiter = std::move(waiter_);
  }
  waiter(std::move(reply));
  return true;
}

std::optional<Reply> PendingReply::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (done_ || !reply_) return std::nullopt;
  done_ = true;
  auto r = std::move(reply_);
  reply_.reset();
  return r;
}

void PendingReply::wait(std::function<void(Reply)> ready) {
  std::optional<Reply> reply;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_) return;
    if (!reply_) {
      waiter_ = std::move(ready);
      return;
    }
    done_ = true;
    reply = std::move(reply_);
    reply_.reset();
  }
  ready(std::move(*reply));
}

void PendingReply::abandon() {
  std::function<void()> f;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_) return;
    done_ = true;
    waiter_ = nullptr;
    if (reply_) return;  // given, only not written: nothing to cancel
    f = std::move(on_abandon_);
  }
  if (f) f();
}

Connection::Connection(net::ip::tcp::socket socket, const ConnectionLimits& limits, Handler handler,
                       std::shared_ptr<net::ssl::context> tls)
    : tls_context_(std::move(tls)),
      socket_(std::move(socket)),
      limits_(limits),
      handler_(std::move(handler)),
      deadline_timer_(socket_.get_executor()),
      keepalive_timer_(socket_.get_executor()) {}

void Connection::start() {
  net::dispatch(socket_.get_executor(), [self = shared_from_this()] {
    if (!self->tls_context_) return self->read_request();
    // TLS: the handshake first, within the time allowed for a request.
    self->tls_ = std::make_unique<TlsStream>(self->socket_, *self->tls_context_);
    self->expires_after(self->limits_.request_timeout);
    self->tls_->async_handshake(net::ssl::stream_base::server, [self](beast::error_code ec) {
      if (ec || self->closed_) return self->shutdown();  // not TLS, an untrusted certificate, a too old version
      self->read_request();
    });
  });
}

void Connection::close() {
  net::post(socket_.get_executor(), [self = shared_from_this()] { self->shutdown(); });
}

void Connection::expires_after(std::chrono::milliseconds timeout) {
  deadline_ = std::chrono::steady_clock::now() + timeout;
  // Moving the deadline later only moves the time point; the timer is set again only when it
  // would wake too late.
  if (!deadline_armed_ || deadline_ < deadline_timer_.expiry()) arm_deadline();
}

void Connection::expires_never() { deadline_ = std::chrono::steady_clock::time_point::max(); }

void Connection::arm_deadline() {
  deadline_armed_ = true;
  deadline_timer_.expires_at(deadline_);  // a wait already pending ends with operation_aborted
  deadline_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->closed_) return;  // set again (a newer wait is pending), or closed
    self->deadline_armed_ = false;
    if (std::chrono::steady_clock::now() >= self->deadline_) return self->shutdown();  // timed out
    if (self->deadline_ != std::chrono::steady_clock::time_point::max()) self->arm_deadline();
  });
}

void Connection::wind_down() {
  net::post(socket_.get_executor(), [self = shared_from_this()] {
    self->winding_down_ = true;
    // Idle between requests, nothing of the next one here (read, or waiting in the socket's buffer:
    // closing with unread bytes would reset the connection, and a proxy would answer 502):
    // nobody loses anything by its closing.
    beast::error_code ec;
    const auto unread = self->socket_.available(ec);
    if (self->between_requests_ && self->buffer_.size() == 0 && !(self->parser_ && self->parser_->got_some()) && !ec &&
        unread == 0) {
      self->shutdown();
    }
  });
}

void Connection::read_request() {
  if (closed_) return;
  // The last request's fields go with its parser, then the arena starts its block afresh: nothing
  // else points into it.
  parser_.reset();
  if (fields_arena_) {
    fields_arena_->release();
  } else {
    if (!fields_block_) fields_block_ = std::make_unique<std::byte[]>(kFieldsBlockBytes);
    fields_arena_.emplace(fields_block_.get(), kFieldsBlockBytes);
  }
  parser_.emplace(std::piecewise_construct, std::make_tuple(),
                  std::make_tuple(std::pmr::polymorphic_allocator<char>(&*fields_arena_)));
  parser_->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(limits_.max_header_bytes, UINT32_MAX)));
  parser_->body_limit(limits_.max_body_bytes);
  // One deadline for the whole request, set once: bytes trickling in do not extend it.
  expires_after(limits_.request_timeout);
  between_requests_ = true;
  // The whole request in one operation (header and body): a body already in the buffer is parsed
  // at once, not in a second turn of the event loop.
  with_stream([&](auto& stream) {
    bhttp::async_read(stream, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      self->request_bytes_ = n;
      self->on_request(ec);
    });
  });
}

void Connection::fit_read_buffer() {
  // Beast reads max(512, free capacity) bytes at a time and its parser empties the buffer as it
  // goes, so a buffer never grows past 512 bytes and a 600-byte request took two reads (and two
  // turns of the event loop). Room for a request as large as this one (rounded up to a power of
  // two, at most 16 KiB) reads the next in one; the buffer grows with what this connection sends,
  // not for every idle one.
  constexpr std::size_t kMaxReserve = 16 * 1024;
  if (request_bytes_ <= buffer_.capacity() || buffer_.capacity() >= kMaxReserve) return;
  std::size_t want = 1024;
  while (want < request_bytes_ && want < kMaxReserve) want *= 2;
  buffer_.reserve(want);
}

void Connection::on_request(beast::error_code ec) {
  between_requests_ = false;
  if (ec == bhttp::error::header_limit) return reject(431, "Request Header Fields Too Large");
  if (ec == bhttp::error::body_limit) return reject(413, "Payload Too Large");
  if (ec == bhttp::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted ||
      ec == net::error::connection_reset || ec == net::error::eof) {
    return shutdown();
  }
  if (ec) return reject(400, "Bad Request: malformed HTTP request");
  expires_never();
  std::size_t fields = 0;
  for (auto it = parser_->get().begin(); it != parser_->get().end(); ++it) ++fields;
  if (fields > limits_.max_header_fields) return reject(431, "Request Header Fields Too Large: too many fields");
  fit_read_buffer();
  const auto& request = parser_->get();
  keep_alive_ = request.keep_alive() && !winding_down_;
  Reply reply;
  try {
    reply = handler_(request);
  } catch (const std::bad_alloc&) {
    reply = error_reply(503, -32603, "Service Unavailable: out of memory");
    reply.headers.emplace_back("Retry-After", "1");
  } catch (...) {
    // Never the exception's text: it may carry internals (or bytes that are not UTF-8).
    reply = error_reply(500, -32603, "Internal error");
  }
  respond(std::move(reply));
}

void Connection::reject(unsigned status, const std::string& message) {
  keep_alive_ = false;  // the rest of the request is unread: the connection cannot be reused
  respond(error_reply(status, -32000, message));
}

void Connection::respond(Reply reply) {
  if (reply.sse || reply.pending) {
    // The connection now waits (an SSE stream, or a reply to come), for as long as a user takes to
    // answer a form: free the answered request (its header fields and body, in the parser) and
    // an empty read buffer rather than hold them per waiting user. read_request makes new ones.
    parser_.reset();
    fields_arena_.reset();
    fields_block_.reset();
    head_ = std::string();  // the last reply's head block too
    if (buffer_.size() == 0) buffer_.shrink_to_fit();
  }
  if (reply.sse) {
    start_sse(std::move(reply));
  } else if (reply.pending) {
    await_reply(std::move(reply.pending));
  } else {
    write_plain(std::move(reply));
  }
}

void Connection::await_reply(std::shared_ptr<PendingReply> pending) {
  pending_ = pending;
  ++watch_generation_;
  // Nothing is read while waiting: a client that hangs up is noticed by the readability watch,
  // and abandons the reply (shutdown()).
  watch_peer();
  std::weak_ptr<Connection> weak = shared_from_this();
  pending->wait([weak, p = pending.get()](Reply reply) {
    auto self = weak.lock();
    if (!self) return;
    net::post(self->socket_.get_executor(), [self, p, reply = std::move(reply)]() mutable {
      if (self->closed_ || self->pending_.get() != p) return;
      self->pending_.reset();
      ++self->watch_generation_;
      reply.pending.reset();
      // A reply given later may be an SSE stream (a 2026-07-28 request whose notifications came
      // before its response).
      if (reply.sse) {
        self->start_sse(std::move(reply));
      } else {
        self->write_plain(std::move(reply));
      }
    });
  });
}

void Connection::write_plain(Reply reply) {
  // The head written as text (what Beast's serializer would write for a response built from these
  // fields, with set() for each but Set-Cookie, and prepare_payload()), then the body: one gathered
  // write. Building a Beast response only to walk its fields cost an allocation per field and more
  // than the rest of the write (callgrind).
  // The head is written into head_, whose block serves every reply written at once; a reply
  // written asynchronously takes its head and body along (Out), as the write outlives this frame.
  struct Out {
    std::string head;
    std::string body;
  };
  const auto status = static_cast<bhttp::status>(reply.status);
  // 1xx, 204 and 304 have no body and no Content-Length (RFC 9110 sections 6.4.1, 8.6).
  const bool bodiless = bhttp::to_status_class(status) == bhttp::status_class::informational ||
                        status == bhttp::status::no_content || status == bhttp::status::not_modified;
  std::string body;
  if (!bodiless) body = std::move(reply.body);
  const auto reason = bhttp::obsolete_reason(status);
  auto& head = head_;
  head.clear();
  head.reserve(128 + reason.size() + reply.content_type.size());
  head += "HTTP/1.1 ";
  head += std::to_string(reply.status);
  head += ' ';
  head.append(reason.data(), reason.size());
  head += "\r\n";
  const auto add = [&head](std::string_view name, std::string_view value) {
    head.append(name.data(), name.size());
    head += ": ";
    head.append(value.data(), value.size());
    head += "\r\n";
  };
  const auto& fields = reply.headers;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& [name, value] = fields[i];
    // The connection writes these itself.
    if (equals_nocase(name, "Content-Length") || equals_nocase(name, "Connection") ||
        equals_nocase(name, "Transfer-Encoding") ||
        (!reply.content_type.empty() && equals_nocase(name, "Content-Type")))
      continue;
    // Set-Cookie is the one field that may not be joined into one line (RFC 9110 section 5.3):
    // each cookie keeps a field of its own. Any other name given again replaces the earlier one.
    bool replaced = false;
    if (!equals_nocase(name, "Set-Cookie")) {
      for (std::size_t j = i + 1; j < fields.size() && !replaced; ++j) replaced = equals_nocase(fields[j].first, name);
    }
    if (!replaced) add(name, value);
  }
  if (!reply.content_type.empty()) add("Content-Type", reply.content_type);
  if (!bodiless) add("Content-Length", std::to_string(body.size()));
  if (winding_down_) keep_alive_ = false;  // a reply that came while the server began draining
  if (!keep_alive_) add("Connection", "close");
  head += "\r\n";
  // What an asynchronous write needs: head and body moved out of this frame (and out of head_).
  const auto take = [&] { return std::make_shared<Out>(Out{std::move(head_), std::move(body)}); };
  const auto buffers_of = [](const Out& o) {
    return std::array<net::const_buffer, 2>{net::buffer(o.head), net::buffer(o.body)};
  };
  if (!tls_) {
    // Plain TCP: written at once when the socket takes it all, as it nearly always does (a reply of
    // a few KB into a send buffer that emptied since the last one). That spares the write
    // operation and a turn of the event loop before the next request is read (a non-blocking
    // epoll_wait per request: strace). What the socket does not take now is written as usual.
    beast::error_code ec;
    if (!socket_.non_blocking()) socket_.non_blocking(true, ec);  // else write_some could wait
    std::size_t written = 0;
    if (!ec) {
      const std::array<net::const_buffer, 2> buffers{net::buffer(head), net::buffer(body)};
      written = socket_.write_some(buffers, ec);  // an error (not would_block) recurs below
    }
    if (!ec && written == head.size() + body.size()) return after_response();
    const auto out = take();
    auto rest = std::make_shared<beast::buffers_suffix<std::array<net::const_buffer, 2>>>(buffers_of(*out));
    rest->consume(written);
    expires_after(limits_.write_timeout);
    net::async_write(socket_, *rest, [self = shared_from_this(), out, rest](beast::error_code e, std::size_t) {
      if (e) return self->shutdown();
      self->after_response();
    });
    return;
  }
  const auto out = take();
  expires_after(limits_.write_timeout);
  net::async_write(*tls_, buffers_of(*out), [self = shared_from_this(), out](beast::error_code ec, std::size_t) {
    if (ec) return self->shutdown();
    self->after_response();
  });
}

void Connection::after_response() {
  expires_never();
  if (!keep_alive_ || closed_) return shutdown();
  read_request();
}

void Connection::start_sse(Reply reply) {
  sse_ = std::move(reply.sse);
  on_sse_end_ = std::move(reply.on_sse_end);
  sse_head_ = std::make_shared<bhttp::response<bhttp::empty_body>>(bhttp::status::ok, 11);
  for (auto& [name, value] : reply.headers) sse_head_->set(name, value);
  sse_head_->set(bhttp::field::content_type, "text/event-stream");
  sse_head_->set(bhttp::field::cache_control, "no-cache");
  if (winding_down_) keep_alive_ = false;
  sse_head_->keep_alive(keep_alive_);
  sse_head_->chunked(true);
  sse_serializer_ = std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*sse_head_);
  if (!reply.sse_preamble.empty()) {
    out_bytes_ += reply.sse_preamble.size();
    out_.push_back(std::move(reply.sse_preamble));
  }
  // Attached at once, so the stream counts as being read from now on (a resuming GET gets 409);
  // what arrives before the head is written waits in out_.
  std::weak_ptr<Connection> weak = shared_from_this();
  sse_attached_ = sse_->attach([weak] {
    if (auto c = weak.lock()) net::post(c->socket_.get_executor(), [c] { c->drain_sse(); });
  });
  if (!sse_attached_) sse_end_queued_ = true;  // another connection has it: end this one
  writing_ = true;
  expires_after(limits_.write_timeout);
  ++watch_generation_;
  // The handler owns the head and its serializer: a shutdown meanwhile must not free them under
  // the operation.
  with_stream([&](auto& stream) {
    bhttp::async_write_header(
        stream, *sse_serializer_,
        [self = shared_from_this(), head = sse_head_, serializer = sse_serializer_](beast::error_code ec, std::size_t) {
          self->writing_ = false;
          self->expires_never();
          if (ec) return self->shutdown();
          self->head_written_ = true;
          self->arm_keepalive();
          self->watch_peer();
          self->write_queue();
        });
  });
}

void Connection::drain_sse() {
  if (!sse_ || closed_) return;
  auto batch = sse_->take();
  const auto stream = std::to_string(sse_->number());
  for (auto& e : batch.events) {
    // The id lets a client that loses the connection resume after this event.
    std::string event = "id: " + stream + "-" + std::to_string(e.seq) + "\nevent: message\ndata: ";
    event += e.message;
    event += "\n\n";
    out_bytes_ += event.size();
    out_.push_back(std::move(event));
  }
  if (batch.end) sse_end_queued_ = true;
  if (batch.disconnect) sse_disconnect_ = true;
  if (out_bytes_ > limits_.max_queued_bytes) return shutdown();  // the client is not reading
  write_queue();
}

void Connection::write_queue() {
  if (writing_ || !head_written_ || closed_) return;
  if (out_.empty()) {
    // The stream ended (its last event is written: delivered), or SSE polling lets go of it (the
    // client resumes with GET). Either way the stream is released before the client can see the
    // end of this response, so a resuming GET never finds it still held here.
    const bool stream_end = sse_end_queued_;
    if (!stream_end && !sse_disconnect_) return;
    if (stream_end && sse_attached_) sse_->mark_delivered();
    finish_sse();
    writing_ = true;
    expires_after(limits_.write_timeout);
    with_stream([&](auto& stream) {
      net::async_write(stream, bhttp::make_chunk_last(),
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                         self->writing_ = false;
                         if (ec) return self->shutdown();
                         self->after_response();
                       });
    });
    return;
  }
  auto payload = std::make_shared<std::string>();
  payload->reserve(out_bytes_);
  for (auto& s : out_) *payload += s;
  out_.clear();
  out_bytes_ = 0;
  writing_ = true;
  expires_after(limits_.write_timeout);
  with_stream([&](auto& stream) {
    net::async_write(stream, bhttp::make_chunk(net::buffer(*payload)),
                     [self = shared_from_this(), payload](beast::error_code ec, std::size_t) {
                       self->writing_ = false;
                       self->expires_never();
                       if (ec) return self->shutdown();
                       self->write_queue();
                     });
  });
}

void Connection::watch_peer() {
  // While an SSE response is written nothing is read, so a client that hangs up would be noticed
  // only at the next write. Waiting for readability notices it at once: the stream is then free
  // for the client to resume on a new connection. Tied to this response (a later one on the same
  // keep-alive connection reads its request concurrently, so readability means nothing then).
  socket_.async_wait(
      net::ip::tcp::socket::wait_read,
      net::bind_executor(
          socket_.get_executor(), [self = shared_from_this(), generation = watch_generation_](beast::error_code ec) {
            if (ec || self->closed_ || (!self->sse_ && !self->pending_) || generation != self->watch_generation_) {
              return;
            }
            char c;
            const auto n = ::recv(self->socket_.native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
              return self->shutdown();  // the client closed its end, or the connection broke
            }
            if (n < 0) self->watch_peer();  // woken for nothing: wait again
            // n > 0: pipelined bytes, left for the next request.
          }));
}

void Connection::arm_keepalive() {
  keepalive_timer_.expires_after(limits_.keepalive);
  keepalive_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || !self->sse_ || self->closed_) return;
    if (!self->writing_ && self->out_.empty()) {
      self->out_.push_back(": keepalive\n\n");  // an SSE comment: a vanished client fails the write
      self->write_queue();
    }
    self->arm_keepalive();
  });
}

void Connection::finish_sse() {
  keepalive_timer_.cancel();
  if (sse_ && sse_attached_) sse_->detach();
  sse_.reset();
  sse_serializer_.reset();
  sse_head_.reset();
  head_written_ = false;
  sse_end_queued_ = false;
  sse_disconnect_ = false;
  sse_attached_ = false;
  out_.clear();
  out_bytes_ = 0;
  if (auto f = std::move(on_sse_end_)) f();
  on_sse_end_ = nullptr;
}

void Connection::shutdown() {
  if (closed_) return;
  closed_ = true;
  finish_sse();
  if (auto p = std::move(pending_)) p->abandon();  // the client is gone: nobody will read the reply
  beast::error_code ec;
  deadline_timer_.cancel();
  socket_.shutdown(net::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

}  // namespace elicit::http
