#include "elicit/server_session.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <variant>

#include "completion_request.hpp"
#include "elicit/typed_tool.hpp"
#include "elicit/user_interaction.hpp"
#include "listen_streams.hpp"
#include "multi_round_trip.hpp"

namespace elicit {

namespace {

// Keeps a server's jobs on a (possibly shared) pool from touching it once it is gone: jobs that start
// after close() skip their handler, and the server waits for the running ones.
struct JobGate {
  std::mutex mutex;
  std::condition_variable cv;
  bool closed = false;
  int running = 0;

  bool enter() {
    std::lock_guard<std::mutex> lock(mutex);
    if (closed) return false;
    ++running;
    return true;
  }
  void leave() {
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    cv.notify_all();
  }
  void close_and_wait() {
    std::unique_lock<std::mutex> lock(mutex);
    closed = true;
    cv.wait(lock, [&] { return running == 0; });
  }
};

}  // namespace

namespace {

// The request's params._meta, or null.
const nlohmann::json& meta_of_params(const nlohmann::json& params) {
  static const nlohmann::json none;
  if (!params.is_object()) return none;
  const auto it = params.find("_meta");
  return it == params.end() ? none : *it;
}

}  // namespace

// --- Server -------------------------------------------------------------------------------------

struct ServerSession::Impl {
  Impl(Transport& t, std::shared_ptr<Server> c, ServerSessionOptions o)
      : core(std::move(c)),
        options(std::move(o)),
        session(t, options.session),
        pool(options.workers ? options.workers : std::make_shared<WorkerPool>(options.worker_threads)) {}

  std::shared_ptr<Server> core;
  ServerSessionOptions options;
  jsonrpc::Connection session;
  SessionState mcp{session};  // the MCP state of a 2025-11-25 session: client capabilities, URL-mode ids
  std::shared_ptr<JobGate> gate = std::make_shared<JobGate>();
  std::shared_ptr<WorkerPool> pool;
  std::atomic<bool> initialized{false};
  // This session as a listener (2025-11-25 only): its resources/subscribe URIs, and list changes once
  // initialized. Detached by ~Server.
  std::shared_ptr<Subscriptions::Subscriber> subscriber =
      core->subscriptions().attach([rpc = &session](const char* method, nlohmann::ordered_json params) {
        return rpc->notify(method, std::move(params));
      });
  // The subscriptions/listen streams of 2026-07-28 requests on this connection.
  std::shared_ptr<detail::ListenStreams> listens = std::make_shared<detail::ListenStreams>(session, *core);

  // Serves `r` in its era: a 2025-11-25 session once initialize was received; else 2026-07-28 when its
  // _meta says so (or the error that refuses it); else 2025-11-25.
  template <class SessionEra, class Stateless>
  void by_era(const Request& r, const Responder& out, SessionEra&& session_era, Stateless&& stateless) {
    if (initialized) {
      session_era();
      return;
    }
    auto era = read_request_era(r.params);
    if (era.error) {
      out.error(std::move(*era.error));
    } else if (era.stateless) {
      stateless(*era.stateless);
    } else {
      session_era();
    }
  }

  void reply_stateless(const Responder& out, nlohmann::json result) const {
    stamp_stateless_result(result, core->info_json());
    out.result(std::move(result));
  }

  void initialize(const Request& r, const Responder& out) {
    if (initialized.exchange(true)) {
      // MCP 2025-11-25, Lifecycle: initialization happens once per session.
      out.error({error_code::invalid_request, "Invalid Request: already initialized", std::nullopt});
      return;
    }
    out.result(initialize_result(r));
    // The capabilities said listChanged: from now on this session hears of every list change. (A
    // change while the result is on its way is not announced, but the client cannot have listed
    // yet: its next list, served after this handler returns, shows it.)
    core->subscriptions().set_lists(subscriber, ListFilter{true, true, true});
  }

  nlohmann::json initialize_result(const Request& r) {
    const auto& p = r.params.is_object() ? r.params : nlohmann::json::object();
    mcp.set_client_capabilities(ClientCapabilities::from_json(p.value("capabilities", nlohmann::json::object())));
    // Version negotiation: answer with the client's version when we speak it, else our newest.
    std::string version = supported_protocol_versions().front();
    if (const auto v = p.find("protocolVersion"); v != p.end() && v->is_string()) {
      for (const auto& s : supported_protocol_versions()) {
        if (s == *v) version = s;
      }
    }
    nlohmann::json result{
        {"protocolVersion", version}, {"capabilities", core->capabilities()}, {"serverInfo", core->info_json()}};
    // The draft ("Progress Tracking") needs the server to declare progress support at
    // initialization; it names no member, so this is `progress: {}`, and only for a client that
    // speaks the dialect (others see exactly the capabilities they always did).
    if (mcp.dialect() == ElicitDialect::user_interaction && options.user_interaction.progress)
      result["capabilities"]["progress"] = nlohmann::json::object();
    if (core->info().instructions) result["instructions"] = *core->info().instructions;
    return result;
  }

