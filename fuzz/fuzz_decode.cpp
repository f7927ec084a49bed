// libFuzzer: any bytes as response content -> generated from_json / decode / validate / to_json of
// the sample types. Invariants: decode never throws; a decoded value validates, re-encodes, and
// decodes to itself; decode agrees with the dynamic validator.
#include <cstddef>
#include <cstdint>

#include <elicit/schema.hpp>

#include "contact_information.hpp"
#include "sep1330_enums.hpp"
#include "shipping.hpp"
#include "spec_property_examples.hpp"

namespace {

template <class T>
void check(const nlohmann::json& content) {
  static const auto form = elicit::parse_requested_schema(T::requested_schema()).form;
  const auto decoded = T::decode(content);
  if (decoded.errors.errors != elicit::validate_content(form, content).errors) __builtin_trap();
  if (!decoded) return;
  if (!decoded.value->validate().ok()) __builtin_trap();
  const nlohmann::json again = *decoded.value;
  if (T::decode(again).value != decoded.value) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto content = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (content.is_discarded()) return 0;
  check<samples::ContactInformation>(content);
  check<samples::SpecPropertyExamples>(content);
  check<samples::Sep1330Enums>(content);
  check<samples::ShippingAddress>(content);
  return 0;
}
