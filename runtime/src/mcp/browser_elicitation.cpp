// RequestContext::elicit_in_browser: a typed form filled in the user's browser, asked with URL-mode
// elicitation in either MCP revision (request_context.hpp has the contract).
#include <future>
#include <stdexcept>
#include <utility>

#include "elicit/jsonrpc/event_thread.hpp"
#include "elicit/request_context.hpp"

namespace elicit {

namespace {

RawOutcome outcome_of(ElicitStatus status, nlohmann::json content = nullptr) {
  RawOutcome out;
  out.status = status;
  if (status == ElicitStatus::accepted && content.is_object()) out.content = std::move(content);
  return out;
}

RawOutcome outcome_of(const BrowserFormAnswer& answer) { return outcome_of(answer.status, answer.content); }

// The consent's outcome when it is not `accepted` (declined, cancelled, timed_out, aborted, ...).
RawOutcome outcome_of(UrlOutcome&& consent) {
  RawOutcome out;
  out.status = consent.status;
  out.error = std::move(consent.error);
  out.problem = std::move(consent.problem);
  out.result = std::move(consent.result);
  return out;
}

// BrowserForms::await from a thread that may block.
std::optional<BrowserFormAnswer> await_blocking(BrowserForms& forms, const std::string& id,
                                                std::chrono::milliseconds wait) {
  auto promise = std::make_shared<std::promise<std::optional<BrowserFormAnswer>>>();
  auto future = promise->get_future();
  forms.await(id, wait, [promise](std::optional<BrowserFormAnswer> a) { promise->set_value(std::move(a)); });
  return future.get();
}

}  // namespace

BrowserForms& RequestContext::require_browser_forms(const char* what) const {
  if (!browser_forms_)
    throw std::logic_error(std::string(what) +
                           ": no BrowserForms to open the page in (elicit::forms::routes() in HttpServerOptions::"
                           "routes, or Server::set_browser_forms)");
  return *browser_forms_;
}

RawOutcome RequestContext::elicit_in_browser(std::string_view message, const nlohmann::ordered_json& requested_schema,
                                             BrowserFormOptions options) {
  jsonrpc::detail::require_blocking_allowed("elicit_in_browser()", "elicit_in_browser_async()");
  auto promise = std::make_shared<std::promise<RawOutcome>>();
  auto future = promise->get_future();
  if (!browser_form(message, requested_schema, options, true,
                    [promise](RawOutcome r) { promise->set_value(std::move(r)); }))
    throw InputRequired{};
  return future.get();
}

void RequestContext::elicit_in_browser_async(std::string_view message, const nlohmann::ordered_json& requested_schema,
                                             BrowserFormOptions options, std::function<void(RawOutcome)> on_done) {
  if (!browser_form(message, requested_schema, options, false, guarded(std::move(on_done))))
    stateless_->input_required();
}

bool RequestContext::browser_form(std::string_view message, const nlohmann::ordered_json& requested_schema,
                                  const BrowserFormOptions& options, bool blocking,
                                  std::function<void(RawOutcome)> done) {
  auto& forms = require_browser_forms("elicit_in_browser()");
  BrowserFormPage page{std::string(message), requested_schema, caller_.principal, options.expires_in};

  if (stateless_) {
    // 2026-07-28: the page's id comes from the requestState's seed, so every run of this request
    // opens (finds) the same page and asks the same question (same URL), which the digest of the
    // answered question then matches.
    if (!stateless_->capabilities.elicitation_url)
      throw MissingClientCapability(nlohmann::json{{"elicitation", {{"url", nlohmann::json::object()}}}});
    const auto key = next_key();
    const auto id = stateless_->round->interaction_id("browser-form:" + key);
    const auto url = forms.open(id, page);
    nlohmann::ordered_json question{{"method", "elicitation/create"},
                                    {"params", {{"mode", "url"}, {"message", std::string(message)}, {"url", url}}}};
    auto answer = stateless_->round->answer(key, question);
    if (!answer) return false;
    auto consent = read_elicit_result(RequestOutcome{std::move(*answer), std::nullopt, std::nullopt});
    if (consent.status != ElicitStatus::accepted) {
      forms.close(id);
      done(std::move(consent));
      return true;
    }
    // The user consented and the browser has the page: the answer may be there, or come soon.
    auto ask_again = [round = stateless_->round, key, question, message = std::string(message)] {
      auto again = question;
      again["params"]["message"] = not_finished_message(message);
      round->ask_again(key, std::move(again), question);
    };
    auto read = [pages = pages_read_, id](const BrowserFormAnswer& a) {
      pages->add(id);
      return outcome_of(a);
    };
    if (blocking) {
      const auto a = await_blocking(forms, id, options.retry_wait);
      if (!a) {
        ask_again();
        return false;
      }
      done(read(*a));
      return true;
    }
    // Asynchronous: nothing waits on a thread; the store calls back, and the callback owns what it
    // needs (the call's responder answers through `done`).
    forms.await(id, options.retry_wait,
                [ask_again, read, stateless = stateless_, done = std::move(done)](std::optional<BrowserFormAnswer> a) {
                  if (!a) {
                    ask_again();
                    stateless->input_required();
                    return;
                  }
                  done(read(*a));
                });
    return true;
  }

  // 2025-11-25: consent through elicitation/create (mode url, elicitationId), then the page.
  if (!client_capabilities().elicitation_url) {
    done(outcome_of(ElicitStatus::unsupported));
    return true;
  }
  const auto id = browser_form_id();
  const auto url = forms.open(id, page);
  const auto deadline = std::chrono::steady_clock::now() + options.expires_in;
  auto on_consent = [&session = session_, forms = browser_forms_, scope = scope_, id, deadline,
                     done = std::move(done)](UrlOutcome consent) mutable {
    if (consent.status != ElicitStatus::accepted) {
      forms->close(id);
      done(outcome_of(std::move(consent)));
      return;
    }
    // Cancelling the call withdraws the page: a waiting await() gets `aborted`.
    const auto token = scope->add([forms, id] { forms->close(id); });
    if (!token) {
      forms->close(id);
      done(outcome_of(ElicitStatus::aborted));
      return;
    }
    const auto left =
        std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()),
                 std::chrono::milliseconds(0));
    forms->await(id, left,
                 [&session, forms, scope, token = *token, id, elicitation_id = consent.elicitation_id,
                  done = std::move(done)](std::optional<BrowserFormAnswer> a) {
                   scope->remove(token);
                   forms->close(id);
                   // No answer by the page's deadline: it expired.
                   const auto out = a ? outcome_of(*a) : outcome_of(ElicitStatus::timed_out);
                   // The client may stop showing the URL (MCP 2025-11-25, Client, Elicitation,
                   // "Completion Notifications for URL Mode Elicitation"); not for a call that was
                   // cancelled, whose elicitations are already cancelled.
                   if (out.status != ElicitStatus::aborted) complete_url_elicitation(session, elicitation_id);
                   done(out);
                 });
  };
  if (blocking) {
    const auto consent = ::elicit::elicit_url(session_, message, url, elicit_options(options.timeout));
    on_consent(consent);
    return true;
  }
  ::elicit::elicit_url_async(session_, message, url, std::move(on_consent), elicit_options(options.timeout));
  return true;
}

RequestContext::~RequestContext() {
  // 2026-07-28: runs of a request read a page's answer again until the request ends; this run
  // ended it unless it asked a question (an InputRequiredResult), so the pages can go.
  if (!stateless_ || !browser_forms_ || stateless_->round->input_required()) return;
  for (const auto& id : pages_read_->take()) browser_forms_->close(id);
}

}  // namespace elicit
