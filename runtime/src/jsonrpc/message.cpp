#include "elicit/jsonrpc/message.hpp"

#include "elicit/content/json_depth.hpp"
#include "json_fast.hpp"

namespace elicit::jsonrpc {

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

// The text as a document, or the -32700 error for it.
std::optional<RpcError> parse_document(std::string_view text, nlohmann::json& j) {
  // Plain well-formed JSON (every real message) is read by the fast path, which gives exactly
  // nlohmann's document; anything else goes the checked way, which gives nlohmann's error.
  if (detail::parse_plain_json(text, j)) return std::nullopt;
  if (const auto at = find_too_deep(text); at != std::string_view::npos) {
    return RpcError{error_code::parse_error,
                    "Parse error: nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels at byte " +
                        std::to_string(at + 1),
                    std::nullopt};
  }
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return RpcError{error_code::parse_error, "Parse error at byte " + std::to_string(e.byte) + ": " + reason(e),
                    std::nullopt};
  } catch (const nlohmann::json::exception& e) {  // e.g. a number beyond double
    return RpcError{error_code::parse_error, "Parse error: " + reason(e), std::nullopt};
  }
  return std::nullopt;
}

}  // namespace

namespace {

// The JSON-RPC members of a parsed object, moved out of it.
detail::PlainEnvelope envelope_of(nlohmann::json& j) {
  detail::PlainEnvelope e;
  if (const auto v = j.find("jsonrpc"); v != j.end())
    e.jsonrpc_2_0 = v->is_string() && v->get_ref<const std::string&>() == "2.0";
  auto take = [&](const char* key, bool& has, nlohmann::json& into) {
    if (const auto it = j.find(key); it != j.end()) {
      has = true;
      into = std::move(*it);
    }
  };
  take("id", e.has_id, e.id);
  if (const auto m = j.find("method"); m != j.end()) {
    e.has_method = true;
    if (m->is_string()) {
      e.method_is_string = true;
      e.method = std::move(m->get_ref<std::string&>());
    }
  }
  take("params", e.has_params, e.params);
  take("result", e.has_result, e.result);
  take("error", e.has_error, e.error);
  return e;
}

ParseResult message_of(detail::PlainEnvelope&& e) {
  std::optional<RequestId> id;
  if (e.has_id) id = read_id(e.id);
  if (!e.jsonrpc_2_0) return invalid("\"jsonrpc\" must be \"2.0\"", id);

  if (e.has_method) {
    if (!e.method_is_string) return invalid("\"method\" must be a string", id);
    nlohmann::json params;
    if (e.has_params) {
      if (!e.params.is_object() && !e.params.is_array()) return invalid("\"params\" must be an object", id);
      params = std::move(e.params);
    }
    if (!e.has_id) {
      ParseResult r;
      r.message = Notification{std::move(e.method), std::move(params)};
      return r;
    }
    if (!id) return invalid("\"id\" must be a string or an integer");
    ParseResult r;
    r.message = Request{std::move(*id), std::move(e.method), std::move(params)};
    return r;
  }

  // A response. Those without a usable id cannot be matched to anything and are not answered.
  if (!id) {
    ParseResult r;
    r.ignore = true;
    return r;
  }
  if (e.has_result == e.has_error) {
    ParseResult r;
    r.ignore = true;  // answering a response with an error would start a ping-pong
    return r;
  }
  Response resp{std::move(*id), std::nullopt, std::nullopt};
  if (e.has_result) {
    resp.result = std::move(e.result);
  } else {
    auto& error = e.error;
    RpcError re;
    if (error.is_object()) {
      re.code = error.value("code", nlohmann::json(0)).is_number_integer() ? error["code"].get<int>() : 0;
      if (const auto m = error.find("message"); m != error.end() && m->is_string())
        re.message = std::move(m->get_ref<std::string&>());
      if (const auto d = error.find("data"); d != error.end()) re.data = std::move(*d);
    } else {
      re.message = "malformed error object: " + error.dump(-1, ' ', false, kReplace);
    }
    resp.error = std::move(re);
  }
  ParseResult r;
  r.message = std::move(resp);
  return r;
}

}  // namespace

ParseResult parse_message(std::string_view text) {
  // A plain well-formed object (every real message) is read member by member by the fast path.
  if (detail::PlainEnvelope e; detail::parse_plain_envelope(text, e)) return message_of(std::move(e));
  nlohmann::json j;
  if (auto error = parse_document(text, j)) {
    ParseResult r;
    r.error = std::move(error);
    return r;
  }
  if (j.is_array()) return invalid("batches are not supported (MCP 2025-06-18 removed them)");
  if (!j.is_object()) return invalid("a message must be a JSON object");
  return message_of(envelope_of(j));  // `j` is ours: its members are moved out, not copied
}

