// RequestContext::elicit_server_completed_url: URL-mode elicitation whose answer the server sees
// itself (server_completed_url.hpp), in either MCP revision (request_context.hpp has the contract).
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "elicit/browser_forms.hpp"
#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/request_context.hpp"

namespace elicit {

namespace {

RawOutcome outcome_of(ElicitStatus status) {
  RawOutcome out;
  out.status = status;
  return out;
}

// The consent's outcome when it is not `accepted` (declined, cancelled, timed_out, aborted, ...).
RawOutcome outcome_of(UrlOutcome&& consent) {
  RawOutcome out;
  out.status = consent.status;
  out.error = std::move(consent.error);
  out.problem = std::move(consent.problem);
  out.result = std::move(consent.result);
  return out;
}

// ServerCompletedUrl::await from a thread that may block.
std::optional<RawOutcome> await_blocking(const ServerCompletedUrl& url, const std::string& id,
                                         std::chrono::milliseconds wait) {
  auto promise = std::make_shared<std::promise<std::optional<RawOutcome>>>();
  auto future = promise->get_future();
  url.await(id, wait, [promise](std::optional<RawOutcome> a) { promise->set_value(std::move(a)); });
  return future.get();
}

}  // namespace

struct RequestContext::Closers {
  void add(std::function<void()> f) {
    std::lock_guard<std::mutex> lock(mutex);
    all.push_back(std::move(f));
  }
  std::vector<std::function<void()>> take() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::move(all);
  }
  std::mutex mutex;
  std::vector<std::function<void()>> all;
};

RawOutcome RequestContext::elicit_server_completed_url(std::string_view message, ServerCompletedUrl url) {
  jsonrpc::detail::require_blocking_allowed("elicit_server_completed_url()", "elicit_server_completed_url_async()");
  auto promise = std::make_shared<std::promise<RawOutcome>>();
  auto future = promise->get_future();
  if (!server_completed_url(message, std::move(url), true,
                            [promise](RawOutcome r) { promise->set_value(std::move(r)); }))
    throw InputRequired{};
  return future.get();
}

void RequestContext::elicit_server_completed_url_async(std::string_view message, ServerCompletedUrl url,
                                                       std::function<void(RawOutcome)> on_done) {
  if (!server_completed_url(message, std::move(url), false, guarded(std::move(on_done)))) stateless_->input_required();
}

bool RequestContext::server_completed_url(std::string_view message, ServerCompletedUrl url, bool blocking,
                                          std::function<void(RawOutcome)> done) {
  if (!url.open || !url.await || !url.close)
    throw std::invalid_argument("elicit_server_completed_url(): ServerCompletedUrl needs open, await and close");
  // Shared: the callbacks below outlive this call (an asynchronous answer, a cancellation).
  const auto how = std::make_shared<const ServerCompletedUrl>(std::move(url));

  if (stateless_) {
    // 2026-07-28: the id comes from the requestState's seed, so every run of this request opens
    // (finds) the same thing and asks the same question (same URL), which the digest of the
    // answered question then matches.
    if (!stateless_->capabilities.elicitation_url)
      throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
    const auto key = next_key();
    const auto id = stateless_->round->interaction_id(how->name + ":" + key);
    const auto location = how->open(id);
    nlohmann::ordered_json question{
        {"method", "elicitation/create"},
        {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", location}}}};
    auto answer = stateless_->round->answer(key, question);
    if (!answer) return false;
    auto consent = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
    if (consent.status != ElicitStatus::accepted) {
      how->close(id);
      done(std::move(consent));
      return true;
    }
    // The user consented and has the URL: the answer may be there, or come soon.
    auto ask_again = [round = stateless_->round, key, question, message = std::string(message)] {
      auto again = question;
      again["params"]["message"] = not_finished_message(message);
      round->ask_again(key, std::move(again), question);
    };
    std::shared_ptr<Closers> closers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!closers_) closers_ = std::make_shared<Closers>();
      closers = closers_;
    }
    auto read = [closers, how, id](RawOutcome a) {
      closers->add([how, id] { how->close(id); });
      return a;
    };
    if (blocking) {
      auto a = await_blocking(*how, id, how->retry_wait);
      if (!a) {
        ask_again();
        return false;
      }
      done(read(std::move(*a)));
      return true;
    }
    // Asynchronous: nothing waits on a thread; `await` calls back, and the callback owns what it
    // needs (the call's responder answers through `done`).
    how->await(id, how->retry_wait,
               [ask_again, read, stateless = stateless_, done = std::move(done)](std::optional<RawOutcome> a) {
                 if (!a) {
                   ask_again();
                   stateless->input_required();
                   return;
                 }
                 done(read(std::move(*a)));
               });
    return true;
  }

  // 2025-11-25: consent through elicitation/create (mode url, elicitationId), then the answer.
  if (!client_capabilities().elicitation_url) {
    done(outcome_of(ElicitStatus::unsupported));
    return true;
  }
  const auto id = browser_form_id();
  const auto location = how->open(id);
  const auto deadline = std::chrono::steady_clock::now() + how->expires_in;
  auto on_consent = [&session = session_, how, scope = scope_, id, deadline,
                     done = std::move(done)](UrlOutcome consent) mutable {
    if (consent.status != ElicitStatus::accepted) {
      how->close(id);
      done(outcome_of(std::move(consent)));
      return;
    }
    // Cancelling the call withdraws it: a waiting await() gets `aborted`.
    const auto token = scope->add([how, id] { how->close(id); });
    if (!token) {
      how->close(id);
      done(outcome_of(ElicitStatus::aborted));
      return;
    }
    const auto left =
        std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()),
                 std::chrono::milliseconds(0));
    how->await(id, left,
               [&session, how, scope, token = *token, id, elicitation_id = consent.elicitation_id,
                done = std::move(done)](std::optional<RawOutcome> a) {
                 scope->remove(token);
                 how->close(id);
                 // No answer by the deadline: it expired.
                 auto out = a ? std::move(*a) : outcome_of(ElicitStatus::timed_out);
                 // The client may stop showing the URL (MCP 2025-11-25, Client, Elicitation,
                 // "Completion Notifications for URL Mode Elicitation"); not for a call that was
                 // cancelled, whose elicitations are already cancelled.
                 if (out.status != ElicitStatus::aborted) complete_url_elicitation(session, elicitation_id);
                 done(std::move(out));
               });
  };
  if (blocking) {
    const auto consent = ::elicit::elicit_url(session_, message, location, elicit_options(how->timeout));
    on_consent(consent);
    return true;
  }
  ::elicit::elicit_url_async(session_, message, location, std::move(on_consent), elicit_options(how->timeout));
  return true;
}

RequestContext::~RequestContext() {
  // 2026-07-28: runs of a request read an answer again until the request ends; this run ended it
  // unless it asked a question (an InputRequiredResult), so what it read can go.
  if (!stateless_ || !closers_ || stateless_->round->input_required()) return;
  for (const auto& close : closers_->take()) close();
}

}  // namespace elicit
