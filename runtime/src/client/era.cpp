// Client::Impl: which era a server speaks (server/discover, its fallback to initialize, cached per
// server) and the 2026-07-28 version requests carry (client_impl.hpp).
#include "client_impl.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "elicit/protocol/protocol_era.hpp"

namespace elicit {

using client_detail::throw_outcome;

namespace {

// The servers found to speak an initialize-based revision, by ClientOptions::server_key, for this
// process (MCP 2026-07-28, Versioning: the era cached per server). Bounded: past 1,024 servers it
// starts afresh (a probe more, never a wrong answer: a cached server that fails initialize is
// forgotten).
class EraCache {
 public:
  static EraCache& instance() {
    static EraCache cache;
    return cache;
  }
  std::optional<std::string> session_version(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = versions_.find(key);
    if (it == versions_.end()) return std::nullopt;
    return it->second;
  }
  void remember(const std::string& key, const std::string& version) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (versions_.size() >= 1024) versions_.clear();
    versions_[key] = version;
  }
  void forget(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    versions_.erase(key);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> versions_;
};

}  // namespace

std::optional<nlohmann::json> Client::Impl::discover(bool& from_cache) {
  const auto& fallback = options.fallback_protocol_version;
  const auto cached = fallback && !server_key.empty() ? EraCache::instance().session_version(server_key) : std::nullopt;
  if (cached && *cached == *fallback) {
    session.log("server/discover skipped: " + server_key + " spoke " + *cached + " earlier in this process");
    from_cache = true;
    return std::nullopt;
  }
  if (auto discovered = probe()) {
    if (!server_key.empty()) EraCache::instance().forget(server_key);
    return discovered;
  }
  if (!server_key.empty()) EraCache::instance().remember(server_key, *fallback);
  return std::nullopt;
}

void Client::Impl::forget_era() {
  if (!server_key.empty()) EraCache::instance().forget(server_key);
}

std::string Client::Impl::current_version() const {
  std::lock_guard<std::mutex> lock(version_mutex);
  return version;
}

// After -32022 (Versioning, "Protocol Version Negotiation": the client SHOULD select a mutually
// supported version from `supported` and retry): the version to retry with, the newest 2026-07-28
// one both speak; none when the server lists none (only 2025-11-25 versions, or no list).
std::optional<std::string> Client::Impl::mutual_version(const std::optional<nlohmann::json>& data) const {
  if (!data || !data->is_object()) return std::nullopt;
  const auto supported = data->find("supported");
  if (supported == data->end() || !supported->is_array()) return std::nullopt;
  for (const auto& mine : stateless_protocol_versions()) {
    for (const auto& theirs : *supported) {
      if (theirs.is_string() && theirs.get<std::string>() == mine) return mine;
    }
  }
  return std::nullopt;
}

// connect()'s server/discover (MCP 2026-07-28, Versioning, "Backward Compatibility"): its result,
// or nullopt when the server is of the initialize-based era and a fallback version is set.
std::optional<nlohmann::json> Client::Impl::probe() {
  const auto& fallback = options.fallback_protocol_version;
  const auto discover = [&] {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    params["_meta"] = meta();
    CallOptions o;
    o.timeout = fallback ? std::optional<std::chrono::milliseconds>(options.probe_timeout) : options.request_timeout;
    return session.call("server/discover", std::move(params), o);
  };
  auto o = discover();
  if (!o.result && o.error && o.error->code == error_code::unsupported_protocol_version) {
    if (auto v = mutual_version(o.error->data)) {
      {
        std::lock_guard<std::mutex> lock(version_mutex);
        version = *v;
      }
      session.log("server/discover: the server refused the protocol version (-32022); retrying with " + *v);
      o = discover();
    }
    // Otherwise the server is of the 2026-07-28 era all the same (the versioning page: "Do not fall
    // back to initialize"): its -32022 is the answer.
  }
  if (o.result) return std::move(*o.result);
  if (!fallback || !legacy_answer(o)) throw_outcome(o, "server/discover");
  session.log("server/discover: " + std::string(o.error ? o.error->message : "no answer") +
              ": the server speaks an initialize-based revision; trying " + *fallback);
  return std::nullopt;
}

bool Client::Impl::modern_error(int code) {
  return code == error_code::header_mismatch || code == error_code::missing_required_client_capability ||
         code == error_code::unsupported_protocol_version;
}

// Whether server/discover's failure says the server is of the initialize-based era (MCP
// 2026-07-28, Versioning, "Backward Compatibility", and its transport pages): an answer from the
// server that is not a recognized modern error; silence until the probe's timeout (stdio); over
// Streamable HTTP, a 400 whose body is no modern error. Not: a failure of the transport itself (a
// closed port, TLS, a wrong path's 404, a broken connection), which says nothing of the era and is
// reported as itself instead of being followed by an initialize that fails the same way.
bool Client::Impl::legacy_answer(const RequestOutcome& o) {
  if (!o.error) return o.failure == RequestFailure::timed_out;
  if (modern_error(o.error->code)) return false;
  const auto& data = o.error->data;
  if (!data || !data->is_object() || !data->contains(jsonrpc::kTransportFailure)) return true;
  // Compared as JSON values, which never throws whatever a server put there.
  if ((*data)[jsonrpc::kTransportFailure] != "http_status" || !data->contains("httpStatus") ||
      (*data)["httpStatus"] != 400)
    return false;
  const auto server = data->find("serverError");
  if (server == data->end() || !server->is_object()) return true;
  const auto code = server->find("code");
  return !(code != server->end() && code->is_number_integer() && modern_error(code->get<int>()));
}

// Keeps what connect()'s result says of the server.
nlohmann::json Client::Impl::remember(nlohmann::json result) {
  server_capabilities = result.value("capabilities", nlohmann::json::object());
  if (stateless) {
    const auto meta = result.find("_meta");
    if (meta != result.end() && meta->is_object())
      server_info = meta->value(std::string(meta_key::server_info), nlohmann::json());
  } else {
    server_info = result.value("serverInfo", nlohmann::json());
  }
  return result;
}

}  // namespace elicit
