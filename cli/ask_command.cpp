// `elicitgen ask` (ask_command.hpp).
#include "ask_command.hpp"

#include <cstdint>
#include <future>
#include <iostream>
#include <optional>

#include <elicit/client.hpp>
#include <elicit/content/schema.hpp>
#include <elicit/messages/catalog.hpp>
#include <elicit/messages/language.hpp>

#ifdef ELICITGEN_HAS_HTTP
#include <elicit/browser_forms.hpp>
#include <elicit/forms/page_server.hpp>

#include "browser_launch.hpp"
#endif

#include "diagnostics.hpp"
#include "display_width.hpp"
#include "load.hpp"
#include "names.hpp"
#include "terminal_form.hpp"

namespace elicitgen {

namespace {

constexpr int kAnswered = 0, kNotAccepted = 1, kUnreadable = 2;

// Prints `answer` as `ask` does, whichever way it was asked, and returns the exit code.
int print_answer(const elicit::Form& form, const elicit::Answer& answer, bool jsonl) {
  if (answer.action == elicit::ElicitAction::accept) {
    // In the form's order (Answer's content is a sorted nlohmann::json).
    nlohmann::ordered_json content = nlohmann::ordered_json::object();
    for (const auto& f : form.fields) {
      if (const auto it = answer.content.find(f.name); it != answer.content.end()) content[f.name] = *it;
    }
    if (jsonl) {
      nlohmann::ordered_json line{{"action", "accept"}, {"content", std::move(content)}};
      std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << content.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    return kAnswered;
  }
  std::cout << answer.to_json(true).dump() << "\n";
  return kNotAccepted;
}

#ifdef ELICITGEN_HAS_HTTP
// "10 min", "30 s", "50 ms": the page's lifetime as a person reads it.
std::string duration_text(std::chrono::milliseconds d, const std::string& language) {
  const std::int64_t ms = d.count();
  if (ms % 60'000 == 0) return elicit::messages::text(language, "terminal.duration.minutes", {{"count", ms / 60'000}});
  if (ms % 1'000 == 0) return elicit::messages::text(language, "terminal.duration.seconds", {{"count", ms / 1'000}});
  return elicit::messages::text(language, "terminal.duration.milliseconds", {{"count", ms}});
}

int ask_in_browser(const AskCommand& command, const LoadedForm& parsed) {
  elicit::forms::PageServer server;
  std::string url;
  const auto id = elicit::browser_form_id();
  try {
    server.start();
    elicit::BrowserFormPage page;
    // No message of ours when the file has none: the page's heading (in the browser's language)
    // says what it is.
    page.message = parsed.source.message.value_or("");
    page.requested_schema = parsed.source.schema;
    page.principal = "";  // development: no sign-in, served to loopback peers only
    page.expires_in = command.timeout;
    url = server.store()->open(id, page);
  } catch (const std::exception& e) {
    std::cerr << "elicitgen ask: cannot serve the form: " << e.what() << "\n";
    return kUnreadable;
  }
  // Await before anything can answer the page (the URL is not out yet), so no answer is missed.
  std::promise<std::optional<elicit::BrowserFormAnswer>> answered;
  auto answer_future = answered.get_future();
  // The whole lifetime: a page that expires while waited for answers timed_out at its deadline.
  server.store()->await(id, command.timeout, [&answered](std::optional<elicit::BrowserFormAnswer> a) {
    answered.set_value(std::move(a));  // does not block: the store's thread must not
  });

  // The terminal's language (the locale), as the terminal form's: the page itself follows the
  // browser's Accept-Language.
  const auto language = elicit::messages::from_environment();
  std::cerr << elicit::messages::text(language, "terminal.browser.open",
                                      {{"url", url}, {"expires", duration_text(command.timeout, language)}})
            << "\n";
  pid_t browser = -1;
  if (!command.no_open) {
    browser = launch_browser(browser_commands(BrowserEnvironment::current(), url));
  }

  const auto result = answer_future.get();
  reap_browser(browser);
  elicit::Answer answer = elicit::Answer::cancel();
  const auto status = result ? result->status : elicit::ElicitStatus::timed_out;
  switch (status) {
    case elicit::ElicitStatus::accepted:
      answer = elicit::Answer::accept(result->content);
      break;
    case elicit::ElicitStatus::declined:
      answer = elicit::Answer::decline();
      break;
    case elicit::ElicitStatus::cancelled:
      break;
    default:
      // timed_out (nothing else ends a page nobody closes): cancel, as a form dismissed unanswered.
      std::cerr << "elicitgen ask: " << elicit::messages::text(language, "terminal.browser.expired") << "\n";
      break;
  }
  // Printed before the server stops. The browser's reply (the page that thanks it) was handed to
  // the socket before its answer reached us: the store answers from inside the request's handler,
  // and stop() closes connections on that same I/O thread after it.
  return print_answer(parsed.form, answer, command.jsonl);
}
#endif

}  // namespace

int run_ask(const AskCommand& command) {
  Diagnostics diags;
  if (command.schema == "-" && !command.browser) {
    // stdin carries the answers; the schema cannot share it (the page's answers come over HTTP).
    std::cerr << "elicitgen ask: the answers are read from stdin: give the schema as a file\n";
    return kUnreadable;
  }
  const auto parsed = load_one_form(command.schema, command.name, diags);
  if (!parsed) {
    diags.print(std::cerr);
    return kUnreadable;
  }
  if (command.browser) {
#ifdef ELICITGEN_HAS_HTTP
    return ask_in_browser(command, *parsed);
#else
    std::cerr << "elicitgen ask: --browser needs HTTP support, which this build of elicitgen does not have "
                 "(Boost and OpenSSL were not found)\n";
    return kUnreadable;
#endif
  }
  TerminalForm form(std::cin, std::cerr, stderr_shows_ansi(), elicit::messages::from_environment(), stderr_columns());
  return print_answer(parsed->form, form.ask_form(parsed->source.message.value_or(""), parsed->form), command.jsonl);
}

}  // namespace elicitgen
