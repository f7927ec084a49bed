// forms::elicit_in_browser: a browser form page asked as a URL-mode elicitation the server
// completes itself (elicit/forms/elicit_in_browser.hpp has the contract). The page lives in the
// call's BrowserForms; the protocol, in both revisions, is RequestContext's.
#include "elicit/forms/elicit_in_browser.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "elicit/browser_forms.hpp"
#include "elicit/jsonrpc/event_thread.hpp"

namespace elicit::forms {

namespace {

RawOutcome outcome_of(const BrowserFormAnswer& answer) {
  RawOutcome out;
  out.status = answer.status;
  if (answer.status == ElicitStatus::accepted && answer.content.is_object()) out.content = answer.content;
  return out;
}

// The page as a ServerCompletedUrl: opening it opens the page (bound to the caller), awaiting it
// awaits its answer. The store is shared with the callbacks, which may outlive the call.
ServerCompletedUrl page_of(RequestContext& ctx, std::string_view message,
                           const nlohmann::ordered_json& requested_schema, const BrowserFormOptions& options) {
  std::shared_ptr<BrowserForms> forms = ctx.browser_forms();
  if (!forms)
    throw std::logic_error(
        "elicit_in_browser(): no BrowserForms to open the page in (elicit::forms::routes() in HttpServerOptions::"
        "routes, or Server::set_browser_forms)");
  auto page = std::make_shared<const BrowserFormPage>(
      BrowserFormPage{std::string(message), requested_schema, ctx.principal(), options.expires_in});
  ServerCompletedUrl url;
  url.name = "browser-form";
  url.open = [forms, page](const std::string& id) { return forms->open(id, *page); };
  url.await = [forms](const std::string& id, std::chrono::milliseconds wait,
                      std::function<void(std::optional<RawOutcome>)> done) {
    forms->await(id, wait, [done = std::move(done)](std::optional<BrowserFormAnswer> a) {
      done(a ? std::optional<RawOutcome>(outcome_of(*a)) : std::nullopt);
    });
  };
  url.close = [forms](const std::string& id) { forms->close(id); };
  url.expires_in = options.expires_in;
  url.retry_wait = options.retry_wait;
  url.timeout = options.timeout;
  return url;
}

}  // namespace

RawOutcome elicit_in_browser(RequestContext& ctx, std::string_view message,
                             const nlohmann::ordered_json& requested_schema, BrowserFormOptions options) {
  jsonrpc::detail::require_blocking_allowed("elicit_in_browser()", "elicit_in_browser_async()");
  return ctx.elicit_server_completed_url(message, page_of(ctx, message, requested_schema, options));
}

void elicit_in_browser_async(RequestContext& ctx, std::string_view message,
                             const nlohmann::ordered_json& requested_schema, BrowserFormOptions options,
                             std::function<void(RawOutcome)> on_done) {
  ctx.elicit_server_completed_url_async(message, page_of(ctx, message, requested_schema, options), std::move(on_done));
}

}  // namespace elicit::forms
