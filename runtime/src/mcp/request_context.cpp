// ToolResult and RequestContext: what a tool, prompt or resource handler gets and answers with, in both
// eras (server.hpp).
#include "elicit/request_context.hpp"

#include <mutex>
#include <stdexcept>
#include <string>

#include "elicitation_dialect.hpp"
#include "json_fast.hpp"
#include "progress_token.hpp"

namespace elicit {

ToolResult ToolResult::text(std::string text) {
  // The block made member by member: a braced list goes through a temporary array per member.
  nlohmann::json block = nlohmann::json::object();
  block["text"] = std::move(text);
  block["type"] = "text";
  ToolResult r;
  r.content.push_back(std::move(block));
  return r;
}

ToolResult ToolResult::of(std::vector<nlohmann::json> blocks) {
  ToolResult r;
  for (auto& b : blocks) r.content.push_back(std::move(b));
  return r;
}

ToolResult ToolResult::error(std::string text) {
  ToolResult r = ToolResult::text(std::move(text));
  r.is_error = true;
  return r;
}

ToolResult ToolResult::structured(nlohmann::json value) {
  ToolResult r = ToolResult::text(value.dump());
  r.structured_content = std::move(value);
  return r;
}

nlohmann::json ToolResult::to_json() const {
  nlohmann::json j{{"content", content}};
  if (is_error) j["isError"] = true;
  if (structured_content) j["structuredContent"] = *structured_content;
  return j;
}

RequestContext::RequestContext(SessionState& session, RequestId request_id, nlohmann::json arguments,
                               Responder responder,
                               std::optional<std::chrono::milliseconds> default_elicitation_timeout,
                               std::shared_ptr<const StatelessCall> stateless, const nlohmann::json& progress_token,
                               Caller caller, std::shared_ptr<BrowserForms> browser_forms)
    : session_(session),
      request_id_(std::move(request_id)),
      arguments_(std::move(arguments)),
      responder_(std::move(responder)),
      default_timeout_(default_elicitation_timeout),
      stateless_(std::move(stateless)),
      caller_(std::move(caller)),
      browser_forms_(std::move(browser_forms)) {
  if (detail::is_progress_token(progress_token)) progress_token_ = progress_token;
  // The client cancelling the call, or the session ending, cancels everything made for it.
  responder_.on_cancel([scope = scope_] { scope->cancel(); });
}

void RequestContext::on_cancel(std::function<void()> f) {
  const auto token = scope_->add(f);
  if (!token) {
    f();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  on_cancel_tokens_.push_back(*token);
}

void RequestContext::forget_cancel_callbacks() {
  std::vector<CancelScope::Token> tokens;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tokens.swap(on_cancel_tokens_);
  }
  for (const auto t : tokens) scope_->remove(t);  // they may hold this call: break the cycle
}

ElicitOptions RequestContext::elicit_options(std::optional<std::chrono::milliseconds> timeout) const {
  ElicitOptions o;
  o.timeout = timeout ? timeout : default_timeout_;
  o.related_request = request_id_;
  o.cancel_scope = scope_;
  return o;
}

MissingClientCapability::MissingClientCapability(nlohmann::json required)
    : std::runtime_error("the client did not declare a capability this request needs: " + required.dump()),
      required_(std::move(required)) {}

namespace {

// Does `have` (a ClientCapabilities object) declare everything `need` names? Objects nest; a
// member present as an object counts as declared.
bool declares(const nlohmann::json& have, const nlohmann::json& need) {
  if (!need.is_object()) return true;
  if (!have.is_object()) return false;
  for (auto it = need.begin(); it != need.end(); ++it) {
    const auto h = have.find(it.key());
    if (h == have.end() || h->is_null()) return false;
    if (it->is_object() && !it->empty() && !declares(*h, *it)) return false;
  }
  return true;
}

// The capability a request for the client needs, as a ClientCapabilities object.
nlohmann::json capability_for(const std::string& method, const nlohmann::ordered_json& params) {
  if (method == "sampling/createMessage") return {{"sampling", nlohmann::json::object()}};
  if (method == "roots/list") return {{"roots", nlohmann::json::object()}};
  if (method == "elicitation/create") {
    // A `mode` that is not a string is the client's to refuse: it asks for form mode here.
    return {{"elicitation", {{detail::is_url_mode(params) ? "url" : "form", nlohmann::json::object()}}}};
  }
  return nlohmann::json::object();
}

// `dialect`: the session's elicitations take another wire form (elicitation_dialect.hpp), which
// says what stands for form and URL mode in its client's capabilities; null for elicitation/create.
bool client_declares(const ClientCapabilities& caps, const nlohmann::json& need,
                     const detail::ElicitationDialect* dialect) {
  // `elicitation: {}` declares form mode (ClientCapabilities::from_json reads it so).
  if (const auto e = need.find("elicitation"); e != need.end()) {
    const bool form = dialect ? dialect->declares_form(caps) : caps.elicitation_form;
    const bool url = dialect ? dialect->declares_url(caps) : caps.elicitation_url;
    if (e->contains("form") && !form) return false;
    if (e->contains("url") && !url) return false;
    if (!form && !url) return false;
    auto rest = need;
    rest.erase("elicitation");
    return declares(caps.raw, rest);
  }
  return declares(caps.raw, need);
}

}  // namespace

void RequestContext::require_client_capabilities(const nlohmann::json& required) const {
  const auto* dialect = stateless_ ? nullptr : session_.elicitation_dialect();
  if (client_declares(client_capabilities(), required, dialect)) return;
  throw MissingClientCapability(dialect ? dialect->client_need(required) : required);
}

std::vector<RequestOutcome> RequestContext::request_inputs(std::vector<InputRequest> requests) {
  // Blocking in both revisions, so a handler behaves the same in each (a 2026-07-28 replay would not
  // block, but the same code would under 2025-11-25).
  jsonrpc::detail::require_blocking_allowed("request_inputs()", "jsonrpc::Connection::send_request()");
  // A browser form's params (an elicitgen URL-mode schema file: "mode": "url" with a
  // requestedSchema) hold the fields URL mode exists to keep from the client: refused before
  // anything is sent, in both revisions, as elicit<T>() of such a type does not compile.
  for (const auto& r : requests) {
    if (r.method == "elicitation/create" && detail::is_url_mode(r.params) && r.params.contains("requestedSchema"))
      throw std::invalid_argument(
          "request_inputs(): elicitation/create params with \"mode\": \"url\" and a requestedSchema are a browser "
          "form; their values must not pass through the MCP client: ask them with "
          "elicit::forms::elicit_in_browser(ctx, message, requestedSchema)");
  }
  for (const auto& r : requests) require_client_capabilities(capability_for(r.method, r.params));
  std::vector<RequestOutcome> out(requests.size());
  if (stateless_) {
    bool missing = false;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      auto& r = requests[i];
      const auto prefix = r.method == "sampling/createMessage" ? "sampling"
                          : r.method == "roots/list"           ? "roots"
                                                               : "elicitation";
      const auto key = r.key.empty() ? next_key(prefix) : r.key;
      nlohmann::ordered_json request{{"method", r.method}, {"params", std::move(r.params)}};
      if (auto answer = stateless_->round->answer(key, request)) {
        out[i].result = std::move(*answer);
      } else {
        missing = true;
      }
    }
    if (missing) throw InputRequired{};
    return out;
  }
  auto* dialect = session_.elicitation_dialect();
  // Checked before anything is sent, so a bad request sends none.
  if (dialect) {
    for (const auto& r : requests) {
      if (r.method != "elicitation/create") continue;
      if (const auto problem = dialect->params_problem(r.params); !problem.empty())
        throw std::invalid_argument(problem);
    }
  }
  std::vector<std::shared_ptr<std::promise<RequestOutcome>>> promises;
  // The call's cancel scope: a cancelled tools/call cancels these requests too (their outcome is
  // RequestFailure::cancelled) instead of leaving this worker waiting for answers nobody wants.
  const auto options = elicit_options(std::nullopt);
  for (auto& r : requests) {
    auto p = std::make_shared<std::promise<RequestOutcome>>();
    promises.push_back(p);
    auto done = [p](RequestOutcome o) { p->set_value(std::move(o)); };
    if (r.method == "elicitation/create") {
      // A URL-mode elicitationId is this session's, so complete_url_elicitation() works for it.
      const auto id = r.params.find("elicitationId");  // end() when params are not an object
      if (id != r.params.end() && id->is_string() && detail::is_url_mode(r.params))
        session_.add_url_elicitation(id->get<std::string>());
      if (dialect) {
        dialect->send_params(session_, r.params, std::move(done), options);
        continue;
      }
    }
    detail::send_scoped_request(session_.rpc(), r.method.c_str(),
                                r.params.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace),
                                std::move(done), options);
  }
  for (std::size_t i = 0; i < promises.size(); ++i) out[i] = promises[i]->get_future().get();
  return out;
}

