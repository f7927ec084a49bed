// Mistakes are errors (issue 14, item 5): a misspelt keyword, a template naming a key the view does
// not provide, warnings under --warnings-as-errors; root errors keep the location field;
// additionalProperties: false is accepted with a warning and honoured by `check` and the runtime.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include <elicit/content/schema.hpp>

#include "../support/run_command.hpp"
#include "../support/scratch_dir.hpp"
#include "emit.hpp"
#include "load.hpp"
#include "names.hpp"
#include "plan.hpp"
#include "templates.hpp"
#include "test_paths.hpp"
#include "view.hpp"

namespace mistakes_test {

namespace fs = std::filesystem;

namespace {

using Run = test_support::CommandResult;
using test_support::empty_or_missing;
using test_support::run_elicitgen;

const test_support::ScratchDir scratch("mistakes");

std::string one_property(const std::string& property) {
  return R"({"type":"object","properties":{"p":)" + property + "}}";
}

std::string sample(const std::string& name) { return std::string(SOURCE_DIR) + "/samples/schemas/" + name; }

// ":1:COLUMN" of the first `needle` in one-line JSON `text`: where an error about it must point.
std::string at(const std::string& text, const std::string& needle) {
  const auto offset = text.find(needle);
  REQUIRE(offset != std::string::npos);
  REQUIRE(text.find('\n') == std::string::npos);
  return ":1:" + std::to_string(offset + 1);
}

}  // namespace

TEST_CASE("a keyword one or two edits from a known one is an error with a suggestion", "[mistakes][typo]") {
  struct Case {
    const char* property;
    const char* key;
    const char* suggestion;
  };
  const Case cases[] = {
      {R"({"type":"string","minLenght":3})", "minLenght", "minLength"},        // transposition
      {R"({"type":"string","maxlength":3})", "maxlength", "maxLength"},        // case
      {R"({"type":"string","patern":"^a"})", "patern", "pattern"},             // deletion
      {R"({"type":"string","fromat":"email"})", "fromat", "format"},           // transposition
      {R"({"type":"number","minimun":1})", "minimun", "minimum"},              // substitution
      {R"({"type":"integer","maximumm":1})", "maximumm", "maximum"},           // insertion
      {R"({"type":"string","tpye":"string"})", "tpye", "type"},                // short keyword, 1 edit
      {R"({"type":"string","defualt":"x"})", "defualt", "default"},            // default
      {R"({"type":"string","descripton":"x"})", "descripton", "description"},  // annotation
      {R"({"type":"array","items":{"type":"string","enum":["a"]},"minItem":1})", "minItem", "minItems"},
  };
  for (const auto& c : cases) {
    INFO(c.property);
    const auto text = one_property(c.property);
    const auto file = scratch.write("typo.json", text);
    const auto lint = run_elicitgen("lint " + file);
    CHECK(lint.exit_code == 1);
    CHECK_THAT(lint.out,
               Catch::Contains(file + at(text, "\"" + std::string(c.key) + "\"") + ": error: /properties/p/" + c.key +
                               ": unknown keyword \"" + c.key + "\": did you mean \"" + c.suggestion + "\"?"));
    CHECK_THAT(lint.out, !Catch::Contains("ok,"));
    const auto out = scratch.fresh("typo-out");
    const auto gen = run_elicitgen("generate " + file + " -o " + out.string());
    CHECK(gen.exit_code == 1);
    CHECK_THAT(gen.out, Catch::Contains("did you mean \"" + std::string(c.suggestion) + "\"?"));
    CHECK(empty_or_missing(out));
  }
  // At the root too.
  const auto root = scratch.write("typo_root.json", R"({"type":"object","properties":{},"requierd":[]})");
  CHECK_THAT(
      run_elicitgen("lint " + root).out,
      Catch::Contains(root + ":1:34: error: /requierd: unknown keyword \"requierd\": did you mean \"required\"?"));
}

TEST_CASE("unknown keywords far from every known one stay warnings", "[mistakes][typo]") {
  // x- extensions, and words that are no keyword's near miss (short words need a 1-edit match).
  for (const char* property : {R"({"type":"string","x-widget":"textarea"})", R"({"type":"string","x-type":"a"})",
                               R"({"type":"string","ui":"a"})", R"({"type":"string","placeholder":"a"})",
                               R"({"type":"string","widget":"a"})"}) {
    INFO(property);
    const auto file = scratch.write("far.json", one_property(property));
    const auto lint = run_elicitgen("lint " + file);
    CHECK(lint.exit_code == 0);
    CHECK_THAT(lint.out, Catch::Contains(": warning: /properties/p/") && Catch::Contains(": unknown keyword") &&
                             Catch::Contains("is ignored"));
    CHECK_THAT(lint.out, !Catch::Contains("did you mean"));
  }
  // A known JSON Schema keyword keeps its own error, not a suggestion.
  const auto known = one_property(R"({"type":"number","exclusiveMinimum":1})");
  const auto file = scratch.write("known.json", known);
  const auto lint = run_elicitgen("lint " + file);
  CHECK(lint.exit_code == 1);
  CHECK_THAT(lint.out, Catch::Contains(file + at(known, "\"exclusiveMinimum\"") +
                                       ": error: /properties/p/exclusiveMinimum: \"exclusiveMinimum\" is not allowed"));
  CHECK_THAT(lint.out, !Catch::Contains("did you mean"));
}

TEST_CASE("elicitgen --warnings-as-errors: every warning is an error, exit 1, nothing written", "[mistakes][werror]") {
  const auto text = one_property(R"({"type":"string","x-widget":"textarea"})");
  const auto file = scratch.write("warned.json", text);
  const auto where = file + at(text, "\"x-widget\"");
  const auto out = scratch.fresh("werror-out");
  auto r = run_elicitgen("generate " + file + " -o " + out.string());
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains(where + ": warning: /properties/p/x-widget: unknown keyword \"x-widget\""));
  CHECK(fs::exists(out / "warned.hpp"));

