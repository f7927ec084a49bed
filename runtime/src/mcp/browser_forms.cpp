// browser_form_id(): the ids of the pages RequestContext::elicit_in_browser opens (2025-11-25; a
// 2026-07-28 run takes its page's id from the requestState's seed instead).
#include "elicit/browser_forms.hpp"

#include <sodium.h>

#include <array>
#include <stdexcept>

namespace elicit {

std::string browser_form_id() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
  std::array<unsigned char, 32> raw{};
  randombytes_buf(raw.data(), raw.size());
  std::array<char, sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING)> out{};
  sodium_bin2base64(out.data(), out.size(), raw.data(), raw.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(raw.data(), raw.size());
  return out.data();
}

}  // namespace elicit
