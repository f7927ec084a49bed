// The offer of an MCP server: one per process, shared by every connection it serves (2025-11-25
// sessions and 2026-07-28 requests): its identity, tools, prompts and resources, list pagination and
// change announcements, and how it seals requestState (MCP 2025-11-25 and 2026-07-28, Server
// Features; Basic, Lifecycle).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include "elicit/content/json_schema.hpp"
#include "elicit/features.hpp"
#include "elicit/protocol/param_headers.hpp"
#include "elicit/protocol/protocol_era.hpp"
#include "elicit/protocol/subscriptions.hpp"
#include "elicit/request_state.hpp"
#include "elicit/uri_template.hpp"

namespace elicit {

class BrowserForms;
class TaskStore;
namespace jsonrpc {
class WorkerPool;
}
namespace detail {
class TaskRuns;
}

/// Protocol revisions a session opened with `initialize` speaks, newest first (see also
/// stateless_protocol_versions() in protocol_era.hpp).
inline const std::vector<std::string>& supported_protocol_versions() { return session_protocol_versions(); }

namespace detail {
// Named entries kept in the order added (MCP lists must be in a deterministic order). Each entry
// has a sequence number, increasing with every add, that is its position for pagination: a cursor
// stays valid while entries before or after it come and go. Entries are shared so a call that
// found one keeps it alive after it is removed. Not synchronised: Server locks around it.
template <class T>
class Registry {
 public:
  // Throws std::invalid_argument naming `kind` for a duplicate key.
  std::shared_ptr<const T> add(const std::string& key, T value, const char* kind) {
    if (by_key_.count(key)) throw std::invalid_argument(std::string("duplicate ") + kind + " " + key);
    auto entry = std::make_shared<const T>(std::move(value));
    const auto seq = next_seq_++;
    by_key_.emplace(key, Entry{seq, entry});
    order_.emplace(seq, key);
    return entry;
  }
  // The removed entry, or null when there is none of that key.
  std::shared_ptr<const T> remove(std::string_view key) {
    const auto it = by_key_.find(key);
    if (it == by_key_.end()) return nullptr;
    auto entry = std::move(it->second.value);
    order_.erase(it->second.seq);
    by_key_.erase(it);
    return entry;
  }
  std::shared_ptr<const T> find(std::string_view key) const {
    const auto it = by_key_.find(key);
    return it == by_key_.end() ? nullptr : it->second.value;
  }
  // Calls f(entry) for the entries from sequence number `from` on, at most `limit` of them (0: no
  // limit), in order; returns the sequence number of the first entry left out, if any.
  template <class F>
  std::optional<std::uint64_t> for_page(std::uint64_t from, std::size_t limit, F&& f) const {
    std::size_t n = 0;
    for (auto it = order_.lower_bound(from); it != order_.end(); ++it, ++n) {
      if (limit != 0 && n == limit) return it->first;
      f(*by_key_.find(it->second)->second.value);
    }
    return std::nullopt;
  }
  template <class F>
  void for_each(F&& f) const {
    for_page(0, 0, std::forward<F>(f));
  }
  bool empty() const noexcept { return order_.empty(); }

