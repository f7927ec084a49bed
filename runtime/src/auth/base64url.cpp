#include "base64url.hpp"

#include <sodium.h>

namespace elicit::auth {

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string out(text.size() * 3 / 4 + 1, '\0');
  std::size_t n = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr, &n,
                        &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(n);
  return out;
}

}  // namespace elicit::auth

namespace elicit::auth {

std::string base64url_encode(std::string_view bytes) {
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

}  // namespace elicit::auth