  // MCP 2026-07-28, Server, "Discovery".
  void discover(const Responder& out) const {
    nlohmann::json result{{"supportedVersions", all_protocol_versions()}, {"capabilities", core->capabilities(true)}};
    if (core->info().instructions) result["instructions"] = *core->info().instructions;
    detail::add_cache_hints(result, core->list_cache());
    reply_stateless(out, std::move(result));
  }

  // A tools/call, prompts/get or resources/read, resolved to its handler: what serve_call needs.
  struct Call {
    const char* method;              // for the requestState binding
    std::string name;                // the tool's or prompt's name, the resource's URI
    nlohmann::json arguments;        // what RequestContext::arguments() gives the handler
    nlohmann::json bound_arguments;  // what the requestState is bound to besides the name
    nlohmann::json result_members;   // added to a complete 2026-07-28 result (resources/read)
    // The blocking handler, run on a worker: returns the thunk that answers with its result.
    std::function<std::function<void()>(RequestContext&)> blocking;
    std::function<void(std::shared_ptr<RequestContext>)> async;
    // Validates the arguments once the context exists; false when it has answered (tools only).
    std::function<bool(RequestContext&)> check;
    // The answer when no worker takes the call (the pool is stopping).
    std::function<void(RequestContext&)> shutting_down;
  };

  std::optional<Call> resolve_tool(const Request& r, const Responder& responder) const {
    const auto& p = r.params;
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
      responder.error({error_code::invalid_params, "tools/call needs params.name", std::nullopt});
      return std::nullopt;
    }
    const auto name = p["name"].get<std::string>();
    const auto tool = core->find_tool(name);
    if (!tool) {
      responder.error({error_code::invalid_params, "Unknown tool: " + name, std::nullopt});
      return std::nullopt;
    }
    auto arguments = p.value("arguments", nlohmann::json::object());
    if (!arguments.is_object()) {
      responder.error({error_code::invalid_params, "tools/call arguments must be an object", std::nullopt});
      return std::nullopt;
    }
    Call c{"tools/call", name, arguments, arguments, nullptr, nullptr, nullptr, nullptr, nullptr};
    if (tool->async_handler) {
      c.async = tool->async_handler;
    } else {
      c.blocking = [handler = tool->handler](RequestContext& call) -> std::function<void()> {
        auto result = handler(call);
        return [&call, result = std::move(result)] { call.reply(result); };
      };
    }
    // Invalid arguments are a tool execution error the model can correct (MCP Tools, "Error
    // Handling"); the handler does not run.
    c.check = [core = core, name](RequestContext& call) {
      auto violations = core->check_arguments(name, call.arguments());
      if (violations.empty()) return true;
      ValidationResult errors;
      for (auto& v : violations)
        errors.add(std::move(v.instance_pointer), std::move(v.schema_pointer), std::move(v.message));
      call.reply(ToolResult::error(detail::invalid_arguments_text(name, errors)));
      return false;
    };
    c.shutting_down = [](RequestContext& call) { call.reply(ToolResult::error("the server is shutting down")); };
    return c;
  }

