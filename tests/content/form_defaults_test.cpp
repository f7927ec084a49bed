// form_defaults / apply_defaults: the SEP-1034 defaults of a form, for the answering side.
#include <catch2/catch.hpp>

#include <elicit/content/form_defaults.hpp>

#include "../support/defaults_form.hpp"

namespace form_defaults_test {

using namespace elicit;
using nlohmann::json;
using test_support::defaults_form;

TEST_CASE("form_defaults gives every default, and only those", "[defaults]") {
  CHECK(form_defaults(defaults_form()) == json{{"name", "John Doe"},
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
  const auto content = apply_defaults(defaults_form(), json{{"name", "Ada"}, {"age", "old"}, {"email", "a@b.c"}});
  CHECK(content["name"] == "Ada");
  CHECK(content["age"] == "old");
  CHECK(content["score"] == 95.5);
  CHECK(content["email"] == "a@b.c");
  CHECK(content.size() == 7);
  CHECK(validate_content(defaults_form(), content).errors.size() == 1);  // only /age
  CHECK(apply_defaults(defaults_form(), json::array()) == form_defaults(defaults_form()));
}

}  // namespace form_defaults_test
