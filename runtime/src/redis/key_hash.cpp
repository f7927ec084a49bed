#include "elicit/redis/key_hash.hpp"

#include <sodium.h>

#include <array>

namespace elicit::redis {

std::string id_hash(std::string_view id) {
  std::array<unsigned char, 16> digest{};
  crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(id.data()), id.size(),
                     nullptr, 0);
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  return std::string(hex.data(), 32);
}

}  // namespace elicit::redis