  // prompts/get and resources/read: a handler returning the result, which may elicit.
  std::optional<Call> resolve_json(const Request& r, const Responder& responder, bool prompt) const {
    const auto& p = r.params;
    const char* member = prompt ? "name" : "uri";
    if (!p.is_object() || !p.contains(member) || !p[member].is_string()) {
      responder.error({error_code::invalid_params,
                       std::string(prompt ? "prompts/get" : "resources/read") + " needs params." + member,
                       std::nullopt});
      return std::nullopt;
    }
    const auto name = p[member].get<std::string>();
    std::function<nlohmann::json(RequestContext&)> handler;
    AsyncJsonHandler async_handler;
    std::map<std::string, std::string> variables;
    bool from_template = false;
    if (prompt) {
      if (const auto found = core->find_prompt(name)) {
        handler = found->handler;
        async_handler = found->async_handler;
      }
    } else if (const auto found = core->find_resource(name)) {
      handler = found->handler;
      async_handler = found->async_handler;
    } else if (const auto t = core->match_resource_template(name, variables)) {
      handler = t->handler;
      async_handler = t->async_handler;
      from_template = true;
    }
    if (!handler && !async_handler) {
      // MCP 2026-07-28 answers an unknown resource with -32602 (Invalid Params), as for prompts.
      responder.error({error_code::invalid_params, (prompt ? "Unknown prompt: " : "Resource not found: ") + name,
                       nlohmann::json{{member, name}}});
      return std::nullopt;
    }
    auto arguments = prompt ? p.value("arguments", nlohmann::json::object()) : nlohmann::json{{"uri", name}};
    if (from_template) arguments["variables"] = variables;
    if (!arguments.is_object()) {
      responder.error({error_code::invalid_params, "prompts/get arguments must be an object", std::nullopt});
      return std::nullopt;
    }
    nlohmann::json members;
    if (!prompt) {  // 2026-07-28: a complete resources/read result carries caching hints
      members = nlohmann::json::object();
      detail::add_cache_hints(members, core->list_cache());
    }
    Call c{prompt ? "prompts/get" : "resources/read",
           name,
           arguments,
           prompt ? arguments : nlohmann::json(),
           std::move(members),
           nullptr,
           nullptr,
           nullptr,
           nullptr};
    if (async_handler) {
      c.async = std::move(async_handler);
    } else {
      c.blocking = [handler = std::move(handler)](RequestContext& call) -> std::function<void()> {
        auto result = handler(call);
        return [&call, result = std::move(result)]() mutable { call.reply_json(std::move(result)); };
      };
    }
    c.shutting_down = [](RequestContext& call) {
      call.reply_error({error_code::internal_error, "the server is shutting down", std::nullopt});
    };
    return c;
  }

  // Serves a resolved call in the request's era: a 2026-07-28 request opens its round first (and
  // ends with an InputRequiredResult at the first unanswered question); a blocking handler runs on
  // the pool, an asynchronous one here.
  void serve_call(const Request& r, const Responder& responder, const StatelessFields* fields, Call c) {
    std::shared_ptr<const StatelessCall> stateless;
    if (fields) {
      stateless = detail::open_stateless_call(
          core, r.params, RequestStateBinding{c.method, c.name, std::move(c.bound_arguments), options.principal},
          *fields, responder, session, std::move(c.result_members));
      if (!stateless) return;  // refused, answered
    }
    auto call =
        std::make_shared<RequestContext>(mcp, r.id, std::move(c.arguments), responder,
                                         options.default_elicitation_timeout, stateless, meta_of_params(r.params));
    if (c.check && !c.check(*call)) return;
    if (c.async) {
      call->run_answering_failures([&] { c.async(call); });
      return;
    }
    const bool posted = pool->post([gate = gate, run = c.blocking, call, stateless] {
      if (!gate->enter()) return;  // the server is gone or going
      if (!call->cancelled()) {
        call->run_answering_failures([&] {
          auto answer = run(*call);
          // A handler that swallowed InputRequired still has questions open: they win.
          if (stateless && stateless->round->input_required()) {
            stateless->input_required();
          } else {
            answer();
          }
        });
      }
      gate->leave();
    });
    if (!posted) c.shutting_down(*call);
  }

  void subscription(const Request& r, const Responder& out, bool subscribe) {
    const auto uri = r.params.is_object() ? r.params.value("uri", nlohmann::json()) : nlohmann::json();
    if (!uri.is_string()) {
      out.error({error_code::invalid_params, "resources/(un)subscribe needs params.uri", std::nullopt});
      return;
    }
    const auto& u = uri.get_ref<const std::string&>();
    auto& subs = core->subscriptions();
    if (!subscribe) {
      subs.unsubscribe(subscriber, u);  // unsubscribing from what is not subscribed changes nothing
      out.result(nlohmann::json::object());
      return;
    }
    std::map<std::string, std::string> unused;
    if (!core->find_resource(u) && !core->match_resource_template(u, unused)) {
      out.error({error_code::invalid_params, "Resource not found: " + u, nlohmann::json{{"uri", u}}});
      return;
    }
    if (!subs.subscribe(subscriber, u)) {
      out.error(
          {error_code::invalid_params,
           "Too many subscriptions: at most " + std::to_string(Subscriptions::max_uris_per_subscriber) + " per session",
           std::nullopt});
      return;
    }
    out.result(nlohmann::json::object());
  }
};

ServerSession::ServerSession(Transport& transport, ServerInfo info, ServerSessionOptions options) {
  auto core = std::make_shared<Server>(std::move(info), options.request_state);
  init(transport, std::move(core), std::move(options));
}

