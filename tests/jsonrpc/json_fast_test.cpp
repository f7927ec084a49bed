// The fast JSON path of the JSON-RPC layer (runtime/src/jsonrpc/json_fast.hpp) against nlohmann's own
// parser and serializer: whatever it accepts it must read into exactly nlohmann's document (types
// included: unsigned, signed and floating numbers), and what it writes must be nlohmann's bytes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "json_fast.hpp"

namespace json_fast_test {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Equal values of equal types, all the way down (nlohmann's == says 1 == 1u == 1.0).
bool same(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
        if (x.key() != y.key() || !same(x.value(), y.value())) return false;
      }
      return true;
    }
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!same(a[i], b[i])) return false;
      }
      return true;
    }
    case json::value_t::number_float: {
      const double x = a.get<double>();
      const double y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a == b;
  }
}

struct Reference {
  bool ok = false;
  json value;
};

Reference nlohmann_parse(const std::string& text) {
  Reference r;
  try {
    r.value = json::parse(text);
    r.ok = true;
  } catch (const json::exception&) {
  }
  return r;
}

// Checks one text; returns whether the fast path took it.
bool check_text(const std::string& text) {
  json fast;
  const bool taken = elicit::jsonrpc::detail::parse_plain_json(text, fast);
  if (!taken) return false;
  const auto ref = nlohmann_parse(text);
  INFO("text: " << text);
  REQUIRE(ref.ok);
  REQUIRE(same(fast, ref.value));
  return true;
}

