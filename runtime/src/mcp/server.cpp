// Server: the tools, prompts, resources and resource templates a server offers, shared by all of
// its connections; their lists, pages and changes; and the capabilities they make (server.hpp).
#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "elicit/server.hpp"

#include "elicit/tasks.hpp"
#include "task_runs.hpp"

namespace elicit {

namespace {

// Cursors name a registry position (sequence number): "c" and its decimal digits. Opaque to
// clients (MCP, Pagination: "an opaque string token"); the letter keeps them from looking like
// indexes a client could compute.
std::string make_cursor(std::uint64_t seq) { return "c" + std::to_string(seq); }

std::optional<std::uint64_t> parse_cursor(std::string_view cursor) {
  if (cursor.size() < 2 || cursor.size() > 21 || cursor[0] != 'c') return std::nullopt;
  std::uint64_t seq = 0;
  const auto* first = cursor.data() + 1;
  const auto* last = cursor.data() + cursor.size();
  const auto [end, ec] = std::from_chars(first, last, seq);
  if (ec != std::errc() || end != last || seq == 0) return std::nullopt;
  return seq;
}

std::size_t completers_of(const Prompt& p) {
  return static_cast<std::size_t>(
      std::count_if(p.arguments.begin(), p.arguments.end(), [](const PromptArgument& a) { return bool(a.complete); }));
}

std::size_t completers_of(const ResourceTemplate& t) {
  return static_cast<std::size_t>(
      std::count_if(t.completions.begin(), t.completions.end(), [](const auto& entry) { return bool(entry.second); }));
}

}  // namespace

Server::Server(ServerInfo info, RequestStateOptions request_state, CacheHints list_cache)
    : info_(std::move(info)),
      sealer_(std::move(request_state)),
      list_cache_(list_cache),
      task_runs_(std::make_shared<detail::TaskRuns>()) {
  nlohmann::json info_json{{"name", info_.name}, {"version", info_.version}};
  if (info_.title) info_json["title"] = *info_.title;
  info_json_ = std::make_shared<const nlohmann::json>(std::move(info_json));
}

void Server::set_browser_forms(std::shared_ptr<BrowserForms> forms) {
  std::unique_lock lock(mutex_);
  browser_forms_ = std::move(forms);
}

std::shared_ptr<BrowserForms> Server::browser_forms() const {
  std::shared_lock lock(mutex_);
  return browser_forms_;
}

void Server::set_task_store(std::shared_ptr<TaskStore> store) {
  std::unique_lock lock(mutex_);
  task_store_ = std::move(store);
}

void Server::stop_task_runs(const std::shared_ptr<jsonrpc::WorkerPool>& pool) { task_runs_->stop(pool); }

std::shared_ptr<TaskStore> Server::task_store() const {
  std::shared_lock lock(mutex_);
  return task_store_;
}

// Every change is announced after the lock is released: a slow listener delays no lookup.

void Server::add_tool(Tool tool) {
  if (!tool.handler && !tool.async_handler) throw std::invalid_argument("tool " + tool.name + " has no handler");
  std::optional<JsonSchema> schema;
  // {"type": "object"} alone, the common case of a tool without parameters, needs no validator.
  if (tool.validate_arguments && tool.input_schema != nlohmann::json{{"type", "object"}}) {
    try {
      schema.emplace(tool.input_schema);
    } catch (const JsonSchemaError& e) {
      throw std::invalid_argument("tool " + tool.name + ": inputSchema " + e.what());
    }
  }
  std::shared_ptr<const std::vector<ParamHeader>> headers;
  try {
    if (auto found = param_headers_of(tool.input_schema); !found.empty()) {
      headers = std::make_shared<const std::vector<ParamHeader>>(std::move(found));
    }
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("tool " + tool.name + ": inputSchema " + e.what());
  }
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto key = tool.name;
    if (tool.task_support != TaskSupport::never && !task_store_) task_store_ = std::make_shared<InMemoryTaskStore>();
    tools_.add(key, std::move(tool), "tool");
    if (schema) input_schemas_.insert_or_assign(key, std::move(*schema));
    if (headers) param_headers_.insert_or_assign(key, std::move(headers));
  }
  subscriptions_->notify_list_changed(ListKind::tools);
}

