#include <sodium.h>

#include <stdexcept>

#include "elicit/browser_forms.hpp"

namespace elicit {

std::string browser_form_id() {
  // 256 bits: the id is the page's only secret without a signed-in user (development mode), so
  // it must not be guessable within the page's life by any number of tries.
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("browser_form_id: libsodium could not be initialised");
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  char text[sodium_base64_ENCODED_LEN(sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(text, sizeof text, bytes, sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  return text;
}

}  // namespace elicit
