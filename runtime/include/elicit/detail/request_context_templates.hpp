// RequestContext's member templates, defined apart from its API (request_context.hpp has the contracts):
// the typed elicit calls of both revisions, the 2026-07-28 replay (an answer by key, asked again
// while invalid) and the 2025-11-25 ask-until-valid loop. Included at the end of request_context.hpp;
// not a header to include on its own.
#pragma once

#include <cstddef>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "elicit/request_context.hpp"

namespace elicit {

namespace detail {
// RequestContext's typed asking machinery, a friend of it: the 2026-07-28 replay (the answer under
// a key, read in place; asked again with the reason while invalid) and the 2025-11-25 asks (asked
// again while invalid, up to RequestContext::kMaxAsks; several at once). ask_until_valid captures
// no context: an asynchronous handler may let its context go while the user answers.
struct Asking {
  // The key of an elicit_all question: its own, else the next by call-site order.
  template <class T>
  static std::string key_of(RequestContext& c, const Ask<T>& a) {
    return a.key.empty() ? c.next_key() : a.key;
  }
  template <class T>
  static Outcome<T> replay_step(RequestContext& c, const std::string& key, std::string_view message, bool& missing,
                                const nlohmann::ordered_json* schema = nullptr);
  template <class T>
  static Outcome<T> replay_or_throw(RequestContext& c, const std::string& key, std::string_view message,
                                    const nlohmann::ordered_json* schema = nullptr);
  template <class T>
  static std::optional<RequestId> ask_until_valid(SessionState& session, std::string message, std::string asked,
                                                  ElicitOptions options, int asks, std::function<void(Outcome<T>)> done,
                                                  std::shared_ptr<const std::string> schema_json = nullptr);
  template <class T>
  static Outcome<T> ask_and_wait(RequestContext& c, std::string message, ElicitOptions options,
                                 std::shared_ptr<const std::string> schema_json = nullptr);
  template <class T>
  static std::optional<RequestId> elicit_async_asking(RequestContext& c, std::string_view message,
                                                      const nlohmann::ordered_json* schema,
                                                      std::function<void(Outcome<T>)> on_done,
                                                      std::optional<std::chrono::milliseconds> timeout);
  template <class T>
  static std::future<Outcome<T>> start_future(RequestContext& c, const std::string& message,
                                              const ElicitOptions& options);
  template <class... Ts, std::size_t... I>
  static void start_all_async(RequestContext& c, std::function<void(std::tuple<Outcome<Ts>...>)> on_done,
                              std::index_sequence<I...>, Ask<Ts>... asks);
  static std::shared_ptr<const std::string> serialized(const nlohmann::ordered_json& schema);
};
}  // namespace detail

template <class T>
Outcome<T> RequestContext::elicit(std::string_view message, std::optional<std::chrono::milliseconds> timeout) {
  jsonrpc::detail::require_blocking_allowed("elicit()", "elicit_async()");
  if (stateless_) return detail::Asking::replay_or_throw<T>(*this, next_key(), message);
  return detail::Asking::ask_and_wait<T>(*this, std::string(message), elicit_options(timeout));
}

template <class T>
Outcome<T> RequestContext::elicit(std::string_view message, const T& prefill,
                                  std::optional<std::chrono::milliseconds> timeout) {
  jsonrpc::detail::require_blocking_allowed("elicit()", "elicit_async()");
  const auto schema = ::elicit::prefilled_schema(prefill);
  if (stateless_) return detail::Asking::replay_or_throw<T>(*this, next_key(), message, &schema);
  return detail::Asking::ask_and_wait<T>(*this, std::string(message), elicit_options(timeout),
                                         detail::Asking::serialized(schema));
}

template <class T>
Outcome<T> RequestContext::elicit_keyed(const std::string& key, std::string_view message,
                                        std::optional<std::chrono::milliseconds> timeout) {
  jsonrpc::detail::require_blocking_allowed("elicit_keyed()", "elicit_async()");
  if (stateless_) return detail::Asking::replay_or_throw<T>(*this, key, message);
  return detail::Asking::ask_and_wait<T>(*this, std::string(message), elicit_options(timeout));
}

template <class... Ts>
std::tuple<Outcome<Ts>...> RequestContext::elicit_all(Ask<Ts>... asks) {
  jsonrpc::detail::require_blocking_allowed("elicit_all()", "elicit_all_async()");
  if (stateless_) {
    bool missing = false;
    std::tuple<Outcome<Ts>...> out{detail::Asking::replay_step<Ts>(*this, detail::Asking::key_of(*this, asks),
                                                                   asks.message, missing)...};  // in order
    if (missing) throw InputRequired{};
    return out;
  }
  auto options = elicit_options();
  std::tuple<std::future<Outcome<Ts>>...> futures{detail::Asking::start_future<Ts>(*this, asks.message, options)...};
  return std::apply([](auto&... f) { return std::tuple<Outcome<Ts>...>{f.get()...}; }, futures);
}

template <class T>
std::optional<RequestId> RequestContext::elicit_async(std::string_view message, std::function<void(Outcome<T>)> on_done,
                                                      std::optional<std::chrono::milliseconds> timeout) {
  return detail::Asking::elicit_async_asking<T>(*this, message, nullptr, std::move(on_done), timeout);
}

template <class T>
std::optional<RequestId> RequestContext::elicit_async(std::string_view message, const T& prefill,
                                                      std::function<void(Outcome<T>)> on_done,
                                                      std::optional<std::chrono::milliseconds> timeout) {
  const auto schema = ::elicit::prefilled_schema(prefill);
  return detail::Asking::elicit_async_asking<T>(*this, message, &schema, std::move(on_done), timeout);
}

template <class... Ts>
void RequestContext::elicit_all_async(std::function<void(std::tuple<Outcome<Ts>...>)> on_done, Ask<Ts>... asks) {
  if (stateless_) {
    bool missing = false;
    std::tuple<Outcome<Ts>...> out{
        detail::Asking::replay_step<Ts>(*this, detail::Asking::key_of(*this, asks), asks.message, missing)...};
    if (missing) {
      stateless_->input_required();
    } else {
      guarded(std::move(on_done))(std::move(out));
    }
    return;
  }
  detail::Asking::start_all_async(*this, guarded(std::move(on_done)), std::index_sequence_for<Ts...>{},
                                  std::move(asks)...);
}

template <class R>
std::function<void(R)> RequestContext::guarded(std::function<void(R)> f) const {
  return [&session = session_, responder = responder_, stateless = stateless_, f = std::move(f)](R r) {
    run_answering_failures(session, responder, stateless.get(), [&] { f(std::move(r)); });
  };
}

namespace detail {

template <class T>
Outcome<T> Asking::replay_step(RequestContext& c, const std::string& key, std::string_view message, bool& missing,
                               const nlohmann::ordered_json* schema) {
  // T's own schema is asked as the text it was serialised to once; a prefilled one is written out.
  const std::string_view schema_json = schema ? std::string_view() : detail::serialized_schema<T>();
  auto response = c.replay_form(key, message, schema, schema_json);
  if (!response) {
    missing = true;
    return Outcome<T>{};
  }
  auto out = detail::typed_outcome_in_place<T>(std::move(*response));
  if (out.status == ElicitStatus::invalid_response) {
    c.ask_form_again(key, message, schema, schema_json, RequestContext::why_invalid(out.problem, out.errors));
    missing = true;
  }
  return out;
}

template <class T>
Outcome<T> Asking::replay_or_throw(RequestContext& c, const std::string& key, std::string_view message,
                                   const nlohmann::ordered_json* schema) {
  bool missing = false;
  auto out = replay_step<T>(c, key, message, missing, schema);
  if (missing) throw InputRequired{};
  return out;
}

template <class T>
std::optional<RequestId> Asking::ask_until_valid(SessionState& session, std::string message, std::string asked,
                                                 ElicitOptions options, int asks, std::function<void(Outcome<T>)> done,
                                                 std::shared_ptr<const std::string> schema_json) {
  const std::string& schema = schema_json ? *schema_json : detail::serialized_schema<T>();
  return detail::elicit_async_with<T>(
      session, asked, schema,
      [&session, message, options, asks, done = std::move(done), schema_json](Outcome<T> o) {
        if (o.status == ElicitStatus::invalid_response && asks < RequestContext::kMaxAsks) {
          ask_until_valid<T>(session, message,
                             RequestContext::again_message(message, RequestContext::why_invalid(o.problem, o.errors)),
                             options, asks + 1, done, schema_json);
          return;
        }
        done(std::move(o));
      },
      options);
}

template <class T>
Outcome<T> Asking::ask_and_wait(RequestContext& c, std::string message, ElicitOptions options,
                                std::shared_ptr<const std::string> schema_json) {
  auto promise = std::make_shared<std::promise<Outcome<T>>>();
  auto future = promise->get_future();
  ask_until_valid<T>(
      c.session_, message, message, std::move(options), 1,
      [promise](Outcome<T> o) { promise->set_value(std::move(o)); }, std::move(schema_json));
  return future.get();
}

template <class T>
std::optional<RequestId> Asking::elicit_async_asking(RequestContext& c, std::string_view message,
                                                     const nlohmann::ordered_json* schema,
                                                     std::function<void(Outcome<T>)> on_done,
                                                     std::optional<std::chrono::milliseconds> timeout) {
  if (c.stateless_) {
    bool missing = false;
    auto out = replay_step<T>(c, c.next_key(), message, missing, schema);
    if (missing) {
      c.stateless_->input_required();
    } else {
      c.guarded(std::move(on_done))(std::move(out));
    }
    return std::nullopt;
  }
  return ask_until_valid<T>(c.session_, std::string(message), std::string(message), c.elicit_options(timeout), 1,
                            c.guarded(std::move(on_done)), schema ? serialized(*schema) : nullptr);
}

template <class T>
std::future<Outcome<T>> Asking::start_future(RequestContext& c, const std::string& message,
                                             const ElicitOptions& options) {
  auto promise = std::make_shared<std::promise<Outcome<T>>>();
  auto future = promise->get_future();
  ask_until_valid<T>(c.session_, message, message, options, 1,
                     [promise](Outcome<T> o) { promise->set_value(std::move(o)); });
  return future;
}

template <class... Ts, std::size_t... I>
void Asking::start_all_async(RequestContext& c, std::function<void(std::tuple<Outcome<Ts>...>)> on_done,
                             std::index_sequence<I...>, Ask<Ts>... asks) {
  struct Gather {
    std::mutex mutex;
    std::tuple<Outcome<Ts>...> outcomes;
    std::size_t left = sizeof...(Ts);
    std::function<void(std::tuple<Outcome<Ts>...>)> on_done;
  };
  auto g = std::make_shared<Gather>();
  g->on_done = std::move(on_done);
  const auto options = c.elicit_options();
  (ask_until_valid<Ts>(c.session_, asks.message, asks.message, options, 1,
                       [g](Outcome<Ts> o) {
                         bool last = false;
                         {
                           std::lock_guard<std::mutex> lock(g->mutex);
                           std::get<I>(g->outcomes) = std::move(o);
                           last = --g->left == 0;
                         }
                         if (last) g->on_done(std::move(g->outcomes));
                       }),
   ...);
}

inline std::shared_ptr<const std::string> Asking::serialized(const nlohmann::ordered_json& schema) {
  return std::make_shared<const std::string>(
      schema.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

}  // namespace detail

}  // namespace elicit