void Server::add_prompt(Prompt prompt) {
  if (!prompt.handler && !prompt.async_handler)
    throw std::invalid_argument("prompt " + prompt.name + " has no handler");
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto key = prompt.name;
    const auto added = prompts_.add(key, std::move(prompt), "prompt");
    completers_ += completers_of(*added);
  }
  subscriptions_->notify_list_changed(ListKind::prompts);
}

void Server::add_resource(Resource resource) {
  if (!resource.handler && !resource.async_handler)
    throw std::invalid_argument("resource " + resource.uri + " has no handler");
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto key = resource.uri;
    resources_.add(key, std::move(resource), "resource");
  }
  subscriptions_->notify_list_changed(ListKind::resources);
}

void Server::add_resource_template(ResourceTemplate t) {
  if (!t.handler && !t.async_handler)
    throw std::invalid_argument("resource template " + t.uri_template + " has no handler");
  UriTemplate matcher(t.uri_template);  // throws for a template it cannot match
  for (const auto& entry : t.completions) {
    const auto& vars = matcher.variables();
    if (std::find(vars.begin(), vars.end(), entry.first) == vars.end())
      throw std::invalid_argument("resource template " + t.uri_template + " has no variable " + entry.first +
                                  " to complete");
  }
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto key = t.uri_template;
    auto added = templates_.add(key, std::move(t), "resource template");
    completers_ += completers_of(*added);
    template_matchers_.emplace_back(std::move(matcher), std::move(added));
  }
  subscriptions_->notify_list_changed(ListKind::resources);
}

bool Server::remove_tool(std::string_view name) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (!tools_.remove(name)) return false;
    if (const auto it = input_schemas_.find(name); it != input_schemas_.end()) input_schemas_.erase(it);
    if (const auto it = param_headers_.find(name); it != param_headers_.end()) param_headers_.erase(it);
  }
  subscriptions_->notify_list_changed(ListKind::tools);
  return true;
}

std::shared_ptr<const std::vector<ParamHeader>> Server::param_headers(std::string_view name) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const auto it = param_headers_.find(name);
  return it == param_headers_.end() ? nullptr : it->second;
}

std::vector<SchemaViolation> Server::check_arguments(std::string_view name, const nlohmann::json& arguments) const {
  std::optional<JsonSchema> schema;  // a copy shares the compiled schema: validated outside the lock
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto it = input_schemas_.find(name);
    if (it == input_schemas_.end()) return {};
    schema = it->second;
  }
  return schema->validate(arguments);
}

bool Server::remove_prompt(std::string_view name) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto removed = prompts_.remove(name);
    if (!removed) return false;
    completers_ -= completers_of(*removed);
  }
  subscriptions_->notify_list_changed(ListKind::prompts);
  return true;
}

bool Server::remove_resource(std::string_view uri) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (!resources_.remove(uri)) return false;
  }
  subscriptions_->notify_list_changed(ListKind::resources);
  return true;
}

bool Server::remove_resource_template(std::string_view uri_template) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    const auto removed = templates_.remove(uri_template);
    if (!removed) return false;
    completers_ -= completers_of(*removed);
    template_matchers_.erase(std::remove_if(template_matchers_.begin(), template_matchers_.end(),
                                            [&](const auto& m) { return m.second == removed; }),
                             template_matchers_.end());
  }
  subscriptions_->notify_list_changed(ListKind::resources);
  return true;
}

std::shared_ptr<const Tool> Server::find_tool(std::string_view name) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return tools_.find(name);
}
std::shared_ptr<const Prompt> Server::find_prompt(std::string_view name) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return prompts_.find(name);
}
std::shared_ptr<const Resource> Server::find_resource(std::string_view uri) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return resources_.find(uri);
}
std::shared_ptr<const ResourceTemplate> Server::find_resource_template(std::string_view uri_template) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return templates_.find(uri_template);
}

