// The replies of the operations wing's routes (probes, the metrics scrape): text, never cached, and
// GET or HEAD only. Internal to elicit::ops.
#pragma once

#include <optional>
#include <string>

#include "elicit/http/routes.hpp"

namespace elicit::ops::detail {

/// A `text/plain` reply that no cache keeps. HEAD gets the head alone.
inline http::Reply plain_reply(const http::RouteRequest& request, unsigned status, std::string body,
                               std::string content_type = "text/plain; charset=utf-8") {
  http::Reply reply;
  reply.status = status;
  reply.headers.emplace_back("Cache-Control", "no-store");
  reply.content_type = std::move(content_type);
  if (request.request.method() != boost::beast::http::verb::head) reply.body = std::move(body);
  return reply;
}

/// 405 (Allow: GET, HEAD) for another method; nullopt for GET and HEAD.
inline std::optional<http::Reply> refuse_unless_get(const http::RouteRequest& request) {
  const auto method = request.request.method();
  if (method == boost::beast::http::verb::get || method == boost::beast::http::verb::head) return std::nullopt;
  auto reply = plain_reply(request, 405, "method not allowed\n");
  reply.headers.emplace_back("Allow", "GET, HEAD");
  return reply;
}

}  // namespace elicit::ops::detail
