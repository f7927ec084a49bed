// The pieces of elicit::http's client that the authorization wing fetches with (metadata, key sets,
// introspection, the token and registration endpoints), under the names its sources use: fetch()
// with its options and errors, the endpoint parser, ASCII case. Internal to elicit::auth.
#pragma once

#include "elicit/http/ascii_case.hpp"
#include "http/client_stream.hpp"
#include "http/fetch.hpp"

namespace elicit::auth {

using http::ascii_lower;
using http::equals_nocase;
using http::fetch;
using http::FetchError;
using http::FetchOptions;
using http::FetchRequest;
using http::FetchResponse;
using http::parse_client_endpoint;
using http::starts_with_nocase;

}  // namespace elicit::auth