UrlOutcome RequestContext::elicit_url(std::string_view message, std::string_view url,
                                      std::optional<std::chrono::milliseconds> timeout) {
  jsonrpc::detail::require_blocking_allowed("elicit_url()", "elicit_url_async()");
  if (stateless_) {
    auto out = replay_url(message, url);
    if (!out) throw InputRequired{};
    return std::move(*out);
  }
  return ::elicit::elicit_url(session_, message, url, elicit_options(timeout));
}

std::optional<RequestId> RequestContext::elicit_url_async(std::string_view message, std::string_view url,
                                                          std::function<void(UrlOutcome)> on_done,
                                                          std::optional<std::chrono::milliseconds> timeout) {
  if (stateless_) {
    auto out = replay_url(message, url);
    if (!out) {
      stateless_->input_required();
    } else {
      guarded(std::move(on_done))(std::move(*out));
    }
    return std::nullopt;
  }
  return ::elicit::elicit_url_async(session_, message, url, guarded(std::move(on_done)), elicit_options(timeout));
}

std::string RequestContext::interaction_id(const std::string& name) {
  if (stateless_) return stateless_->round->interaction_id(name);
  std::lock_guard<std::mutex> lock(mutex_);
  auto& id = interaction_ids_[name];
  if (id.empty()) id = new_elicitation_id();
  return id;
}

