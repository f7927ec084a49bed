// Requests for a browser form page as the serving side hands them to a page store (the forms wing's
// store tests: in memory and in Redis), from a loopback peer.
#pragma once

#include <string>
#include <utility>

#include <elicit/forms/page_store.hpp>

namespace test_support {

/// GET of page `id` from a loopback peer, not signed in.
inline elicit::forms::PageRequest page_get(const std::string& id) {
  elicit::forms::PageRequest r;
  r.method = "GET";
  r.id = id;
  r.loopback_peer = true;
  return r;
}

/// POST of `body` (form-urlencoded) to page `id`, otherwise as page_get.
inline elicit::forms::PageRequest page_post(const std::string& id, std::string body) {
  auto r = page_get(id);
  r.method = "POST";
  r.body = std::move(body);
  return r;
}

}  // namespace test_support
