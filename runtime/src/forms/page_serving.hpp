// One HTTP request for a browser form page, as StreamableHttpServer (under its prefix) and
// PageServer both serve it: the same code for both. Internal to elicit::forms.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "elicit/forms/page_routes.hpp"
#include "http/connection.hpp"

namespace elicit::forms {

// The HTTP layer's message types and Beast, under the names its sources use.
namespace beast = boost::beast;
namespace net = boost::asio;
using http::PendingReply;
using http::Reply;
using http::Request;

// A header field's value (the first of repeated ones), empty when the request has none: the page
// routes and the sign-in read Cookie, Origin and Content-Type with it.
inline std::string_view field(const Request& req, std::string_view name) {
  const auto it = req.find(beast::string_view(name.data(), name.size()));
  if (it == req.end()) return {};
  return std::string_view(it->value().data(), it->value().size());
}

/// The language of the answer to `req`: routes.language when set (resolved as messages::resolve()
/// does), else the one the request's Accept-Language asks for (messages::from_accept_language;
/// English when it names none the catalog has).
std::string page_language(const PageRoutes& routes, const Request& req);

/// Throws std::invalid_argument unless `prefix` starts and ends with '/' and is not "/" alone.
void check_browser_form_prefix(const std::string& prefix);

/// Throws std::invalid_argument unless `origin` is http(s)://host[:port] (no path, no '/' at the end).
void check_public_origin(const std::string& origin);

/// Serves `req`, whose target's path is `path`, with the pages of `store` under routes.prefix (a
/// path outside it, or with more segments, is 404). The Host check is the caller's. `peer_loopback`:
/// the connection comes from a loopback address; the request counts as a loopback peer's only when
/// it also carries no Forwarded, X-Forwarded-For or X-Real-IP field (a proxy's) and
/// routes.public_origin is "" or names a loopback host. Every reply is HTML with the pages'
/// security headers (browser_form_reply). When the store answers later (PageStore::handle
/// calls back on another thread), the reply is Reply::pending, given when it answers: the calling
/// I/O thread never waits on the store. `principal`: who the browser is when the caller knows (the
/// pages' sign-in, sign_in.hpp); nullopt: routes.principal says. Never throws but
/// std::bad_alloc.
Reply serve_browser_form(const std::shared_ptr<PageStore>& store, const PageRoutes& routes, const Request& req,
                         std::string_view path, bool peer_loopback,
                         std::optional<std::string> principal = std::nullopt);

/// A page's reply: `status`, text/html; charset=utf-8, `html`, and the security headers
/// (Content-Security-Policy of `store`, Cache-Control: no-store, Referrer-Policy: no-referrer,
/// X-Content-Type-Options: nosniff, X-Frame-Options: DENY); Content-Language `language` (the page's,
/// page_language()) and Vary: Accept-Language (the same URL answers each browser in its language);
/// `allow` as the Allow field when not "".
Reply browser_form_reply(const PageStore& store, unsigned status, std::string html, std::string_view language,
                         std::string_view allow = {});

/// A refusal the store does not make (413, 415, a Host refused, 500): the short page of catalog
/// message pair `id` (render_form_status_page_of) in `language`, with browser_form_reply's headers.
Reply browser_form_refusal(const PageStore& store, unsigned status, std::string_view id, std::string_view language);

}  // namespace elicit::forms
