// http::BearerToken (client_authorization.hpp): a token the caller holds, never renewed.
#include <cctype>
#include <stdexcept>
#include <string>

#include "elicit/http/client_authorization.hpp"

namespace elicit::http {

BearerToken::BearerToken(std::string token) : token_(std::move(token)) {
  // RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
  std::size_t i = 0;
  while (i < token_.size() && (std::isalnum(static_cast<unsigned char>(token_[i])) ||
                               std::string("-._~+/").find(token_[i]) != std::string::npos))
    ++i;
  const std::size_t body = i;
  while (i < token_.size() && token_[i] == '=') ++i;
  if (body == 0 || i != token_.size())
    throw std::invalid_argument(token_.empty() ? "the bearer token is empty"
                                               : "the bearer token has a character RFC 6750 does not allow at offset " +
                                                     std::to_string(i));
}

ClientAuthorization::Renewal BearerToken::unauthorized(const std::string&, const std::string& www_authenticate) {
  throw std::runtime_error("the server refused the bearer token given (HTTP 401" +
                           (www_authenticate.empty() ? std::string() : "; WWW-Authenticate: " + www_authenticate) +
                           ")");
}

}  // namespace elicit::http
