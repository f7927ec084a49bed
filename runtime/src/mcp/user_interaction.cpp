// The userInteraction dialect (user_interaction.hpp; user-interaction-draft.md): interaction/create
// for the form and URL paths, -32003, interaction/notify. The MCP layer only: the JSON-RPC jsonrpc::Connection
// carries the messages and knows nothing of them.
#include "elicit/protocol/user_interaction.hpp"

#include <utility>

#include "elicitation_dialect.hpp"
#include "json_fast.hpp"
#include "progress_token.hpp"

namespace elicit {

namespace {

// The draft's TextContent: {"type": "text", "text": ...}.
void append_text_content(std::string& out, std::string_view text) {
  out += "{\"type\":\"text\",\"text\":";
  jsonrpc::detail::append_json_string(out, text);
  out += '}';
}

// The interaction ends with its interaction/create, whatever the outcome, except a `ua` one the
// client accepted: that runs on out of band until complete_url_elicitation().
ResponseHandler ending(SessionState& session, std::string id, bool prompt, ResponseHandler on_outcome) {
  return [&session, id = std::move(id), prompt, on_outcome = std::move(on_outcome)](RequestOutcome o) {
    auto translated = translate_interaction_outcome(std::move(o), prompt);
    const bool accepted_ua = !prompt && translated.result && translated.result->is_object() &&
                             translated.result->value("action", std::string()) == "accept";
    if (!accepted_ua) {
      if (auto* book = interaction_book(session)) book->end(id);
    }
    on_outcome(std::move(translated));
  };
}

// A TextContent's text, or nullopt when `v` is not one.
std::optional<std::string> text_of(const nlohmann::ordered_json& v) {
  if (!v.is_object()) return std::nullopt;
  const auto type = v.find("type");
  const auto text = v.find("text");
  if (type == v.end() || *type != "text" || text == v.end() || !text->is_string()) return std::nullopt;
  return text->get<std::string>();
}

}  // namespace

ElicitStatus interaction_error_status(const RpcError& error) {
  if (error.code == error_code::interaction_declined) return ElicitStatus::declined;
  if (error.code >= -32768 && error.code <= -32000) return ElicitStatus::rpc_error;
  return ElicitStatus::cancelled;
}

RequestOutcome translate_interaction_outcome(RequestOutcome outcome, bool prompt) {
  if (outcome.failure) return outcome;
  if (outcome.error) {
    const auto status = interaction_error_status(*outcome.error);
    if (status == ElicitStatus::rpc_error) return outcome;
    RequestOutcome out;
    out.result = nlohmann::json{{"action", status == ElicitStatus::declined ? "decline" : "cancel"}};
    return out;
  }
  if (!outcome.result || !outcome.result->is_object()) return outcome;  // read as invalid_response
  nlohmann::json result{{"action", "accept"}};
  if (prompt) {
    // The draft's prompt result is {"content": {...}}; a non-object content stays for
    // read_elicit_result to refuse.
    if (const auto c = outcome.result->find("content"); c != outcome.result->end()) result["content"] = std::move(*c);
  }
  outcome.result = std::move(result);
  return outcome;
}

namespace {

std::optional<RequestId> send_prompt(SessionState& session, std::string_view message, std::string_view schema_json,
                                     ResponseHandler on_outcome, const ElicitOptions& options) {
  // 128 bits from the CSPRNG, as elicitationIds: unique across the server's concurrent interactions.
  auto id = new_elicitation_id();
  std::string params;
  params.reserve(200 + message.size() + schema_json.size());
  params += "{\"id\":";
  jsonrpc::detail::append_json_string(params, id);
  params += ",\"type\":\"prompt\",\"interaction\":{\"message\":";
  append_text_content(params, message);
  params += ",\"schema\":";
  params += schema_json;
  params += '}';
  detail::close_params(params, options);
  if (auto* book = interaction_book(session)) book->add(id);
  auto handler = ending(session, id, true, std::move(on_outcome));
  return detail::send_scoped_request(session.rpc(), "interaction/create", std::move(params), std::move(handler),
                                     options);
}

// The elicitationId is the interaction id, so complete_url_elicitation() ends the interaction.
std::optional<RequestId> send_ua(SessionState& session, const UrlElicitation& e, ResponseHandler on_outcome,
                                 const ElicitOptions& options) {
  std::string params = "{\"id\":";
  jsonrpc::detail::append_json_string(params, e.elicitation_id);
  params += ",\"type\":\"ua\",\"interaction\":{\"url\":";
  jsonrpc::detail::append_json_string(params, e.url);
  if (!e.message.empty()) {
    params += ",\"message\":";
    append_text_content(params, e.message);
  }
  params += '}';
  detail::close_params(params, options);
  if (auto* book = interaction_book(session)) book->add(e.elicitation_id);
  auto handler = ending(session, e.elicitation_id, false, std::move(on_outcome));
  return detail::send_scoped_request(session.rpc(), "interaction/create", std::move(params), std::move(handler),
                                     options);
}

// Why untyped elicitation/create params (MCP 2025-11-25, Elicitation, "Creating Elicitation
// Requests") cannot be sent as an interaction, or "" when they can: form mode (`mode` absent or
// "form") needs `message` a string and `requestedSchema` an object; URL mode needs `message`,
// `url` and `elicitationId` strings (the elicitationId becomes the interaction id).
std::string elicitation_params_problem(const nlohmann::ordered_json& params) {
  if (!params.is_object()) return "elicitation/create params must be an object";
  const auto is_string = [&](const char* key) {
    const auto it = params.find(key);
    return it != params.end() && it->is_string();
  };
  if (!is_string("message")) return "elicitation/create params.message must be a string";
  if (const auto mode = params.find("mode"); mode != params.end() && *mode != "form" && *mode != "url")
    return "elicitation/create params.mode must be \"form\" or \"url\"";
  if (detail::is_url_mode(params)) {
    if (!is_string("url")) return "elicitation/create params.url must be a string in URL mode";
    if (!is_string("elicitationId")) return "elicitation/create params.elicitationId must be a string in URL mode";
    return "";
  }
  const auto schema = params.find("requestedSchema");
  if (schema == params.end() || !schema->is_object())
    return "elicitation/create params.requestedSchema must be an object in form mode";
  return "";
}

// Untyped elicitation/create params in the dialect: form mode as type "prompt" with `schema` =
// requestedSchema, URL mode as type "ua" (running after consent until complete_url_elicitation());
// `_meta` of the params goes with the request.
std::optional<RequestId> send_elicitation_params(SessionState& session, const nlohmann::ordered_json& params,
                                                 ResponseHandler on_outcome, ElicitOptions options) {
  if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) options.meta = *meta;
  const auto& message = params["message"].get_ref<const std::string&>();
  if (!detail::is_url_mode(params))
    return send_prompt(session, message,
                       params["requestedSchema"].dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace),
                       std::move(on_outcome), options);
  UrlElicitation e{params["elicitationId"].get<std::string>(), params["url"].get<std::string>(), message};
  return send_ua(session, e, std::move(on_outcome), options);
}