template <class Json>
void check_dump(const Json& j) {
  std::string fast = "prefix";
  elicit::jsonrpc::detail::append_dump(fast, j);
  const auto ref = "prefix" + j.dump(-1, ' ', false, json::error_handler_t::replace);
  REQUIRE(fast == ref);
  // Strict, as dump() with no arguments: the same bytes, or the same type_error.
  std::string strict_fast = "prefix", strict_ref = "prefix";
  std::string fast_error = "none", ref_error = "none";
  try {
    elicit::jsonrpc::detail::append_dump(strict_fast, j, json::error_handler_t::strict);
  } catch (const json::type_error& e) {
    fast_error = e.what();
  }
  try {
    strict_ref += j.dump();
  } catch (const json::type_error& e) {
    ref_error = e.what();
  }
  REQUIRE(fast_error == ref_error);
  if (ref_error == "none") REQUIRE(strict_fast == strict_ref);
}

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string string_value() {
    static const std::vector<std::string> pieces{"a",
                                                 "name",
                                                 "Monalisa Octocat",
                                                 " ",
                                                 "\"",
                                                 "\\",
                                                 "/",
                                                 "\b",
                                                 "\f",
                                                 "\n",
                                                 "\r",
                                                 "\t",
                                                 std::string(1, '\0'),
                                                 "\x01",
                                                 "\x1f",
                                                 "\x7f",
                                                 "é",
                                                 "€",
                                                 "😀",
                                                 "\xC3",
                                                 "\xE2\x82",
                                                 "\xED\xA0\x80",
                                                 "\xF4\x90\x80\x80",
                                                 "\xC0\x80",
                                                 "\xFF",
                                                 "0123456789abcdef"};
    std::string s;
    const int n = pick(6);
    for (int i = 0; i < n; ++i) s += pieces[static_cast<std::size_t>(pick(static_cast<int>(pieces.size())))];
    return s;
  }

  template <class Json>
  Json value(int depth) {
    const int kind = depth > 5 ? pick(6) : pick(8);
    switch (kind) {
      case 0:
        return nullptr;
      case 1:
        return pick(2) == 0;
      case 2: {
        static const std::vector<std::int64_t> ints{0, 1, -1, 30, -30, INT64_MAX, INT64_MIN, 1 << 20};
        return ints[static_cast<std::size_t>(pick(static_cast<int>(ints.size())))];
      }
      case 3: {
        static const std::vector<std::uint64_t> uints{0, 18, UINT64_MAX, 1ULL << 63};
        return uints[static_cast<std::size_t>(pick(static_cast<int>(uints.size())))];
      }
      case 4: {
        static const std::vector<double> doubles{0.0, -0.0, 30.0, 30.5, 1e300, -1e-300, 5e-324, 0.1, 1.0 / 3, 2e22};
        return doubles[static_cast<std::size_t>(pick(static_cast<int>(doubles.size())))];
      }
      case 5:
        return string_value();
      case 6: {
        Json a = Json::array();
        const int n = pick(4);
        for (int i = 0; i < n; ++i) a.push_back(value<Json>(depth + 1));
        return a;
      }
      default: {
        Json o = Json::object();
        const int n = pick(4);
        for (int i = 0; i < n; ++i) o[string_value()] = value<Json>(depth + 1);
        return o;
      }
    }
  }

  // JSON text for a random document: nlohmann's own dump (valid UTF-8 only), with whitespace
  // sprinkled between tokens.
  std::string text() {
    std::string t;
    const auto doc = value<json>(0);
    std::string dumped;
    try {
      dumped = doc.dump();
    } catch (const json::exception&) {
      dumped = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    bool in_string = false;
    for (std::size_t i = 0; i < dumped.size(); ++i) {
      const char c = dumped[i];
      t += c;
      if (in_string) {
        if (c == '\\') {
          t += dumped[++i];
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') in_string = true;
      if ((c == ',' || c == ':' || c == '[' || c == '{') && pick(4) == 0) t += " \n\t\r"[pick(4)];
    }
    return t;
  }

  std::string mutate(std::string t) {
    static const char kBytes[] = "{}[]\":,\\ -+.eE0123456789tfnul\x00\xEF\xC3\xED\x7f";
    static const std::string bytes(kBytes, sizeof kBytes - 1);
    const int edits = 1 + pick(3);
    for (int e = 0; e < edits; ++e) {
      const auto at = t.empty() ? 0 : static_cast<std::size_t>(pick(static_cast<int>(t.size())));
      const char b = bytes[static_cast<std::size_t>(pick(static_cast<int>(bytes.size())))];
      switch (pick(3)) {
        case 0:
          if (!t.empty()) t[at] = b;
          break;
        case 1:
          t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), b);
          break;
        default:
          if (!t.empty()) t.erase(at, 1);
          break;
      }
    }
    return t;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace

TEST_CASE("the fast JSON reader gives nlohmann's document or leaves the text to nlohmann", "[json_fast]") {
  const std::vector<std::string> edges{
      "",
      " ",
      "{}",
      "[]",
      "null",
      "true",
      "false",
      "nul",
      "truex",
      "0",
      "-0",
      "-",
      "01",
      "1.",
      ".5",
      "1e",
      "1e5",
      "1E+5",
      "-1.5e-3",
      "30.0",
      "1e400",
      "-1e400",
      "1e-400",
      "5e-324",
      "18446744073709551615",
      "18446744073709551616",
      "-9223372036854775808",
      "-9223372036854775809",
      R"("\u0000")",
      R"("\ud83d\ude00")",
      R"("\ud83d")",
      R"("\ude00")",
      R"("\ud83dx")",
      R"("\ud83d\u0041")",
      R"("\u12")",
      R"("\u00e9\u00E9")",
      R"("\x")",
      "\"a\tb\"",
      "\"\x7f\"",
      "\xEF\xBB\xBF{}",
      std::string("{}\0x", 4),
      std::string("\0", 1),
      R"({"a":1,"a":2})",
      " {\"a\" : [1 , 2 ] } \n",
      "{,}",
      "[1,]",
      R"({"a"})",
      R"({"a":})",
      "[1 2]",
      R"("\/")",
      "\"\xC0\x80\"",
      "\"\xED\xA0\x80\"",
      "\"\xF4\x90\x80\x80\"",
      "\"\xE2\x82\"",
      "\"é€😀\"",
      "\"\xF0\x9F\x98\"",
      R"({"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form"}})",
      "[] []",
      "{}}",
      "\"",
      R"("abc)",
      "[",
      "{\"a\":1,}",
      "+1",
      "0x10",
      "1.5E",
      "-01",
      "2.",
      "[-]",
      "[tru]",
      "[nulll]"};
  int taken = 0;
  for (const auto& t : edges) taken += check_text(t) ? 1 : 0;
  CHECK(taken > 20);

  // Nesting: the fast path takes 64 levels and leaves deeper ones to the checked path.
  CHECK(check_text(std::string(64, '[') + std::string(64, ']')));
  CHECK_FALSE(check_text(std::string(65, '[') + std::string(65, ']')));

  Generator g(20261123);
  int valid_taken = 0;
  int mutated_taken = 0;
  constexpr int kTexts = 20000;
  for (int i = 0; i < kTexts; ++i) {
    const auto text = g.text();
    valid_taken += check_text(text) ? 1 : 0;
    for (int m = 0; m < 4; ++m) mutated_taken += check_text(g.mutate(text)) ? 1 : 0;
  }
  // Every valid text of this shape (well-formed UTF-8, shallow) is the fast path's to read.
  CHECK(valid_taken == kTexts);
  CHECK(mutated_taken > 0);
}

TEST_CASE("the fast JSON writer gives nlohmann's bytes", "[json_fast]") {
  check_dump(json());
  check_dump(json::object());
  check_dump(json::array());
  check_dump(json("\xFF invalid UTF-8 \xC3"));
  check_dump(json(std::string("nul \0 inside", 12)));
  check_dump(json(-0.0));
  check_dump(json(std::nan("")));
  check_dump(json(INT64_MIN));
  check_dump(json(UINT64_MAX));
  check_dump(json::binary({1, 2, 3}));
  check_dump(ordered_json{{"z", 1}, {"a", {{"y", "é"}, {"b", nullptr}}}, {"m", ordered_json::array({1.5, "x\n"})}});
  Generator g(7);
  for (int i = 0; i < 20000; ++i) {
    check_dump(g.value<json>(0));
    check_dump(g.value<ordered_json>(0));
  }
}

namespace {

// The envelope the fast path read must be what the document says, member by member.
bool check_envelope(const std::string& text) {
  elicit::jsonrpc::detail::PlainEnvelope e;
  if (!elicit::jsonrpc::detail::parse_plain_envelope(text, e)) return false;
  const auto ref = nlohmann_parse(text);
  INFO("text: " << text);
  REQUIRE(ref.ok);
  REQUIRE(ref.value.is_object());
  const auto& j = ref.value;
  auto has = [&](const char* key) { return j.find(key) != j.end(); };
  CHECK(e.jsonrpc_2_0 == (has("jsonrpc") && j["jsonrpc"].is_string() && j["jsonrpc"] == "2.0"));
  CHECK(e.has_id == has("id"));
  if (e.has_id) CHECK(same(e.id, j["id"]));
  CHECK(e.has_method == has("method"));
  if (e.has_method) {
    CHECK(e.method_is_string == j["method"].is_string());
    if (e.method_is_string) CHECK(e.method == j["method"].get<std::string>());
  }
  CHECK(e.has_params == has("params"));
  if (e.has_params) CHECK(same(e.params, j["params"]));
  CHECK(e.has_result == has("result"));
  if (e.has_result) CHECK(same(e.result, j["result"]));
  CHECK(e.has_error == has("error"));
  if (e.has_error) CHECK(same(e.error, j["error"]));
  return true;
}

}  // namespace

TEST_CASE("the fast JSON-RPC envelope reader agrees with the document, member by member", "[json_fast]") {
  const std::vector<std::string> edges{"{}",
                                       " { } ",
                                       "[]",
                                       "1",
                                       R"("x")",
                                       R"({"jsonrpc":"2.0","id":1,"method":"ping"})",
                                       R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{}})",
                                       R"({"jsonrpc":"2.0","id":"a","result":{}})",
                                       R"({"jsonrpc":"2.0","id":-5,"error":{"code":-32601,"message":"x"}})",
                                       R"({"jsonrpc":"2.0","method":"n"})",
                                       R"({"jsonrpc":"2\u002e0","id":1,"method":"ping"})",
                                       R"({"jsonrpc":2.0,"id":1})",
                                       R"({"jsonrpc":"2.0 ","id":1})",
                                       R"({"jsonrpc":"2.0","id":1,"id":2,"method":"x"})",
                                       R"({"jsonrpc":"2.0","jsonrpc":"1.0"})",
                                       R"({"jsonrpc":"2.0","method":7})",
                                       R"({"jsonrpc":"2.0","method":"a\nb"})",
                                       R"({"x":1,"x":2,"jsonrpc":"2.0"})",
                                       R"({"jsonrpc":"2.0","id":null,"result":null,"extra":[1,{"a":[]}]})",
                                       "{\"jsonrpc\":\"2.0\"} x",
                                       "\xEF\xBB\xBF{}",
                                       R"({"jsonrpc":"2.0",})",
                                       R"({"jsonrpc" "2.0"})",
                                       R"({"id":18446744073709551615})"};
  int taken = 0;
  for (const auto& t : edges) taken += check_envelope(t) ? 1 : 0;
  CHECK(taken > 10);

  Generator g(11);
  const std::vector<std::string> keys{"jsonrpc", "id", "method", "params", "result", "error", "other"};
  int generated_taken = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = "{";
    const int n = g.pick(5);
    for (int m = 0; m < n; ++m) {
      if (m > 0) text += ",";
      const auto& key = keys[static_cast<std::size_t>(g.pick(static_cast<int>(keys.size())))];
      text += "\"" + key + "\":";
      if (key == "jsonrpc" && g.pick(2) == 0) {
        text += "\"2.0\"";
      } else if (key == "method" && g.pick(2) == 0) {
        text += "\"elicitation/create\"";
      } else {
        text += g.text();
      }
    }
    text += "}";
    generated_taken += check_envelope(text) ? 1 : 0;
    for (int m = 0; m < 2; ++m) check_envelope(g.mutate(text));
  }
  CHECK(generated_taken > 10000);
}

