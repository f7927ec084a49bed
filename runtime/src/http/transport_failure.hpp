// What the HTTP client transport says when a request gets no JSON-RPC response: the error it
// delivers in the server's stead, marked (jsonrpc::kTransportFailure) so that a client does not
// take a closed port or a wrong path for an answer, with a hint at the likely fix.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace elicit::http {

/// Why a request failed, as the transport knows it.
struct TransportFailure {
  const char* kind = "exchange";  ///< connect, no_answer, http_status, authorization, exchange
  std::string why;                ///< the whole sentence, e.g. "cannot connect to URL: Connection refused"
  int http_status = 0;            ///< with kind http_status
  /// With kind http_status: the error object of a response whose id was null (the server's own words)
  nlohmann::json server_error = nullptr;
};

/// A hint for `failure` on `url` (what to check, as a question or an instruction), or "" when none
/// is known: nothing listening, TLS spoken to a plain port and the other way round, an untrusted
/// certificate or one for another host, a 404 on a path other than /mcp.
std::string transport_failure_hint(const TransportFailure& failure, const std::string& url);

/// The JSON-RPC error object: code -32000, the message (with its hint), data {transportFailure,
/// httpStatus, serverError}.
nlohmann::json transport_failure_error(const TransportFailure& failure, const std::string& url);

}  // namespace elicit::http
