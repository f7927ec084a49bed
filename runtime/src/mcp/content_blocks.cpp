#include "elicit/content_blocks.hpp"

#include <sodium.h>

namespace elicit {

std::string base64_encode(std::string_view bytes) {
  if (bytes.empty()) return {};
  const auto variant = sodium_base64_VARIANT_ORIGINAL;
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');  // includes the NUL
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    variant);
  out.pop_back();
  return out;
}

namespace content {

nlohmann::json text(std::string text) { return {{"type", "text"}, {"text", std::move(text)}}; }

nlohmann::json image(std::string base64_data, std::string mime_type) {
  return {{"type", "image"}, {"data", std::move(base64_data)}, {"mimeType", std::move(mime_type)}};
}

nlohmann::json audio(std::string base64_data, std::string mime_type) {
  return {{"type", "audio"}, {"data", std::move(base64_data)}, {"mimeType", std::move(mime_type)}};
}

nlohmann::json embedded_text(std::string uri, std::string mime_type, std::string text) {
  return {{"type", "resource"},
          {"resource", {{"uri", std::move(uri)}, {"mimeType", std::move(mime_type)}, {"text", std::move(text)}}}};
}

nlohmann::json embedded_blob(std::string uri, std::string mime_type, std::string base64_blob) {
  return {
      {"type", "resource"},
      {"resource", {{"uri", std::move(uri)}, {"mimeType", std::move(mime_type)}, {"blob", std::move(base64_blob)}}}};
}

nlohmann::json resource_link(std::string uri, std::string name, std::optional<std::string> description,
                             std::optional<std::string> mime_type) {
  nlohmann::json j{{"type", "resource_link"}, {"uri", std::move(uri)}, {"name", std::move(name)}};
  if (description) j["description"] = std::move(*description);
  if (mime_type) j["mimeType"] = std::move(*mime_type);
  return j;
}

}  // namespace content

}  // namespace elicit
