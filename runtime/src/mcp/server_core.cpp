// ServerCore: the tools, prompts, resources and resource templates a server offers, shared by all of
// its connections, and the capabilities they make (server.hpp).
#include "elicit/server.hpp"

#include <algorithm>
#include <stdexcept>

namespace elicit {

ServerCore::ServerCore(ServerInfo info, RequestStateOptions request_state, CacheHints list_cache)
    : info_(std::move(info)), sealer_(std::move(request_state)), list_cache_(list_cache) {
  info_json_ = {{"name", info_.name}, {"version", info_.version}};
  if (info_.title) info_json_["title"] = *info_.title;
}

void ServerCore::add_tool(Tool tool) {
  if (!tool.handler && !tool.async_handler) throw std::invalid_argument("tool " + tool.name + " has no handler");
  const auto key = tool.name;
  tools_.add(key, std::move(tool), "tool");
}

void ServerCore::add_prompt(Prompt prompt) {
  if (!prompt.handler && !prompt.async_handler)
    throw std::invalid_argument("prompt " + prompt.name + " has no handler");
  for (const auto& a : prompt.arguments) completions_ = completions_ || a.complete;
  const auto key = prompt.name;
  prompts_.add(key, std::move(prompt), "prompt");
}

void ServerCore::add_resource(Resource resource) {
  if (!resource.handler && !resource.async_handler)
    throw std::invalid_argument("resource " + resource.uri + " has no handler");
  const auto key = resource.uri;
  resources_.add(key, std::move(resource), "resource");
}

void ServerCore::add_resource_template(ResourceTemplate t) {
  if (!t.handler && !t.async_handler)
    throw std::invalid_argument("resource template " + t.uri_template + " has no handler");
  UriTemplate matcher(t.uri_template);  // throws for a template it cannot match
  for (const auto& [variable, completer] : t.completions) {
    const auto& vars = matcher.variables();
    if (std::find(vars.begin(), vars.end(), variable) == vars.end())
      throw std::invalid_argument("resource template " + t.uri_template + " has no variable " + variable +
                                  " to complete");
    completions_ = completions_ || completer;
  }
  const auto key = t.uri_template;
  const auto& added = templates_.add(key, std::move(t), "resource template");
  template_matchers_.emplace_back(std::move(matcher), &added);
}

const Tool* ServerCore::find_tool(std::string_view name) const { return tools_.find(name); }
const Prompt* ServerCore::find_prompt(std::string_view name) const { return prompts_.find(name); }
const Resource* ServerCore::find_resource(std::string_view uri) const { return resources_.find(uri); }
const ResourceTemplate* ServerCore::find_resource_template(std::string_view uri_template) const {
  return templates_.find(uri_template);
}

const ResourceTemplate* ServerCore::match_resource_template(std::string_view uri,
                                                            std::map<std::string, std::string>& variables) const {
  for (const auto& [matcher, t] : template_matchers_) {
    if (auto found = matcher.match(uri)) {
      variables = std::move(*found);
      return t;
    }
  }
  return nullptr;
}

nlohmann::json ServerCore::list_tools() const {
  nlohmann::json list = nlohmann::json::array();
  tools_.for_each([&](const Tool& t) {
    nlohmann::json j{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
    if (t.title) j["title"] = *t.title;
    if (t.output_schema) j["outputSchema"] = *t.output_schema;
    list.push_back(std::move(j));
  });
  return {{"tools", list}};
}

nlohmann::json ServerCore::list_prompts() const {
  nlohmann::json list = nlohmann::json::array();
  prompts_.for_each([&](const Prompt& p) {
    nlohmann::json j{{"name", p.name}, {"description", p.description}};
    if (p.title) j["title"] = *p.title;
    if (!p.arguments.empty()) {
      auto& args = j["arguments"] = nlohmann::json::array();
      for (const auto& a : p.arguments)
        args.push_back({{"name", a.name}, {"description", a.description}, {"required", a.required}});
    }
    list.push_back(std::move(j));
  });
  return {{"prompts", list}};
}

nlohmann::json ServerCore::list_resources() const {
  nlohmann::json list = nlohmann::json::array();
  resources_.for_each([&](const Resource& r) {
    nlohmann::json j{{"uri", r.uri}, {"name", r.name}, {"description", r.description}};
    if (r.mime_type) j["mimeType"] = *r.mime_type;
    list.push_back(std::move(j));
  });
  return {{"resources", list}};
}

nlohmann::json ServerCore::list_resource_templates() const {
  nlohmann::json list = nlohmann::json::array();
  templates_.for_each([&](const ResourceTemplate& t) {
    nlohmann::json j{{"uriTemplate", t.uri_template}, {"name", t.name}, {"description", t.description}};
    if (t.mime_type) j["mimeType"] = *t.mime_type;
    if (t.title) j["title"] = *t.title;
    list.push_back(std::move(j));
  });
  return {{"resourceTemplates", list}};
}

nlohmann::json ServerCore::capabilities(bool modern) const {
  // logging: ToolCall::log() (logging/setLevel in a legacy session, logLevel per modern request).
  nlohmann::json caps{{"tools", {{"listChanged", false}}}, {"logging", nlohmann::json::object()}};
  if (!prompts_.empty()) caps["prompts"] = {{"listChanged", false}};
  // subscribe: resources/subscribe in legacy sessions (notify_resource_updated).
  if (!resources_.empty() || !templates_.empty()) caps["resources"] = {{"subscribe", !modern}, {"listChanged", false}};
  if (completions_) caps["completions"] = nlohmann::json::object();
  return caps;
}

}  // namespace elicit
