#include "elicit/typed_tool.hpp"

namespace elicit::detail {

namespace {
std::string error_lines(const ValidationResult& errors) {
  std::string text;
  for (const auto& e : errors.errors) {
    text += '\n';
    text += e.pointer.empty() ? "/" : e.pointer;
    text += ": ";
    text += e.message;
  }
  return text;
}
}  // namespace

std::string invalid_arguments_text(const std::string& tool, const ValidationResult& errors) {
  return "Invalid arguments for tool " + tool + ":" + error_lines(errors);
}

ToolResult invalid_output_result(const std::string& tool, const ValidationResult& errors) {
  return ToolResult::error("Tool " + tool +
                           " produced a result that does not match its outputSchema:" + error_lines(errors));
}

}  // namespace elicit::detail
