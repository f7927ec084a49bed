#include "elicit/jsonrpc.hpp"

#include "elicit/json_depth.hpp"

namespace elicit {

std::string to_string(const RequestId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return std::to_string(*n);
  return nlohmann::json(std::get<std::string>(id)).dump();
}

nlohmann::json id_to_json(const RequestId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return *n;
  return std::get<std::string>(id);
}

nlohmann::json error_to_json(const RpcError& e) {
  nlohmann::json j{{"code", e.code}, {"message", e.message}};
  if (e.data) j["data"] = *e.data;
  return j;
}

namespace {

// nlohmann's message without its internal prefix ("[json.exception.parse_error.101] parse error at
// line 1, column 5: ") and without the echo of the offending bytes ("; last read: '...'"), which
// may not be UTF-8: what a peer is told is ours to word.
std::string reason(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (const auto bracket = what.find("] "); what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
    what.erase(0, bracket + 2);
  }
  if (const auto col = what.find(", column "); col != std::string::npos) {
    if (const auto colon = what.find(": ", col); colon != std::string::npos) what.erase(0, colon + 2);
  }
  if (const auto last = what.find("; last read: "); last != std::string::npos) what.erase(last);
  return what;
}

constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

std::optional<RequestId> read_id(const nlohmann::json& j) {
  if (j.is_string()) return RequestId{j.get<std::string>()};
  if (j.is_number_integer() && !j.is_number_unsigned()) return RequestId{j.get<std::int64_t>()};
  if (j.is_number_unsigned() && j.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))
    return RequestId{static_cast<std::int64_t>(j.get<std::uint64_t>())};
  return std::nullopt;
}

ParseResult invalid(std::string why, std::optional<RequestId> id = std::nullopt) {
  ParseResult r;
  r.error = RpcError{error_code::invalid_request, "Invalid Request: " + why, std::nullopt};
  r.error_id = std::move(id);
  return r;
}

}  // namespace

ParseResult parse_message(std::string_view text) {
  if (const auto at = find_too_deep(text); at != std::string_view::npos) {
    ParseResult r;
    r.error = RpcError{error_code::parse_error,
                       "Parse error: nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels at byte " +
                           std::to_string(at + 1),
                       std::nullopt};
    return r;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    ParseResult r;
    r.error = RpcError{error_code::parse_error, "Parse error at byte " + std::to_string(e.byte) + ": " + reason(e),
                       std::nullopt};
    return r;
  } catch (const nlohmann::json::exception& e) {  // e.g. a number beyond double
    ParseResult r;
    r.error = RpcError{error_code::parse_error, "Parse error: " + reason(e), std::nullopt};
    return r;
  }
  if (j.is_array()) return invalid("batches are not supported (MCP 2025-06-18 removed them)");
  if (!j.is_object()) return invalid("a message must be a JSON object");
  const auto id_it = j.find("id");
  std::optional<RequestId> id;
  if (id_it != j.end()) id = read_id(*id_it);
  if (j.value("jsonrpc", nlohmann::json()) != "2.0") return invalid("\"jsonrpc\" must be \"2.0\"", id);

  const auto method = j.find("method");
  if (method != j.end()) {
    if (!method->is_string()) return invalid("\"method\" must be a string", id);
    nlohmann::json params;
    if (const auto p = j.find("params"); p != j.end()) {
      if (!p->is_object() && !p->is_array()) return invalid("\"params\" must be an object", id);
      params = *p;
    }
    if (id_it == j.end()) {
      ParseResult r;
      r.message = Notification{method->get<std::string>(), std::move(params)};
      return r;
    }
    if (!id) return invalid("\"id\" must be a string or an integer");
    ParseResult r;
    r.message = Request{*id, method->get<std::string>(), std::move(params)};
    return r;
  }

  // A response. Those without a usable id cannot be matched to anything and are not answered.
  if (!id) {
    ParseResult r;
    r.ignore = true;
    return r;
  }
  const auto result = j.find("result");
  const auto error = j.find("error");
  if ((result == j.end()) == (error == j.end())) {
    ParseResult r;
    r.ignore = true;  // answering a response with an error would start a ping-pong
    return r;
  }
  Response resp{*id, std::nullopt, std::nullopt};
  if (result != j.end()) {
    resp.result = *result;
  } else {
    RpcError e;
    if (error->is_object()) {
      e.code = error->value("code", nlohmann::json(0)).is_number_integer() ? (*error)["code"].get<int>() : 0;
      if (const auto m = error->find("message"); m != error->end() && m->is_string()) e.message = m->get<std::string>();
      if (const auto d = error->find("data"); d != error->end()) e.data = *d;
    } else {
      e.message = "malformed error object: " + error->dump(-1, ' ', false, kReplace);
    }
    resp.error = std::move(e);
  }
  ParseResult r;
  r.message = std::move(resp);
  return r;
}

std::string serialize(const Request& r) {
  nlohmann::json j{{"jsonrpc", "2.0"}, {"id", id_to_json(r.id)}, {"method", r.method}};
  if (!r.params.is_null()) j["params"] = r.params;
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize(const Notification& n) {
  nlohmann::json j{{"jsonrpc", "2.0"}, {"method", n.method}};
  if (!n.params.is_null()) j["params"] = n.params;
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize(const Response& r) {
  nlohmann::json j{{"jsonrpc", "2.0"}, {"id", id_to_json(r.id)}};
  if (r.error) {
    j["error"] = error_to_json(*r.error);
  } else {
    j["result"] = r.result.value_or(nlohmann::json::object());
  }
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize_response(const RequestId& id, const nlohmann::ordered_json& result) {
  nlohmann::ordered_json j{{"jsonrpc", "2.0"}, {"id", id_to_json(id)}, {"result", result}};
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize_request(const RequestId& id, std::string_view method, const nlohmann::ordered_json& params) {
  nlohmann::ordered_json j{{"jsonrpc", "2.0"}, {"id", id_to_json(id)}, {"method", std::string(method)}};
  if (!params.is_null()) j["params"] = params;
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize_notification(std::string_view method, const nlohmann::ordered_json& params) {
  nlohmann::ordered_json j{{"jsonrpc", "2.0"}, {"method", std::string(method)}};
  if (!params.is_null()) j["params"] = params;
  return j.dump(-1, ' ', false, kReplace);
}

std::string serialize_error_without_id(const RpcError& e) {
  return nlohmann::json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", error_to_json(e)}}.dump(-1, ' ', false,
                                                                                               kReplace);
}

}  // namespace elicit
