// A URL-mode type (samples/schemas/api_key.json, "mode": "url") asked through a form-mode call must
// not compile: run.cmake compiles this file once per CALL and expects each to fail with the
// static_assert of elicit::detail::require_form_mode; CALL=0, the browser call, must compile, so a
// failure for any other reason (a missing header, a wrong flag) fails the test instead of passing it.
#include <elicit/elicitation.hpp>
#include <elicit/forms/elicit_in_browser.hpp>
#include <elicit/request_context.hpp>

#include "api_key.hpp"

using samples::ApiKey;

void ask(elicit::RequestContext& ctx, elicit::SessionState& session) {
  (void)session;
#if CALL == 0
  (void)elicit::forms::elicit_in_browser<ApiKey>(ctx);
#elif CALL == 1
  (void)ctx.elicit<ApiKey>();
#elif CALL == 2
  (void)ctx.elicit<ApiKey>("Paste your key", ApiKey{});
#elif CALL == 3
  (void)ctx.elicit_keyed<ApiKey>("key", "Paste your key");
#elif CALL == 4
  (void)ctx.elicit_all(elicit::ask<ApiKey>());
#elif CALL == 5
  ctx.elicit_async<ApiKey>([](elicit::Outcome<ApiKey>) {});
#elif CALL == 6
  (void)elicit::elicit<ApiKey>(session, "Paste your key");
#endif
}
