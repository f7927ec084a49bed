// Structured request logs (elicit/ops/request_log.hpp).
#include "elicit/ops/request_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <variant>
#include <vector>

namespace elicit::ops {

namespace {

// What a client sent, bounded: a log line stays a line, whatever the client sends.
std::string bounded(std::string_view text) {
  constexpr std::size_t kMax = 128;
  return std::string(text.substr(0, kMax));
}

// RFC 3339 UTC with milliseconds, e.g. 2026-11-29T10:31:50.123Z.
std::string now_rfc3339() {
  const auto now = std::chrono::system_clock::now();
  const auto seconds = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  const auto n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + n, sizeof text - n, ".%03dZ", static_cast<int>(ms));
  return text;
}

void write_stderr(std::string_view line) {
  std::string out(line);
  out += '\n';
  // One write(2): lines of several threads never interleave (a pipe takes up to PIPE_BUF bytes
  // atomically; a longer line may, but its own bytes stay in order).
  const char* p = out.data();
  std::size_t left = out.size();
  while (left > 0) {
    const auto n = ::write(STDERR_FILENO, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to log to: nothing to be done about it here
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

RequestLog::RequestLog(RequestLogOptions options) : options_(std::move(options)) {
  if (!options_.write) options_.write = write_stderr;
}

void RequestLog::emit(const nlohmann::ordered_json& line) const {
  options_.write(line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void RequestLog::request_ended(const RequestRecord& r) {
  auto level = LoggingLevel::info;
  if (r.answered.error) {
    level = r.answered.error->code == error_code::internal_error ? LoggingLevel::error : LoggingLevel::warning;
  }
  if (level < options_.level) return;
  nlohmann::ordered_json line;
  line["time"] = now_rfc3339();
  line["level"] = std::string(to_string(level));
  line["event"] = "request";
  if (const auto* n = std::get_if<std::int64_t>(&r.id)) {
    line["id"] = *n;
  } else {
    line["id"] = bounded(std::get<std::string>(r.id));
  }
  line["revision"] = bounded(r.revision);
  line["method"] = bounded(r.method);
  if (!r.name.empty()) {
    if (r.method == "tools/call") {
      line["tool"] = bounded(r.name);
    } else if (r.method == "prompts/get") {
      line["prompt"] = bounded(r.name);
    } else if (options_.resource_uris) {
      line["resource"] = bounded(r.name);
    }
  }
  if (r.token) line["principal"] = {{"iss", bounded(r.token->issuer)}, {"sub", bounded(r.token->subject)}};
  if (r.task_run) line["task_run"] = true;
  line["outcome"] = std::string(outcome_name(r.answered));
  if (r.answered.error) line["error_code"] = r.answered.error->code;
  line["latency_ms"] = std::chrono::duration<double, std::milli>(r.latency).count();
  emit(line);
}

void RequestLog::request_refused(unsigned status, std::string_view reason) {
  if (LoggingLevel::warning < options_.level) return;
  nlohmann::ordered_json line;
  line["time"] = now_rfc3339();
  line["level"] = "warning";
  line["event"] = "refused";
  line["status"] = status;
  line["reason"] = bounded(reason);
  emit(line);
}

void RequestLog::event(LoggingLevel level, std::string_view event, const nlohmann::json& fields) const {
  if (level < options_.level) return;
  nlohmann::ordered_json line;
  line["time"] = now_rfc3339();
  line["level"] = std::string(to_string(level));
  line["event"] = std::string(event);
  if (fields.is_object()) {
    for (const auto& [k, v] : fields.items()) line[k] = v;
  }
  emit(line);
}

}  // namespace elicit::ops
