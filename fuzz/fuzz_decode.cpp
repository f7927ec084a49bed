// libFuzzer: any bytes as response content -> generated decode / decode_text / validate / to_json
// of the sample types, and the bytes wrapped in an accepted response read as a server reads one.
// Invariants: decode never throws; a decoded value validates, re-encodes, and decodes to itself;
// decode agrees with the dynamic validator, with decode_text of the bytes, and with the typed
// outcome of the response.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <elicit/content/schema.hpp>
#include <elicit/elicitation.hpp>

#include "contact_information.hpp"
#include "sep1330_enums.hpp"
#include "shipping.hpp"
#include "spec_property_examples.hpp"

namespace {

template <class T>
void check(const nlohmann::json& content, std::string_view text) {
  static const auto form = elicit::parse_requested_schema(elicit::requested_schema<T>()).form;
  const auto decoded = elicit::decode<T>(content);
  if (decoded.errors.errors != elicit::validate_content(form, content).errors) __builtin_trap();
  const auto parsed = elicit::decode_text<T>(text);
  if (parsed.errors.errors != decoded.errors.errors || parsed.value != decoded.value) __builtin_trap();
  // nlohmann's lexer ends the input at a NUL byte, so text after one is not part of the content;
  // wrapped in a response, it would be.
  if (content.is_object() && text.find('\0') == std::string_view::npos) {
    const auto outcome = elicit::typed_outcome<T>(elicit::read_elicit_response(
        R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":)" + std::string(text) + "}}"));
    if (outcome.value != decoded.value || outcome.errors.errors != decoded.errors.errors) __builtin_trap();
  }
  if (!decoded) return;
  if (!elicit::validate(*decoded.value).ok()) __builtin_trap();
  const nlohmann::json again = *decoded.value;
  if (elicit::decode<T>(again).value != decoded.value) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto content = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (content.is_discarded()) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check<samples::ContactInformation>(content, text);
  check<samples::SpecPropertyExamples>(content, text);
  check<samples::Sep1330Enums>(content, text);
  check<samples::ShippingAddress>(content, text);
  return 0;
}
