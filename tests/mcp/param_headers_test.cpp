// x-mcp-header (MCP 2026-07-28, server/tools; Streamable HTTP, "Custom Headers from Tool
// Parameters"): the annotations a tool may carry, the header value encoding, and the check of a
// call's Mcp-Param-* headers against its arguments.
#include <catch2/catch.hpp>

#include <map>
#include <utility>
#include <vector>

#include <elicit/protocol/param_headers.hpp>
#include <elicit/server.hpp>

namespace param_headers_test {

using elicit::ParamHeader;
using nlohmann::json;

namespace {

json object_with(const json& properties) { return {{"type", "object"}, {"properties", properties}}; }

std::string error_of(const json& schema) {
  try {
    elicit::param_headers_of(schema);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

struct Headers {
  std::map<std::string, std::string> fields;  // lower-case names
  std::function<std::optional<std::string_view>(std::string_view)> lookup() const {
    return [this](std::string_view name) -> std::optional<std::string_view> {
      std::string lower(name);
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const auto it = fields.find(lower);
      if (it == fields.end()) return std::nullopt;
      return std::string_view(it->second);
    };
  }
};

const json kSchema = object_with(
    {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
     {"count", {{"type", "integer"}, {"x-mcp-header", "Count"}}},
     {"dry", {{"type", "boolean"}, {"x-mcp-header", "Dry-Run"}}},
     {"target", {{"type", "object"}, {"properties", {{"zone", {{"type", "string"}, {"x-mcp-header", "Zone"}}}}}}},
     {"query", {{"type", "string"}}}});

std::optional<std::string> check(const json& arguments, std::map<std::string, std::string> fields) {
  static const auto annotations = elicit::param_headers_of(kSchema);
  Headers h{std::move(fields)};
  return elicit::check_param_headers(annotations, arguments, h.lookup());
}

}  // namespace

TEST_CASE("x-mcp-header: annotations are found along properties chains, with their paths and types", "[x-mcp-header]") {
  const auto found = elicit::param_headers_of(kSchema);
  REQUIRE(found.size() == 4);
  std::map<std::string, ParamHeader> by_name;
  for (const auto& f : found) by_name[f.name] = f;
  CHECK(by_name.at("Region").path == std::vector<std::string>{"region"});
  CHECK(by_name.at("Count").type == ParamHeader::Type::integer);
  CHECK(by_name.at("Dry-Run").type == ParamHeader::Type::boolean);
  CHECK(by_name.at("Zone").path == std::vector<std::string>{"target", "zone"});
  CHECK(elicit::param_headers_of({{"type", "object"}}).empty());
  // A property named x-mcp-header is a property, not an annotation.
  CHECK(elicit::param_headers_of(object_with({{"x-mcp-header", {{"type", "string"}}}})).empty());
}

TEST_CASE("x-mcp-header: each constraint of the spec refuses the schema and names the pointer", "[x-mcp-header]") {
  CHECK_THAT(error_of(object_with({{"a", {{"type", "string"}, {"x-mcp-header", ""}}}})),
             Catch::Contains("/properties/a/x-mcp-header") && Catch::Contains("non-empty"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "string"}, {"x-mcp-header", "Bad Name"}}}})),
             Catch::Contains("token"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "string"}, {"x-mcp-header", "A\r\nB"}}}})),
             Catch::Contains("token"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "string"}, {"x-mcp-header", 7}}}})), Catch::Contains("string"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                   {"b", {{"type", "string"}, {"x-mcp-header", "region"}}}})),
             Catch::Contains("already used"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "number"}, {"x-mcp-header", "A"}}}})), Catch::Contains("number"));
  CHECK_THAT(error_of(object_with({{"a", {{"type", "array"}, {"x-mcp-header", "A"}}}})), Catch::Contains("type"));
  CHECK_THAT(error_of(object_with({{"a", {{"x-mcp-header", "A"}}}})), Catch::Contains("type"));
  // Not statically reachable: items, composition, conditionals, $defs; and the root itself.
  CHECK_THAT(
      error_of(object_with({{"a", {{"type", "array"}, {"items", {{"type", "string"}, {"x-mcp-header", "A"}}}}}})),
      Catch::Contains("/properties/a/items/x-mcp-header"));
  CHECK_THAT(error_of({{"type", "object"}, {"oneOf", {{{"type", "string"}, {"x-mcp-header", "A"}}}}}),
             Catch::Contains("/oneOf/0/x-mcp-header"));
  CHECK_THAT(
      error_of({{"type", "object"}, {"if", {{"properties", {{"a", {{"type", "string"}, {"x-mcp-header", "A"}}}}}}}}),
      Catch::Contains("/if/properties/a/x-mcp-header"));
  CHECK_THAT(error_of({{"$defs", {{"d", {{"type", "string"}, {"x-mcp-header", "A"}}}}}}),
             Catch::Contains("/$defs/d/x-mcp-header"));
  CHECK_THAT(error_of({{"type", "string"}, {"x-mcp-header", "A"}}), Catch::Contains("reached from the root"));
}