UrlOutcome RequestContext::elicit_url_completed(std::string_view message, std::string_view url, const std::string& id,
                                                CompletionStore& store,
                                                std::optional<std::chrono::milliseconds> timeout) {
  if (!stateless_) return elicit_url(message, url, timeout);
  jsonrpc::detail::require_blocking_allowed("elicit_url_completed()", "a blocking tool handler");
  const auto key = next_key();
  nlohmann::ordered_json original{
      {"method", "elicitation/create"},
      {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", std::string(url)}}}};
  if (const auto problem = check_elicitation_url(url); !problem.empty()) throw std::invalid_argument(problem);
  if (!stateless_->capabilities.elicitation_url)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
  auto answer = stateless_->round->answer(key, original);
  if (!answer) throw InputRequired{};
  const auto r = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
  UrlOutcome out;
  out.status = r.status;
  out.problem = r.problem;
  out.result = r.result;
  if (r.status != ElicitStatus::accepted) return out;
  auto done = std::make_shared<std::promise<CompletionState>>();
  auto future = done->get_future();
  store.lookup(id, [done](CompletionState s) { done->set_value(s); });
  switch (future.get()) {
    case CompletionState::complete:
      out.elicitation_id = id;
      return out;
    case CompletionState::pending: {
      auto again = original;
      again["params"]["message"] = not_finished_message(message);
      stateless_->round->ask_again(key, std::move(again), original);
      throw InputRequired{};
    }
    case CompletionState::unavailable:
      break;
  }
  throw std::runtime_error("cannot tell whether the interaction was completed: the completion store is unavailable");
}

std::string RequestContext::not_finished_message(std::string_view message) {
  return std::string(message) + "\n\nThis has not been completed yet: open the link, finish there, then continue.";
}

void RequestContext::reply_json(nlohmann::json result) {
  if (stateless_ && stateless_->result_members.is_object() && result.is_object()) {
    for (const auto& [k, v] : stateless_->result_members.items()) result[k] = v;
  }
  if (stateless_) stamp_stateless_result(result, *stateless_->server_info);
  responder_.result(std::move(result));
  forget_cancel_callbacks();
}

const std::string& RequestContext::task_id() const noexcept {
  static const std::string none;
  return stateless_ ? stateless_->task_id : none;
}

void RequestContext::start_task() {
  if (stateless_ && stateless_->task_id.empty() && stateless_->start_task) throw TaskStarted{};
}

ClientCapabilities RequestContext::client_capabilities() const {
  return stateless_ ? stateless_->capabilities : session_.client_capabilities();
}

namespace {

// The text of `r.to_json()` stamped for a 2026-07-28 request (stamp_stateless_result), as
// Responder::result writes it (members sorted), without making either document.
std::string stateless_result_text(const ToolResult& r, const nlohmann::json& server_info) {
  std::string out;
  out.reserve(512);
  out += "{\"_meta\":{";
  jsonrpc::detail::append_json_string(out, meta_key::server_info);
  out += ':';
  jsonrpc::detail::append_dump(out, server_info);
  out += "},\"content\":";
  jsonrpc::detail::append_dump(out, r.content);
  if (r.is_error) out += ",\"isError\":true";
  out += ",\"resultType\":\"complete\"";
  if (r.structured_content) {
    out += ",\"structuredContent\":";
    jsonrpc::detail::append_dump(out, *r.structured_content);
  }
  out += '}';
  return out;
}

}  // namespace

void RequestContext::reply(const ToolResult& result) {
  if (stateless_) {
    responder_.result_text(stateless_result_text(result, *stateless_->server_info), true);
  } else {
    responder_.result(result.to_json());
  }
  forget_cancel_callbacks();
}

void RequestContext::reply_error(RpcError error) {
  responder_.error(std::move(error));
  forget_cancel_callbacks();
}

namespace {

// What a handler or one of its callbacks throws, mapped to the call's answer: one mapping for both.
// `error` and `result` send the answer; `log` says whether to log what was thrown.
template <class Error, class Result>
void answer_thrown(SessionState& state, const StatelessCall* stateless, const std::function<void()>& f, Error&& error,
                   Result&& result, bool log) {
  try {
    f();
  } catch (const InputRequired&) {
    if (stateless) stateless->input_required();
  } catch (const TaskStarted&) {
    if (stateless && stateless->start_task) stateless->start_task();
  } catch (const ProtocolError& e) {
    error(e.error());
  } catch (const MissingClientCapability& e) {
    error(e.to_error());
  } catch (const UrlElicitationRequired& e) {
    // The session's dialect says (-32003 in the userInteraction dialect), else -32042; a 2026-07-28
    // call's session speaks none.
    auto* dialect = stateless ? nullptr : state.elicitation_dialect();
    error(dialect ? dialect->url_required_error(state, e) : e.to_error());
  } catch (const std::exception& e) {
    if (log) state.rpc().log(std::string("a tool's elicitation callback threw: ") + e.what());
    result(ToolResult::error(e.what()));
  } catch (...) {
    if (log) state.rpc().log("a tool's elicitation callback threw");
    result(ToolResult::error("the tool failed"));
  }
}

}  // namespace

void RequestContext::run_answering_failures(const std::function<void()>& f) {
  answer_thrown(
      session_, stateless_.get(), f, [this](RpcError e) { reply_error(std::move(e)); },
      [this](const ToolResult& r) { reply(r); }, false);
}

void RequestContext::run_answering_failures(SessionState& state, const Responder& responder,
                                            const StatelessCall* stateless, const std::function<void()>& f) {
  answer_thrown(
      state, stateless, f, [&](RpcError e) { responder.error(std::move(e)); },
      [&](const ToolResult& r) {
        if (stateless) {
          responder.result_text(stateless_result_text(r, *stateless->server_info), true);
        } else {
          responder.result(r.to_json());
        }
      },
      true);
}

}  // namespace elicit
