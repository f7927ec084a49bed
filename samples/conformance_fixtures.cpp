// The tools, prompts and resources the official conformance suite's server scenarios call by name
// (0.1.16 for 2025-11-25; most also in 0.2.0-alpha.12 for 2026-07-28): every kind of content, a
// tool error, log messages, progress, sampling, prompts with arguments, an embedded resource and an
// image, text and binary resources, a resource template, a resource to subscribe to, completions of
// a prompt argument, and a tool whose JSON Schema 2020-12 inputSchema must reach the client as
// written; all with the public API, as any server would be.
// See tests/interop/conformance/SCENARIOS.md, section 3.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <elicit/content_blocks.hpp>
#include <nlohmann/json.hpp>

#include "sample_tools.hpp"

namespace {

using elicit::LoggingLevel;
using elicit::RequestContext;
using elicit::Tool;
using elicit::ToolResult;
namespace content = elicit::content;
using nlohmann::json;
using namespace std::chrono_literals;

// {"messages": [...]} of one user message per content block.
json user_messages(std::vector<json> blocks) {
  json messages = json::array();
  for (auto& b : blocks) messages.push_back({{"role", "user"}, {"content", std::move(b)}});
  return {{"messages", std::move(messages)}};
}

// A 1x1 transparent PNG.
std::string png_1x1() {
  static constexpr unsigned char kPng[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
      0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
      0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0x50, 0x0f, 0x00, 0x04, 0x85, 0x01, 0x80,
      0x84, 0xa9, 0x8c, 0x21, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  return elicit::base64_encode(std::string(reinterpret_cast<const char*>(kPng), sizeof kPng));
}

// 1/100 s of silence: a RIFF/WAVE file, PCM, mono, 8 kHz, 8 bits (silence is 0x80).
std::string wav_silence() {
  const std::uint32_t samples = 80;
  std::string wav;
  const auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) wav += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  const auto u16 = [&](std::uint16_t v) {
    wav += static_cast<char>(v & 0xff);
    wav += static_cast<char>(v >> 8);
  };
  wav += "RIFF";
  u32(36 + samples);
  wav += "WAVEfmt ";
  u32(16);    // fmt chunk size
  u16(1);     // PCM
  u16(1);     // channels
  u32(8000);  // sample rate
  u32(8000);  // bytes per second
  u16(1);     // block align
  u16(8);     // bits per sample
  wav += "data";
  u32(samples);
  wav.append(samples, static_cast<char>(0x80));
  return elicit::base64_encode(wav);
}

}  // namespace

