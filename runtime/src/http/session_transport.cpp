#include "session_transport.hpp"

#include <vector>

namespace elicit::http {

SessionTransport::SessionTransport(std::size_t max_held_bytes)
    : max_held_bytes_(max_held_bytes),
      standalone_(std::make_shared<SseStream>(0, max_held_bytes)),
      last_activity_(std::chrono::steady_clock::now()) {}

void SessionTransport::start(MessageHandler on_message, CloseHandler on_close) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
}

bool SessionTransport::send(std::string message, const SendContext& context) {
  std::shared_ptr<SseStream> stream;
  bool final = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return false;
    if (context.related_request) {
      const auto it = request_streams_.find(to_string(*context.related_request));
      if (it != request_streams_.end()) {
        stream = it->second;
        final = context.response;
        if (final) request_streams_.erase(it);
      }
    }
    // Unrelated to an open request (or its stream is gone): the GET stream, which holds it
    // (bounded by bytes) until a GET is open.
    if (!stream) stream = standalone_;
  }
  return stream->push(std::move(message), final);
}

void SessionTransport::close() {
  CloseHandler on_close;
  std::vector<std::shared_ptr<SseStream>> streams;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    closed_ = true;
    for (auto& [key, s] : request_streams_) streams.push_back(s);
    request_streams_.clear();
    streams.push_back(standalone_);
    on_close = std::move(on_close_);
  }
  for (auto& s : streams) s->abort();
  if (on_close) on_close();
}

void SessionTransport::abandon(const RequestId& id) {
  std::shared_ptr<SseStream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = request_streams_.find(to_string(id));
    if (it == request_streams_.end()) return;
    stream = std::move(it->second);
    request_streams_.erase(it);
  }
  stream->abort();
}

void SessionTransport::disconnect(const RequestId& id) {
  std::shared_ptr<SseStream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = request_streams_.find(to_string(id));
    if (it == request_streams_.end()) return;
    stream = it->second;
  }
  stream->disconnect();
}

std::shared_ptr<SseStream> SessionTransport::open_request_stream(const RequestId& id, bool& duplicate) {
  std::lock_guard<std::mutex> lock(mutex_);
  duplicate = false;
  if (closed_) return nullptr;
  auto s = std::make_shared<SseStream>(next_stream_, max_held_bytes_);
  // A second request with the id of one still open must not take over the first one's stream.
  duplicate = !request_streams_.emplace(to_string(id), s).second;
  if (duplicate) return nullptr;
  ++next_stream_;
  resumable_.emplace(s->number(), s);
  return s;
}

std::pair<SessionTransport::Resume, std::shared_ptr<SseStream>> SessionTransport::resume(
    std::string_view last_event_id) {
  // "<stream>-<seq>", both decimal.
  const auto dash = last_event_id.find('-');
  std::uint64_t stream = 0, seq = 0;
  auto parse = [](std::string_view digits, std::uint64_t& out) {
    if (digits.empty() || digits.size() > 18) return false;
    out = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  };
  if (dash == std::string_view::npos || !parse(last_event_id.substr(0, dash), stream) ||
      !parse(last_event_id.substr(dash + 1), seq)) {
    return {Resume::unknown, nullptr};
  }
  std::shared_ptr<SseStream> s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return {Resume::unknown, nullptr};
    if (stream == 0) {
      if (standalone_claimed_) return {Resume::busy, nullptr};
      standalone_claimed_ = true;
      s = standalone_;
    } else {
      const auto it = resumable_.find(stream);
      if (it == resumable_.end()) return {Resume::unknown, nullptr};
      if (it->second->attached()) return {Resume::busy, nullptr};
      s = it->second;
    }
  }
  if (!s->replay_after(seq)) {
    if (stream == 0) release_standalone();
    return {Resume::unknown, nullptr};
  }
  return {Resume::ok, s};
}

void SessionTransport::stream_detached(const std::shared_ptr<SseStream>& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stream->number() == 0) return;
  if (stream->delivered()) {
    resumable_.erase(stream->number());
    return;
  }
  // Bounded: the oldest streams nobody resumed go first.
  while (resumable_.size() > kMaxResumable) resumable_.erase(resumable_.begin());
}

std::shared_ptr<SseStream> SessionTransport::claim_standalone() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_ || standalone_claimed_) return nullptr;
  standalone_claimed_ = true;
  return standalone_;
}

void SessionTransport::release_standalone() {
  standalone_->detach();
  std::lock_guard<std::mutex> lock(mutex_);
  standalone_claimed_ = false;
}

bool SessionTransport::deliver(std::string message) {
  MessageHandler handler;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return false;
    handler = on_message_;
    last_activity_ = std::chrono::steady_clock::now();
  }
  std::lock_guard<std::mutex> order(deliver_mutex_);
  if (handler) handler(std::move(message));
  return true;
}

bool SessionTransport::deliver(jsonrpc::Message message, jsonrpc::Connection& session) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || !on_message_) return false;
    last_activity_ = std::chrono::steady_clock::now();
  }
  std::lock_guard<std::mutex> order(deliver_mutex_);
  session.deliver(std::move(message));
  return true;
}

void SessionTransport::touch() {
  std::lock_guard<std::mutex> lock(mutex_);
  last_activity_ = std::chrono::steady_clock::now();
}

void SessionTransport::stream_opened() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++open_streams_;
  last_activity_ = std::chrono::steady_clock::now();
}

void SessionTransport::stream_closed() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_streams_ > 0) --open_streams_;
  last_activity_ = std::chrono::steady_clock::now();
}

bool SessionTransport::idle_since(std::chrono::steady_clock::time_point cutoff) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_streams_ == 0 && last_activity_ < cutoff;
}

bool SessionTransport::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

}  // namespace elicit::http