TEST_CASE("x-mcp-header: Server::add_tool refuses a bad annotation and param_headers gives a tool's",
          "[x-mcp-header]") {
  elicit::Server server({"t", "1"});
  auto handler = [](elicit::RequestContext&) { return elicit::ToolResult::text("ok"); };
  CHECK_THROWS_WITH(
      server.add_tool(elicit::Tool::blocking("bad", handler)
                          .with_input_schema(object_with({{"a", {{"type", "number"}, {"x-mcp-header", "A"}}}}))),
      Catch::Contains("tool bad") && Catch::Contains("/properties/a/x-mcp-header"));
  CHECK(server.find_tool("bad") == nullptr);
  server.add_tool(elicit::Tool::blocking("good", handler).with_input_schema(kSchema));
  server.add_tool(elicit::Tool::blocking("plain", handler));
  REQUIRE(server.param_headers("good"));
  CHECK(server.param_headers("good")->size() == 4);
  CHECK(server.param_headers("plain") == nullptr);
  CHECK(server.remove_tool("good"));
  CHECK(server.param_headers("good") == nullptr);
}

TEST_CASE("x-mcp-header: header values decode as the spec's Value Encoding says", "[x-mcp-header]") {
  using elicit::decode_header_value;
  CHECK(decode_header_value("us-west1") == std::optional<std::string>("us-west1"));
  CHECK(decode_header_value("  us-west1\t") == std::optional<std::string>("us-west1"));  // OWS
  CHECK(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=") == std::optional<std::string>("Hello, 世界"));
  CHECK(decode_header_value("=?base64?IHBhZGRlZCA=?=") == std::optional<std::string>(" padded "));
  CHECK(decode_header_value("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=") == std::optional<std::string>("=?base64?literal?="));
  CHECK(decode_header_value("=?base64?"
                            "?=") == std::optional<std::string>(""));  // split: "??=" is a trigraph
  // Not the sentinel form: literal.
  CHECK(decode_header_value("SGVsbG8=") == std::optional<std::string>("SGVsbG8="));
  CHECK(decode_header_value("=?base64?SGVsbG8=") == std::optional<std::string>("=?base64?SGVsbG8="));
  // Invalid: padding missing, characters outside the alphabet, non-canonical last bits, not UTF-8,
  // raw bytes that are not ASCII.
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG8?="));
  CHECK_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG9=?="));
  CHECK_FALSE(decode_header_value("=?base64?/w==?="));
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG8sIOS\xc2lueVjA==?="));  // fuzz_headers: a byte libsodium took
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG8=a==?="));
  CHECK_FALSE(decode_header_value("caf\xc3\xa9"));
  CHECK_FALSE(decode_header_value("a\x01z"));
}

TEST_CASE("x-mcp-header: a call's headers must agree with its arguments", "[x-mcp-header]") {
  const json args = {{"region", "us-west1"}, {"count", 42}, {"dry", true}, {"target", {{"zone", "b"}}}, {"query", "q"}};
  const std::map<std::string, std::string> all = {{"mcp-param-region", "us-west1"},
                                                  {"mcp-param-count", "42"},
                                                  {"mcp-param-dry-run", "true"},
                                                  {"mcp-param-zone", "b"}};
  CHECK_FALSE(check(args, all));
  SECTION("integers compare numerically, Base64 is decoded") {
    auto h = all;
    h["mcp-param-count"] = "42.0";
    h["mcp-param-region"] = "=?base64?dXMtd2VzdDE=?=";
    CHECK_FALSE(check(args, h));
  }
  SECTION("a different value") {
    auto h = all;
    h["mcp-param-region"] = "eu-west1";
    CHECK_THAT(check(args, h).value_or(""), Catch::Contains("Mcp-Param-Region") && Catch::Contains("eu-west1"));
    h = all;
    h["mcp-param-count"] = "43";
    CHECK(check(args, h));
    h = all;
    h["mcp-param-dry-run"] = "TRUE";  // values are case-sensitive
    CHECK(check(args, h));
  }
  SECTION("a header missing while the body has the value") {
    auto h = all;
    h.erase("mcp-param-zone");
    CHECK_THAT(check(args, h).value_or(""), Catch::Contains("Mcp-Param-Zone header is required"));
  }
  SECTION("a header sent while the body has no value (absent or null)") {
    json a = args;
    a.erase("region");
    CHECK(check(a, all));
    a["region"] = nullptr;
    CHECK(check(a, all));
    auto h = all;
    h.erase("mcp-param-region");
    CHECK_FALSE(check(a, h));
  }
  SECTION("a header that does not decode") {
    auto h = all;
    h["mcp-param-region"] = "=?base64?dXMtd2VzdDE?=";
    CHECK_THAT(check(args, h).value_or(""), Catch::Contains("not valid Base64"));
  }
}

TEST_CASE("x-mcp-header: values are encoded as the spec's table says, and decode back", "[x-mcp-header][client]") {
  // Streamable HTTP, "Value Encoding", the encoding examples.
  CHECK(elicit::encode_header_value("us-west1") == "us-west1");
  CHECK(elicit::encode_header_value("Hello, \xe4\xb8\x96\xe7\x95\x8c") == "=?base64?SGVsbG8sIOS4lueVjA==?=");
  CHECK(elicit::encode_header_value(" padded ") == "=?base64?IHBhZGRlZCA=?=");
  CHECK(elicit::encode_header_value("line1\nline2") == "=?base64?bGluZTEKbGluZTI=?=");
  CHECK(elicit::encode_header_value("=?base64?literal?=") == "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  // Inner spaces are plain; a tab, one edge space, CR or DEL is not; the empty value stays empty.
  CHECK(elicit::encode_header_value("us west 1") == "us west 1");
  CHECK(elicit::encode_header_value("\tindented").rfind("=?base64?", 0) == 0);
  CHECK(elicit::encode_header_value(" us-west1").rfind("=?base64?", 0) == 0);
  CHECK(elicit::encode_header_value("us-west1 ").rfind("=?base64?", 0) == 0);
  CHECK(elicit::encode_header_value("a\rb").rfind("=?base64?", 0) == 0);
  CHECK(elicit::encode_header_value("a\x7f").rfind("=?base64?", 0) == 0);
  CHECK(elicit::encode_header_value("").empty());
  for (const std::string v : {"us-west1", " padded ", "line1\r\nline2", "\tx", "=?base64?literal?=", "",
                              "Hello, \xe4\xb8\x96\xe7\x95\x8c", "=?base64?", "?="}) {
    INFO(v);
    CHECK(elicit::decode_header_value(elicit::encode_header_value(v)) == v);
  }
}

TEST_CASE("x-mcp-header: a call's Mcp-Param fields, by type, nulls and absent values omitted",
          "[x-mcp-header][client]") {
  const auto annotations = elicit::param_headers_of(kSchema);
  using Fields = std::vector<std::pair<std::string, std::string>>;
  CHECK(elicit::param_header_fields(
            annotations, {{"region", "us-west1"}, {"count", 42}, {"dry", false}, {"target", {{"zone", "b"}}}}) ==
        // In the annotations' order: the schema's members, sorted.
        Fields{{"Mcp-Param-Count", "42"},
               {"Mcp-Param-Dry-Run", "false"},
               {"Mcp-Param-Region", "us-west1"},
               {"Mcp-Param-Zone", "b"}});
  // null and absent: no field; 42.0 is the integer 42; a negative integer in decimal.
  CHECK(elicit::param_header_fields(annotations, {{"region", nullptr}, {"count", 42.0}, {"target", nullptr}}) ==
        Fields{{"Mcp-Param-Count", "42"}});
  CHECK(elicit::param_header_fields(annotations, {{"count", -7}, {"dry", true}}) ==
        Fields{{"Mcp-Param-Count", "-7"}, {"Mcp-Param-Dry-Run", "true"}});
  CHECK(elicit::param_header_fields(annotations, json::object()).empty());
  CHECK(elicit::param_header_fields(annotations, {{"region", {{"an", "object"}}}}).empty());
  CHECK(elicit::param_header_fields(annotations, {{"region", "\xc3\xa9t\xc3\xa9"}}) ==
        Fields{{"Mcp-Param-Region", "=?base64?w6l0w6k=?="}});
}

TEST_CASE("x-mcp-header: what the client sends is what the server's check accepts", "[x-mcp-header][client]") {
  const auto annotations = elicit::param_headers_of(kSchema);
  for (const json& arguments :
       {json{{"region", "us-west1"}, {"count", 3}, {"dry", true}, {"target", {{"zone", "b"}}}},
        json{{"region", " Hello, \xe4\xb8\x96\xe7\x95\x8c\n"}, {"count", -9007199254740991}},
        json{{"region", "=?base64?x?="}, {"count", 7.0}, {"dry", nullptr}}, json{{"region", ""}}, json::object()}) {
    INFO(arguments.dump());
    Headers h;
    for (auto& [name, value] : elicit::param_header_fields(annotations, arguments)) {
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      h.fields[name] = value;
    }
    CHECK(elicit::check_param_headers(annotations, arguments, h.lookup()) == std::nullopt);
  }
}

}  // namespace param_headers_test
