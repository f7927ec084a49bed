// Tools, prompts and resources declared by name (features.hpp): each factory sets the handler it
// names and nothing else; each with_* setter sets its member, on a temporary or on a variable.
#include <catch2/catch.hpp>

#include <elicit/features.hpp>

namespace features_test {

using nlohmann::json;

TEST_CASE("Tool::blocking and Tool::async set their own handler, the setters their member", "[features]") {
  auto tool = elicit::Tool::blocking("register", [](elicit::RequestContext&) { return elicit::ToolResult::text("hi"); })
                  .with_description("Registers the user")
                  .with_title("Register")
                  .with_input_schema({{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}})
                  .with_output_schema({{"type", "object"}});
  CHECK(tool.name == "register");
  CHECK(tool.description == "Registers the user");
  CHECK(tool.title == std::optional<std::string>("Register"));
  CHECK(tool.input_schema["properties"]["n"]["type"] == "integer");
  CHECK(tool.output_schema == std::optional<json>(json{{"type", "object"}}));
  CHECK(tool.handler);
  CHECK_FALSE(tool.async_handler);
  CHECK(tool.validate_arguments);

  auto async = elicit::Tool::async("later", [](std::shared_ptr<elicit::RequestContext>) {});
  CHECK(async.async_handler);
  CHECK_FALSE(async.handler);
  CHECK(async.input_schema == json{{"type", "object"}});  // the default stays
  CHECK_FALSE(async.title);
  async.with_description("set on a variable");  // the lvalue overload changes it in place
  CHECK(async.description == "set on a variable");
}

TEST_CASE("Prompt, Resource and ResourceTemplate declared by name", "[features]") {
  auto prompt = elicit::Prompt::blocking("greet", [](elicit::RequestContext&) { return json::object(); })
                    .with_description("Greets")
                    .with_title("Greeting")
                    .with_argument({"name", "who", true})
                    .with_argument({"tone", "how", false});
  CHECK(prompt.name == "greet");
  CHECK(prompt.handler);
  CHECK_FALSE(prompt.async_handler);
  REQUIRE(prompt.arguments.size() == 2);
  CHECK(prompt.arguments[0].name == "name");
  CHECK(prompt.arguments[0].required);
  CHECK(prompt.arguments[1].name == "tone");
  CHECK(prompt.title == std::optional<std::string>("Greeting"));

  auto resource = elicit::Resource::async("test://a", "a", [](std::shared_ptr<elicit::RequestContext>) {})
                      .with_description("A")
                      .with_mime_type("text/plain");
  CHECK(resource.uri == "test://a");
  CHECK(resource.name == "a");
  CHECK(resource.async_handler);
  CHECK_FALSE(resource.handler);
  CHECK(resource.mime_type == std::optional<std::string>("text/plain"));

  auto tpl = elicit::ResourceTemplate::blocking("test://items/{id}", "items",
                                                [](elicit::RequestContext&) { return json::object(); })
                 .with_title("Items")
                 .with_completion("id", [](const elicit::CompletionRequest&) { return elicit::Completion{}; });
  CHECK(tpl.uri_template == "test://items/{id}");
  CHECK(tpl.handler);
  CHECK(tpl.completions.count("id") == 1);
  CHECK(tpl.title == std::optional<std::string>("Items"));
}

}  // namespace features_test
