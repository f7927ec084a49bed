#include "multi_round_trip.hpp"

#include "elicit/protocol/input_round.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "json_fast.hpp"

namespace elicit {

std::optional<RpcError> check_input_responses(const nlohmann::json& params) {
  if (!params.is_object()) return std::nullopt;
  if (const auto r = params.find("inputResponses"); r != params.end()) {
    if (!r->is_object())
      return RpcError{error_code::invalid_params, "Invalid params: inputResponses must be an object", std::nullopt};
    for (auto it = r->begin(); it != r->end(); ++it) {
      if (!it->is_object())
        return RpcError{error_code::invalid_params,
                        "Invalid params: inputResponses/" + it.key() + " must be an object (a result)", std::nullopt};
    }
  }
  if (const auto s = params.find("requestState"); s != params.end() && !s->is_string())
    return RpcError{error_code::invalid_params, "Invalid params: requestState must be a string", std::nullopt};
  return std::nullopt;
}

InputRound::InputRound(nlohmann::json carried, nlohmann::json responses)
    : carried_(std::move(carried)),
      responses_(responses.is_object() ? std::move(responses) : nlohmann::json::object()) {
  // The payload came from state() through an authenticated seal, but read it defensively anyway:
  // a wrong shape only loses answers, it never throws.
  if (!carried_.is_object()) return;
  has_state_ = true;
  if (const auto a = carried_.find("answers"); a != carried_.end() && a->is_object()) carried_answers_ = &*a;
  if (const auto seed = carried_.find("seed"); seed != carried_.end() && seed->is_string()) seed_ = *seed;
  if (const auto q = carried_.find("asked"); q != carried_.end() && q->is_object()) last_asked_ = &*q;
}

// The opened state and the request's answers are taken apart children first (jsonrpc::detail::
// dispose): nlohmann's destructor would move every descendant onto a heap-allocated stack first.
InputRound::~InputRound() {
  jsonrpc::detail::dispose(carried_);
  jsonrpc::detail::dispose(responses_);
}

std::string InputRound::next_key(const char* prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::string(prefix) + "-" + std::to_string(++next_);
}

std::string InputRound::digest(std::string_view request_json) {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
  // Matching, not authentication (the state is sealed): a collision-resistant digest keeps two
  // different questions apart. Member order counts: it is the order a client shows the fields in.
  // The text is request.dump() (strict): the same bytes, so digests in states sealed by other
  // processes or versions still match.
  std::array<unsigned char, 16> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(request_json.data()),
                     request_json.size(), nullptr, 0);
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  return std::string(hex.data());
}

namespace {

// request.dump() with the `strict` handler (a type_error for invalid UTF-8), by the runtime's serializer.
std::string dump_strict(const nlohmann::ordered_json& request) {
  std::string text;
  text.reserve(1000);  // a form question in one block
  jsonrpc::detail::append_dump(text, request, nlohmann::json::error_handler_t::strict);
  return text;
}

// A carried answer's {"q", "r"} member, when it has that shape (others are ignored).
bool carried_answer_shape(const nlohmann::json& entry) {
  if (!entry.is_object()) return false;
  const auto q = entry.find("q");
  return q != entry.end() && q->is_string() && entry.contains("r");
}

}  // namespace

std::string InputRound::interaction_id(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (seed_.size() != 64) {
    std::array<unsigned char, 32> raw{};
    randombytes_buf(raw.data(), raw.size());
    std::array<char, 65> hex{};
    sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
    seed_ = hex.data();
  }
  std::array<unsigned char, 16> out{};
  std::string message = "elicitgen interaction id";
  message += '\0';
  message += name;
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                     reinterpret_cast<const unsigned char*>(seed_.data()), seed_.size());
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  return hex.data();
}

std::optional<nlohmann::json> InputRound::answer(const std::string& key, const nlohmann::ordered_json& request) {
  if (const auto* r = answer_text(key, dump_strict(request))) return *r;
  return std::nullopt;
}

const nlohmann::json* InputRound::answer_text(const std::string& key, std::string request_json) {
  auto d = digest(request_json);
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto u = used_.find(key); u != used_.end() && u->second.q == d) return u->second.r;
  if (carried_answers_) {
    if (const auto c = carried_answers_->find(key);
        c != carried_answers_->end() && carried_answer_shape(*c) && c->find("q")->get_ref<const std::string&>() == d) {
      const auto* r = &*c->find("r");
      used_[key] = Used{std::move(d), r, &*c};
      return r;
    }
  }
  if (const auto r = responses_.find(key); r != responses_.end()) {
    // With a requestState, an answer counts for the question the last round asked under its key,
    // and only if the handler asks that same question again. Without one there is nothing to
    // hold it to (a client may answer before being asked; MRTR, "Error Handling": use what is
    // recognised), so it counts for the question asked under its key now.
    bool asked_so = !has_state_;
    if (!asked_so && last_asked_) {
      const auto q = last_asked_->find(key);
      asked_so = q != last_asked_->end() && q->is_string() && q->get_ref<const std::string&>() == d;
    }
    if (asked_so) {
      used_[key] = Used{std::move(d), &*r, nullptr};
      return &*r;
    }
  }
  // Not answered (or answered for another question): ask it. Asking the same key twice in a run
  // keeps the first question.
  if (const auto [at, added] = asking_digests_.try_emplace(key, std::move(d)); added) {
    asking_.push_back(Asking{key, std::move(request_json)});
  }
  return nullptr;
}