ParseResult detail::parse_message_meta_apart(std::string_view text, std::string& params_meta) {
  params_meta.clear();
  if (detail::PlainEnvelope e; detail::parse_plain_envelope(text, e, true)) {
    params_meta = std::move(e.params_meta);
    return message_of(std::move(e));
  }
  return parse_message(text);  // the document path: params whole, as nlohmann reads them
}

// The wire form is written directly: the envelope as text, each JSON value dumped once into it, with
// the members in the order the DOM form had (sorted for nlohmann::json, as given for ordered_json),
// so the bytes are those of dumping the whole message as one value, without copying the payload
// into a temporary document first.
namespace {

template <class Json>
void append_json(std::string& out, const Json& j) {
  detail::append_dump(out, j);
}

void append_string(std::string& out, std::string_view s) { detail::append_json_string(out, s); }

void append_id(std::string& out, const RequestId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) {
    out += std::to_string(*n);
  } else {
    append_string(out, std::get<std::string>(id));
  }
}

constexpr std::size_t kEnvelopeBytes = 64;

// The head of a request or a result response, up to its `member` ("method" or "result"):
// {"id", "jsonrpc", member} as a sorted nlohmann::json writes it, or {"jsonrpc", "id", member} as
// an ordered_json does.
void append_head(std::string& out, const RequestId& id, bool sorted, const char* member) {
  if (sorted) {
    out += "{\"id\":";
    append_id(out, id);
    out += ",\"jsonrpc\":\"2.0\",\"";
  } else {
    out += "{\"jsonrpc\":\"2.0\",\"id\":";
    append_id(out, id);
    out += ",\"";
  }
  out += member;
  out += "\":";
}

// The tail a request and a notification share: the method, the params unless null, the closing brace.
template <class Json>
std::string& append_method_and_params(std::string& out, std::string_view method, const Json& params) {
  append_string(out, method);
  if (!params.is_null()) {
    out += ",\"params\":";
    append_json(out, params);
  }
  out += '}';
  return out;
}

template <class Json>
std::string request_text(const RequestId& id, std::string_view method, const Json& params, bool sorted) {
  std::string out;
  out.reserve(kEnvelopeBytes + method.size());
  append_head(out, id, sorted, "method");
  return append_method_and_params(out, method, params);
}

template <class Json>
std::string notification_text(std::string_view method, const Json& params) {
  std::string out;
  out.reserve(kEnvelopeBytes + method.size());
  out += "{\"jsonrpc\":\"2.0\",\"method\":";  // sorted and in order alike
  return append_method_and_params(out, method, params);
}

}  // namespace

std::string serialize(const Request& r) { return request_text(r.id, r.method, r.params, true); }

std::string serialize(const Notification& n) { return notification_text(n.method, n.params); }

std::string serialize(const Response& r) {
  std::string out;
  if (r.error) {  // {"error", "id", "jsonrpc"}
    out += "{\"error\":";
    append_json(out, error_to_json(*r.error));
    out += ",\"id\":";
    append_id(out, r.id);
    out += ",\"jsonrpc\":\"2.0\"}";
    return out;
  }
  out.reserve(kEnvelopeBytes);
  append_head(out, r.id, true, "result");
  if (r.result) {
    append_json(out, *r.result);
  } else {
    out += "{}";
  }
  out += '}';
  return out;
}

std::string serialize_response(const RequestId& id, const nlohmann::ordered_json& result) {
  // The bytes of dumping {"jsonrpc", "id", "result"} as one ordered value, without first copying
  // the result into that value.
  std::string out;
  out.reserve(1000);  // one block for a typical result (an input_required one is about 1 KB)
  append_head(out, id, false, "result");
  append_json(out, result);
  out += '}';
  return out;
}

std::string serialize_response_text(const RequestId& id, std::string_view result_json, bool sorted) {
  std::string out;
  out.reserve(kEnvelopeBytes + result_json.size());
  append_head(out, id, sorted, "result");
  out += result_json;
  out += '}';
  return out;
}

std::string serialize_request(const RequestId& id, std::string_view method, const nlohmann::ordered_json& params) {
  return request_text(id, method, params, false);
}

std::string serialize_request_text(const RequestId& id, std::string_view method, std::string params_json) {
  std::string head;
  head.reserve(kEnvelopeBytes + method.size());
  append_head(head, id, false, "method");
  append_string(head, method);
  if (params_json.empty()) return head + '}';
  head += ",\"params\":";
  // In place: the params' buffer usually has room for the envelope (callers reserve it).
  params_json.insert(0, head);
  params_json += '}';
  return params_json;
}

std::string serialize_notification(std::string_view method, const nlohmann::ordered_json& params) {
  return notification_text(method, params);
}

std::string serialize_error_without_id(const RpcError& e) {
  return nlohmann::json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", error_to_json(e)}}.dump(-1, ' ', false,
                                                                                               kReplace);
}

}  // namespace elicit::jsonrpc