  const auto strict = scratch.fresh("werror-strict");
  r = run_elicitgen("generate " + file + " -o " + strict.string() + " --warnings-as-errors");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(where + ": error: /properties/p/x-widget: unknown keyword \"x-widget\""));
  CHECK_THAT(r.out, !Catch::Contains("warning:"));
  CHECK_THAT(r.out, Catch::Contains("no files written"));
  CHECK(empty_or_missing(strict));

  r = run_elicitgen("lint --warnings-as-errors " + file);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(where + ": error: /properties/p/x-widget: unknown keyword"));
  CHECK_THAT(r.out, !Catch::Contains("ok,"));
  // The secrets warning too; and a schema without warnings is unaffected.
  r = run_elicitgen("lint --warnings-as-errors " + std::string(SOURCE_DIR) + "/tests/schemas/lint/secrets.json");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("secrets.json:1:95: error: /requestedSchema/properties/password: property "
                                    "\"password\" looks like"));
  CHECK(run_elicitgen("lint --warnings-as-errors " + sample("contact_information.json")).exit_code == 0);
  CHECK(run_elicitgen("generate --warnings-as-errors " + sample("contact_information.json") + " -o " +
                      scratch.fresh("werror-clean").string())
            .exit_code == 0);
}

TEST_CASE("schema errors read as GCC's: FILE:LINE:COLUMN: error: POINTER: message", "[mistakes][format]") {
  const auto file = scratch.write("no_type.json", R"({"properties":{}})");
  auto r = run_elicitgen("lint " + file);
  CHECK(r.exit_code == 1);
  // The whole document (pointer ""): its first byte, and no pointer field.
  CHECK_THAT(r.out, Catch::Contains(file + ":1:1: error: requestedSchema must have \"type\": \"object\"\n"));
  const auto indented = scratch.write("indented.json", "\n\n  {\"properties\":{}}");
  CHECK_THAT(run_elicitgen("lint " + indented).out,
             Catch::Contains(indented + ":3:3: error: requestedSchema must have"));
  const auto empty = scratch.write("empty.json", "{}");
  r = run_elicitgen("lint " + empty);
  CHECK_THAT(r.out, Catch::StartsWith(empty + ":1:1: error: empty object"));
  // Over several lines: the line of the member's name, the column of its opening quote (bytes: "é" is
  // two).
  const auto lines_file =
      scratch.write("lines.json",
                    "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"caf\u00e9\": {\"t\": 1,\n"
                    "\t\"type\": \"strin\"}\n  }\n}\n");
  CHECK_THAT(run_elicitgen("lint " + lines_file).out,
             Catch::Contains(lines_file + ":5:2: error: /properties/caf\xc3\xa9/type: unknown type \"strin\""));
  // Every line is read by the problem matcher VS Code ships for GCC ($gcc) and by Emacs and Vim's
  // FILE:LINE:COLUMN: forms, with the file, line, column and severity where they belong.
  const std::regex gcc_matcher(R"(^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$)");
  std::istringstream out(run_elicitgen("lint " + file + " " + empty + " " + lines_file + " " + std::string(SOURCE_DIR) +
                                       "/tests/schemas/invalid/nested_object.json " + std::string(SOURCE_DIR) +
                                       "/tests/schemas/lint/secrets.json")
                             .out);
  int count = 0;
  for (std::string line; std::getline(out, line);) {
    if (line.find(": ok, ") != std::string::npos) continue;
    ++count;
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, gcc_matcher));
    CHECK_THAT(m[1].str(), Catch::EndsWith(".json"));
    CHECK(std::stoul(m[2].str()) >= 1);
    CHECK(std::stoul(m[3].str()) >= 1);
    CHECK((m[5].str()[0] == '/' || m[5].str().rfind("requestedSchema", 0) == 0 || m[5].str().rfind("empty", 0) == 0));
  }
  CHECK(count == 6);
}