void InputRound::ask_again(const std::string& key, nlohmann::ordered_json request,
                           const nlohmann::ordered_json& original) {
  std::string text;
  jsonrpc::detail::append_dump(text, request);
  ask_again_text(key, std::move(text), dump_strict(original));
}

void InputRound::ask_again_text(const std::string& key, std::string request_json, std::string_view original_json) {
  auto d = digest(original_json);
  std::lock_guard<std::mutex> lock(mutex_);
  used_.erase(key);
  // In the place it was first asked in, if it was (as ordered_json's operator[] would).
  const auto asked = std::find_if(asking_.begin(), asking_.end(), [&](const Asking& a) { return a.key == key; });
  if (asked != asking_.end()) {
    asked->request = std::move(request_json);
  } else {
    asking_.push_back(Asking{key, std::move(request_json)});
  }
  asking_digests_[key] = std::move(d);
}

bool InputRound::input_required() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !asking_.empty();
}

nlohmann::ordered_json InputRound::input_requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto out = nlohmann::ordered_json::object();
  for (const auto& a : asking_) out[a.key] = nlohmann::ordered_json::parse(a.request);
  return out;
}

void InputRound::append_input_requests(std::string& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  out += '{';
  for (std::size_t i = 0; i < asking_.size(); ++i) {
    if (i != 0) out += ',';
    jsonrpc::detail::append_json_string(out, asking_[i].key);
    out += ':';
    out += asking_[i].request;
  }
  out += '}';
}

nlohmann::json InputRound::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto answers = nlohmann::json::object();
  for (const auto& [key, u] : used_) answers[key] = u.entry ? *u.entry : nlohmann::json{{"q", u.q}, {"r", *u.r}};
  nlohmann::json state{{"answers", std::move(answers)}, {"asked", asking_digests_}};
  if (!seed_.empty()) state["seed"] = seed_;
  return state;
}

void InputRound::append_state(std::string& out) const {
  // state().dump(), strict: members in nlohmann::json's (sorted) order, as are used_'s and
  // asking_digests_'s keys.
  constexpr auto strict = nlohmann::json::error_handler_t::strict;
  std::lock_guard<std::mutex> lock(mutex_);
  out += "{\"answers\":{";
  bool first = true;
  for (const auto& [key, u] : used_) {
    if (!first) out += ',';
    first = false;
    jsonrpc::detail::append_json_string(out, key, strict);
    out += ':';
    if (u.entry) {
      jsonrpc::detail::append_dump(out, *u.entry, strict);
    } else {
      out += "{\"q\":";
      jsonrpc::detail::append_json_string(out, u.q, strict);
      out += ",\"r\":";
      jsonrpc::detail::append_dump(out, *u.r, strict);
      out += '}';
    }
  }
  out += "},\"asked\":{";
  first = true;
  for (const auto& [key, d] : asking_digests_) {
    if (!first) out += ',';
    first = false;
    jsonrpc::detail::append_json_string(out, key, strict);
    out += ':';
    jsonrpc::detail::append_json_string(out, d, strict);
  }
  out += '}';
  if (!seed_.empty()) {
    out += ",\"seed\":";
    jsonrpc::detail::append_json_string(out, seed_, strict);
  }
  out += '}';
}

// --- A 2026-07-28 request's round: opened from its state, answered input-required ---------------

