// libFuzzer: any bytes as a JWK Set document (the first line) and a token (the rest) ->
// JsonWebKeySet::parse and verify_jwt_access_token, with the parsed set and with a fixed set (the
// P-256 key of RFC 7515 appendix A.3). Invariants: parse throws only std::invalid_argument; verify
// throws only InvalidToken (UnknownSigningKey among them); an accepted token has the issuer asked
// for and a non-empty subject.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <elicit/auth/jwt_verifier.hpp>

namespace {

const elicit::auth::JsonWebKeySet& fixed_keys() {
  static const auto keys = elicit::auth::JsonWebKeySet::parse(
      R"({"keys":[{"kty":"EC","crv":"P-256","kid":"a3","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",)"
      R"("y":"x_FEzRjGXgMkG0X_RUJy9wHvBJ9ej8BERmeJMjO1cFI"}]})");
  return keys;
}

void check(std::string_view token, const elicit::auth::JsonWebKeySet& keys, bool require_type) {
  elicit::auth::JwtAccessTokenRules rules;
  rules.issuer = "joe";
  rules.audience = "https://mcp.example.com/mcp";
  rules.require_at_jwt_type = require_type;
  try {
    const auto t = elicit::auth::verify_jwt_access_token(token, keys, rules, std::chrono::system_clock::time_point{});
    if (t.issuer != "joe" || t.subject.empty()) __builtin_trap();
  } catch (const elicit::http::InvalidToken&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const auto document = input.substr(0, newline);
  const auto token = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  try {
    const auto keys = elicit::auth::JsonWebKeySet::parse(document);
    if (keys.size() + keys.skipped().size() > document.size()) __builtin_trap();  // a key per byte at most
    check(token, keys, true);
  } catch (const std::invalid_argument&) {
  }
  check(token, fixed_keys(), false);
  check(document, fixed_keys(), true);
  return 0;
}
