// Client::Impl: the answer to the userInteraction dialect's interaction/create
// (<elicit/protocol/user_interaction.hpp>, user-interaction-draft.md), by the same handlers as an
// elicitation (answers.cpp): the one client source that knows the dialect.
#include <memory>
#include <string>

#include "client_impl.hpp"
#include "elicit/protocol/user_interaction.hpp"

namespace elicit {

using client_detail::ordered_at;

// The answer to one interaction/create (the userInteraction dialect): the interaction is read
// as the elicitation it stands for and answered by the same handlers; the ElicitResult is then
// put in the draft's shape. `text`: the request's text, for the schema's member order.
void Client::Impl::answer_interaction(const nlohmann::json& params, const std::shared_ptr<const std::string>& text,
                                      const Responder& out) {
  std::string why;
  const auto interaction = parse_interaction(nlohmann::ordered_json(params), &why);
  if (!interaction || (interaction->type == "ua" && !handles_url())) {
    // A type this client did not list, or params without the draft's shape.
    out.error({error_code::invalid_params,
               "Invalid params: " + (interaction ? std::string("interaction type not supported") : why), std::nullopt});
    return;
  }
  nlohmann::json as_elicitation;
  nlohmann::ordered_json ordered;
  const bool prompt = interaction->type == "prompt";
  if (prompt) {
    as_elicitation = {{"mode", "form"}, {"message", interaction->message}, {"requestedSchema", interaction->schema}};
    const auto schema = ordered_at(text, {"params", "interaction", "schema"});
    if (!schema.is_null()) ordered = {{"requestedSchema", schema}};
  } else {
    as_elicitation = {{"mode", "url"},
                      {"message", interaction->message},
                      {"url", interaction->url},
                      {"elicitationId", interaction->id}};
  }
  const auto result = answer(as_elicitation, ordered);
  const auto action = result.value("action", std::string("cancel"));
  if (action == "accept") {
    nlohmann::json r = nlohmann::json::object();
    if (prompt) r["content"] = result.value("content", nlohmann::json::object());
    out.result(std::move(r));
  } else if (action == "decline") {
    out.error({error_code::interaction_declined, "User did not consent to the interaction", std::nullopt});
  } else {
    out.error({error_code::interaction_cancelled, "User cancelled the interaction", std::nullopt});
  }
}

}  // namespace elicit
