#include "stateless_request.hpp"

#include <algorithm>
#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/protocol/protocol_era.hpp"

namespace elicit::http {

unsigned http_status_for_error(int code) {
  switch (code) {
    case error_code::method_not_found:
      return 404;
    case error_code::header_mismatch:
    case error_code::missing_required_client_capability:
    case error_code::unsupported_protocol_version:
      return 400;
    default:
      return 200;
  }
}

Reply json_rpc_reply(std::string response) {
  Reply r;
  r.content_type = "application/json";
  // Only an error response needs a second look: results are passed through unread. (A result that
  // merely contains this text is read and found to be a result.)
  // Horspool skips through a result: std::string::find stops at every '"' (most of JSON).
  static const std::string_view kErrorMark = "\"error\":{\"code\":";
  static const std::boyer_moore_horspool_searcher kFindError(kErrorMark.begin(), kErrorMark.end());
  if (std::search(response.begin(), response.end(), kFindError) != response.end()) {
    const auto j = nlohmann::json::parse(response, nullptr, false);
    if (j.is_object()) {
      if (const auto e = j.find("error"); e != j.end() && e->is_object()) {
        if (const auto c = e->find("code"); c != e->end() && c->is_number_integer()) {
          r.status = http_status_for_error(c->get<int>());
        }
      }
    }
  }
  r.body = std::move(response);
  return r;
}

StatelessRequest::StatelessRequest(RequestId id) : id_(std::move(id)) {}

void StatelessRequest::start(MessageHandler, CloseHandler on_close) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_close_ = std::move(on_close);
}

void StatelessRequest::allow_sse(std::size_t max_held_bytes) { sse_max_held_bytes_ = max_held_bytes; }

bool StatelessRequest::send(std::string message, const SendContext& context) {
  if (!context.related_request || !(*context.related_request == id_)) return false;
  std::shared_ptr<SseStream> stream;
  bool starts_stream = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (answered_ || closed_) return false;
    if (context.response) {
      answered_ = true;
    } else if (!sse_) {
      if (sse_max_held_bytes_ == 0) return false;  // a plain JSON reply carries no notification
      sse_ = std::make_shared<SseStream>(1, sse_max_held_bytes_);
      starts_stream = true;
    }
    stream = sse_;
  }
  if (!context.response) {
    if (!stream->push(std::move(message), false)) return false;
    if (starts_stream) {
      Reply r;
      r.sse = stream;
      // The stream ends when the response was pushed; otherwise the client went away first.
      r.on_sse_end = [stream, gone = on_sse_gone_] {
        if (!stream->ended() && gone) gone();
      };
      reply_->fulfil(std::move(r));
    }
    return true;
  }
  if (stream) {
    stream->push(std::move(message), true);
  } else {
    reply_->fulfil(json_rpc_reply(std::move(message)));
  }
  finish();
  return true;
}

void StatelessRequest::close() {
  CloseHandler on_close;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    closed_ = true;
    on_close = std::move(on_close_);
  }
  if (on_close) on_close();
  end_stream();
  finish();
}

void StatelessRequest::abandon(const RequestId& id) {
  if (!(id == id_)) return;
  end_stream();
  finish();
}

void StatelessRequest::end_stream() {
  std::shared_ptr<SseStream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (answered_) return;  // the response ends it
    stream = sse_;
  }
  if (stream) stream->abort();
}

void StatelessRequest::finish() {
  std::function<void()> f;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_) return;
    done_ = true;
    f = std::move(on_done_);
  }
  if (f) f();
}

}  // namespace elicit::http
