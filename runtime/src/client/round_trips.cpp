// Client::Impl: one request of the era, 2026-07-28 requests carried through their input-required
// rounds (answered, retried with the requestState) and a refused version renegotiated once;
// paging of the lists (client_impl.hpp).
#include "client_impl.hpp"

#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/protocol/protocol_era.hpp"

namespace elicit {

using client_detail::ordered_at;
using client_detail::throw_outcome;

// `scope` (may be null): cancelling it cancels the request (notifications/cancelled; over HTTP the
// request's connection ends), which then throws ClientError "cancelled by the caller".
RequestOutcome Client::Impl::call(const std::string& method, nlohmann::ordered_json params, const SendContext& context,
                                  const std::shared_ptr<CancelScope>& scope) {
  CallOptions o;
  o.timeout = options.request_timeout;
  o.context = context;
  if (!scope) return session.call(method, std::move(params), o);
  jsonrpc::detail::require_blocking_allowed("Client::call_tool()", "a call from another thread");
  auto promise = std::make_shared<std::promise<RequestOutcome>>();
  auto future = promise->get_future();
  jsonrpc::send_request_in_scope(
      session, method.c_str(), params.dump(), [promise](RequestOutcome r) { promise->set_value(std::move(r)); }, o,
      scope, "cancelled by the caller");
  auto outcome = future.get();
  if (scope->cancelled() && !outcome.result && !outcome.error) throw cancelled_by_caller(method);
  return outcome;
}

// One request of the era: 2025-11-25 as is; 2026-07-28 with _meta, retried while the server answers
// input_required, each retry a new request (a new id) with the answers and the state it gave.
// `context`: what goes to the transport with each of the requests (a tools/call's Mcp-Param-*
// fields: the arguments, and so the fields, are the same in every round).
nlohmann::json Client::Impl::request(const std::string& method, nlohmann::ordered_json params,
                                     const SendContext& context, const std::shared_ptr<CancelScope>& scope,
                                     Step* step) {
  if (!stateless) {
    auto o = call(method, std::move(params), context, scope);
    if (!o.result) throw_outcome(o, method);
    return std::move(*o.result);
  }
  params["_meta"] = meta();
  bool renegotiated = false;
  // Each round's request, retried once (per request, so a server that refuses every version
  // cannot loop) with a mutually supported version when the server refuses the one it carried.
  const auto send = [&] {
    auto o = call(method, params, context, scope);
    if (!o.result && !renegotiated && o.error && o.error->code == error_code::unsupported_protocol_version) {
      if (auto v = mutual_version(o.error->data)) {
        renegotiated = true;
        {
          std::lock_guard<std::mutex> lock(version_mutex);
          version = *v;
        }
        session.log(method + ": the server refused the protocol version (-32022); retrying with " + *v);
        params["_meta"][std::string(meta_key::protocol_version)] = *v;
        o = call(method, params, context, scope);
      }
    }
    return o;
  };
  for (std::size_t round = 0; round <= options.max_rounds; ++round) {
    auto o = send();
    if (!o.result) throw_outcome(o, method);
    auto& result = *o.result;
    if (result.is_object() && result.value("resultType", std::string()) == "task")
      return follow_task(method, std::move(result), scope, step);
    if (!result.is_object() || result.value("resultType", std::string("complete")) != "input_required")
      return std::move(result);
    if (round == options.max_rounds) break;
    // The retry carries exactly what this result asked for: its answers, and its state only
    // when it gave one (never another request's).
    params.erase("inputResponses");
    params.erase("requestState");
    const auto state = result.find("requestState");
    if (const auto it = result.find("inputRequests"); it != result.end() && it->is_object()) {
      auto ordered = ordered_at(o.text, {"result", "inputRequests"});
      auto answers = answer_inputs(method, *it, ordered, step);
      if (!answers) {  // a step call stops here: the round, and the state that goes with it
        PendingInput pending;
        pending.input_requests = ordered.is_object() ? std::move(ordered) : nlohmann::ordered_json(*it);
        if (state != result.end()) pending.request_state = *state;
        step->pending = std::move(pending);
        return nullptr;
      }
      params["inputResponses"] = std::move(*answers);
    }
    if (state != result.end()) params["requestState"] = *state;
  }
  throw ClientError(0, method + ": the server asked for input more than " + std::to_string(options.max_rounds) +
                           " times (ClientOptions::max_rounds)");
}

nlohmann::json Client::Impl::list_all(const std::string& method, const char* member) {
  nlohmann::json all = nlohmann::json::array();
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (int page = 0; page < 10000; ++page) {  // bounded: a server that pages forever is refused
    auto result = request(method, params);
    if (const auto it = result.find(member); it != result.end() && it->is_array()) {
      for (auto& e : *it) all.push_back(std::move(e));
    }
    const auto next = result.find("nextCursor");
    if (next == result.end() || !next->is_string()) return all;
    params = {{"cursor", *next}};
  }
  throw ClientError(0, method + ": more than 10,000 pages");
}

}  // namespace elicit