 private:
  struct Entry {
    std::uint64_t seq;
    std::shared_ptr<const T> value;
  };
  std::map<std::string, Entry, std::less<>> by_key_;
  std::map<std::uint64_t, std::string> order_;  // sequence number -> key
  std::uint64_t next_seq_ = 1;
};
}  // namespace detail

/// Caching hints of the 2026-07-28 era's list results (MCP 2026-07-28, Server, Utilities, "Caching"):
/// `ttlMs` and `cacheScope` on server/discover and tools/list.
struct CacheHints {
  std::chrono::milliseconds ttl{0};  ///< how long a client may treat the result as fresh; 0: stale at once
  bool shared = false;               ///< cacheScope "public" (shared caches may keep it), else "private"
};

/// What a server offers, shared by every connection it serves (each 2025-11-25 session and each 2026-07-28
/// request): its identity, its tools, prompts and resources, and how it seals requestState. One
/// Server can back any number of ServerSession objects and a StreamableHttpServer, so a tool table
/// costs memory once.
///
/// What it offers may change while it is served: every add_* and remove_* announces the change
/// (`notifications/<kind>/list_changed`, MCP 2025-11-25 and 2026-07-28, Tools/Prompts/Resources,
/// "List Changed Notification") to every initialized 2025-11-25 session and to every 2026-07-28
/// `subscriptions/listen` stream that asked for it. A call already running keeps what it found.
/// The capabilities a session sees are those of the moment it initialized (or of its request):
/// add at least one prompt (resource) before serving for `prompts` (`resources`) to be declared.
/// Thread rules: every method is thread-safe.
class Server : public std::enable_shared_from_this<Server> {
 public:
  /// `request_state`: keys, expiry and size limit of sealed requestState (request_state.hpp).
  /// Throws what RequestStateSealer's constructor throws (a key that is not 32 bytes).
  explicit Server(ServerInfo info, RequestStateOptions request_state = {}, CacheHints list_cache = {});
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Adds a tool. Throws std::invalid_argument for a duplicate name, a tool without a handler,
  /// (when validate_arguments) an input_schema JsonSchema cannot compile, or an `x-mcp-header`
  /// annotation that breaks the spec's constraints (param_headers_of), naming the pointer.
  void add_tool(Tool tool);
  /// Adds a prompt / a resource. Throws std::invalid_argument for a duplicate name (URI) or no handler.
  void add_prompt(Prompt prompt);
  void add_resource(Resource resource);
  /// Adds a resource template. Throws std::invalid_argument for a duplicate uri_template, no
  /// handler, a template UriTemplate cannot parse, or a completion for a variable it does not have.
  void add_resource_template(ResourceTemplate resource_template);
  /// The violations of `arguments` against the input_schema of tool `name` (empty: valid, or the
  /// tool does not validate, or there is no such tool). At most 16.
  std::vector<SchemaViolation> check_arguments(std::string_view name, const nlohmann::json& arguments) const;
  /// The `x-mcp-header` annotations of tool `name`'s input_schema (MCP 2026-07-28, server/tools), or
  /// null when it has none or there is no such tool. A Streamable HTTP server checks a 2026-07-28
  /// `tools/call`'s `Mcp-Param-*` headers against them (check_param_headers).
  std::shared_ptr<const std::vector<ParamHeader>> param_headers(std::string_view name) const;
  /// Removes the tool (prompt, resource, template) of that name (URI, uri_template); false when
  /// there is none. Calls already running finish with it; later ones get "Unknown tool" etc.
  bool remove_tool(std::string_view name);
  bool remove_prompt(std::string_view name);
  bool remove_resource(std::string_view uri);
  bool remove_resource_template(std::string_view uri_template);

  /// The tool, prompt or resource of that name (URI), or null.
  std::shared_ptr<const Tool> find_tool(std::string_view name) const;
  std::shared_ptr<const Prompt> find_prompt(std::string_view name) const;
  std::shared_ptr<const Resource> find_resource(std::string_view uri) const;
  /// The resource template whose uri_template is exactly `uri_template`, or null.
  std::shared_ptr<const ResourceTemplate> find_resource_template(std::string_view uri_template) const;
  /// The first template (in the order added) that matches `uri`, with its variables, or null.
  std::shared_ptr<const ResourceTemplate> match_resource_template(std::string_view uri,
                                                                  std::map<std::string, std::string>& variables) const;