TEST_CASE("a template naming a key the view does not provide fails at its line and column", "[mistakes][templates]") {
  const auto tdir = scratch.fresh("templates");
  fs::create_directories(tdir);
  const auto header = (tdir / "header.hpp.mustache").string();
  auto generate = [&](const std::string& text, const fs::path& out) {
    std::ofstream(header, std::ios::binary | std::ios::trunc) << text;
    return run_elicitgen("generate " + sample("shipping.json") + " -o " + out.string() + " --templates " +
                         tdir.string());
  };
  struct Case {
    std::string text;
    std::string expected;  ///< after the file name
  };
  const Case cases[] = {
      {"// {{version}}\n\n{{foo}}\n", ":3:1: error: unknown key \"foo\""},
      // A key of a list item, used outside its section.
      {"{{#types}}{{name}}{{/types}}\n{{member}}\n", ":2:1: error: unknown key \"member\""},
      // Inside the right section it is fine; a typo there is not.
      {"{{#types}}{{#fields}}{{member}}{{membr}}{{/fields}}{{/types}}\n", ":1:32: error: unknown key \"membr\""},
      // The delimiters the built-in templates use.
      {"{{=<% %>=}}\n<%#types%>\n<%name%> <%&nmae%>\n<%/types%>\n", ":3:10: error: unknown key \"nmae\""},
      {"{{=<% %>=}}\n<%#types%>\n<%^has_fieldz%>x<%/has_fieldz%>\n<%/types%>\n",
       ":3:1: error: unknown key \"has_fieldz\""},
      {"{{{ triple }}}\n", ":1:1: error: unknown key \"triple\""},
      {"{{#types}}{{fields.member}}{{/types}}", ":1:11: error: unknown key \"fields.member\""},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto out = scratch.fresh("templated-bad");
    const auto r = generate(c.text, out);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains(header + c.expected));
    CHECK(empty_or_missing(out));
  }
  // Known keys, comments, sections over plain values and list items, outer names inside sections.
  const auto out = scratch.fresh("templated-good");
  const auto r = generate(
      "{{! a comment }}{{=<% %>=}}// <%version%> <%source%>\n"
      "<%#types%><%name%><%#has_fields%>!<%/has_fields%><%#fields%> <%member%>/<%name%>/<%version%><%#doc%>"
      "<%^index%>-<%/index%><%/doc%><%/fields%>\n<%/types%><%={{ }}=%>{{ns_close}}",
      out);
  CHECK(r.exit_code == 0);
  CHECK_THAT(test_support::read_file(out / "shipping.hpp"),
             Catch::StartsWith("// 0.1.0 shipping.json\nShippingAddress! recipient/ShippingAddress/0.1.0 street/"));
}

