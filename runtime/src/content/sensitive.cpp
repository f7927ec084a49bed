#include "elicit/content/sensitive.hpp"

#include <string>

#include "elicit/content/schema.hpp"

namespace elicit {

bool looks_secret(std::string_view text) {
  // Squashed to [a-z0-9] so that every spelling of a word ("api_key", "apiKey", "API-Key") meets
  // the same list.
  std::string s;
  s.reserve(text.size());
  for (const char c : text) {
    if (c >= 'A' && c <= 'Z') {
      s += static_cast<char>(c - 'A' + 'a');
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      s += c;
    }
  }
  static constexpr std::string_view kWords[] = {"password", "passwd",    "passphrase", "secret",     "token",
                                                "apikey",   "accesskey", "privatekey", "creditcard", "cardnumber",
                                                "cvv",      "cvc",       "ssn"};
  for (const auto w : kWords) {
    if (s.find(w) != std::string_view::npos) return true;
  }
  return false;
}

bool looks_secret(const Field& field) {
  return looks_secret(field.name) || (field.title && looks_secret(*field.title));
}

}  // namespace elicit
