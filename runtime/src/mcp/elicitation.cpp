#include "elicit/elicitation.hpp"

#include <sys/random.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <mutex>

#include "elicit/content/formats.hpp"
#include "elicit/observer.hpp"
#include "elicitation_dialect.hpp"
#include "json_fast.hpp"

namespace elicit {

std::string_view to_string(ElicitStatus status) noexcept {
  switch (status) {
    case ElicitStatus::accepted:
      return "accepted";
    case ElicitStatus::declined:
      return "declined";
    case ElicitStatus::cancelled:
      return "cancelled";
    case ElicitStatus::timed_out:
      return "timed_out";
    case ElicitStatus::aborted:
      return "aborted";
    case ElicitStatus::unsupported:
      return "unsupported";
    case ElicitStatus::invalid_response:
      return "invalid_response";
    case ElicitStatus::rpc_error:
      return "rpc_error";
    case ElicitStatus::transport_closed:
      return "transport_closed";
  }
  return "unknown";
}

namespace {

// Reads an ElicitResult out of `outcome`, whose result it takes. With `copy_content`, accepted
// content is also copied to RawOutcome::content; without, it is left in `result` (content_of).
RawOutcome read_result(RequestOutcome&& outcome, bool copy_content) {
  RawOutcome r;
  if (outcome.failure) {
    switch (*outcome.failure) {
      case RequestFailure::timed_out:
        r.status = ElicitStatus::timed_out;
        break;
      case RequestFailure::cancelled:
        r.status = ElicitStatus::aborted;
        break;
      case RequestFailure::transport_closed:
        r.status = ElicitStatus::transport_closed;
        break;
      case RequestFailure::too_many_pending:
        // Nothing was sent: this side gave up on it, as with a cancellation.
        r.status = ElicitStatus::aborted;
        r.problem = "too many requests pending in this session (SessionOptions::max_pending_requests)";
        break;
    }
    return r;
  }
  if (outcome.error) {
    r.status = ElicitStatus::rpc_error;
    r.error = std::move(outcome.error);
    return r;
  }
  if (outcome.result) r.result = std::move(*outcome.result);
  if (!r.result.is_object()) {
    r.problem = "the result is not an object";
    return r;
  }
  const auto action = r.result.find(std::string_view("action"));
  if (action == r.result.end() || !action->is_string()) {
    r.problem = "the result has no string \"action\"";
    return r;
  }
  const std::string_view name = action->get_ref<const std::string&>();
  if (name == "decline") {
    r.status = ElicitStatus::declined;
    return r;
  }
  if (name == "cancel") {
    r.status = ElicitStatus::cancelled;
    return r;
  }
  if (name != "accept") {
    r.problem = "unknown action " + action->dump();
    return r;
  }
  if (const auto content = r.result.find(std::string_view("content"));
      content != r.result.end() && !content->is_null()) {
    if (!content->is_object()) {
      r.problem = "accepted \"content\" is not an object";
      return r;
    }
    if (copy_content) r.content = *content;
  }
  r.status = ElicitStatus::accepted;
  return r;
}

}  // namespace

RawOutcome read_elicit_result(const RequestOutcome& outcome) {
  RequestOutcome copy;
  copy.failure = outcome.failure;
  copy.error = outcome.error;
  copy.result = outcome.result;
  return read_result(std::move(copy), true);
}

const nlohmann::json& detail::content_of(const RawOutcome& r) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (!r.result.is_object()) return empty;
  const auto content = r.result.find(std::string_view("content"));
  if (content == r.result.end() || !content->is_object()) return empty;
  return *content;
}

RawOutcome read_elicit_response(std::string_view message) {
  auto parsed = jsonrpc::parse_message(message);
  RawOutcome r;
  if (parsed.error) {
    r.problem = parsed.error->message;
    return r;
  }
  auto* response = parsed.message ? std::get_if<Response>(&*parsed.message) : nullptr;
  if (response == nullptr) {
    r.problem = "the message is not a JSON-RPC response with a usable id";
    return r;
  }
  RequestOutcome outcome;
  outcome.result = std::move(response->result);
  outcome.error = std::move(response->error);
  return read_result(std::move(outcome), true);
}

namespace {

constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

CallOptions call_options(const ElicitOptions& options) {
  CallOptions c;
  c.timeout = options.timeout;
  c.context.related_request = options.related_request;
  return c;
}

// Wraps a user's on_done so that what it throws is logged instead of reaching a transport or timer
// thread. The session outlives its own callbacks; the synchronous paths run in the caller's frame.
template <class R>
std::function<void(R)> logged(jsonrpc::Connection& session, std::function<void(R)> on_done) {
  return [&session, on_done = std::move(on_done)](R r) {
    try {
      on_done(std::move(r));
    } catch (...) {
      detail::log_callback_exception(session);
    }
  };
}

constexpr const char* kCancelReason = "the request this elicitation was made for was cancelled";

}  // namespace

void detail::close_params(std::string& params, const ElicitOptions& options) {
  if (options.meta.is_object() && !options.meta.empty()) {
    params += ",\"_meta\":";
    jsonrpc::detail::append_dump(params, options.meta);
  }
  params += '}';
}

