// elicit::Client (client.hpp): the host side of elicitation in both eras: its construction,
// connect() (the era, then initialize or not) and the public calls; the jobs of Client::Impl are in
// the sources client_impl.hpp names.
#include "elicit/client.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "client_impl.hpp"
#include "elicit/content/form_defaults.hpp"
#include "elicit/jsonrpc/stdio_transport.hpp"
#include "elicit/jsonrpc/worker_pool.hpp"
#include "elicit/protocol/protocol_era.hpp"

namespace elicit {

Answer Answer::accept(nlohmann::json content) { return {ElicitAction::accept, std::move(content)}; }
Answer Answer::accept_with_defaults(const Form& form, nlohmann::json partial) {
  return accept(apply_defaults(form, std::move(partial)));
}
Answer Answer::decline() { return {ElicitAction::decline, nullptr}; }
Answer Answer::cancel() { return {ElicitAction::cancel, nullptr}; }

std::string_view to_string(ElicitAction action) noexcept {
  switch (action) {
    case ElicitAction::accept:
      return "accept";
    case ElicitAction::decline:
      return "decline";
    case ElicitAction::cancel:
      break;
  }
  return "cancel";
}

nlohmann::json Answer::to_json(bool form) const {
  nlohmann::json out{{"action", to_string(action)}};
  // URL mode has no content; a form's accept always has an object.
  if (action == ElicitAction::accept && form) out["content"] = content.is_object() ? content : nlohmann::json::object();
  return out;
}

namespace {

bool is_stateless(const std::string& version) {
  const auto& v = stateless_protocol_versions();
  return std::find(v.begin(), v.end(), version) != v.end();
}

}  // namespace

[[noreturn]] void client_detail::throw_outcome(const RequestOutcome& o, const std::string& method) {
  if (o.error) throw ClientError(o.error->code, o.error->message, o.error->data.value_or(nullptr));
  std::string why = "no answer";
  if (o.failure) {
    switch (*o.failure) {
      case RequestFailure::timed_out:
        why = "timed out";
        break;
      case RequestFailure::cancelled:
        why = "cancelled";
        break;
      case RequestFailure::transport_closed:
        why = "the connection closed";
        break;
      case RequestFailure::too_many_pending:
        why = "too many requests pending";
        break;
    }
  }
  throw ClientError(0, method + ": " + why);
}

Client::Client(Transport& transport, ClientOptions options)
    : impl_(std::make_unique<Impl>(transport, std::move(options))) {
  const auto& version = impl_->options.protocol_version;
  impl_->stateless = is_stateless(version);
  const auto& session_era = session_protocol_versions();
  if (!impl_->stateless && std::find(session_era.begin(), session_era.end(), version) == session_era.end())
    throw std::invalid_argument("ClientOptions::protocol_version: \"" + version +
                                "\" is not a version this client speaks");
  const auto& fallback = impl_->options.fallback_protocol_version;
  if (fallback && std::find(session_era.begin(), session_era.end(), *fallback) == session_era.end())
    throw std::invalid_argument("ClientOptions::fallback_protocol_version: \"" + *fallback +
                                "\" is not an initialize-based version this client speaks");
}

Client::Client(std::unique_ptr<Transport> transport, ClientOptions options) : Client(*transport, std::move(options)) {
  owned_transport_ = std::move(transport);
}

std::unique_ptr<Client> Client::spawn(const std::vector<std::string>& argv, ClientOptions options,
                                      ChildProcessOptions child) {
  auto process = ChildProcess::spawn(argv, child);
  StdioOptions stdio;
  stdio.in_fd = process->stdout_fd();
  stdio.out_fd = process->stdin_fd();
  auto transport = std::make_unique<StdioTransport>(stdio);
  if (options.server_key.empty()) {
    // The command line names a stdio server (its era does not change between runs of one build).
    std::string key = "stdio:";
    for (const auto& word : argv) key += " " + word;
    options.server_key = std::move(key);
  }
  auto client = std::unique_ptr<Client>(new Client(*transport, std::move(options)));
  client->owned_transport_ = std::move(transport);
  client->child_ = std::move(process);
  return client;
}

Client::~Client() {
  impl_->session.close();
  impl_.reset();  // the session and the workers, before the transport they use
  owned_transport_.reset();
}

void Client::on_elicitation(ElicitationHandler handler) { impl_->fallback = std::move(handler); }

void Client::add_form_handler(nlohmann::json schema, ElicitationHandler handler) {
  impl_->form_handlers.emplace_back(std::move(schema), std::move(handler));
}

nlohmann::json Client::connect() {
  auto* impl = impl_.get();
  if (impl->options.user_interaction && impl->stateless)
    throw ClientError(0,
                      "ClientOptions::user_interaction: the userInteraction dialect is for protocol versions "
                      "2025-11-25 and 2025-06-18 only");
  impl->session.on_request("ping", [](const Request&, Responder out) { out.result(nlohmann::json::object()); });
  std::string initialize_version = impl->options.protocol_version;
  bool from_cache = false;
  if (impl->stateless) {
    if (impl->options.tasks && impl->options.task_notifications) impl->listen_for_tasks();
    impl->session.start();
    if (auto discovered = impl->discover(from_cache)) return impl->remember(std::move(*discovered));
    impl->stateless = false;
    initialize_version = *impl->options.fallback_protocol_version;
  }
  // The initialize era: the server's requests (elicitation/create, interaction/create) may come
  // from initialize's result on.
  impl->workers = std::make_unique<WorkerPool>(2);
  impl->session.on_request("elicitation/create", [impl](const Request& r, Responder out) {
    impl->workers->post([impl, params = r.params, text = r.text, out] {
      try {
        out.result(impl->answer(params, client_detail::ordered_at(text, {"params"})));
      } catch (const std::exception& e) {
        impl->session.log(std::string("elicitation handler threw: ") + e.what());
        out.error({error_code::internal_error, "the client could not answer the elicitation", std::nullopt});
      }
    });
  });
  if (impl->options.user_interaction) {
    impl->session.on_request("interaction/create", [impl](const Request& r, Responder out) {
      impl->workers->post([impl, params = r.params, text = r.text, out] {
        try {
          impl->answer_interaction(params, text, out);
        } catch (const std::exception& e) {
          impl->session.log(std::string("interaction handler threw: ") + e.what());
          out.error({error_code::internal_error, "the client could not answer the interaction", std::nullopt});
        }
      });
    });
  }
  impl->session.start();  // a second start() (after the probe) does nothing
  nlohmann::ordered_json params{{"protocolVersion", initialize_version},
                                {"capabilities", impl->capabilities()},
                                {"clientInfo", impl->options.client_info}};
  nlohmann::json result;
  try {
    result = impl->request("initialize", std::move(params));
  } catch (const ClientError&) {
    // The server may have changed era since it was cached: the next client probes again.
    if (from_cache) impl->forget_era();
    throw;
  }
  const auto version = result.value("protocolVersion", std::string());
  const auto& session_era = session_protocol_versions();
  // A server may answer an older revision (Lifecycle, "Version Negotiation"); 2025-03-26 has the
  // same initialize, Streamable HTTP and resumption, and no elicitation (its servers never ask), so
  // this client speaks it too, as a client only.
  if (std::find(session_era.begin(), session_era.end(), version) == session_era.end() && version != "2025-03-26")
    throw ClientError(
        0, "initialize: the server answered protocol version \"" + version + "\", which this client does not speak");
  {
    std::lock_guard<std::mutex> lock(impl->version_mutex);
    impl->version = version;
  }
  impl->session.notify("notifications/initialized", nlohmann::ordered_json::object());
  return impl->remember(std::move(result));
}

std::string Client::protocol_version() const { return impl_->current_version(); }

const nlohmann::json& Client::server_info() const noexcept { return impl_->server_info; }
const nlohmann::json& Client::server_capabilities() const noexcept { return impl_->server_capabilities; }

nlohmann::json Client::call_tool(const std::string& name, nlohmann::json arguments) {
  return impl_->call_tool(name, std::move(arguments));
}

nlohmann::json Client::call_tool(const std::string& name, nlohmann::json arguments,
                                 const std::shared_ptr<CancelScope>& scope) {
  if (!scope) throw std::invalid_argument("Client::call_tool: the cancel scope is null");
  if (scope->cancelled()) throw ClientError(0, "tools/call: cancelled by the caller");
  return impl_->call_tool(name, std::move(arguments), scope);
}

// A step call needs a round that can wait: a 2025-11-25 elicitation/create holds the session's
// request open until it is answered, so it cannot be left for later (or for another process).
// Checked before anything is sent, as call_tool() checks a cancelled scope.
static void begin_step(bool stateless, const char* call, const std::shared_ptr<CancelScope>& scope) {
  if (!stateless)
    throw ClientError(0, std::string(call) +
                             ": the server speaks an initialize-based revision (2025-11-25), whose questions wait on "
                             "the open session: only MCP 2026-07-28 calls can stop at a question and go on later");
  if (scope && scope->cancelled()) throw ClientError(0, "tools/call: cancelled by the caller");
}

// Where a step call ended: the round it stopped at, else its result.
static CallStep end_step(nlohmann::json result, std::optional<PendingInput>& pending) {
  CallStep out;
  if (pending) {
    out.pending = std::move(pending);
  } else {
    out.result = std::move(result);
  }
  return out;
}

CallStep Client::call_tool_step(const std::string& name, nlohmann::json arguments, const StepAnswerer& answer,
                                const std::shared_ptr<CancelScope>& scope) {
  begin_step(impl_->stateless, "Client::call_tool_step", scope);
  Impl::Step step;
  step.answer = &answer;
  auto result = impl_->call_tool(name, std::move(arguments), scope, &step);
  return end_step(std::move(result), step.pending);
}

CallStep Client::resume_tool_step(const std::string& name, nlohmann::json arguments, const PendingInput& pending,
                                  nlohmann::ordered_json input_responses, const StepAnswerer& answer,
                                  const std::shared_ptr<CancelScope>& scope) {
  begin_step(impl_->stateless, "Client::resume_tool_step", scope);
  if (!input_responses.is_object())
    throw std::invalid_argument("Client::resume_tool_step: input_responses must be an object");
  Impl::Step step;
  step.answer = &answer;
  nlohmann::json result;
  if (!pending.task_id.empty()) {
    result = impl_->resume_task("tools/call", pending, std::move(input_responses), scope, step);
  } else {
    // The retry: the same call with the answers and, when the server gave one, its state as is.
    nlohmann::ordered_json seeds{{"inputResponses", std::move(input_responses)}};
    if (!pending.request_state.is_null()) seeds["requestState"] = pending.request_state;
    result = impl_->call_tool(name, std::move(arguments), scope, &step, seeds);
  }
  return end_step(std::move(result), step.pending);
}

nlohmann::json Client::get_prompt(const std::string& name, nlohmann::json arguments) {
  return impl_->request("prompts/get", {{"name", name}, {"arguments", std::move(arguments)}});
}

nlohmann::json Client::read_resource(const std::string& uri) {
  return impl_->request("resources/read", {{"uri", uri}});
}

nlohmann::json Client::list_tools() {
  auto tools = impl_->list_all("tools/list", "tools");
  return impl_->mirrors_params() ? impl_->screen_tools(std::move(tools)) : tools;
}
nlohmann::json Client::list_prompts() { return impl_->list_all("prompts/list", "prompts"); }
nlohmann::json Client::list_resources() { return impl_->list_all("resources/list", "resources"); }

jsonrpc::Connection& Client::rpc() noexcept { return impl_->session; }
void Client::close() { impl_->session.close(); }

}  // namespace elicit
