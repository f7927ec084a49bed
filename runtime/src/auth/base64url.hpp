// base64url without padding (RFC 4648 section 5, RFC 7515 section 2), as JOSE writes it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace elicit::auth {

/// The bytes `text` encodes; nullopt when it is not unpadded base64url from start to end.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace elicit::auth

namespace elicit::auth {

/// `bytes` as unpadded base64url.
std::string base64url_encode(std::string_view bytes);

}  // namespace elicit::auth