namespace {

// waiting_elicitations(): one count for the process, as an operator reads it (a gauge per process).
std::atomic<std::size_t>& waiting_count() {
  static std::atomic<std::size_t> count{0};
  return count;
}

}  // namespace

std::size_t waiting_elicitations() noexcept { return waiting_count().load(std::memory_order_relaxed); }

// Sends `method`; `on_done` gets the outcome exactly once. Returns the id, or nullopt when the scope
// was already cancelled (nothing sent; on_done got `cancelled`, or `transport_closed`).
std::optional<RequestId> detail::send_scoped_request(jsonrpc::Connection& session, const char* method,
                                                     std::string params, ResponseHandler on_done,
                                                     const ElicitOptions& options) {
  const std::string_view m(method);
  if (m == "elicitation/create" || m == "interaction/create") {
    // on_done runs exactly once whatever happens (answer, timeout, cancel, closed, never sent).
    waiting_count().fetch_add(1, std::memory_order_relaxed);
    on_done = [on_done = std::move(on_done)](jsonrpc::RequestOutcome outcome) {
      waiting_count().fetch_sub(1, std::memory_order_relaxed);
      on_done(std::move(outcome));
    };
  }
  return jsonrpc::send_request_in_scope(session, method, std::move(params), std::move(on_done), call_options(options),
                                        options.cancel_scope, kCancelReason);
}

namespace {

std::optional<RequestId> send_elicitation(jsonrpc::Connection& session, std::string params, ResponseHandler on_done,
                                          const ElicitOptions& options) {
  return detail::send_scoped_request(session, "elicitation/create", std::move(params), std::move(on_done), options);
}

}  // namespace

void detail::log_callback_exception(jsonrpc::Connection& session) {
  try {
    throw;
  } catch (const std::exception& e) {
    session.log(std::string("an elicitation callback threw: ") + e.what());
  } catch (...) {
    session.log("an elicitation callback threw");
  }
}

RawOutcome detail::unsupported_form_response() {
  RawOutcome r;
  r.status = ElicitStatus::unsupported;
  r.problem = "the client did not declare the elicitation (form) capability";
  return r;
}

RawOutcome detail::read_elicit_result_in_place(RequestOutcome&& outcome) {
  return read_result(std::move(outcome), false);
}

std::optional<RequestId> detail::send_form_request(jsonrpc::Connection& session, std::string_view message,
                                                   std::string_view schema_json, ResponseHandler on_outcome,
                                                   const ElicitOptions& options) {
  std::string params;
  // Room for the members, and for the JSON-RPC envelope the session writes around them in place.
  params.reserve(160 + message.size() + schema_json.size());
  params += "{\"mode\":\"form\",\"message\":";
  jsonrpc::detail::append_json_string(params, message);
  params += ",\"requestedSchema\":";
  params += schema_json;
  detail::close_params(params, options);
  return send_elicitation(session, std::move(params), std::move(on_outcome), options);
}

std::optional<RequestId> elicit_form_async(SessionState& mcp, std::string_view message,
                                           const nlohmann::ordered_json& schema,
                                           std::function<void(RawOutcome)> on_done, const ElicitOptions& options) {
  jsonrpc::Connection& session = mcp.rpc();
  on_done = logged(session, std::move(on_done));
  if (!detail::form_mode_declared(mcp)) {
    on_done(detail::unsupported_form_response());
    return std::nullopt;
  }
  ResponseHandler handler = [on_done = std::move(on_done)](RequestOutcome o) {
    on_done(read_result(std::move(o), true));
  };
  return detail::send_form(mcp, message, schema.dump(-1, ' ', false, kReplace), std::move(handler), options);
}

bool detail::form_mode_declared(const SessionState& session) {
  const auto caps = session.client_capabilities();
  const auto* dialect = session.elicitation_dialect();
  return dialect ? dialect->declares_form(caps) : caps.elicitation_form;
}

std::optional<RequestId> detail::send_form(SessionState& session, std::string_view message,
                                           std::string_view schema_json, ResponseHandler on_outcome,
                                           const ElicitOptions& options) {
  if (auto* dialect = session.elicitation_dialect())
    return dialect->send_form(session, message, schema_json, std::move(on_outcome), options);
  return send_form_request(session.rpc(), message, schema_json, std::move(on_outcome), options);
}

bool detail::is_url_mode(const nlohmann::ordered_json& params) {
  // find() is end() on a non-object; comparing with a JSON value never throws on a non-string.
  const auto mode = params.find("mode");
  return mode != params.end() && *mode == "url";
}

// --- URL mode ------------------------------------------------------------------------------------

nlohmann::ordered_json to_params(const UrlElicitation& e) {
  return {{"mode", "url"}, {"message", e.message}, {"elicitationId", e.elicitation_id}, {"url", e.url}};
}

std::string new_elicitation_id() {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const auto n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("no secure random source for elicitationId");
    }
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (const auto b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 15];
  }
  return id;
}

