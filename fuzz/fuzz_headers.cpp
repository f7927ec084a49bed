// libFuzzer: any bytes as a header value (the first line) and, after it, a tool's inputSchema ->
// decode_header_value, param_headers_of, check_param_headers (x-mcp-header, SEP-2243).
// Invariants: nothing throws but param_headers_of's std::invalid_argument; a decoded Base64 value
// encodes back to exactly the value sent (one value, one encoding); a decoded literal is the value
// without its surrounding spaces and tabs; every decoded value is UTF-8.
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <elicit/protocol/param_headers.hpp>

namespace {

std::string_view trimmed(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

void check_decode(std::string_view value) {
  const auto decoded = elicit::decode_header_value(value);
  if (!decoded) return;
  const auto v = trimmed(value);
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  const bool sentinel = v.size() >= prefix.size() + suffix.size() && v.substr(0, prefix.size()) == prefix &&
                        v.substr(v.size() - suffix.size()) == suffix;
  if (sentinel) {
    std::string b64(sodium_base64_encoded_len(decoded->size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(), reinterpret_cast<const unsigned char*>(decoded->data()), decoded->size(),
                      sodium_base64_VARIANT_ORIGINAL);
    b64.resize(b64.size() - 1);  // the terminating NUL
    if (std::string(prefix) + b64 + std::string(suffix) != v) __builtin_trap();
  } else if (*decoded != v) {
    __builtin_trap();
  }
  try {
    (void)nlohmann::json(*decoded).dump();
  } catch (const nlohmann::json::type_error&) {
    __builtin_trap();  // not UTF-8
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto eol = input.find('\n');
  const auto value = input.substr(0, eol);
  check_decode(value);
  if (eol == std::string_view::npos) return 0;
  const auto schema = nlohmann::json::parse(input.substr(eol + 1), nullptr, false);
  if (schema.is_discarded()) return 0;
  std::vector<elicit::ParamHeader> annotations;
  try {
    annotations = elicit::param_headers_of(schema);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  // Every annotated parameter's header is the fuzzed value; the arguments are the schema itself,
  // an object of whatever shape.
  (void)elicit::check_param_headers(annotations, schema,
                                    [&](std::string_view) -> std::optional<std::string_view> { return value; });
  (void)elicit::check_param_headers(annotations, schema,
                                    [](std::string_view) -> std::optional<std::string_view> { return std::nullopt; });
  return 0;
}
