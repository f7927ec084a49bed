// Content blocks of tool results and prompt messages (MCP 2025-11-25 and 2026-07-28, Server, Tools,
// "Tool Result": text, image, audio, resource link, embedded resource), built as the spec's JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace elicit {

/// Standard Base64 (RFC 4648, section 4, with padding) of `bytes`, as image, audio and blob
/// contents carry binary data. Throws std::bad_alloc only.
std::string base64_encode(std::string_view bytes);

namespace content {

/// {"type": "text", "text"}.
nlohmann::json text(std::string text);
/// {"type": "image", "data", "mimeType"}: `base64_data` is Base64 (base64_encode), `mime_type`
/// e.g. "image/png".
nlohmann::json image(std::string base64_data, std::string mime_type);
/// {"type": "audio", "data", "mimeType"}: as image(), e.g. "audio/wav".
nlohmann::json audio(std::string base64_data, std::string mime_type);
/// {"type": "resource", "resource": {"uri", "mimeType", "text"}}: a text resource, embedded.
nlohmann::json embedded_text(std::string uri, std::string mime_type, std::string text);
/// {"type": "resource", "resource": {"uri", "mimeType", "blob"}}: a binary resource, embedded
/// (`base64_blob` is Base64).
nlohmann::json embedded_blob(std::string uri, std::string mime_type, std::string base64_blob);
/// {"type": "resource_link", "uri", "name"[, "description"][, "mimeType"]}: a resource the client
/// may read with resources/read.
nlohmann::json resource_link(std::string uri, std::string name, std::optional<std::string> description = std::nullopt,
                             std::optional<std::string> mime_type = std::nullopt);

}  // namespace content

}  // namespace elicit
