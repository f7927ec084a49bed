#include "multi_round_trip.hpp"

#include "elicit/input_round.hpp"

#include <sodium.h>

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

InputRound::InputRound(const nlohmann::json& carried, nlohmann::json responses)
    : carried_answers_(nlohmann::json::object()),
      last_asked_(nlohmann::json::object()),
      responses_(responses.is_object() ? std::move(responses) : nlohmann::json::object()),
      used_(nlohmann::json::object()) {
  // The payload came from state() through an authenticated seal, but read it defensively anyway:
  // a wrong shape only loses answers, it never throws.
  if (!carried.is_object()) return;
  has_state_ = true;
  if (const auto a = carried.find("answers"); a != carried.end() && a->is_object()) {
    for (auto it = a->begin(); it != a->end(); ++it) {
      if (it->is_object() && it->contains("q") && (*it)["q"].is_string() && it->contains("r"))
        carried_answers_[it.key()] = *it;
    }
  }
  if (const auto seed = carried.find("seed"); seed != carried.end() && seed->is_string()) seed_ = *seed;
  if (const auto q = carried.find("asked"); q != carried.end() && q->is_object()) {
    for (auto it = q->begin(); it != q->end(); ++it) {
      if (it->is_string()) last_asked_[it.key()] = *it;
    }
  }
}

std::string InputRound::next_key(const char* prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::string(prefix) + "-" + std::to_string(++next_);
}

std::string InputRound::digest(const nlohmann::ordered_json& request) {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
  // Matching, not authentication (the state is sealed): a collision-resistant digest keeps two
  // different questions apart. Member order counts: it is the order a client shows the fields in.
  // request.dump() (strict), by the runtime's serializer: the same bytes, so digests in states
  // sealed by other processes or versions still match.
  std::string text;
  text.reserve(1000);  // a form question in one block (growing it cost more than hashing it)
  jsonrpc::detail::append_dump(text, request, nlohmann::json::error_handler_t::strict);
  std::array<unsigned char, 16> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(text.data()), text.size(), nullptr,
                     0);
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  return std::string(hex.data());
}

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
  const auto d = digest(request);
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto u = used_.find(key); u != used_.end() && (*u)["q"] == d) return (*u)["r"];
  if (const auto c = carried_answers_.find(key); c != carried_answers_.end() && (*c)["q"] == d) {
    used_[key] = *c;
    return (*c)["r"];
  }
  if (const auto r = responses_.find(key); r != responses_.end()) {
    // With a requestState, an answer counts for the question the last round asked under its key,
    // and only if the handler asks that same question again. Without one there is nothing to
    // hold it to (a client may answer before being asked; MRTR, "Error Handling": use what is
    // recognised), so it counts for the question asked under its key now.
    const auto q = last_asked_.find(key);
    if (!has_state_ ? true : (q != last_asked_.end() && *q == d)) {
      used_[key] = nlohmann::json{{"q", d}, {"r", *r}};
      return *r;
    }
  }
  // Not answered (or answered for another question): ask it. Asking the same key twice in a run
  // keeps the first question.
  if (!asking_.contains(key)) {
    asking_[key] = request;
    asking_digests_[key] = d;
  }
  return std::nullopt;
}

void InputRound::ask_again(const std::string& key, nlohmann::ordered_json request,
                           const nlohmann::ordered_json& original) {
  const auto d = digest(original);
  std::lock_guard<std::mutex> lock(mutex_);
  used_.erase(key);
  asking_[key] = std::move(request);
  asking_digests_[key] = d;
}

bool InputRound::input_required() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !asking_.empty();
}

nlohmann::ordered_json InputRound::input_requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return asking_;
}

nlohmann::json InputRound::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json state{{"answers", used_}, {"asked", asking_digests_}};
  if (!seed_.empty()) state["seed"] = seed_;
  return state;
}

// --- A 2026-07-28 request's round: opened from its state, answered input-required ---------------

namespace detail {

void add_cache_hints(nlohmann::json& result, const CacheHints& hints) {
  result["ttlMs"] = hints.ttl.count() < 0 ? 0 : hints.ttl.count();
  result["cacheScope"] = hints.shared ? "public" : "private";
}

std::shared_ptr<const StatelessCall> open_stateless_call(const std::shared_ptr<Server>& server,
                                                         const nlohmann::json& params, RequestStateBinding binding,
                                                         const StatelessFields& fields, const Responder& responder,
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
      responder.error({error_code::invalid_params, "Invalid or expired requestState", std::nullopt});
      return nullptr;
    }
    carried = std::move(*opened);
  }
  auto m = std::make_shared<StatelessCall>();
  m->round = std::make_shared<InputRound>(carried, params.value("inputResponses", nlohmann::json()));
  m->capabilities = fields.capabilities;
  m->log_level = fields.log_level;
  m->server_info = server->info_json();
  m->result_members = std::move(result_members);
  std::weak_ptr<InputRound> weak_round = m->round;
  m->input_required = [server, responder, weak_round, binding = std::move(binding), log = &log] {
    const auto round = weak_round.lock();
    if (!round) return;
    nlohmann::ordered_json result{{"resultType", "input_required"}, {"inputRequests", round->input_requests()}};
    try {
      result["requestState"] = server->sealer().seal(round->state(), binding);
    } catch (const std::exception& e) {
      log->log(std::string("cannot seal requestState: ") + e.what());
      auto error = ToolResult::error("the answers gathered so far are too large to carry").to_json();
      stamp_stateless_result(error, server->info_json());
      responder.result(std::move(error));
      return;
    }
    result["_meta"] = {{std::string(meta_key::server_info), server->info_json()}};
    responder.result_ordered(std::move(result));
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

std::optional<RawOutcome> RequestContext::replay_form(const std::string& key, std::string_view message,
                                                      const nlohmann::ordered_json& schema) {
  // MRTR: a server must not ask what the client did not declare; the request needs it: -32021.
  if (!stateless_->capabilities.elicitation_form)
    throw MissingClientCapability(nlohmann::json{{"elicitation", {{"form", nlohmann::json::object()}}}});
  nlohmann::ordered_json request{
      {"method", "elicitation/create"},
      {"params", {{"mode", "form"}, {"message", std::string(message)}, {"requestedSchema", schema}}}};
  auto answer = stateless_->round->answer(key, request);
  if (!answer) return std::nullopt;
  return read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
}

void RequestContext::ask_form_again(const std::string& key, std::string_view message,
                                    const nlohmann::ordered_json& schema, const std::string& reason) {
  nlohmann::ordered_json original{
      {"method", "elicitation/create"},
      {"params", {{"mode", "form"}, {"message", std::string(message)}, {"requestedSchema", schema}}}};
  auto again = original;
  again["params"]["message"] = std::string(message) + "\n\nThe previous answer was not accepted: " + reason;
  stateless_->round->ask_again(key, std::move(again), original);
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
