// elicit::sax::read_content / read_accepted_response driven with a hand-written ContentReader:
// which texts are read straight through, and which are left to the DOM path.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include <elicit/content_reader.hpp>

namespace {

enum class Color { red, green };
constexpr std::array<elicit::EnumOption<Color>, 2> kColors{{{"r", "Red", Color::red}, {"g", "", Color::green}}};

struct Form {
  std::string name;                   // required
  std::optional<std::int64_t> count;  // optional
  double ratio = 0.5;                 // default
  std::optional<bool> flag;
  std::optional<Color> color;
  std::optional<std::vector<Color>> colors;
};

class FormReader final : public elicit::sax::ContentReader {
 public:
  explicit FormReader(Form& f) : f_(f) {}
  int field(std::string_view key) const override { return elicit::sax::find_field(kKeys, key); }
  bool set(int field, elicit::sax::Value& v) override {
    seen_[static_cast<std::size_t>(field)] = true;
    switch (field) {
      case 0:
        return elicit::sax::assign(f_.name, v);
      case 1:
        return elicit::sax::assign(f_.count, v);
      case 2:
        return elicit::sax::assign(f_.ratio, v);
      case 3:
        return elicit::sax::assign(f_.flag, v);
      case 4:
        return elicit::sax::assign(f_.color, v, kColors);
      case 5:
        return elicit::sax::assign(f_.colors, v, kColors);
      default:
        return false;
    }
  }
  bool complete() const override { return seen_[0]; }

 private:
  static constexpr std::array<elicit::sax::FieldKey, 6> kKeys{
      {{"color", 4}, {"colors", 5}, {"count", 1}, {"flag", 3}, {"name", 0}, {"ratio", 2}}};
  Form& f_;
  std::array<bool, 6> seen_{};
};

std::optional<Form> read(const std::string& text) {
  Form f;
  FormReader r(f);
  if (!elicit::sax::read_content(text, r)) return std::nullopt;
  return f;
}

}  // namespace

TEST_CASE("well-typed content is read straight into the value", "[content_reader]") {
  const auto f = read(R"({"colors":["g","r","g"],"name":"Ann","count":30.0,"ratio":2,"flag":true,"color":"r",
                          "other":{"deep":[[{"x":[]}]]},"more":[1,{"a":null}]})");
  REQUIRE(f);
  CHECK(f->name == "Ann");
  CHECK(f->count == 30);
  CHECK(f->ratio == 2.0);
  CHECK(f->flag == true);
  CHECK(f->color == Color::red);
  CHECK(f->colors == std::vector<Color>{Color::green, Color::red, Color::green});
  CHECK(read(R"({"name":""})"));
  CHECK(read(R"({"name":"a","count":-9223372036854775808,"count":9223372036854775807})")->count == INT64_MAX);
  CHECK(read(R"({"name":"a","colors":["r"],"colors":[]})")->colors->empty());
}

TEST_CASE("anything else is left to the DOM path", "[content_reader]") {
  for (const auto* text : {R"({})",  // required property missing
                           R"({"name":null})",
                           R"({"name":1})",
                           R"({"name":["a"]})",
                           R"({"name":{}})",
                           R"({"name":"a","count":30.5})",
                           R"({"name":"a","count":9223372036854775808})",
                           R"({"name":"a","count":"1"})",
                           R"({"name":"a","ratio":true})",
                           R"({"name":"a","flag":0})",
                           R"({"name":"a","color":"Red"})",
                           R"({"name":"a","color":["r"]})",
                           R"({"name":"a","colors":"r"})",
                           R"({"name":"a","colors":["r",1]})",
                           R"({"name":"a","colors":[["r"]]})",
                           R"({"name":"a","colors":[{}]})",
                           R"({"name":"a","colors":["x"]})",
                           R"([])",
                           R"("x")",
                           R"(null)",
                           "",
                           "{",
                           R"({"name":"a"} x)",
                           R"({"name":"a","count":1e400})",
                           "{\"name\":\"\xff\"}"}) {
    INFO(text);
    CHECK_FALSE(read(text));
  }
}

TEST_CASE("an accepted response's content is read; other responses are not", "[content_reader]") {
  const auto read_response = [](const std::string& text) {
    Form f;
    FormReader r(f);
    return elicit::sax::read_accepted_response(text, r) ? std::optional<Form>(f) : std::nullopt;
  };
  const auto ok = read_response(
      R"({"result":{"_meta":{"a":[{}]},"content":{"name":"Ann"},"action":"accept","x":1},"id":"7","jsonrpc":"2.0"})");
  REQUIRE(ok);
  CHECK(ok->name == "Ann");
  CHECK(read_response(R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ann"}}})"));
  for (const auto* text :
       {R"({"jsonrpc":"2.0","id":1,"result":{"action":"decline","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept"}})",
        R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":null}})",
        R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{}}})",
        R"({"jsonrpc":"2.0","result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"id":1,"result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":1.5,"result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":[1],"result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":1,"id":2,"result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":1,"error":{},"result":{"action":"accept","content":{"name":"Ann"}}})",
        R"({"jsonrpc":"2.0","id":1,"method":"m","result":{"action":"accept","content":{"name":"Ann"}}})",
        R"([{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ann"}}}])",
        R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ann"},"content":{"name":"B"}}})"}) {
    INFO(text);
    CHECK_FALSE(read_response(text));
  }
}
