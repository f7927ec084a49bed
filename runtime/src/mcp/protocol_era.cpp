#include "elicit/protocol_era.hpp"

#include <algorithm>

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

RequestEra read_request_era(const nlohmann::json& params) {
  RequestEra era;
  if (!params.is_object()) return era;
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return era;
  const auto version = meta->find(meta_key::protocol_version);
  if (version == meta->end()) return era;
  const auto& stateless = stateless_protocol_versions();
  if (!version->is_string() ||
      std::find(stateless.begin(), stateless.end(), version->get<std::string>()) == stateless.end()) {
    era.error = unsupported_protocol_version(*version);
    return era;
  }
  const auto caps = meta->find(meta_key::client_capabilities);
  if (caps == meta->end() || !caps->is_object()) {
    era.error = RpcError{error_code::invalid_params,
                         "Invalid params: _meta needs an object \"" + std::string(meta_key::client_capabilities) + "\"",
                         std::nullopt};
    return era;
  }
  StatelessFields m;
  m.protocol_version = version->get<std::string>();
  m.capabilities = ClientCapabilities::from_json(*caps);
  if (const auto level = meta->find(meta_key::log_level); level != meta->end()) {
    m.log_level = parse_logging_level(*level);
    if (!m.log_level) {
      era.error =
          RpcError{error_code::invalid_params,
                   "Invalid params: _meta \"" + std::string(meta_key::log_level) +
                       "\" is not a log level (debug, info, notice, warning, error, critical, alert, emergency)",
                   std::nullopt};
      return era;
    }
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
