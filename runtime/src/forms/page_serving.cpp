#include "page_serving.hpp"

#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "elicit/http/ascii_case.hpp"
#include "elicit/http/host_names.hpp"
#include "elicit/messages/catalog.hpp"
#include "elicit/messages/language.hpp"

namespace elicit::forms {

using http::ascii_lower;
using http::host_without_port;
using http::is_loopback_name;

namespace {

bool has_field(const Request& req, std::string_view name) {
  return req.find(beast::string_view(name.data(), name.size())) != req.end();
}

// The media type of a Content-Type value, without parameters, lower case.
std::string media_type(std::string_view content_type) {
  auto type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  return ascii_lower(type);
}

// The host of an http(s)://host[:port] origin.
std::string origin_host(std::string_view origin) {
  const auto scheme_end = origin.find("://");
  return scheme_end == std::string_view::npos ? std::string() : host_without_port(origin.substr(scheme_end + 3));
}

}  // namespace

std::string page_language(const PageRoutes& routes, const Request& req) {
  if (!routes.language.empty()) return messages::resolve(routes.language);
  return messages::from_accept_language(field(req, "Accept-Language"));
}

void check_browser_form_prefix(const std::string& prefix) {
  if (prefix.size() < 3 || prefix.front() != '/' || prefix.back() != '/') {
    throw std::invalid_argument(
        "a browser form prefix starts and ends with '/' and is not \"/\" alone, e.g. \"/forms/\"");
  }
}

void check_public_origin(const std::string& origin) {
  const auto scheme_end = origin.find("://");
  const auto scheme = scheme_end == std::string::npos ? std::string() : ascii_lower(origin.substr(0, scheme_end));
  const bool ok = (scheme == "http" || scheme == "https") && origin.size() > scheme_end + 3 &&
                  origin.find_first_of("/?#@ ", scheme_end + 3) == std::string::npos;
  if (!ok) throw std::invalid_argument("PageRoutes::public_origin must be http(s)://host[:port]: " + origin);
}

Reply browser_form_reply(const PageStore& store, unsigned status, std::string html, std::string_view language,
                         std::string_view allow) {
  Reply r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(html);
  r.headers.reserve(8);
  r.headers.emplace_back("Content-Language", messages::resolve(language));
  r.headers.emplace_back("Vary", "Accept-Language");
  r.headers.emplace_back("Content-Security-Policy", store.content_security_policy());
  r.headers.emplace_back("Cache-Control", "no-store");
  r.headers.emplace_back("Referrer-Policy", "no-referrer");
  r.headers.emplace_back("X-Content-Type-Options", "nosniff");
  r.headers.emplace_back("X-Frame-Options", "DENY");
  if (!allow.empty()) r.headers.emplace_back("Allow", std::string(allow));
  return r;
}

Reply browser_form_refusal(const PageStore& store, unsigned status, std::string_view id, std::string_view language) {
  return browser_form_reply(store, status, render_form_status_page_of(id, language, store.templates()), language);
}

Reply serve_browser_form(const std::shared_ptr<PageStore>& pages, const PageRoutes& routes, const Request& req,
                         std::string_view path, bool peer_loopback, std::optional<std::string> principal) {
  auto& store = *pages;
  PageRequest request;
  request.language = page_language(routes, req);
  const auto& language = request.language;
  if (path.size() <= routes.prefix.size() || path.compare(0, routes.prefix.size(), routes.prefix) != 0) {
    return browser_form_refusal(store, 404, "page.not_found", language);
  }
  const auto method = req.method();
  request.method = method == beast::http::verb::get    ? "GET"
                   : method == beast::http::verb::post ? "POST"
                                                       : std::string(req.method_string());
  request.id = std::string(path.substr(routes.prefix.size()));  // a '/' in it makes it unknown: 404
  if (method == beast::http::verb::post) {
    if (req.body().size() > routes.max_body_bytes) return browser_form_refusal(store, 413, "page.too_large", language);
    if (media_type(field(req, "Content-Type")) != "application/x-www-form-urlencoded") {
      return browser_form_refusal(store, 415, "page.unsupported_media_type", language);
    }
    request.body = req.body();
  }
  // A proxy on this machine connects from loopback for every browser: its requests are not a
  // loopback peer's (it says so by a forwarding field, or by a public origin that is not loopback).
  request.loopback_peer = peer_loopback && !has_field(req, "Forwarded") && !has_field(req, "X-Forwarded-For") &&
                          !has_field(req, "X-Real-IP") &&
                          (routes.public_origin.empty() || is_loopback_name(origin_host(routes.public_origin)));
  if (principal) {
    request.principal = std::move(*principal);
  } else if (routes.principal) {
    try {
      request.principal = routes.principal([&req](std::string_view name) { return field(req, name); });
    } catch (const std::bad_alloc&) {
      throw;
    } catch (...) {
      return browser_form_refusal(store, 500, "page.internal_error", language);  // never the exception's text
    }
  }
  // The store answers at once (in memory) or later from a thread of its own (Redis): the reply is
  // then pending, so that this I/O thread serves other connections meanwhile. Whichever comes
  // first, the answer or the return below, takes `answer`'s mutex and so decides how the reply is
  // given: returned as it is, or fulfilled later.
  struct Answer {
    std::mutex mutex;
    std::optional<Reply> now;               // answered before handle() returned
    std::shared_ptr<PendingReply> pending;  // handle() returned first: answered through this
  };
  auto answer = std::make_shared<Answer>();
  auto done = [answer, pages, language](PageResponse page) {
    auto reply =
        browser_form_reply(*pages, static_cast<unsigned>(page.status), std::move(page.html), language, page.allow);
    std::shared_ptr<PendingReply> pending;
    {
      std::lock_guard<std::mutex> lock(answer->mutex);
      if (!answer->pending) {
        answer->now = std::move(reply);
        return;
      }
      pending = answer->pending;
    }
    pending->fulfil(std::move(reply));  // false when the browser went away meanwhile: nothing to do
  };
  try {
    store.handle(request, std::move(done));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (...) {
    return browser_form_refusal(store, 500, "page.internal_error", language);  // never the exception's text
  }
  std::lock_guard<std::mutex> lock(answer->mutex);
  if (answer->now) return std::move(*answer->now);
  answer->pending = std::make_shared<PendingReply>();
  Reply later;
  later.pending = answer->pending;
  return later;
}

}  // namespace elicit::forms