// The dialect behind the MCP layer's seam, with its bookkeeping: "prompt" stands for form mode,
// "ua" for URL mode.
class UserInteractionDialect final : public detail::ElicitationDialect {
 public:
  UserInteractionDialect(const UserInteractionOptions& options, jsonrpc::Connection& rpc)
      : options_(options), book_(rpc) {}

  InteractionBook& book() noexcept { return book_; }

  bool declares_form(const ClientCapabilities& c) const override { return c.interaction_prompt; }
  bool declares_url(const ClientCapabilities& c) const override { return c.interaction_ua; }
  std::string url_unsupported_problem() const override {
    return "the client did not list the \"ua\" userInteraction type";
  }
  // elicitation's form and URL modes become the types "prompt" and "ua".
  nlohmann::json client_need(nlohmann::json need) const override {
    const auto e = need.find("elicitation");
    if (e == need.end()) return need;
    auto types = nlohmann::json::array();
    if (e->contains("form") || !e->contains("url")) types.push_back("prompt");
    if (e->contains("url")) types.push_back("ua");
    need.erase(e);
    need["userInteraction"] = {{"types", std::move(types)}};
    return need;
  }
  std::optional<RequestId> send_form(SessionState& session, std::string_view message, std::string_view schema_json,
                                     ResponseHandler on_outcome, const ElicitOptions& options) override {
    return send_prompt(session, message, schema_json, std::move(on_outcome), options);
  }
  std::optional<RequestId> send_url(SessionState& session, const UrlElicitation& e, ResponseHandler on_outcome,
                                    const ElicitOptions& options) override {
    // Accepted means the client opened the URL (consent); the interaction runs until
    // complete_url_elicitation().
    return send_ua(session, e, std::move(on_outcome), options);
  }
  std::string params_problem(const nlohmann::ordered_json& params) const override {
    return elicitation_params_problem(params);
  }
  std::optional<RequestId> send_params(SessionState& session, const nlohmann::ordered_json& params,
                                       ResponseHandler on_outcome, const ElicitOptions& options) override {
    return send_elicitation_params(session, params, std::move(on_outcome), options);
  }
  // The dialect has no completion notification: the end of the interaction answers the client's
  // interaction/notify requests for it instead (the draft, "Progress Tracking").
  bool announce_url_complete(SessionState&, std::string_view elicitation_id) override {
    book_.end(elicitation_id);
    return true;
  }
  RpcError url_required_error(SessionState& session, const UrlElicitationRequired& e) override {
    return url_elicitation_required_error(session, e);
  }
  // The draft ("Progress Tracking") needs the server to declare progress support at
  // initialization; it names no member, so this is `progress: {}`, and only for a client that
  // speaks the dialect (others see exactly the capabilities they always did).
  void add_server_capabilities(nlohmann::json& capabilities) const override {
    if (options_.progress) capabilities["progress"] = nlohmann::json::object();
  }
  void serve(SessionState& session, const Request& request, const Responder& responder) override {
    answer_interaction_notify(session, request, responder);
  }