void add_conformance_fixtures(elicit::Server& server) {
  server.add_tool(Tool::blocking("test_simple_text", [](RequestContext&) {
                    return ToolResult::text("This is a simple text response for testing.");
                  }).with_description("Returns a text content block"));
  server.add_tool(Tool::blocking("test_image_content", [](RequestContext&) {
                    return ToolResult::of({content::image(png_1x1(), "image/png")});
                  }).with_description("Returns an image content block (a 1x1 PNG)"));
  server.add_tool(Tool::blocking("test_audio_content", [](RequestContext&) {
                    return ToolResult::of({content::audio(wav_silence(), "audio/wav")});
                  }).with_description("Returns an audio content block (a short WAV)"));
  server.add_tool(Tool::blocking("test_embedded_resource", [](RequestContext&) {
                    return ToolResult::of({content::embedded_text("test://embedded-resource", "text/plain",
                                                                  "This is an embedded resource content.")});
                  }).with_description("Returns an embedded text resource"));
  server.add_tool(Tool::blocking("test_multiple_content_types", [](RequestContext&) {
                    return ToolResult::of({content::text("Multiple content types test:"),
                                           content::image(png_1x1(), "image/png"),
                                           content::embedded_text("test://mixed-content-resource", "application/json",
                                                                  json{{"test", "data"}, {"value", 123}}.dump())});
                  }).with_description("Returns text, an image and an embedded resource"));
  server.add_tool(Tool::blocking("test_error_handling", [](RequestContext&) {
                    return ToolResult::error("This tool intentionally returns an error for testing");
                  }).with_description("Always fails: a tool error in the result"));
  // Blocking handlers may wait: the pauses let the client see the messages arrive one by one.
  server.add_tool(Tool::blocking("test_tool_with_logging", [](RequestContext& call) {
                    call.log(LoggingLevel::info, "Tool execution started", "conformance");
                    std::this_thread::sleep_for(50ms);
                    call.log(LoggingLevel::info, "Tool processing data", "conformance");
                    std::this_thread::sleep_for(50ms);
                    call.log(LoggingLevel::info, "Tool execution completed", "conformance");
                    return ToolResult::text("Tool with logging executed successfully");
                  }).with_description("Sends three log messages while it runs"));
  server.add_tool(Tool::blocking("test_tool_with_progress", [](RequestContext& call) {
                    call.progress(0, 100);
                    std::this_thread::sleep_for(50ms);
                    call.progress(50, 100);
                    std::this_thread::sleep_for(50ms);
                    call.progress(100, 100);
                    return ToolResult::text("Tool with progress executed successfully");
                  }).with_description("Reports progress 0, 50 and 100 of 100"));
  server.add_tool(
      Tool::blocking("test_sampling",
                     [](RequestContext& call) {
                       const auto prompt = call.arguments().value("prompt", std::string());
                       // Without the sampling capability: -32021 in 2026-07-28, a tool error in 2025-11-25.
                       if (!call.stateless() && !call.client_capabilities().raw.contains("sampling"))
                         return ToolResult::error("the client does not support sampling");
                       const auto o = call.request_input(elicit::InputRequest{
                           "sampling/createMessage",
                           {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", prompt}}}}}},
                            {"maxTokens", 100}},
                           "sampling"});
                       if (!o.result || !o.result->is_object())
                         return ToolResult::error("the client did not answer the sampling request");
                       std::string text;
                       if (const auto c = o.result->find("content"); c != o.result->end() && c->is_object()) {
                         if (const auto t = c->find("text"); t != c->end() && t->is_string())
                           text = t->get<std::string>();
                       }
                       return ToolResult::text("LLM response: " + text);
                     })
          .with_description("Asks the client's model to answer a prompt")
          .with_input_schema(
              {{"type", "object"},
               {"properties", {{"prompt", {{"type", "string"}, {"description", "The prompt to send to the LLM"}}}}},
               {"required", {"prompt"}}}));

  server.add_prompt(
      elicit::Prompt{"test_simple_prompt", "A prompt without arguments", {}, std::nullopt, [](RequestContext&) {
                       return user_messages({content::text("This is a simple prompt for testing.")});
                     }});
  server.add_prompt(elicit::Prompt{
      "test_prompt_with_arguments",
      "A prompt with two arguments",
      {{"arg1", "First test argument", true, elicit::complete_from({"test", "testing", "test value", "other"})},
       {"arg2", "Second test argument", true}},
      std::nullopt,
      [](RequestContext& call) {
        const auto arg = [&](const char* name) {
          const auto v = call.arguments().find(name);
          return v != call.arguments().end() && v->is_string() ? v->get<std::string>() : std::string();
        };
        return user_messages(
            {content::text("Prompt with arguments: arg1='" + arg("arg1") + "', arg2='" + arg("arg2") + "'")});
      }});
  server.add_prompt(
      elicit::Prompt{"test_prompt_with_embedded_resource",
                     "A prompt that embeds a resource",
                     {{"resourceUri", "URI of the resource to embed", true}},
                     std::nullopt,
                     [](RequestContext& call) {
                       const auto uri = call.arguments().value("resourceUri", json("test://example-resource"));
                       return user_messages(
                           {content::embedded_text(uri.is_string() ? uri.get<std::string>() : "test://example-resource",
                                                   "text/plain", "Embedded resource content for testing."),
                            content::text("Please process the embedded resource above.")});
                     }});
  server.add_prompt(
      elicit::Prompt{"test_prompt_with_image", "A prompt with an image", {}, std::nullopt, [](RequestContext&) {
                       return user_messages(
                           {content::image(png_1x1(), "image/png"), content::text("Please analyze the image above.")});
                     }});

  server.add_resource(elicit::Resource{
      "test://static-text", "static-text", "A static text resource", std::string("text/plain"), [](RequestContext&) {
        return json{{"contents",
                     {{{"uri", "test://static-text"},
                       {"mimeType", "text/plain"},
                       {"text", "This is the content of the static text resource."}}}}};
      }});
  server.add_resource(elicit::Resource{
      "test://static-binary", "static-binary", "A static binary resource (a 1x1 PNG)", std::string("image/png"),
      [](RequestContext&) {
        return json{{"contents", {{{"uri", "test://static-binary"}, {"mimeType", "image/png"}, {"blob", png_1x1()}}}}};
      }});
  // resources/subscribe (2025-11-25) and subscriptions/listen resourceSubscriptions (2026-07-28):
  // an application calls core->notify_resource_updated(uri) when it changes; here the tool
  // test_trigger_resource_update stands for that change.
  server.add_resource(elicit::Resource{
      "test://watched-resource", "watched-resource", "A resource to subscribe to", std::string("text/plain"),
      [](RequestContext&) {
        return json{
            {"contents",
             {{{"uri", "test://watched-resource"}, {"mimeType", "text/plain"}, {"text", "Watched resource content"}}}}};
      }});
  const std::weak_ptr<elicit::Server> weak_core = server.weak_from_this();  // weakly: the core owns the tool
  server.add_tool(Tool::blocking("test_trigger_resource_update", [weak_core](RequestContext&) {
                    const auto core = weak_core.lock();
                    const auto told = core ? core->notify_resource_updated("test://watched-resource") : 0;
                    return ToolResult::text("told " + std::to_string(told) + " subscriber(s)");
                  }).with_description("Announces a change of test://watched-resource to its subscribers"));
  elicit::ResourceTemplate data{
      "test://template/{id}/data", "template-data", "Data of one item, by id", std::string("application/json"),
      [](RequestContext& call) {
        const auto id = call.arguments()["variables"]["id"].get<std::string>();
        return json{{"contents",
                     {{{"uri", call.arguments()["uri"]},
                       {"mimeType", "application/json"},
                       {"text", json{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}.dump()}}}}};
      }};
  data.completions["id"] = elicit::complete_from({"123", "456", "789"});
  server.add_resource_template(std::move(data));

  // JSON Schema 2020-12 keywords (SEP-1613, SEP-2106) in an inputSchema, listed as written.
  server.add_tool(Tool::blocking("json_schema_2020_12_tool", [](RequestContext&) { return ToolResult::text("ok"); })
                      .with_description("A tool whose inputSchema uses JSON Schema 2020-12")
                      .with_input_schema(json::parse(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                              "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                       "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                       "phone": {"type": "string"}, "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
      })")));
}