std::string check_elicitation_url(std::string_view url) {
  if (!is_uri(url)) return "not an absolute URI (RFC 3986)";
  const auto colon = url.find(':');
  std::string scheme(url.substr(0, colon));
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https") return "the scheme must be http or https";
  if (url.substr(colon + 1, 2) != "//") return "the URL has no host";
  auto authority = url.substr(colon + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return "the URL carries userinfo (credentials)";
  if (authority.empty() || authority.front() == ':') return "the URL has no host";
  return "";
}

namespace {

void require_elicitation_url(std::string_view url) {
  if (const auto why = check_elicitation_url(url); !why.empty())
    throw std::invalid_argument("URL elicitation: " + why + ": " + std::string(url));
}

// A fresh elicitationId, registered with the session; the URL has been checked already.
UrlElicitation register_url_elicitation(SessionState& session, std::string_view message, std::string_view url) {
  UrlElicitation e{new_elicitation_id(), std::string(url), std::string(message)};
  session.add_url_elicitation(e.elicitation_id);
  return e;
}

}  // namespace

UrlElicitation create_url_elicitation(SessionState& session, std::string_view message, std::string_view url) {
  require_elicitation_url(url);
  return register_url_elicitation(session, message, url);
}

bool complete_url_elicitation(SessionState& session, std::string_view elicitation_id) {
  if (!session.mark_url_elicitation_complete(elicitation_id)) return false;
  if (auto* dialect = session.elicitation_dialect()) return dialect->announce_url_complete(session, elicitation_id);
  return session.rpc().notify("notifications/elicitation/complete", {{"elicitationId", std::string(elicitation_id)}});
}

std::optional<RequestId> elicit_url_async(SessionState& mcp, std::string_view message, std::string_view url,
                                          std::function<void(UrlOutcome)> on_done, const ElicitOptions& options) {
  require_elicitation_url(url);  // a bad URL is a programming error, whatever the client supports
  jsonrpc::Connection& session = mcp.rpc();
  on_done = logged(session, std::move(on_done));
  auto* dialect = mcp.elicitation_dialect();
  const auto caps = mcp.client_capabilities();
  if (dialect ? !dialect->declares_url(caps) : !caps.elicitation_url) {
    UrlOutcome out;
    out.status = ElicitStatus::unsupported;
    out.problem =
        dialect ? dialect->url_unsupported_problem() : "the client did not declare the elicitation.url capability";
    on_done(std::move(out));
    return std::nullopt;
  }
  const auto e = register_url_elicitation(mcp, message, url);
  ResponseHandler handler = [on_done = std::move(on_done), id = e.elicitation_id](RequestOutcome o) {
    auto r = read_result(std::move(o), true);
    UrlOutcome out{r.status, id, std::move(r.error), std::move(r.problem), std::move(r.result)};
    on_done(std::move(out));
  };
  if (dialect) return dialect->send_url(mcp, e, std::move(handler), options);
  auto params = to_params(e).dump(-1, ' ', false, kReplace);
  params.pop_back();  // the closing brace: _meta may follow
  detail::close_params(params, options);
  return send_elicitation(session, std::move(params), std::move(handler), options);
}

UrlOutcome elicit_url(SessionState& session, std::string_view message, std::string_view url,
                      const ElicitOptions& options) {
  jsonrpc::detail::require_blocking_allowed("elicit_url()",
                                            "elicit_url_async() (or ToolCall::elicit_url_async in an async_handler)");
  auto promise = std::make_shared<std::promise<UrlOutcome>>();
  auto future = promise->get_future();
  elicit_url_async(
      session, message, url, [promise](UrlOutcome o) { promise->set_value(std::move(o)); }, options);
  return future.get();
}

UrlElicitationRequired::UrlElicitationRequired(std::vector<UrlElicitation> elicitations, std::string message)
    : std::runtime_error(std::move(message)), elicitations_(std::move(elicitations)) {}

RpcError UrlElicitationRequired::to_error() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : elicitations_) list.push_back(nlohmann::json(to_params(e)));
  return RpcError{error_code::url_elicitation_required, what(), nlohmann::json{{"elicitations", list}}};
}

std::optional<std::vector<UrlElicitation>> parse_url_elicitation_required(const RpcError& error) {
  if (error.code != error_code::url_elicitation_required || !error.data || !error.data->is_object())
    return std::nullopt;
  const auto list = error.data->find("elicitations");
  if (list == error.data->end() || !list->is_array()) return std::nullopt;
  std::vector<UrlElicitation> out;
  for (const auto& e : *list) {
    if (!e.is_object() || e.value("mode", nlohmann::json()) != "url") return std::nullopt;
    const auto id = e.find("elicitationId");
    const auto url = e.find("url");
    const auto message = e.find("message");
    if (id == e.end() || !id->is_string() || url == e.end() || !url->is_string() || message == e.end() ||
        !message->is_string())
      return std::nullopt;
    out.push_back({id->get<std::string>(), url->get<std::string>(), message->get<std::string>()});
  }
  return out;
}

}  // namespace elicit