  /// Entries per page of the four lists (MCP 2025-11-25 and 2026-07-28, Server, Utilities,
  /// "Pagination"); 0 (the default): everything in one page.
  void set_page_size(std::size_t entries) noexcept { page_size_ = entries; }
  std::size_t page_size() const noexcept { return page_size_; }
  /// {"tools": [...]}, {"prompts": [...]}, {"resources": [...]}, {"resourceTemplates": [...]}:
  /// the page starting at `cursor` (empty: the first), in the order added, with "nextCursor" when
  /// more follow. A cursor is opaque to clients and stays valid while entries come and go (it names
  /// a position, not an index). Null for a cursor this server did not make (the caller answers
  /// -32602).
  std::optional<nlohmann::json> list_tools(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_prompts(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_resources(std::string_view cursor = {}) const;
  std::optional<nlohmann::json> list_resource_templates(std::string_view cursor = {}) const;

  /// Sends notifications/resources/updated for `uri` to every 2025-11-25 session subscribed to it
  /// (resources/subscribe) and every subscriptions/listen stream naming it in
  /// resourceSubscriptions; returns to how many. Any thread, at any time.
  std::size_t notify_resource_updated(std::string_view uri) { return subscriptions_->notify_updated(uri); }
  Subscriptions& subscriptions() const noexcept { return *subscriptions_; }

  const ServerInfo& info() const noexcept { return info_; }
  /// {"name", "version"[, "title"]}: `serverInfo` of initialize, `_meta` of 2026-07-28 results.
  const nlohmann::json& info_json() const noexcept { return *info_json_; }
  /// The same, shared: what a 2026-07-28 request's results carry, without a copy per request.
  const std::shared_ptr<const nlohmann::json>& shared_info_json() const noexcept { return info_json_; }
  /// The server's capabilities object, now: initialize's (`stateless` false) or server/discover's
  /// (true). `tools` and `logging` always; `prompts`, `resources` and `completions` when one is
  /// registered; listChanged true, resources.subscribe true; server/discover's also
  /// `extensions["io.modelcontextprotocol/tasks"]` when the server keeps tasks (set_task_store).
  nlohmann::json capabilities(bool stateless = false) const;
  /// Whether capabilities() has this member now ("tools", "prompts", "resources", "completions",
  /// "logging"; "tasks": a task store is set), without building it.
  bool offers(std::string_view capability) const;
  const RequestStateSealer& sealer() const noexcept { return sealer_; }
  const CacheHints& list_cache() const noexcept { return list_cache_; }

  /// Where RequestContext::elicit_in_browser() opens its pages (browser_forms.hpp): set by a
  /// StreamableHttpServer serving forms::routes() (elicit/forms/page_routes.hpp), or by
  /// the application (a stdio server: forms::loopback_pages()). Null (the default):
  /// elicit_in_browser() throws std::logic_error. Thread-safe; calls already waiting keep theirs.
  void set_browser_forms(std::shared_ptr<BrowserForms> forms);
  std::shared_ptr<BrowserForms> browser_forms() const;

  /// Where the tasks of the io.modelcontextprotocol/tasks extension are kept (tasks.hpp): with a
  /// store, server/discover declares the extension and tools whose Tool::task_support allows it
  /// run as tasks for clients that declare it. add_tool() of such a tool makes an InMemoryTaskStore
  /// when none is set; set it before serving to use another (a shared store for several processes).
  /// Thread-safe; tasks already made stay in the store they were made in.
  void set_task_store(std::shared_ptr<TaskStore> store);
  std::shared_ptr<TaskStore> task_store() const;
  /// The runs of tasks going on in this process (internal to the runtime).
  detail::TaskRuns& task_runs() const noexcept { return *task_runs_; }
  /// Cancels the runs of tasks going on in this process on `pool` (null: all) and waits until they
  /// have ended. Their tasks end `failed`, or, with a store several processes share
  /// (TaskStore::run_lease() > 0), are released: the next process to read one runs it again at once
  /// (TaskRecord::run_released). ServerSession (with its own pool) and StreamableHttpServer::stop()
  /// call it, so no task handler runs after them (and StreamableHttpServer::drain(), at its start,
  /// with a shared store). Not from a handler.
  void stop_task_runs(const std::shared_ptr<jsonrpc::WorkerPool>& pool);

 private:
  template <class T, class Row>
  std::optional<nlohmann::json> list_page(const detail::Registry<T>& registry, const char* member,
                                          std::string_view cursor, Row&& row) const;

  ServerInfo info_;
  std::shared_ptr<const nlohmann::json> info_json_;  // never null
  RequestStateSealer sealer_;
  CacheHints list_cache_;
  std::atomic<std::size_t> page_size_{0};
  mutable std::shared_mutex mutex_;  // guards the registries, the matchers and completers_
  detail::Registry<Tool> tools_;
  std::map<std::string, JsonSchema, std::less<>> input_schemas_;  // of the tools that validate
  // of the tools whose input_schema has x-mcp-header annotations
  std::map<std::string, std::shared_ptr<const std::vector<ParamHeader>>, std::less<>> param_headers_;
  detail::Registry<Prompt> prompts_;
  detail::Registry<Resource> resources_;
  detail::Registry<ResourceTemplate> templates_;
  std::vector<std::pair<UriTemplate, std::shared_ptr<const ResourceTemplate>>> template_matchers_;  // in order
  std::size_t completers_ = 0;  // Completers on prompt arguments and template variables
  std::shared_ptr<Subscriptions> subscriptions_ = std::make_shared<Subscriptions>();
  std::shared_ptr<BrowserForms> browser_forms_;  // guarded by mutex_
  std::shared_ptr<TaskStore> task_store_;        // guarded by mutex_
  std::shared_ptr<detail::TaskRuns> task_runs_;
};

}  // namespace elicit