namespace {

// With params' _meta apart: the same answer as without, and the params with _meta put back from its
// text are the document's params. pick_members on that text gives the document's members.
void check_meta_apart(const std::string& text) {
  using elicit::jsonrpc::detail::parse_plain_envelope;
  using elicit::jsonrpc::detail::pick_members;
  elicit::jsonrpc::detail::PlainEnvelope whole, apart;
  const bool whole_ok = parse_plain_envelope(text, whole);
  const bool apart_ok = parse_plain_envelope(text, apart, true);
  INFO("text: " << text);
  REQUIRE(whole_ok == apart_ok);
  if (!apart_ok) return;
  CHECK(whole.params_meta.empty());
  REQUIRE(apart.has_params == whole.has_params);
  if (!apart.has_params) return;
  auto params = apart.params;
  if (!apart.params_meta.empty()) {
    REQUIRE(params.is_object());
    CHECK_FALSE(params.contains("_meta"));
    const auto meta = json::parse(apart.params_meta);  // the text is exactly the member's value
    REQUIRE(meta.is_object());
    params["_meta"] = meta;

    static constexpr std::string_view keys[] = {"a", "_meta", "io.modelcontextprotocol/protocolVersion"};
    json values[3];
    bool found[3];
    REQUIRE(pick_members(apart.params_meta, keys, 3, values, found));
    for (std::size_t i = 0; i < 3; ++i) {
      const auto it = meta.find(std::string(keys[i]));
      CHECK(found[i] == (it != meta.end()));
      if (found[i] && it != meta.end()) CHECK(same(values[i], *it));
    }
  }
  CHECK(same(params, whole.params));
}

}  // namespace

