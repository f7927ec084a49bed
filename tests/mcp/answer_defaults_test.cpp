// Answer::accept_with_defaults: the MCP client's answer built from a form's SEP-1034 defaults
// (form_defaults and apply_defaults themselves are the content layer's: tests/content/form_defaults_test.cpp).
#include <catch2/catch.hpp>

#include <elicit/client.hpp>
#include <elicit/content/form_defaults.hpp>

#include "../support/defaults_form.hpp"

namespace answer_defaults_test {

using namespace elicit;
using nlohmann::json;
using test_support::defaults_form;

TEST_CASE("accept_with_defaults completes partial content with the defaults, validate_content judges it",
          "[defaults][client]") {
  const auto f = defaults_form();
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

}  // namespace answer_defaults_test