std::shared_ptr<const ResourceTemplate> Server::match_resource_template(
    std::string_view uri, std::map<std::string, std::string>& variables) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  for (const auto& [matcher, t] : template_matchers_) {
    if (auto found = matcher.match(uri)) {
      variables = std::move(*found);
      return t;
    }
  }
  return nullptr;
}

template <class T, class Row>
std::optional<nlohmann::json> Server::list_page(const detail::Registry<T>& registry, const char* member,
                                                std::string_view cursor, Row&& row) const {
  std::uint64_t from = 0;
  if (!cursor.empty()) {
    const auto seq = parse_cursor(cursor);
    if (!seq) return std::nullopt;
    from = *seq;
  }
  nlohmann::json list = nlohmann::json::array();
  std::optional<std::uint64_t> next;
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    next = registry.for_page(from, page_size_, [&](const T& entry) { list.push_back(row(entry)); });
  }
  nlohmann::json result{{member, std::move(list)}};
  if (next) result["nextCursor"] = make_cursor(*next);
  return result;
}

std::optional<nlohmann::json> Server::list_tools(std::string_view cursor) const {
  return list_page(tools_, "tools", cursor, [](const Tool& t) {
    nlohmann::json j{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
    if (t.title) j["title"] = *t.title;
    if (t.output_schema) j["outputSchema"] = *t.output_schema;
    return j;
  });
}

std::optional<nlohmann::json> Server::list_prompts(std::string_view cursor) const {
  return list_page(prompts_, "prompts", cursor, [](const Prompt& p) {
    nlohmann::json j{{"name", p.name}, {"description", p.description}};
    if (p.title) j["title"] = *p.title;
    if (!p.arguments.empty()) {
      auto& args = j["arguments"] = nlohmann::json::array();
      for (const auto& a : p.arguments)
        args.push_back({{"name", a.name}, {"description", a.description}, {"required", a.required}});
    }
    return j;
  });
}

std::optional<nlohmann::json> Server::list_resources(std::string_view cursor) const {
  return list_page(resources_, "resources", cursor, [](const Resource& r) {
    nlohmann::json j{{"uri", r.uri}, {"name", r.name}, {"description", r.description}};
    if (r.mime_type) j["mimeType"] = *r.mime_type;
    return j;
  });
}

std::optional<nlohmann::json> Server::list_resource_templates(std::string_view cursor) const {
  return list_page(templates_, "resourceTemplates", cursor, [](const ResourceTemplate& t) {
    nlohmann::json j{{"uriTemplate", t.uri_template}, {"name", t.name}, {"description", t.description}};
    if (t.mime_type) j["mimeType"] = *t.mime_type;
    if (t.title) j["title"] = *t.title;
    return j;
  });
}

bool Server::offers(std::string_view capability) const {
  if (capability == "tools" || capability == "logging") return true;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  if (capability == "prompts") return !prompts_.empty();
  if (capability == "resources") return !resources_.empty() || !templates_.empty();
  if (capability == "completions") return completers_ > 0;
  if (capability == "tasks") return task_store_ != nullptr;
  return false;
}

nlohmann::json Server::capabilities(bool stateless) const {
  // logging: RequestContext::log() (logging/setLevel in a 2025-11-25 session, logLevel per 2026-07-28 request).
  // listChanged: add_* and remove_* announce changes at any time (subscriptions.hpp).
  nlohmann::json caps{{"tools", {{"listChanged", true}}}, {"logging", nlohmann::json::object()}};
  if (offers("prompts")) caps["prompts"] = {{"listChanged", true}};
  // subscribe: resources/subscribe in 2025-11-25 sessions, resourceSubscriptions of
  // subscriptions/listen in 2026-07-28 (notify_resource_updated).
  if (offers("resources")) caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
  if (offers("completions")) caps["completions"] = nlohmann::json::object();
  // The tasks extension is not defined under 2025-11-25 (SEP-2663, "Backward Compatibility").
  if (stateless && offers("tasks")) caps["extensions"] = {{tasks_extension, nlohmann::json::object()}};
  return caps;
}

}  // namespace elicit
