// RFC 6570 URI templates matched against URIs (resource templates, MCP 2025-11-25, Server,
// Resources, "Resource Templates").
#include <catch2/catch.hpp>

#include <elicit/uri_template.hpp>

namespace uri_template_test {

using elicit::UriTemplate;
using Vars = std::map<std::string, std::string>;

TEST_CASE("A {var} matches one path segment and gives its percent-decoded value", "[uri_template]") {
  const UriTemplate t("test://template/{id}/data");
  REQUIRE(t.variables() == std::vector<std::string>{"id"});
  CHECK(t.match("test://template/123/data") == Vars{{"id", "123"}});
  CHECK(t.match("test://template/a%20b%2Fc/data") == Vars{{"id", "a b/c"}});
  CHECK(t.match("test://template/%zz%4/data") == Vars{{"id", "%zz%4"}});  // not escapes: kept as written
  CHECK_FALSE(t.match("test://template/1/2/data"));                       // '/' is not in a {var}
  CHECK_FALSE(t.match("test://template//data"));                          // empty
  CHECK_FALSE(t.match("test://template/123/data/more"));                  // the whole URI
  CHECK_FALSE(t.match("xtest://template/123/data"));
}

TEST_CASE("Literal text is matched literally, regex metacharacters included", "[uri_template]") {
  const UriTemplate t("db://a.b+c/(x)/{table}?q");
  CHECK(t.match("db://a.b+c/(x)/users?q") == Vars{{"table", "users"}});
  CHECK_FALSE(t.match("db://aXb+c/(x)/users?q"));
  CHECK_FALSE(t.match("db://a.bbc/(x)/users?q"));
  const UriTemplate fixed("test://static");
  CHECK(fixed.match("test://static") == Vars{});
  CHECK_FALSE(fixed.match("test://static2"));
}

TEST_CASE("A {+var} spans segments, several variables match in order", "[uri_template]") {
  const UriTemplate t("file:///{+path}");
  CHECK(t.match("file:///home/user/notes.txt") == Vars{{"path", "home/user/notes.txt"}});
  const UriTemplate two("repo://{owner}/{name}/blob/{+path}");
  REQUIRE(two.variables() == std::vector<std::string>{"owner", "name", "path"});
  CHECK(two.match("repo://acme/tool/blob/src/main.cpp") ==
        Vars{{"owner", "acme"}, {"name", "tool"}, {"path", "src/main.cpp"}});
  CHECK_FALSE(two.match("repo://acme/blob/src"));
}

TEST_CASE("Templates it cannot match are refused saying where and why", "[uri_template]") {
  const auto message = [](const std::string& text) {
    try {
      UriTemplate t(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(message("a/{id"), Catch::Contains("offset 2") && Catch::Contains("without '}'"));
  CHECK_THAT(message("a/id}"), Catch::Contains("offset 4") && Catch::Contains("without '{'"));
  CHECK_THAT(message("a/{}"), Catch::Contains("empty expression"));
  CHECK_THAT(message("a{/path}"), Catch::Contains("operator '/'"));
  CHECK_THAT(message("a{?q}"), Catch::Contains("operator '?'"));
  CHECK_THAT(message("a{#f}"), Catch::Contains("operator '#'"));
  CHECK_THAT(message("a/{x,y}"), Catch::Contains("one variable per expression"));
  CHECK_THAT(message("a/{x*}"), Catch::Contains("modifiers"));
  CHECK_THAT(message("a/{x:3}"), Catch::Contains("modifiers"));
  CHECK_THAT(message("a/{x-y}"), Catch::Contains("\"x-y\" is not an RFC 6570 variable name"));
  CHECK_THAT(message("a/{x..y}"), Catch::Contains("is not an RFC 6570 variable name"));
  CHECK_THAT(message("{id}/{id}"), Catch::Contains("\"id\" appears twice"));
  CHECK(message("a/{x.y}/{_z%41}") == "accepted");
}

TEST_CASE("Copies share the matcher and match alike", "[uri_template]") {
  const UriTemplate a("x://{v}");
  const UriTemplate b = a;
  CHECK(b.text() == "x://{v}");
  CHECK(b.match("x://1") == a.match("x://1"));
}

}  // namespace uri_template_test
