// The replay engine behind one handler for both MCP eras (MCP 2026-07-28, Basic, Patterns,
// "Multi Round-Trip Requests"). A handler for a 2026-07-28 request runs from the top on every retry;
// each question it asks is looked up by its key among the answers the client sent
// (`inputResponses`) and those carried from earlier rounds in the sealed `requestState`. The first
// run that meets a question without an answer ends, and the server answers an InputRequiredResult
// with every question gathered so far.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"

namespace elicit {

/// Checks the MRTR members of a 2026-07-28 request's params: `inputResponses`, when present, must be
/// an object (not null) whose members are objects (results), and `requestState`, when present, a string.
/// Returns the -32602 error to answer with, or nullopt (MCP 2026-07-28, MRTR, "Error Handling").
std::optional<RpcError> check_input_responses(const nlohmann::json& params);

/// One run of a handler for a 2026-07-28 request. An answer is used only for the question it
/// answers: the requestState records, for each key asked, a digest of the question (method and
/// params: mode, message, requestedSchema or url), and an answer under that key counts only if the
/// handler asks the same question again; a handler that asks something else under a key asks it
/// anew. A request without a requestState (nothing was asked, or the client answers unasked)
/// has its answers used for whatever the handler asks under their keys. Answers used in a run are carried to
/// the next round in the state, so multi-round flows need no server memory; answers the run no
/// longer asks for are dropped, and unexpected keys in `inputResponses` are ignored.
/// Thread-safe (an asynchronous handler may ask from another thread).
class InputRound {
 public:
  /// `carried`: the payload of the request's opened requestState, as state() made it (null on a
  /// first request: then `inputResponses` answer nothing, since nothing was asked). `responses`:
  /// the request's `inputResponses` (null or an object, see check_input_responses).
  InputRound(const nlohmann::json& carried, nlohmann::json responses);

  /// The key of the next question asked without one of its own: "<prefix>-1", "<prefix>-2", ...
  /// (one count for all prefixes) in the order the handler asks them (deterministic when the
  /// handler is).
  std::string next_key(const char* prefix = "elicitation");

  /// An identifier for an out-of-band interaction named `name`, the same on every round of this
  /// request (a keyed BLAKE2b of `name` under a random seed made in the first round and carried in
  /// the state): 32 hex digits. Lets a URL carry an id the application's page marks complete.
  std::string interaction_id(const std::string& name);

  /// The answer to `request` ({"method", "params"}) under `key`: the result the client gave to
  /// this question (carried from an earlier round, or in this request's `inputResponses` when the
  /// last round asked it), or nullopt, and `request` is recorded to be asked under `key`.
  std::optional<nlohmann::json> answer(const std::string& key, const nlohmann::ordered_json& request);

  /// The answer under `key` cannot be used (e.g. the content fails validation): forget it and ask
  /// `request` under `key` (e.g. `original` with the reason added to its message). The retry's
  /// answer is matched against `original`.
  void ask_again(const std::string& key, nlohmann::ordered_json request, const nlohmann::ordered_json& original);

  /// True once something is to be asked: the run must end with an InputRequiredResult.
  bool input_required() const;
  /// `inputRequests`: {key: {"method", "params"}} in the order asked.
  nlohmann::ordered_json input_requests() const;
  /// The payload to seal into the next `requestState`: the answers used so far and a digest of
  /// each question asked. Its shape is private to this class.
  nlohmann::json state() const;

 private:
  static std::string digest(const nlohmann::ordered_json& request);

  mutable std::mutex mutex_;
  nlohmann::json carried_answers_;  // key -> {"q": digest, "r": result}, from earlier rounds
  nlohmann::json last_asked_;       // key -> digest of what the last round asked
  nlohmann::json responses_;        // this request's inputResponses
  nlohmann::json used_;             // key -> {"q", "r"}: answers this run used (carried forward)
  nlohmann::ordered_json asking_ = nlohmann::ordered_json::object();  // key -> request
  nlohmann::json asking_digests_ = nlohmann::json::object();          // key -> digest
  std::size_t next_ = 0;
  bool has_state_ = false;  // the request carried a requestState
  std::string seed_;        // hex; made when first needed, carried in the state
};

}  // namespace elicit