ServerSession::ServerSession(Transport& transport, std::shared_ptr<Server> core, ServerSessionOptions options) {
  init(transport, std::move(core), std::move(options));
}

void ServerSession::init(Transport& transport, std::shared_ptr<Server> core, ServerSessionOptions options) {
  if (!core) throw std::invalid_argument("ServerSession needs a Server");
  impl_ = std::make_unique<Impl>(transport, std::move(core), std::move(options));
  impl_->mcp.set_log_rate(impl_->options.log_rate);
  impl_->mcp.set_user_interaction(impl_->options.user_interaction);
  auto* impl = impl_.get();
  auto& s = impl_->session;
  s.on_request("initialize", [impl](const Request& r, Responder out) { impl->initialize(r, out); });
  s.on_request("ping", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out, [&] { out.result(nlohmann::json::object()); },
        [&](const StatelessFields&) { impl->reply_stateless(out, nlohmann::json::object()); });
  });
  s.on_request("server/discover", [impl](const Request& r, Responder out) {
    // 2026-07-28 only; a 2025-11-25 session knows no such method.
    impl->by_era(
        r, out,
        [&] {
          out.error({error_code::method_not_found, "Method not found: server/discover", std::nullopt});
        },
        [&](const StatelessFields&) { impl->discover(out); });
  });
  // A list: the same in both eras; 2026-07-28 results carry caching hints.
  // A feature the server does not offer (no prompt, no resource added) is not a method of it:
  // -32601, as its capabilities say (2026-07-28 discover checks the two agree).
  const auto offered = [impl](const char* capability, const Responder& out, const char* method) {
    if (impl->core->offers(capability)) return true;
    out.error({error_code::method_not_found, std::string("Method not found: ") + method, std::nullopt});
    return false;
  };
  // A list: the same in both eras, one page of it (MCP, Server, Utilities, "Pagination"); 2026-07-28
  // results carry caching hints.
  using List = std::optional<nlohmann::json> (Server::*)(std::string_view) const;
  const auto on_list = [&s, impl, offered](const char* method, const char* capability, List list) {
    s.on_request(method, [impl, offered, method, capability, list](const Request& r, Responder out) {
      const auto serve = [&](bool stateless) {
        if (!offered(capability, out, method)) return;
        std::string_view cursor;
        bool given = false;
        if (const auto c = r.params.is_object() ? r.params.find("cursor") : r.params.end();
            r.params.is_object() && c != r.params.end() && !c->is_null()) {
          if (!c->is_string()) {
            out.error({error_code::invalid_params, "Invalid params: cursor must be a string", std::nullopt});
            return;
          }
          cursor = c->get_ref<const std::string&>();
          given = true;
        }
        // "" is a cursor too, one this server never makes: not the first page.
        auto result = given && cursor.empty() ? std::nullopt : (impl->core.get()->*list)(cursor);
        if (!result) {
          out.error({error_code::invalid_params, "Invalid params: unknown cursor", std::nullopt});
          return;
        }
        if (!stateless) {
          out.result(std::move(*result));
          return;
        }
        detail::add_cache_hints(*result, impl->core->list_cache());
        impl->reply_stateless(out, std::move(*result));
      };
      impl->by_era(
          r, out, [&] { serve(false); }, [&](const StatelessFields&) { serve(true); });
    });
  };
  on_list("tools/list", "tools", &Server::list_tools);
  on_list("prompts/list", "prompts", &Server::list_prompts);
  on_list("resources/list", "resources", &Server::list_resources);
  on_list("resources/templates/list", "resources", &Server::list_resource_templates);
  s.on_request("completion/complete", [impl, offered](const Request& r, Responder out) {
    if (!offered("completions", out, "completion/complete")) return;
    auto answer = answer_completion(*impl->core, r.params,
                                    [impl](std::string_view line) { impl->session.log(std::string(line)); });
    if (auto* error = std::get_if<RpcError>(&answer)) {
      out.error(std::move(*error));
      return;
    }
    auto& result = std::get<nlohmann::json>(answer);
    impl->by_era(
        r, out, [&] { out.result(std::move(result)); },
        [&](const StatelessFields&) { impl->reply_stateless(out, std::move(result)); });
  });
  // MCP 2025-11-25, Resources, "Subscriptions": 2025-11-25 sessions only (2026-07-28 has none).
  for (const bool subscribe : {true, false}) {
    const char* method = subscribe ? "resources/subscribe" : "resources/unsubscribe";
    s.on_request(method, [impl, offered, subscribe, method](const Request& r, Responder out) {
      if (!offered("resources", out, method)) return;
      impl->by_era(
          r, out, [&] { impl->subscription(r, out, subscribe); },
          [&](const StatelessFields&) {
            out.error({error_code::method_not_found,
                       std::string("Method not found: ") + method + " (not in MCP 2026-07-28)", std::nullopt});
          });
    });
  }
  // MCP 2026-07-28, Basic, Patterns, "Subscriptions": 2026-07-28 only (2025-11-25 sessions have
  // resources/subscribe and hear of list changes without asking).
  s.on_request("subscriptions/listen", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out,
        [&] {
          out.error({error_code::method_not_found, "Method not found: subscriptions/listen (MCP 2026-07-28 only)",
                     std::nullopt});
        },
        [&](const StatelessFields&) { impl->listens->open(r, out); });
  });
  for (const bool prompt : {true, false}) {
    const char* method = prompt ? "prompts/get" : "resources/read";
    s.on_request(method, [impl, offered, prompt, method](const Request& r, Responder out) {
      if (!offered(prompt ? "prompts" : "resources", out, method)) return;
      impl->by_era(
          r, out,
          [&] {
            if (auto c = impl->resolve_json(r, out, prompt)) impl->serve_call(r, out, nullptr, std::move(*c));
          },
          [&](const StatelessFields& m) {
            if (auto c = impl->resolve_json(r, out, prompt)) impl->serve_call(r, out, &m, std::move(*c));
          });
    });
  }
  s.on_request("tools/call", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out,
        [&] {
          if (auto c = impl->resolve_tool(r, out)) impl->serve_call(r, out, nullptr, std::move(*c));
        },
        [&](const StatelessFields& m) {
          if (auto c = impl->resolve_tool(r, out)) impl->serve_call(r, out, &m, std::move(*c));
        });
  });
  // MCP 2025-11-25, Logging: the least severe level the client wants; gone in 2026-07-28 (the
  // level is per request there).
  s.on_request("logging/setLevel", [impl](const Request& r, Responder out) {
    impl->by_era(
        r, out,
        [&] {
          const auto level =
              r.params.is_object() ? parse_logging_level(r.params.value("level", nlohmann::json())) : std::nullopt;
          if (!level) {
            out.error({error_code::invalid_params,
                       "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, "
                       "emergency",
                       std::nullopt});
            return;
          }
          impl->mcp.set_log_level(*level);
          out.result(nlohmann::json::object());
        },
        [&](const StatelessFields&) {
          out.error({error_code::method_not_found,
                     "Method not found: logging/setLevel (not in MCP 2026-07-28: set _meta "
                     "io.modelcontextprotocol/logLevel per request)",
                     std::nullopt});
        });
  });
  // The userInteraction dialect (user_interaction.hpp): a 2025-11-25-session feature. In the
  // 2026-07-28 era, or with the dialect off, it is not a method of this server.
  if (impl_->options.user_interaction.enabled) {
    s.on_request("interaction/notify", [impl](const Request& r, Responder out) {
      impl->by_era(
          r, out, [&] { answer_interaction_notify(impl->mcp, r, out); },
          [&](const StatelessFields&) {
            out.error({error_code::method_not_found, "Method not found: interaction/notify (not in MCP 2026-07-28)",
                       std::nullopt});
          });
    });
  }
  s.on_notification("notifications/initialized", [](const Notification&) {});
}

ServerSession::~ServerSession() {
  close();
  impl_->core->subscriptions().detach(impl_->subscriber);
  impl_->session.wait_closed();
  impl_->gate->close_and_wait();  // a shared pool may still hold jobs of ours
}

void ServerSession::add_tool(Tool tool) { impl_->core->add_tool(std::move(tool)); }
void ServerSession::add_prompt(Prompt prompt) { impl_->core->add_prompt(std::move(prompt)); }
void ServerSession::add_resource(Resource resource) { impl_->core->add_resource(std::move(resource)); }
void ServerSession::add_resource_template(ResourceTemplate resource_template) {
  impl_->core->add_resource_template(std::move(resource_template));
}

SessionState& ServerSession::state() noexcept { return impl_->mcp; }
const std::shared_ptr<Server>& ServerSession::server() const noexcept { return impl_->core; }
void ServerSession::start() { impl_->session.start(); }
void ServerSession::wait() { impl_->session.wait_closed(); }
void ServerSession::close() {
  impl_->listens->close_all();  // graceful: each stream gets its empty result before the end
  impl_->session.close();
}

}  // namespace elicit
