#include "elicit/protocol/protocol_era.hpp"

#include <algorithm>

#include "json_fast.hpp"
#include "progress_token.hpp"

namespace elicit {

const std::vector<std::string>& stateless_protocol_versions() {
  static const std::vector<std::string> v{"2026-07-28"};
  return v;
}

const std::vector<std::string>& session_protocol_versions() {
  static const std::vector<std::string> v{"2025-11-25", "2025-06-18"};
  return v;
}

const std::vector<std::string>& all_protocol_versions() {
  static const std::vector<std::string> v = [] {
    auto all = stateless_protocol_versions();
    for (const auto& l : session_protocol_versions()) all.push_back(l);
    return all;
  }();
  return v;
}

RpcError unsupported_protocol_version(const nlohmann::json& requested) {
  return {error_code::unsupported_protocol_version, "Unsupported protocol version",
          nlohmann::json{{"supported", all_protocol_versions()}, {"requested", requested}}};
}

RpcError missing_required_client_capability(nlohmann::json required) {
  return {error_code::missing_required_client_capability, "Missing required client capability",
          nlohmann::json{{"requiredCapabilities", std::move(required)}}};
}

RequestMeta RequestMeta::of_params(const nlohmann::json& params) {
  RequestMeta m;
  if (!params.is_object()) return m;
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return m;
  m.present = true;
  const auto copy = [&](std::string_view key, std::optional<nlohmann::json>& out) {
    if (const auto it = meta->find(key); it != meta->end()) out = *it;
  };
  copy(meta_key::protocol_version, m.protocol_version);
  copy(meta_key::client_capabilities, m.client_capabilities);
  copy(meta_key::log_level, m.log_level);
  copy("progressToken", m.progress_token);
  return m;
}

std::optional<RequestMeta> RequestMeta::of_text(std::string_view meta_json) {
  static constexpr std::string_view keys[] = {meta_key::protocol_version, meta_key::client_capabilities,
                                              meta_key::log_level, "progressToken"};
  constexpr std::size_t n = sizeof keys / sizeof keys[0];
  nlohmann::json values[n];
  bool found[n] = {};
  if (!jsonrpc::detail::pick_members(meta_json, keys, n, values, found)) {
    // Text the fast reader leaves to nlohmann (e.g. a number it cannot convert exactly).
    auto meta = nlohmann::json::parse(meta_json.begin(), meta_json.end(), nullptr, false);
    if (!meta.is_object()) return std::nullopt;
    return of_params(nlohmann::json{{"_meta", std::move(meta)}});
  }
  RequestMeta m;
  m.present = true;
  std::optional<nlohmann::json>* out[n] = {&m.protocol_version, &m.client_capabilities, &m.log_level,
                                           &m.progress_token};
  for (std::size_t i = 0; i < n; ++i) {
    if (found[i]) *out[i] = std::move(values[i]);
  }
  return m;
}

RequestEra read_request_era(const nlohmann::json& params) { return read_request_era(RequestMeta::of_params(params)); }

RequestEra read_request_era(RequestMeta meta) {
  RequestEra era;
  if (!meta.present || !meta.protocol_version) return era;
  const auto& version = *meta.protocol_version;
  const auto& stateless = stateless_protocol_versions();
  if (!version.is_string() ||
      std::find(stateless.begin(), stateless.end(), version.get_ref<const std::string&>()) == stateless.end()) {
    era.error = unsupported_protocol_version(version);
    return era;
  }
  if (!meta.client_capabilities || !meta.client_capabilities->is_object()) {
    era.error = RpcError{error_code::invalid_params,
                         "Invalid params: _meta needs an object \"" + std::string(meta_key::client_capabilities) + "\"",
                         std::nullopt};
    return era;
  }
  StatelessFields m;
  m.protocol_version = version.get_ref<const std::string&>();
  m.capabilities = ClientCapabilities::from_json(std::move(*meta.client_capabilities));
  if (meta.log_level) {
    m.log_level = parse_logging_level(*meta.log_level);
    if (!m.log_level) {
      era.error =
          RpcError{error_code::invalid_params,
                   "Invalid params: _meta \"" + std::string(meta_key::log_level) +
                       "\" is not a log level (debug, info, notice, warning, error, critical, alert, emergency)",
                   std::nullopt};
      return era;
    }
  }
  if (meta.progress_token && detail::is_progress_token(*meta.progress_token)) {
    m.progress_token = std::move(*meta.progress_token);
  }
  era.stateless = std::move(m);
  return era;
}

namespace {
template <class Json>
void stamp(Json& result, const nlohmann::json& server_info) {
  if (!result.is_object()) result = Json::object();
  if (!result.contains("resultType")) result["resultType"] = "complete";
  auto& meta = result["_meta"];
  if (!meta.is_object()) meta = Json::object();
  meta[std::string(meta_key::server_info)] = server_info;
}
}  // namespace

void stamp_stateless_result(nlohmann::json& result, const nlohmann::json& server_info) { stamp(result, server_info); }
void stamp_stateless_result(nlohmann::ordered_json& result, const nlohmann::json& server_info) {
  stamp(result, server_info);
}

}  // namespace elicit