TEST_CASE("the built-in templates name only keys the view provides, and the view provides them all",
          "[mistakes][templates]") {
  elicitgen::Diagnostics d;
  const auto t = elicitgen::embedded_templates();
  CHECK(elicitgen::check_template_keys(t.header, "header.hpp.mustache", d));
  CHECK(elicitgen::check_template_keys(t.source, "source.cpp.mustache", d));
  CHECK(d.messages().empty());
  // Every declared key is present in every object of real views (so a template naming one never
  // renders it empty by accident).
  for (const char* name : {"contact_information.json", "sep1330_enums.json", "sep1034_defaults.json", "shipping.json",
                           "confirm_deletion.json"}) {
    INFO(name);
    elicitgen::Diagnostics diags;
    std::vector<elicitgen::TypePlan> types;
    for (const auto& s : elicitgen::load_schemas(sample(name), diags)) {
      auto plan = elicitgen::plan_type(s, elicitgen::type_name(s.name_hint), diags);
      REQUIRE(plan);
      types.push_back(std::move(*plan));
    }
    const elicitgen::FileView file{name, "x.hpp", "ns", &types, true};
    std::function<void(const kainjow::mustache::data&, const elicitgen::ViewShape&, const std::string&)> walk =
        [&](const kainjow::mustache::data& d, const elicitgen::ViewShape& shape, const std::string& where) {
          for (const auto& [key, items] : shape.keys) {
            INFO(where + key);
            const auto* value = d.get(key);
            REQUIRE(value != nullptr);
            CHECK(value->is_list() == (items != nullptr));
            if (items && value->is_list()) {
              for (const auto& item : value->list_value()) walk(item, *items, where + key + "/");
            }
          }
        };
    walk(elicitgen::make_view(file), elicitgen::view_shape(), "/");
  }
}