 private:
  const UserInteractionOptions options_;
  InteractionBook book_;
};

}  // namespace

std::unique_ptr<detail::ElicitationDialect> detail::choose_elicitation_dialect(const UserInteractionOptions& options,
                                                                               const ClientCapabilities& capabilities,
                                                                               jsonrpc::Connection& rpc) {
  // The rule: a client declaring both gets standard elicitation.
  if (!options.enabled || !capabilities.user_interaction || capabilities.elicitation_declared) return nullptr;
  return std::make_unique<UserInteractionDialect>(options, rpc);
}

InteractionBook* interaction_book(const SessionState& session) {
  auto* dialect = dynamic_cast<UserInteractionDialect*>(session.elicitation_dialect());
  return dialect ? &dialect->book() : nullptr;
}

RpcError interaction_required_error(const UrlElicitation& e) {
  // The issue lists `message` among data's members without a shape; the draft's example makes it a
  // TextContent, as in interaction/create, and the draft wins.
  nlohmann::json data{{"id", e.elicitation_id}, {"type", "ua"}, {"url", e.url}};
  if (!e.message.empty()) data["message"] = {{"type", "text"}, {"text", e.message}};
  // The draft: "the message equal to interaction_required" (UrlElicitationRequired's own text is
  // not sent).
  return RpcError{error_code::interaction_required, "interaction_required", std::move(data)};
}

RpcError url_elicitation_required_error(SessionState& session, const UrlElicitationRequired& e) {
  auto* book = interaction_book(session);
  if (!book || e.elicitations().empty()) return e.to_error();
  const auto& first = e.elicitations().front();
  book->add(first.elicitation_id);
  return interaction_required_error(first);
}

std::size_t interaction_progress(SessionState& session, std::string_view interaction_id, double progress,
                                 std::optional<double> total, const std::string& message) {
  auto* book = interaction_book(session);
  return book ? book->progress(interaction_id, progress, total, message) : 0;
}

void answer_interaction_notify(SessionState& session, const Request& request, const Responder& responder) {
  // The draft: without progress support the server MUST NOT respond; nor for an id that is not an
  // interaction it created for this client and session. Silence, not an error, in every such case.
  auto* book = interaction_book(session);
  if (!session.user_interaction().progress || !book) {
    responder.abandon();
    return;
  }
  const auto& p = request.params;
  const auto id = p.is_object() ? p.find("id") : p.end();
  if (!p.is_object() || id == p.end() || !id->is_string()) {
    responder.abandon();
    return;
  }
  const auto& token = detail::progress_token_in(p);
  const auto& name = id->get_ref<const std::string&>();
  if (token.is_null()) {
    // Only an interaction of this session earns an answer, even an error one.
    if (!book->has(name)) {
      responder.abandon();
      return;
    }
    responder.error({error_code::invalid_params,
                     "Invalid params: interaction/notify needs _meta.progressToken (a string or an integer)",
                     std::nullopt});
    return;
  }
  if (book->watch(name, responder, token) == InteractionBook::Watch::unknown) responder.abandon();
}

std::optional<Interaction> parse_interaction(const nlohmann::ordered_json& params, std::string* why) {
  const auto fail = [why](const char* reason) -> std::optional<Interaction> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (!params.is_object()) return fail("params must be an object");
  const auto id = params.find("id");
  const auto type = params.find("type");
  const auto body = params.find("interaction");
  if (id == params.end() || !id->is_string()) return fail("params.id must be a string");
  if (type == params.end() || !type->is_string()) return fail("params.type must be a string");
  if (body == params.end() || !body->is_object()) return fail("params.interaction must be an object");
  Interaction out;
  out.id = id->get<std::string>();
  out.type = type->get<std::string>();
  const auto message = body->find("message");
  if (message != body->end()) {
    auto text = text_of(*message);
    if (!text) return fail("interaction.message must be a TextContent");
    out.message = std::move(*text);
  }
  if (out.type == "ua") {
    const auto url = body->find("url");
    if (url == body->end() || !url->is_string()) return fail("interaction.url must be a string");
    out.url = url->get<std::string>();
    return out;
  }
  if (out.type == "prompt") {
    if (message == body->end()) return fail("interaction.message is required for a prompt");
    const auto schema = body->find("schema");
    if (schema == body->end() || !schema->is_object()) return fail("interaction.schema must be an object");
    out.schema = *schema;
    return out;
  }
  return fail("unknown interaction type");
}

std::optional<Interaction> parse_interaction_required(const RpcError& error) {
  if (error.code != error_code::interaction_required || !error.data || !error.data->is_object()) return std::nullopt;
  // The draft's data is the interaction object with id and type beside its members.
  nlohmann::ordered_json data = nlohmann::ordered_json::parse(error.data->dump());
  nlohmann::ordered_json params{{"id", data.value("id", nlohmann::ordered_json())},
                                {"type", data.value("type", nlohmann::ordered_json())}};
  data.erase("id");
  data.erase("type");
  params["interaction"] = std::move(data);
  return parse_interaction(params);
}

}  // namespace elicit