TEST_CASE("the envelope reader keeps params' _meta apart as its text, and pick_members reads that text",
          "[json_fast]") {
  const std::vector<std::string> edges{
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1,"b":[true,null]},"name":"x"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":"text"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1},"_meta":"last"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":"first","_meta":{"a":2}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1},"_meta":{"a":3}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"x":{"_meta":{"a":1}}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":[{"_meta":{}}]})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1,"a":2,"io.modelcontextprotocol\/protocolVersion":"v"}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"\u005fmeta":{"a":"\u00e9"}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":"\ud800"}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":1e999}}})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":[1,2}}})",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"_meta\":{\"a\":\"\xC3\"}}}",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":{ "_meta" : { "_meta" : { } } , "b" : 1 }})"};
  for (const auto& t : edges) check_meta_apart(t);

  // The text kept is the member's value as it came, spaces inside included.
  elicit::jsonrpc::detail::PlainEnvelope e;
  REQUIRE(elicit::jsonrpc::detail::parse_plain_envelope(
      R"({"params":{"_meta": { "a" : [ 1 ] } ,"b":2},"jsonrpc":"2.0"})", e, true));
  CHECK(e.params_meta == R"({ "a" : [ 1 ] })");
  CHECK(e.params == json{{"b", 2}});

  Generator g(12);
  const std::vector<std::string> keys{"_meta", "a", "io.modelcontextprotocol/protocolVersion", "name"};
  for (int i = 0; i < 5000; ++i) {
    std::string params = "{";
    const int n = g.pick(4);
    for (int m = 0; m < n; ++m) {
      if (m > 0) params += ",";
      const auto& key = keys[static_cast<std::size_t>(g.pick(static_cast<int>(keys.size())))];
      params += "\"" + key + "\":";
      if (key == "_meta" && g.pick(3) != 0) {
        std::string meta = "{";
        const int k = g.pick(4);
        for (int j = 0; j < k; ++j) {
          if (j > 0) meta += ",";
          meta += "\"" + keys[static_cast<std::size_t>(g.pick(static_cast<int>(keys.size())))] + "\":" + g.text();
        }
        params += meta + "}";
      } else {
        params += g.text();
      }
    }
    params += "}";
    const std::string text = R"({"jsonrpc":"2.0","id":1,"method":"m","params":)" + params + "}";
    check_meta_apart(text);
    check_meta_apart(g.mutate(text));
  }
}

