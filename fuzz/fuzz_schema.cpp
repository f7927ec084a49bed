// libFuzzer: any bytes as a schema file -> load shapes -> model + checks -> C++ names -> rendered
// code. Must never crash, hang, or throw out of the generator's stages.
#include <cstddef>
#include <cstdint>
#include <string>

#include <elicit/content/schema.hpp>

#include "emit.hpp"
#include "json_positions.hpp"
#include "plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Diagnostics place pointers in the text (JsonPositions): any bytes, any pointer.
  const elicitgen::JsonPositions positions(text);
  if (positions.locate(text.substr(0, 64)).line == 0) __builtin_trap();
  const auto doc = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  elicitgen::Diagnostics diags;
  elicitgen::SourceSchema source{"fuzz.json", "", "Fuzz", doc, std::string("message")};
  if (doc.is_object() && doc.contains("requestedSchema")) {
    source.schema = doc["requestedSchema"];
    source.pointer = "/requestedSchema";
  }
  auto plan = elicitgen::plan_type(source, "Fuzz", diags);
  if (!plan) return 0;
  // A schema the generator accepts must render, and its content checks must run on any content.
  std::vector<elicitgen::TypePlan> types{std::move(*plan)};
  elicitgen::FileView view{"fuzz.json", "fuzz.hpp", "fuzz", &types, true};
  const auto files = elicitgen::render_file(view, "/nonexistent", "fuzz", elicitgen::embedded_templates(), diags);
  if (diags.has_errors() || files.size() != 2 || files[0].content.empty()) __builtin_trap();
  (void)elicit::validate_content(types[0].form, nlohmann::json::parse(text, nullptr, false));
  return 0;
}
