// Client::Impl: the answers to the server's questions, by the host's handlers, in both eras (an
// elicitation/create, an input-required result's or a task's inputRequests; the userInteraction
// dialect's interaction/create in interaction_answers.cpp); the capabilities that say what this
// client answers (client_impl.hpp).
#include "client_impl.hpp"

#include <memory>
#include <string>

#include "elicit/protocol/protocol_era.hpp"
#include "elicit/tasks.hpp"

namespace elicit {

using client_detail::ordered_at;

// The params as the server wrote them, from the text of the message that carried them: `path`
// leads from the message to them. Null when there is no text or it does not lead to an object.
nlohmann::ordered_json client_detail::ordered_at(const std::shared_ptr<const std::string>& text,
                                                 std::initializer_list<const char*> path) {
  if (!text) return nullptr;
  auto j = nlohmann::ordered_json::parse(*text, nullptr, false);
  for (const char* key : path) {
    if (j.is_discarded() || !j.is_object()) return nullptr;
    const auto it = j.find(key);
    if (it == j.end()) return nullptr;
    auto next = std::move(*it);
    j = std::move(next);
  }
  if (!j.is_object()) return nullptr;
  return j;
}

namespace {

// read_elicitation_request, with the requestedSchema taken in the server's order from `ordered`
// (the same params with their member order) when it agrees with `params`.
ElicitationRequest read_request(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                                const UrlSafetyOptions& url_safety) {
  ElicitationRequest r;
  r.params = params;
  if (!params.is_object()) {
    r.schema_problems.push_back({Diagnostic::Severity::error, "", "elicitation/create params must be an object"});
    return r;
  }
  if (const auto m = params.find("message"); m != params.end() && m->is_string()) r.message = m->get<std::string>();
  r.url_mode = params.value("mode", nlohmann::json()) == "url";  // a non-string mode is not URL mode, and no throw
  if (r.url_mode) {
    if (const auto u = params.find("url"); u != params.end() && u->is_string()) r.url = u->get<std::string>();
    if (const auto e = params.find("elicitationId"); e != params.end() && e->is_string())
      r.elicitation_id = e->get<std::string>();
    r.url_review = review_url(r.url, url_safety);
    return r;
  }
  const auto s = params.find("requestedSchema");
  if (s == params.end()) {
    r.schema_problems.push_back({Diagnostic::Severity::error, "/requestedSchema", "missing"});
    return r;
  }
  // The parsed params have their members sorted; the text of the message has the server's order,
  // which is the order a form shows its fields in. It is used when it says the same thing (it
  // always should: both come from one text), else the sorted schema is.
  const auto os = ordered.is_object() ? ordered.find("requestedSchema") : ordered.end();
  if (ordered.is_object() && os != ordered.end() && nlohmann::json(*os) == *s) {
    r.requested_schema = *os;
  } else {
    r.requested_schema = nlohmann::ordered_json::parse(s->dump());
  }
  auto parsed = parse_requested_schema(r.requested_schema, "/requestedSchema");
  if (parsed.ok()) r.form = std::move(parsed.form);
  r.schema_problems = std::move(parsed.diagnostics);
  return r;
}

}  // namespace

ElicitationRequest read_elicitation_request(const nlohmann::json& params, const UrlSafetyOptions& url_safety) {
  return read_request(params, nullptr, url_safety);
}

nlohmann::json Client::Impl::capabilities() const {
  nlohmann::json caps = nlohmann::json::object();
  if (!has_handler()) return caps;
  if (options.user_interaction) {
    // The draft's capability; progress is not declared: this client sends no interaction/notify.
    nlohmann::json types{"prompt"};
    if (handles_url()) types.push_back("ua");
    caps["userInteraction"] = {{"types", types}};
    return caps;
  }
  nlohmann::json elicitation{{"form", nlohmann::json::object()}};
  if (handles_url()) elicitation["url"] = nlohmann::json::object();
  caps["elicitation"] = elicitation;
  return caps;
}

// 2026-07-28 requests also declare the tasks extension (the client follows a task to its end).
nlohmann::json Client::Impl::request_capabilities() const {
  auto caps = capabilities();
  if (options.tasks) caps["extensions"] = {{tasks_extension, nlohmann::json::object()}};
  return caps;
}

nlohmann::ordered_json Client::Impl::meta() const {
  return {{std::string(meta_key::protocol_version), current_version()},
          {std::string(meta_key::client_capabilities), request_capabilities()},
          {std::string(meta_key::client_info), options.client_info}};
}

// One question read as the handlers see it: the schema in the server's order, the URL reviewed,
// and the inputRequests key it came under ("" for an elicitation/create).
ElicitationRequest Client::Impl::question(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                                          const std::string& key) const {
  auto request = read_request(params, ordered, options.url_safety);
  request.key = key;
  return request;
}

// A URL the review refused is never offered to anyone, handler or step answerer (Safe URL
// Handling): the decline to send for it, said in the log; nullopt for any other question.
std::optional<nlohmann::json> Client::Impl::refused_url(const ElicitationRequest& request) {
  if (!request.url_mode || request.url_review.allowed) return std::nullopt;
  session.log("declined a URL-mode elicitation: " + request.url_review.refusal);
  return Answer::decline().to_json(false);
}

// The answer to one elicitation/create: a typed handler whose schema it is, else the fallback,
// else cancel (nobody here can show it).
// `ordered`: the same params in the server's member order (null when unknown).
nlohmann::json Client::Impl::answer(const nlohmann::json& params, const nlohmann::ordered_json& ordered,
                                    const std::string& key) {
  const auto request = question(params, ordered, key);
  if (const auto refused = refused_url(request)) return *refused;
  if (!request.url_mode) {
    const auto schema = params.is_object() ? params.find("requestedSchema") : params.end();
    if (schema != params.end()) {
      for (const auto& [wanted, handler] : form_handlers) {
        if (wanted == *schema) return handler(request).to_json(true);
      }
    }
  }
  if (fallback && (!request.url_mode || options.url_elicitation)) return fallback(request).to_json(!request.url_mode);
  return Answer::cancel().to_json(false);
}

// The answers to an input-required result's or a task's inputRequests, by the same handlers as
// any elicitation, or in a step call by its answerer: nullopt when it stopped. `ordered`: the same
// requests in the server's member order (null when unknown). Keys in `skip` are left out.
std::optional<nlohmann::ordered_json> Client::Impl::answer_inputs(const std::string& method,
                                                                  const nlohmann::json& requests,
                                                                  const nlohmann::ordered_json& ordered_requests,
                                                                  Step* step, const std::set<std::string>& skip) {
  nlohmann::ordered_json responses = nlohmann::ordered_json::object();
  for (const auto& [key, input] : requests.items()) {
    if (skip.count(key)) continue;
    const auto m = input.is_object() ? input.value("method", std::string()) : std::string();
    if (m != "elicitation/create")
      throw ClientError(0, method + ": the server asked for " + (m.empty() ? std::string("an unknown request") : m) +
                               ", which this client did not declare");
    nlohmann::ordered_json ordered;
    if (const auto in = ordered_requests.is_object() ? ordered_requests.find(key) : ordered_requests.end();
        in != ordered_requests.end() && in->is_object()) {
      if (const auto p = in->find("params"); p != in->end()) ordered = *p;
    }
    const auto params = input.value("params", nlohmann::json::object());
    if (!step) {
      responses[key] = answer(params, ordered, key);
      continue;
    }
    const auto request = question(params, ordered, key);
    if (auto refused = refused_url(request)) {  // never offered, so not left for later either
      responses[key] = std::move(*refused);
      continue;
    }
    std::optional<Answer> given;
    if (step->answer && *step->answer) given = (*step->answer)(request);
    if (!given) return std::nullopt;
    responses[key] = given->to_json(!request.url_mode);
  }
  return responses;
}

std::vector<ElicitationRequest> PendingInput::questions(const UrlSafetyOptions& url_safety) const {
  std::vector<ElicitationRequest> out;
  if (!input_requests.is_object()) return out;
  for (const auto& [key, input] : input_requests.items()) {
    nlohmann::ordered_json ordered;
    if (input.is_object()) {
      if (const auto p = input.find("params"); p != input.end()) ordered = *p;
    }
    auto request = read_request(nlohmann::json(ordered.is_null() ? nlohmann::ordered_json::object() : ordered), ordered,
                                url_safety);
    request.key = key;
    out.push_back(std::move(request));
  }
  return out;
}

}  // namespace elicit