namespace detail {

void add_cache_hints(nlohmann::json& result, const CacheHints& hints) {
  result["ttlMs"] = hints.ttl.count() < 0 ? 0 : hints.ttl.count();
  result["cacheScope"] = hints.shared ? "public" : "private";
}

std::shared_ptr<StatelessCall> open_stateless_call(const std::shared_ptr<Server>& server, const nlohmann::json& params,
                                                   RequestStateBinding binding, ClientCapabilities capabilities,
                                                   std::optional<LoggingLevel> log_level, const Responder& responder,
                                                   jsonrpc::Connection& log, nlohmann::json result_members) {
  if (auto e = check_input_responses(params)) {
    responder.error(std::move(*e));
    return nullptr;
  }
  nlohmann::json carried;
  if (const auto s = params.find("requestState"); s != params.end()) {
    auto opened = server->sealer().open(s->get_ref<const std::string&>(), binding);
    if (!opened) {
      // MCP 2026-07-28, MRTR, "Server Requirements": the state answers nothing more than this.
      responder.error({error_code::invalid_params, std::string(invalid_request_state_message), std::nullopt});
      return nullptr;
    }
    carried = std::move(*opened);
  }
  auto m = std::make_shared<StatelessCall>();
  m->round = std::make_shared<InputRound>(std::move(carried), params.value("inputResponses", nlohmann::json()));
  m->capabilities = std::move(capabilities);
  m->log_level = log_level;
  m->server_info = server->shared_info_json();
  m->result_members = std::move(result_members);
  std::weak_ptr<InputRound> weak_round = m->round;
  m->input_required = [server, responder, weak_round, binding = std::move(binding), log = &log] {
    const auto round = weak_round.lock();
    if (!round) return;
    // The text of the ordered result {resultType, inputRequests, requestState, _meta}, written
    // directly: the questions are text already.
    std::string result;
    result.reserve(1000);  // one block for a typical result (about 1 KB)
    result += "{\"resultType\":\"input_required\",\"inputRequests\":";
    round->append_input_requests(result);
    try {
      // The payload's plaintext is zeroed once sealed, as seal() zeroes its own.
      std::string payload;
      payload.reserve(480);
      round->append_state(payload);
      const auto sealed = server->sealer().seal_text(payload, binding);
      sodium_memzero(payload.data(), payload.size());
      result += ",\"requestState\":\"";
      result += sealed;  // "v1." and base64url: nothing to escape
      result += '"';
    } catch (const std::exception& e) {
      log->log(std::string("cannot seal requestState: ") + e.what());
      auto error = ToolResult::error("the answers gathered so far are too large to carry").to_json();
      stamp_stateless_result(error, server->info_json());
      responder.result(std::move(error));
      return;
    }
    result += ",\"_meta\":{";
    jsonrpc::detail::append_json_string(result, meta_key::server_info);
    result += ':';
    jsonrpc::detail::append_dump(result, server->info_json());
    result += "}}";
    responder.result_text(result, false, true);
  };
  return m;
}

}  // namespace detail

// --- RequestContext in a 2026-07-28 round: questions replayed from the answers ---------------------

std::optional<UrlOutcome> RequestContext::replay_url(std::string_view message, std::string_view url) {
  if (const auto problem = check_elicitation_url(url); !problem.empty()) throw std::invalid_argument(problem);
  if (!stateless_->capabilities.elicitation_url)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
  // 2026-07-28: no elicitationId; the retry says how it went.
  nlohmann::ordered_json request{
      {"method", "elicitation/create"},
      {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", std::string(url)}}}};
  auto answer = stateless_->round->answer(next_key(), request);
  if (!answer) return std::nullopt;
  const auto r = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
  UrlOutcome out;
  out.status = r.status;
  out.problem = r.problem;
  out.result = r.result;
  return out;
}

namespace {

// The text of the form question {"method": "elicitation/create", "params": {"mode": "form",
// "message", "requestedSchema"}} as the ordered_json of it dumps with `handler`: the schema
// `schema` written out, or when null `schema_json` (T's requestedSchema, serialised once) as it is.
std::string form_question(std::string_view message, const nlohmann::ordered_json* schema, std::string_view schema_json,
                          nlohmann::json::error_handler_t handler) {
  static constexpr std::string_view head = R"({"method":"elicitation/create","params":{"mode":"form","message":)";
  static constexpr std::string_view schema_member = R"(,"requestedSchema":)";
  std::string out;
  out.reserve(head.size() + message.size() + schema_member.size() + (schema ? 480 : schema_json.size()) + 8);
  out += head;
  jsonrpc::detail::append_json_string(out, message, handler);
  out += schema_member;
  if (schema) {
    jsonrpc::detail::append_dump(out, *schema, handler);
  } else {
    out += schema_json;
  }
  out += "}}";
  return out;
}

}  // namespace

std::optional<RawOutcome> RequestContext::replay_form(const std::string& key, std::string_view message,
                                                      const nlohmann::ordered_json* schema,
                                                      std::string_view schema_json) {
  // MRTR: a server must not ask what the client did not declare; the request needs it: -32021.
  if (!stateless_->capabilities.elicitation_form)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"form", nlohmann::json::object()}}}});
  // Strict, as the question's digest always was: a message that is not UTF-8 throws type_error.
  const auto* answer = stateless_->round->answer_text(
      key, form_question(message, schema, schema_json, nlohmann::json::error_handler_t::strict));
  if (!answer) return std::nullopt;
  return detail::read_elicit_result_in_place(RequestOutcome{*answer, std::nullopt, std::nullopt});
}

void RequestContext::ask_form_again(const std::string& key, std::string_view message,
                                    const nlohmann::ordered_json* schema, std::string_view schema_json,
                                    const std::string& reason) {
  const auto original = form_question(message, schema, schema_json, nlohmann::json::error_handler_t::strict);
  stateless_->round->ask_again_text(key,
                                    form_question(again_message(std::string(message), reason), schema, schema_json,
                                                  nlohmann::json::error_handler_t::replace),
                                    original);
}

std::string RequestContext::again_message(const std::string& message, const std::string& reason) {
  return message + "\n\nThe previous answer was not accepted: " + reason;
}

std::string RequestContext::why_invalid(const std::string& problem, const ValidationResult& errors) {
  if (errors.ok()) return problem;
  std::string out;
  for (const auto& e : errors.errors) {
    if (!out.empty()) out += "; ";
    out += (e.pointer.empty() ? std::string("the form") : e.pointer.substr(1)) + ": " + e.message;
  }
  return out;
}

}  // namespace elicit