TEST_CASE("additionalProperties: false is accepted with a warning and honoured", "[mistakes][additional]") {
  const std::string closed =
      R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"],)"
      R"("additionalProperties":false})";
  const auto file = scratch.write("closed.json", closed);
  auto r = run_elicitgen("lint " + file);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains(file + at(closed, "\"additionalProperties\"") +
                                    ": warning: /additionalProperties: additionalProperties is outside the MCP "
                                    "2025-11-25 requestedSchema subset"));
  CHECK_THAT(r.out, Catch::Contains("ok, Closed with 2 properties"));
  CHECK(run_elicitgen("lint --warnings-as-errors " + file).exit_code == 1);

  // elicitgen check
  const auto data = scratch.write("closed-data.json", R"({"name":"a","extra":1,"age":3,"zz":{"x":[1]}})");
  r = run_elicitgen("check " + file + " " + data);
  CHECK(r.exit_code == 1);
  CHECK(r.out ==
        "/extra: is not allowed (additionalProperties: false)\n/zz: is not allowed (additionalProperties: false)\n");
  const auto valid = scratch.write("closed-valid.json", R"({"name":"a","age":3})");
  CHECK(run_elicitgen("check " + file + " " + valid).exit_code == 0);
  // Errors of listed properties come first, then the unlisted ones; a pointer escapes ~ and /.
  const auto both = scratch.write("closed-both.json", R"({"a/b~c":true,"age":"x"})");
  r = run_elicitgen("check " + file + " " + both);
  CHECK(r.out ==
        "/name: is required\n/age: must be an integer\n/a~1b~0c: is not allowed (additionalProperties: false)\n");

  // validate_content, as a jsonrpc::Connection runs it.
  const auto parsed = elicit::parse_requested_schema(nlohmann::ordered_json::parse(closed));
  REQUIRE(parsed.ok());
  CHECK(parsed.form.closed);
  const auto result = elicit::validate_content(parsed.form, nlohmann::json::parse(R"({"name":"a","extra":null})"));
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0].pointer == "/extra");
  CHECK(result.errors[0].keyword == "additionalProperties");
  CHECK(result.errors[0].message == "is not allowed (additionalProperties: false)");

  // true, or absent: extra properties are ignored as before (true still warns: it is outside the subset).
  for (const char* tail : {R"(,"additionalProperties":true})", "}"}) {
    const auto open =
        scratch.write("open.json", R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"])" +
                                       std::string(tail));
    INFO(tail);
    CHECK(run_elicitgen("lint " + open).exit_code == 0);
    CHECK(run_elicitgen("check " + open + " " + data).exit_code == 0);
    const auto p = elicit::parse_requested_schema(nlohmann::ordered_json::parse(test_support::read_file(open)));
    CHECK_FALSE(p.form.closed);
  }
  // Any other value is an error.
  for (const char* value : {R"({"type":"string"})", "0", "\"false\"", "null"}) {
    INFO(value);
    const auto text = R"({"type":"object","properties":{},"additionalProperties":)" + std::string(value) + "}";
    const auto bad = scratch.write("bad_additional.json", text);
    r = run_elicitgen("lint " + bad);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains(bad + at(text, "\"additionalProperties\"") +
                                      ": error: /additionalProperties: additionalProperties must be true or false"));
  }
  // On a property it is still outside the subset: an error, as before.
  const auto on_property =
      scratch.write("additional_on_property.json", one_property(R"({"type":"string","additionalProperties":false})"));
  CHECK(run_elicitgen("lint " + on_property).exit_code == 1);
}

TEST_CASE(
    "generated code for additionalProperties: false: the rule table of a closed form says so, an open one does not",
    "[mistakes][additional]") {
  const auto file = scratch.write("closed_form.json", R"({"type":"object","properties":{"name":{"type":"string"}},)"
                                                      R"("additionalProperties":false})");
  const auto out = scratch.fresh("closed-gen");
  const auto r = run_elicitgen("generate " + file + " -o " + out.string() + " --namespace t");
  REQUIRE(r.exit_code == 0);
  const auto source = test_support::read_file(out / "closed_form.cpp");
  // The rule table says the form is closed; the runtime reports each unlisted property (checked by
  // the install test's consumer and the differential test).
  CHECK_THAT(source, Catch::Contains("{{ClosedForm_detail::kFields, 1, true},"));
  const auto compile = test_support::run_command(
      std::string(TEST_CXX) + " -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I '" + SOURCE_DIR +
      "/runtime/include' -I '" + out.string() + "' '" + (out / "closed_form.cpp").string() + "' 2>&1 | head -c 4000");
  CHECK(compile.out == "");
  // An open form has neither.
  const auto open_out = scratch.fresh("open-gen");
  REQUIRE(run_elicitgen("generate " + sample("contact_information.json") + " -o " + open_out.string()).exit_code == 0);
  CHECK_THAT(test_support::read_file(open_out / "contact_information.cpp"),
             Catch::Contains("{{ContactInformation_detail::kFields, 3, false},"));
}

}  // namespace mistakes_test
