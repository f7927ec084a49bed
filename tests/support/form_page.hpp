// Browser form pages in tests, without an HTTP stack: reading a rendered page, awaiting an answer.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include <catch2/catch.hpp>
#include <elicit/browser_forms.hpp>

#include "patience.hpp"

namespace http_test {

/// The CSRF token of a browser form page (the hidden input named "csrf"), "" when it has none.
inline std::string csrf_of(const std::string& html) {
  const std::string marker = "name=\"csrf\" value=\"";
  const auto at = html.find(marker);
  if (at == std::string::npos) return "";
  const auto start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

/// BrowserForms::await() with a future: the answer, or nullopt; `done` is checked to run once.
struct Awaited {
  std::shared_ptr<std::promise<std::optional<elicit::BrowserFormAnswer>>> promise =
      std::make_shared<std::promise<std::optional<elicit::BrowserFormAnswer>>>();
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
  std::future<std::optional<elicit::BrowserFormAnswer>> future = promise->get_future();

  std::function<void(std::optional<elicit::BrowserFormAnswer>)> done() {
    return [p = promise, c = calls](std::optional<elicit::BrowserFormAnswer> a) {
      if (c->fetch_add(1) == 0) p->set_value(std::move(a));
    };
  }
  std::optional<elicit::BrowserFormAnswer> get() {
    REQUIRE(future.wait_for(test_support::kPatience) == std::future_status::ready);
    auto a = future.get();
    CHECK(calls->load() == 1);
    return a;
  }
};

}  // namespace http_test
