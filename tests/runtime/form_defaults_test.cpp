// form_defaults / apply_defaults: the SEP-1034 defaults of a form, for the answering side.
#include <catch2/catch.hpp>

#include <elicit/client.hpp>
#include <elicit/content/form_defaults.hpp>

using namespace elicit;
using nlohmann::json;

namespace {

Form form() {
  return parse_requested_schema(nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "name": {"type": "string", "default": "John Doe"},
      "age": {"type": "integer", "default": 30},
      "score": {"type": "number", "default": 95.5},
      "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
      "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
      "verified": {"type": "boolean", "default": true},
      "email": {"type": "string", "format": "email"}
    },
    "required": ["email"]
  })"))
      .form;
}

}  // namespace

TEST_CASE("form_defaults gives every default, and only those", "[defaults]") {
  CHECK(form_defaults(form()) == json{{"name", "John Doe"},
                                      {"age", 30},
                                      {"score", 95.5},
                                      {"status", "active"},
                                      {"tags", {"b"}},
                                      {"verified", true}});
  CHECK(
      form_defaults(parse_requested_schema(nlohmann::ordered_json::parse(R"({"type":"object","properties":{}})")).form)
          .empty());
}

TEST_CASE("apply_defaults fills what is missing and keeps what is there, even when invalid", "[defaults]") {
  const auto content = apply_defaults(form(), json{{"name", "Ada"}, {"age", "old"}, {"email", "a@b.c"}});
  CHECK(content["name"] == "Ada");
  CHECK(content["age"] == "old");
  CHECK(content["score"] == 95.5);
  CHECK(content["email"] == "a@b.c");
  CHECK(content.size() == 7);
  CHECK(validate_content(form(), content).errors.size() == 1);  // only /age
  CHECK(apply_defaults(form(), json::array()) == form_defaults(form()));
}

TEST_CASE("accept_with_defaults completes partial content with the defaults, validate_content judges it",
          "[defaults][client]") {
  const auto f = form();
  const auto answer = Answer::accept_with_defaults(f, json{{"email", "ann@example.com"}, {"age", 41}});
  CHECK(answer.action == ElicitAction::accept);
  CHECK(answer.content == json::parse(R"({"email":"ann@example.com","age":41,"name":"John Doe","score":95.5,
                                          "status":"active","tags":["b"],"verified":true})"));
  CHECK(validate_content(f, answer.content).ok());
  CHECK(answer.to_json(true) == json{{"action", "accept"}, {"content", answer.content}});
  // The required email has no default: the answer is not valid, and validate_content says where.
  const auto missing = Answer::accept_with_defaults(f);
  CHECK(validate_content(f, missing.content).to_string() == "/email: is required\n");
  CHECK(to_string(ElicitAction::decline) == "decline");
  CHECK(Answer::cancel().to_json(true) == json{{"action", "cancel"}});
  CHECK(Answer::decline().to_json(false) == json{{"action", "decline"}});
}