TEST_CASE("dispose leaves an empty container of the same type, at any depth", "[json_fast]") {
  Generator g(5);
  for (int i = 0; i < 2000; ++i) {
    auto j = g.value<json>(0);
    const auto type = j.type();
    elicit::jsonrpc::detail::dispose(j);
    CHECK(j.type() == type);
    if (j.is_structured()) CHECK(j.empty());
  }
  json deep = json::array();
  json* at = &deep;
  for (int i = 0; i < 200; ++i) at = &(at->emplace_back(json::object())["k"] = json::array());
  elicit::jsonrpc::detail::dispose(deep);  // the 64 levels it takes apart; the destructor does the rest
  CHECK(deep.empty());
}

TEST_CASE("parse_json gives nlohmann's document, by the fast path or nlohmann's, and nlohmann's errors",
          "[json_fast]") {
  using elicit::jsonrpc::detail::parse_json;
  const std::string plain = R"({"a":[1,-2,3.5,"x\u00e9",true,null],"b":{"c":{}}})";
  CHECK(parse_json(plain) == json::parse(plain));
  // Texts the fast path leaves to nlohmann: a byte order mark, a number beyond double's exact range.
  const std::string bom = "\xEF\xBB\xBF{\"k\":1}";
  CHECK(parse_json(bom) == json::parse(bom));
  const std::string big = R"({"n":123456789012345678901234567890})";
  CHECK(parse_json(big) == json::parse(big));
  CHECK_THROWS_AS(parse_json(R"({"a":)"), json::parse_error);
  CHECK_THROWS_AS(parse_json(""), json::parse_error);
}

}  // namespace json_fast_test
