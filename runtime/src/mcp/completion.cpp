#include "elicit/completion.hpp"

#include <algorithm>
#include <cctype>

#include "completion_request.hpp"
#include "elicit/server_session.hpp"

namespace elicit {

namespace {

// MCP 2025-11-25, Completion, "Completion Results": at most 100 values per response.
constexpr std::size_t max_values = 100;

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

RpcError invalid(std::string message, nlohmann::json data = nullptr) {
  return {error_code::invalid_params, std::move(message),
          data.is_null() ? std::nullopt : std::optional<nlohmann::json>(std::move(data))};
}

}  // namespace

Completer complete_from(std::vector<std::string> options) {
  return [options = std::move(options)](const CompletionRequest& request) {
    Completion c;
    for (const auto& o : options) {
      if (starts_with_ignoring_case(o, request.value)) c.values.push_back(o);
    }
    return c;
  };
}

std::variant<nlohmann::json, RpcError> answer_completion(const Server& core, const nlohmann::json& params,
                                                         const std::function<void(std::string_view)>& log) {
  if (!params.is_object()) return invalid("completion/complete needs params");
  const auto ref = params.find("ref");
  const auto argument = params.find("argument");
  if (ref == params.end() || !ref->is_object() || !ref->contains("type") || !(*ref)["type"].is_string())
    return invalid("completion/complete needs params.ref.type");
  if (argument == params.end() || !argument->is_object() || !argument->contains("name") ||
      !(*argument)["name"].is_string() || !argument->contains("value") || !(*argument)["value"].is_string())
    return invalid("completion/complete needs params.argument.name and params.argument.value (strings)");

  CompletionRequest request;
  request.argument = (*argument)["name"].get<std::string>();
  request.value = (*argument)["value"].get<std::string>();
  if (const auto context = params.find("context"); context != params.end() && context->is_object()) {
    if (const auto args = context->find("arguments"); args != context->end() && args->is_object()) {
      for (const auto& [name, value] : args->items()) {
        if (value.is_string()) request.context.emplace(name, value.get<std::string>());
      }
    }
  }

  const auto type = (*ref)["type"].get<std::string>();
  const Completer* completer = nullptr;
  // The prompt or template is kept alive while its Completer runs (it may be removed meanwhile).
  std::shared_ptr<const Prompt> prompt;
  std::shared_ptr<const ResourceTemplate> t;
  if (type == "ref/prompt") {
    const auto name = ref->value("name", nlohmann::json());
    if (!name.is_string()) return invalid("completion/complete: ref/prompt needs a name");
    prompt = core.find_prompt(name.get<std::string>());
    if (!prompt) return invalid("Unknown prompt: " + name.get<std::string>(), {{"name", name}});
    const auto it = std::find_if(prompt->arguments.begin(), prompt->arguments.end(),
                                 [&](const PromptArgument& a) { return a.name == request.argument; });
    if (it == prompt->arguments.end())
      return invalid("Prompt " + prompt->name + " has no argument " + request.argument);
    if (it->complete) completer = &it->complete;
  } else if (type == "ref/resource") {
    const auto uri = ref->value("uri", nlohmann::json());
    if (!uri.is_string()) return invalid("completion/complete: ref/resource needs a uri");
    t = core.find_resource_template(uri.get<std::string>());
    if (!t) return invalid("Unknown resource template: " + uri.get<std::string>(), {{"uri", uri}});
    const UriTemplate parsed(t->uri_template);
    const auto& vars = parsed.variables();
    if (std::find(vars.begin(), vars.end(), request.argument) == vars.end())
      return invalid("Resource template " + t->uri_template + " has no variable " + request.argument);
    if (const auto c = t->completions.find(request.argument); c != t->completions.end() && c->second)
      completer = &c->second;
  } else {
    return invalid("completion/complete: unknown ref type " + type + " (ref/prompt or ref/resource)");
  }

  Completion c;
  if (completer) {
    try {
      c = (*completer)(request);
    } catch (const std::exception& e) {
      log(std::string("completion/complete: the completer of ") + request.argument + " threw: " + e.what());
      return RpcError{error_code::internal_error, "Internal error: completion failed", std::nullopt};
    } catch (...) {
      log("completion/complete: the completer of " + request.argument + " threw");
      return RpcError{error_code::internal_error, "Internal error: completion failed", std::nullopt};
    }
  }
  nlohmann::json completion{{"values", nlohmann::json::array()}};
  const auto count = c.values.size();
  for (std::size_t i = 0; i < count && i < max_values; ++i) completion["values"].push_back(c.values[i]);
  const bool more = c.has_more || count > max_values;
  const auto total = c.total ? *c.total : count;
  if (more || c.total) completion["total"] = std::max(total, std::min(count, max_values));
  completion["hasMore"] = more;
  return nlohmann::json{{"completion", std::move(completion)}};
}

}  // namespace elicit
