// The replay engine behind one handler for both MCP eras (MCP 2026-07-28, Basic, Patterns,
// "Multi Round-Trip Requests"). A handler for a 2026-07-28 request runs from the top on every retry;
// each question it asks is looked up by its key among the answers the client sent
// (`inputResponses`) and those carried from earlier rounds in the sealed `requestState`. The first
// run that meets a question without an answer ends, and the server answers an InputRequiredResult
// with every question gathered so far.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  /// the request's `inputResponses` (null or an object, see check_input_responses). Both are kept
  /// by the round (pass them as rvalues to move them in).
  InputRound(nlohmann::json carried, nlohmann::json responses);
  ~InputRound();
  InputRound(const InputRound&) = delete;
  InputRound& operator=(const InputRound&) = delete;

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
  /// last round asked it), or nullopt, and `request` is recorded to be asked under `key`. Throws
  /// nlohmann::json::type_error when a string in `request` is not valid UTF-8.
  std::optional<nlohmann::json> answer(const std::string& key, const nlohmann::ordered_json& request);
  /// answer() of a question given as its JSON text: `request_json` is exactly what
  /// `request.dump()` writes (compact, strict UTF-8). Returns the round's own copy of the answer,
  /// valid as long as the round is, or null.
  const nlohmann::json* answer_text(const std::string& key, std::string request_json);

  /// The answer under `key` cannot be used (e.g. the content fails validation): forget it and ask
  /// `request` under `key` (e.g. `original` with the reason added to its message). The retry's
  /// answer is matched against `original`.
  void ask_again(const std::string& key, nlohmann::ordered_json request, const nlohmann::ordered_json& original);
  /// ask_again() with both questions as JSON text: `request_json` as `request.dump()` writes it
  /// (the `replace` error handler is enough: it is only sent), `original_json` as answer_text()
  /// takes it.
  void ask_again_text(const std::string& key, std::string request_json, std::string_view original_json);

  /// True once something is to be asked: the run must end with an InputRequiredResult.
  bool input_required() const;
  /// `inputRequests`: {key: {"method", "params"}} in the order asked.
  nlohmann::ordered_json input_requests() const;
  /// Appends input_requests() as its dump() writes it (error handler `replace`), without making it.
  void append_input_requests(std::string& out) const;
  /// The payload to seal into the next `requestState`: the answers used so far and a digest of
  /// each question asked. Its shape is private to this class.
  nlohmann::json state() const;
  /// Appends state().dump() (strict: nlohmann::json::type_error for a key that is not valid
  /// UTF-8), without making it.
  void append_state(std::string& out) const;

 private:
  static std::string digest(std::string_view request_json);
  // An answer this run used, carried forward: its question's digest and the result, which lives in
  // carried_ or responses_; `entry`, when set, is the carried {"q", "r"} member it came from,
  // carried as it is.
  struct Used {
    std::string q;
    const nlohmann::json* r = nullptr;
    const nlohmann::json* entry = nullptr;
  };
  struct Asking {
    std::string key;
    std::string request;  // JSON text
  };

  mutable std::mutex mutex_;
  nlohmann::json carried_;                             // the opened state; not changed after construction
  const nlohmann::json* carried_answers_ = nullptr;    // carried_["answers"]: key -> {"q": digest, "r": result}
  const nlohmann::json* last_asked_ = nullptr;         // carried_["asked"]: key -> digest of what the last round asked
  nlohmann::json responses_;                           // this request's inputResponses; not changed either
  std::map<std::string, Used> used_;                   // answers this run used (carried forward)
  std::vector<Asking> asking_;                         // in the order asked
  std::map<std::string, std::string> asking_digests_;  // key -> digest of the question
  std::size_t next_ = 0;
  bool has_state_ = false;  // the request carried a requestState
  std::string seed_;        // hex; made when first needed, carried in the state
};

}  // namespace elicit
