// The URL-mode page (html_form.hpp): rendering every sample schema, golden pages, escaping, the
// decoding of browser submissions, and the round trip page -> browser -> decode -> validate. The
// "browser" here is a small scraper that submits a page's controls the way HTML's form submission
// algorithm does (checked boxes and radios only, selected options, the pressed button).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <elicit/content/form_defaults.hpp>
#include <elicit/content/sensitive.hpp>
#include <elicit/forms/html_form.hpp>
#include <elicit/http/form_urlencoded.hpp>
#include "test_paths.hpp"

namespace html_form_test {

using namespace elicit;
using nlohmann::json;
using nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string unescape(std::string s) {
  static const std::pair<const char*, const char*> kEntities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : kEntities) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
      s.replace(at, std::strlen(from), to);
  }
  return s;
}

std::string form_component(const std::string& text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '*') {
      out += c;
    } else if (c == ' ') {
      out += '+';  // as browsers encode a space
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

// One start tag: its name and attributes (values unescaped; a bare attribute has value "").
struct Tag {
  std::string name;
  std::map<std::string, std::string> attrs;
  bool has(const std::string& a) const { return attrs.count(a) > 0; }
  std::string get(const std::string& a) const { return has(a) ? attrs.at(a) : std::string(); }
};

// The start tags of `html` in order. Enough for the pages forms::render_form_page writes (double-quoted
// attributes, no comments); not an HTML parser.
std::vector<Tag> tags(const std::string& html) {
  std::vector<Tag> out;
  for (std::size_t i = html.find('<'); i != std::string::npos; i = html.find('<', i + 1)) {
    if (i + 1 >= html.size() || !std::isalpha(static_cast<unsigned char>(html[i + 1]))) continue;
    Tag t;
    std::size_t j = i + 1;
    while (j < html.size() && std::isalnum(static_cast<unsigned char>(html[j]))) t.name += html[j++];
    for (;;) {
      while (j < html.size() && html[j] == ' ') ++j;
      if (j >= html.size() || html[j] == '>') break;
      std::string name;
      while (j < html.size() && html[j] != '=' && html[j] != ' ' && html[j] != '>') name += html[j++];
      std::string value;
      if (j < html.size() && html[j] == '=') {
        REQUIRE(html[j + 1] == '"');
        const auto end = html.find('"', j + 2);
        value = unescape(html.substr(j + 2, end - j - 2));
        j = end + 1;
      }
      t.attrs[name] = value;
    }
    out.push_back(std::move(t));
  }
  return out;
}

// What a browser sends when `button` (the value of a submit button) is pressed: HTML's "constructing
// the entry list" for the controls the pages use.
std::string browser_submit(const std::string& html, const std::string& button) {
  std::vector<std::pair<std::string, std::string>> entries;
  const auto all = tags(html);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& t = all[i];
    if (t.name == "input") {
      const auto type = t.get("type");
      if ((type == "checkbox" || type == "radio") && !t.has("checked")) continue;
      entries.emplace_back(t.get("name"), t.has("value") ? t.get("value") : (type == "checkbox" ? "on" : ""));
    } else if (t.name == "button") {
      if (t.get("value") == button) entries.emplace_back(t.get("name"), t.get("value"));
    } else if (t.name == "select") {
      // The selected option, else the first (a single select always sends one).
      std::optional<std::string> first, chosen;
      for (std::size_t k = i + 1; k < all.size() && all[k].name == "option"; ++k) {
        if (!first) first = all[k].get("value");
        if (all[k].has("selected")) chosen = all[k].get("value");
      }
      entries.emplace_back(t.get("name"), chosen ? *chosen : first.value_or(""));
    }
  }
  // Buttons come last in the page; browsers send entries in tree order, and so does this.
  std::string body;
  for (const auto& [n, v] : entries) body += (body.empty() ? "" : "&") + form_component(n) + "=" + form_component(v);
  return body;
}

std::vector<std::pair<std::string, Form>> sample_forms() {
  std::vector<std::pair<std::string, Form>> out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(SOURCE_DIR) / "samples" / "schemas")) files.push_back(e.path());
  // The generator's lint schema of secrets: the page masks what the generator warns about.
  files.push_back(fs::path(SOURCE_DIR) / "tests" / "schemas" / "lint" / "secrets.json");
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto doc = ordered_json::parse(read_file(file));
    auto add = [&](const std::string& name, const ordered_json& entry) {
      const auto& schema = entry.contains("requestedSchema") ? entry["requestedSchema"] : entry;
      auto parsed = parse_requested_schema(schema);
      REQUIRE(parsed.ok());
      out.emplace_back(name, std::move(parsed.form));
    };
    if (doc.contains("requestedSchema")) {
      add(file.filename().string(), doc);
    } else {
      for (const auto& [k, v] : doc.items()) add(file.filename().string() + "#" + k, v);
    }
  }
  return out;
}

const Tag* by_id(const std::vector<Tag>& all, const std::string& id) {
  for (const auto& t : all) {
    if (t.get("id") == id) return &t;
  }
  return nullptr;
}

Form form_of(const char* schema) {
  auto parsed = parse_requested_schema(ordered_json::parse(schema));
  REQUIRE(parsed.ok());
  return parsed.form;
}

// Every kind of field, each with a value that a browser can hold exactly (no secret: its value is
// never shown).
const char* const kEveryKind = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 20},
    "email": {"type": "string", "format": "email"},
    "site": {"type": "string", "format": "uri"},
    "born": {"type": "string", "format": "date"},
    "meeting": {"type": "string", "format": "date-time"},
    "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
    "age": {"type": "integer", "minimum": 0, "maximum": 150},
    "ratio": {"type": "number", "minimum": 0.5},
    "subscribe": {"type": "boolean"},
    "agree": {"type": "boolean"},
    "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
    "month": {"type": "string", "enum": ["jan", "feb", "mar", "apr", "may", "jun", "jul"]},
    "tags": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"},
                                                  {"const": "c", "title": "C"}]}, "minItems": 1, "maxItems": 2}
  },
  "required": ["name", "agree", "size", "month"]
})";

}  // namespace

TEST_CASE("every sample schema renders a labelled input per property, no script", "[html_form]") {
  const auto forms = sample_forms();
  CHECK(forms.size() >= 14);
  std::size_t secrets = 0;
  for (const auto& [name, form] : forms) {
    INFO(name);
    forms::FormPage page{form};
    page.message = "Message of " + name;
    page.values = form_defaults(form);
    page.csrf_token = "tok-123";
    page.action = "/submit";
    // An error on every field, to see each wired to its field.
    for (const auto& f : form.fields) page.errors.add("/" + f.name, "x", "bad " + f.name);
    const auto html = forms::render_form_page(page);
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find(" style=") == std::string::npos);  // inline style attributes break the CSP
    CHECK(html.find("<meta name=\"viewport\"") != std::string::npos);
    CHECK(html.find("prefers-color-scheme:dark") != std::string::npos);
    const auto all = tags(html);
    std::set<std::string> ids;
    for (const auto& t : all) {
      if (t.has("id")) CHECK(ids.insert(t.get("id")).second);  // unique
    }
    for (const auto& t : all) {
      // Every id that aria-describedby or a label names exists.
      std::istringstream described(t.get("aria-describedby"));
      for (std::string ref; described >> ref;) CHECK(ids.count(ref));
      if (t.name == "label") CHECK(ids.count(t.get("for")));
    }
    for (const auto& t : all) {
      // Nothing is loaded: no resource elements, no src, and links only within the page.
      CHECK_FALSE(t.has("src"));
      CHECK(std::set<std::string>{"script", "link", "img", "iframe", "object", "embed"}.count(t.name) == 0);
      if (t.has("href")) CHECK(t.get("href").rfind("#", 0) == 0);
    }
    CHECK(std::count_if(all.begin(), all.end(), [](const Tag& t) {
            return t.name == "input" && t.get("type") == "hidden" && t.get("name") == "csrf" &&
                   t.get("value") == "tok-123";
          }) == 1);
    CHECK(std::count_if(all.begin(), all.end(), [](const Tag& t) { return t.name == "form"; }) == 1);
    const auto form_tag = std::find_if(all.begin(), all.end(), [](const Tag& t) { return t.name == "form"; });
    CHECK(form_tag->get("action") == "/submit");
    CHECK(form_tag->get("method") == "post");
    std::set<std::string> buttons;
    for (const auto& t : all) {
      if (t.name == "button") {
        CHECK(t.get("name") == "action");
        CHECK(t.get("type") == "submit");
        CHECK(t.has("formnovalidate") == (t.get("value") != "accept"));
        buttons.insert(t.get("value"));
      }
    }
    CHECK(buttons == std::set<std::string>{"accept", "decline", "cancel"});
    const auto problems = form.fields.size() == 1 ? std::string("There is a problem")
                                                  : "There are " + std::to_string(form.fields.size()) + " problems";
    CHECK((html.find(problems) != std::string::npos) == !form.fields.empty());

    for (std::size_t i = 0; i < form.fields.size(); ++i) {
      const auto& f = form.fields[i];
      INFO(f.name);
      const std::string id = "f" + std::to_string(i);
      std::vector<const Tag*> controls;
      for (const auto& t : all) {
        if ((t.name == "input" || t.name == "select") && t.get("name") == f.name && t.get("type") != "hidden") {
          controls.push_back(&t);
        }
      }
      REQUIRE_FALSE(controls.empty());
      // Each control has a label whose for= is its id.
      for (const auto* c : controls) {
        const auto id_of = c->get("id");
        CHECK(std::any_of(all.begin(), all.end(),
                          [&](const Tag& t) { return t.name == "label" && t.get("for") == id_of; }));
      }
      const std::string label = escape(f.title ? *f.title : f.name);
      CHECK(html.find(label) != std::string::npos);
      if (f.description) CHECK(html.find(escape(*f.description)) != std::string::npos);
      // The error text, referenced from the field.
      const auto* error = by_id(all, id + "-error");
      REQUIRE(error != nullptr);
      CHECK(html.find(">bad " + escape(f.name) + "</p>") != std::string::npos);
      // A group (radios, checkboxes) is described on its fieldset, a single control on itself.
      const Tag* fieldset = by_id(all, id);
      REQUIRE(fieldset != nullptr);
      const Tag* described = fieldset->name == "fieldset" ? fieldset : controls.front();
      CHECK(described->get("aria-describedby").find(id + "-error") != std::string::npos);
      for (const auto* c : controls) CHECK(c->get("aria-invalid") == "true");
      // The summary links to the first control of the field.
      CHECK(html.find("<a href=\"#" + controls.front()->get("id") + "\">") != std::string::npos);

      switch (f.kind) {
        case FieldKind::string: {
          REQUIRE(controls.size() == 1);
          const auto type = controls[0]->get("type");
          if (looks_secret(f)) {
            ++secrets;
            CHECK(type == "password");
            CHECK(controls[0]->get("autocomplete") == "off");
          } else if (f.format == StringFormat::email) {
            CHECK(type == "email");
          } else if (f.format == StringFormat::uri) {
            CHECK(type == "url");
          } else if (f.format == StringFormat::date) {
            CHECK(type == "date");
          } else if (f.format == StringFormat::date_time) {
            CHECK(type == "datetime-local");
          } else {
            CHECK(type == "text");
          }
          if (f.max_length) CHECK(controls[0]->get("maxlength") == std::to_string(*f.max_length));
          if (f.min_length && *f.min_length > 0) CHECK(controls[0]->get("minlength") == std::to_string(*f.min_length));
          CHECK(controls[0]->has("required") == f.required);
          if (f.default_value && !looks_secret(f) && f.format != StringFormat::date_time) {
            CHECK(controls[0]->get("value") == f.default_value->get<std::string>());
          }
          break;
        }
        case FieldKind::integer:
        case FieldKind::number:
          REQUIRE(controls.size() == 1);
          CHECK(controls[0]->get("type") == "number");
          CHECK(controls[0]->get("step") == (f.kind == FieldKind::integer ? "1" : "any"));
          if (f.minimum) CHECK(!controls[0]->get("min").empty());
          if (f.maximum) CHECK(!controls[0]->get("max").empty());
          if (f.default_value) CHECK(json::parse(controls[0]->get("value")) == json(*f.default_value));
          break;
        case FieldKind::boolean:
          if (f.required) {
            REQUIRE(controls.size() == 2);
            CHECK(controls[0]->get("type") == "radio");
            CHECK(controls[0]->has("required"));
          } else {
            REQUIRE(controls.size() == 1);
            CHECK(controls[0]->get("type") == "checkbox");
            CHECK(controls[0]->get("value") == "true");
            CHECK(controls[0]->has("checked") == (f.default_value && f.default_value->get<bool>()));
          }
          break;
        case FieldKind::single_select:
        case FieldKind::multi_select: {
          std::set<std::string> values;
          if (controls[0]->name == "select") {
            CHECK(f.options.size() > 5);
            for (std::size_t k = 0; k < all.size(); ++k) {
              if (&all[k] != controls[0]) continue;
              for (std::size_t m = k + 1; m < all.size() && all[m].name == "option"; ++m) {
                if (!all[m].get("value").empty()) values.insert(all[m].get("value"));
              }
            }
          } else {
            for (const auto* c : controls) {
              CHECK(c->get("type") == (f.kind == FieldKind::single_select ? "radio" : "checkbox"));
              values.insert(c->get("value"));
            }
            REQUIRE(by_id(all, id) != nullptr);
            CHECK(by_id(all, id)->name == "fieldset");
          }
          std::set<std::string> expected;
          for (const auto& o : f.options) {
            expected.insert(o.value);
            CHECK(html.find(">" + escape(o.title ? *o.title : o.value) + "</") != std::string::npos);
          }
          CHECK(values == expected);
          break;
        }
      }
      // The required marker is shown with the label or legend of a required field.
      if (f.required)
        CHECK(html.find(label + " <span class=\"req\" aria-hidden=\"true\">*</span>") != std::string::npos);
    }
  }
  CHECK(secrets >= 2);  // password and apiKey of secrets.json, at least
}

TEST_CASE("the pages match their golden files", "[html_form][golden]") {
  // Each case is tests/forms/pages/<name>/: the page's input <name>.json and the expected
  // <name>.html next to it. ELICITGEN_UPDATE_GOLDEN=1 refreshes the HTML (the generator's golden
  // files use the same variable).
  const fs::path root = fs::path(SOURCE_DIR) / "tests" / "forms" / "pages";
  const bool update = std::getenv("ELICITGEN_UPDATE_GOLDEN") != nullptr;
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  CHECK(cases.size() >= 2);
  for (const auto& dir : cases) {
    const auto name = dir.filename().string();
    INFO(name);
    const auto input = ordered_json::parse(read_file(dir / (name + ".json")));
    auto parsed = parse_requested_schema(input.at("requestedSchema"));
    REQUIRE(parsed.ok());
    forms::FormPage page{parsed.form};
    page.title = input.value("title", "");
    page.message = input.value("message", "");
    page.values = input.contains("values") ? json(input["values"]) : form_defaults(parsed.form);
    for (const auto& e : input.value("errors", ordered_json::array())) {
      page.errors.add(e.at("pointer"), e.at("keyword"), e.at("message"));
    }
    // "validate": the errors are validate_content()'s on the values, each with its catalog text, so
    // that the page says them in its language.
    if (input.value("validate", false)) page.errors = validate_content(parsed.form, page.values);
    page.language = input.value("language", "");
    page.csrf_token = input.at("csrf");
    page.action = input.at("action");
    const auto html = forms::render_form_page(page);
    const auto expected = dir / (name + ".html");
    if (update) {
      std::ofstream(expected, std::ios::binary) << html;
      continue;
    }
    REQUIRE(fs::exists(expected));
    CHECK(html == read_file(expected));
  }
}

TEST_CASE("the page's own words in its language, the server's as given", "[html_form][messages]") {
  forms::FormPage page{form_of(kEveryKind)};
  page.message = "Tell us about you";
  page.values = json{{"name", ""}, {"age", 200}, {"tags", json::array({"a", "b", "c"})}};
  page.errors = validate_content(page.form, page.values);
  const auto english = forms::render_form_page(page);
  page.language = "ko-KR";
  const auto korean = forms::render_form_page(page);

  CHECK(english.find("<html lang=\"en\">") != std::string::npos);
  CHECK(korean.find("<html lang=\"ko\">") != std::string::npos);
  for (const char* word :
       {"<h1>정보 요청</h1>", "<span class=\"req\">*</span> 표시가 있는 항목은 필수입니다.",
        "<span class=\"visually-hidden\"> (필수)</span>", "<option value=\"\">(하나를 선택하세요)</option>",
        ">예</label>", ">아니요</label>", "날짜와 시각은 UTC 기준입니다.", "1개에서 2개까지 선택하세요.",
        ">수락</button>", ">거절</button>", ">취소</button>"}) {
    INFO(word);
    CHECK(korean.find(word) != std::string::npos);
  }
  for (const char* word :
       {"<h1>Information requested</h1>", "Fields marked <span class=\"req\">*</span> are required.", "(choose one)",
        ">Yes</label>", "Date and time in UTC.", "Choose between 1 and 2 options.", ">Accept</button>"}) {
    INFO(word);
    CHECK(english.find(word) != std::string::npos);
    CHECK(korean.find(word) == std::string::npos);
  }
  // Every error in the page's language, by its field and in the summary, which is focused first.
  REQUIRE(page.errors.errors.size() >= 5);
  const auto n = std::to_string(page.errors.errors.size());
  CHECK(korean.find("<h2 id=\"summary-title\">문제가 " + n + "개 있습니다</h2>") != std::string::npos);
  CHECK(english.find("<h2 id=\"summary-title\">There are " + n + " problems</h2>") != std::string::npos);
  CHECK(korean.find("class=\"summary\" role=\"alert\" aria-labelledby=\"summary-title\" tabindex=\"-1\" autofocus>") !=
        std::string::npos);
  for (const auto& e : page.errors.errors) {
    INFO(e.pointer << " " << e.keyword);
    CHECK(korean.find(escape(e.in("ko"))) != std::string::npos);
    CHECK(korean.find(escape(e.message)) == std::string::npos);
    CHECK(english.find(escape(e.message)) != std::string::npos);
  }
  CHECK(korean.find("Name: " + escape(page.errors.errors[0].in("ko"))) != std::string::npos);
  // The server's own texts are not translated.
  CHECK(korean.find("Tell us about you") != std::string::npos);
  CHECK(korean.find(">Small</label>") != std::string::npos);

  // One error: the singular.
  page.errors.errors.resize(1);
  page.language = "en";
  CHECK(forms::render_form_page(page).find(">There is a problem</h2>") != std::string::npos);
  page.language = "ko";
  CHECK(forms::render_form_page(page).find(">문제가 1개 있습니다</h2>") != std::string::npos);

  // A language the catalog lacks is English, and says so.
  page.language = "fr";
  const auto french = forms::render_form_page(page);
  CHECK(french.find("<html lang=\"en\">") != std::string::npos);
  CHECK(french.find(">Accept</button>") != std::string::npos);
}

TEST_CASE("the short pages in their language", "[html_form][messages]") {
  const auto en = forms::render_form_status_page_of("page.expired", "");
  const auto ko = forms::render_form_status_page_of("page.expired", "ko");
  CHECK(en.find("<html lang=\"en\">") != std::string::npos);
  CHECK(en.find("<h1>This form has expired</h1>") != std::string::npos);
  CHECK(ko.find("<html lang=\"ko\">") != std::string::npos);
  CHECK(ko.find("<h1>양식이 만료되었습니다</h1>") != std::string::npos);
  CHECK(ko.find("<title>양식이 만료되었습니다</title>") != std::string::npos);
  // A language the catalog lacks: English, and lang says so (never a tag the text is not in).
  CHECK(forms::render_form_status_page_of("page.expired", "de").find("<html lang=\"en\">") != std::string::npos);
  CHECK(forms::render_form_status_page("T", "x", {}, "ko").find("<html lang=\"ko\">") != std::string::npos);
}

TEST_CASE("every text of the page is HTML-escaped", "[html_form]") {
  const std::string evil = "<script>alert(\"x\")</script> & 'q'";
  const auto e = escape(evil);
  ordered_json schema = {{"type", "object"},
                         {"properties",
                          {{"p" + evil, {{"type", "string"}, {"title", "T" + evil}, {"description", "D" + evil}}},
                           {"c", {{"type", "string"}, {"oneOf", {{{"const", "v" + evil}, {"title", "O" + evil}}}}}},
                           {"m", {{"type", "string"}, {"enum", {"1", "2", "3", "4", "5", "6" + evil}}}}}}};
  auto parsed = parse_requested_schema(schema);
  REQUIRE(parsed.ok());
  forms::FormPage page{parsed.form};
  page.title = "Title" + evil;
  page.message = "Message" + evil;
  page.values = {{"p" + evil, "V" + evil}, {"c", "v" + evil}, {"m", "6" + evil}};
  page.errors.add("/p" + evil, "x", "E" + evil);
  page.errors.add("/nope" + evil, "x", "R" + evil);
  page.csrf_token = "C" + evil;
  page.action = "/a?x=" + evil;
  const auto html = forms::render_form_page(page);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find(evil) == std::string::npos);
  CHECK(html.find("'q'") == std::string::npos);
  for (const std::string prefix : {"Title", "Message", "p", "T", "D", "V", "v", "O", "6", "E", "C", "/a?x=", "R"}) {
    INFO(prefix);
    CHECK(html.find(prefix + e) != std::string::npos);
  }
  CHECK(html.find("/nope" + e + ": R" + e) != std::string::npos);  // an error about no field: summary only
  // And the escaped page still reads back to the values: a browser submits them unchanged.
  const auto sub = forms::decode_form_submission(parsed.form, browser_submit(html, "accept"));
  CHECK(sub.content == page.values);
  CHECK(sub.csrf == "C" + evil);
}

TEST_CASE("an override template and style replace the built-in ones", "[html_form]") {
  const auto form = form_of(R"({"type":"object","properties":{"a":{"type":"string"}}})");
  forms::HtmlTemplates t;
  t.page = "<style>{{{style}}}</style>{{#fields}}[{{name}}={{value}}]{{/fields}}{{csrf_name}}";
  t.style = "body{color:red}";
  forms::FormPage page{form};
  page.values = {{"a", "x<y"}};
  CHECK(forms::render_form_page(page, t) == "<style>body{color:red}</style>[a=x&lt;y]csrf");
  // printf 'body{color:red}' | openssl dgst -sha256 -binary | base64
  CHECK(forms::form_page_style_hash(t) == "sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E=");
  CHECK(forms::form_page_csp(t) ==
        "default-src 'none'; style-src 'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'");
  CHECK(forms::form_page_style_hash() != forms::form_page_style_hash(t));
  CHECK(forms::render_form_page(page).find("<style>" + std::string(forms::default_form_page_style()) + "</style>") !=
        std::string::npos);
  t.page = "{{#fields}}unclosed";
  CHECK_THROWS_AS(forms::render_form_page(page, t), std::invalid_argument);
}

TEST_CASE("decode: strings, formats and empty fields", "[html_form][decode]") {
  const auto form = form_of(kEveryKind);
  const auto s = forms::decode_form_submission(
      form,
      "action=accept&csrf=t%2B1&name=Ada+L%C3%B6w&email=&site=https%3A%2F%2Fa.example%2F&born=2024-02-29"
      "&meeting=2024-01-02T03%3A04&code=ABC&unknown=1&size=&agree=true");
  CHECK(s.action == "accept");
  CHECK(s.csrf == "t+1");
  CHECK(s.errors.ok());
  CHECK(s.content == json{{"name", "Ada L\xC3\xB6w"},
                          {"site", "https://a.example/"},
                          {"born", "2024-02-29"},
                          {"meeting", "2024-01-02T03:04:00Z"},
                          {"code", "ABC"},
                          {"agree", true}});
  // Required "size" and "month" were sent empty or not at all: missing, so validation says required.
  const auto errors = forms::validate_submission(form, s);
  REQUIRE(errors.errors.size() == 2);
  CHECK(errors.errors[0] == ValidationError{"/size", "required", "is required"});
  CHECK(errors.errors[1] == ValidationError{"/month", "required", "is required"});
}

TEST_CASE("decode: date-time from datetime-local", "[html_form][decode]") {
  const auto form = form_of(R"({"type":"object","properties":{"t":{"type":"string","format":"date-time"}}})");
  const auto t = [&](const std::string& v) {
    return forms::decode_form_submission(form, "t=" + form_component(v)).content["t"];
  };
  CHECK(t("2024-01-02T03:04") == "2024-01-02T03:04:00Z");
  CHECK(t("2024-01-02T03:04:05") == "2024-01-02T03:04:05Z");
  CHECK(t("2024-01-02T03:04:05.250") == "2024-01-02T03:04:05.250Z");
  CHECK(t("2024-01-02T03:04:05+02:00") == "2024-01-02T03:04:05+02:00");  // a zone: as sent
  CHECK(t("tomorrow") == "tomorrow");
  CHECK(forms::validate_submission(form, forms::decode_form_submission(form, "t=tomorrow")).errors.at(0).keyword ==
        "format");
  // Shown in UTC: an offset is applied, across a day (and a year) boundary.
  forms::FormPage page{form};
  page.values = {{"t", "2024-01-01T01:30:00+02:00"}};
  CHECK(forms::render_form_page(page).find("value=\"2023-12-31T23:30:00\"") != std::string::npos);
  page.values = {{"t", "2024-02-28T23:00:00.123456-01:00"}};
  CHECK(forms::render_form_page(page).find("value=\"2024-02-29T00:00:00.123\"") != std::string::npos);
  page.values = {{"t", "not a time"}};  // what the user sent, kept in a text input
  const auto html = forms::render_form_page(page);
  CHECK(html.find("type=\"text\" value=\"not a time\"") != std::string::npos);
}

TEST_CASE("date-times shown in UTC come back as the same instant", "[html_form][decode]") {
  // Checked against the C library's timegm(), over random instants and zone offsets.
  const auto form = form_of(R"({"type":"object","properties":{"t":{"type":"string","format":"date-time"}}})");
  const auto epoch = [](int y, int mo, int d, int h, int mi, int s) {
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return static_cast<long long>(timegm(&tm));
  };
  std::mt19937 rng(20261126);
  for (int i = 0; i < 2000; ++i) {
    const int y = 1900 + static_cast<int>(rng() % 250), mo = 1 + static_cast<int>(rng() % 12),
              d = 1 + static_cast<int>(rng() % 28), h = static_cast<int>(rng() % 24), mi = static_cast<int>(rng() % 60),
              s = static_cast<int>(rng() % 60), off = static_cast<int>(rng() % (2 * 1440 - 1)) - 1439;
    char text[40];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", y, mo, d, h, mi, s,
                  off < 0 ? '-' : '+', std::abs(off) / 60, std::abs(off) % 60);
    INFO(text);
    forms::FormPage page{form};
    page.values = {{"t", text}};
    std::string shown;
    for (const auto& t : tags(forms::render_form_page(page))) {
      if (t.get("name") == "t") shown = t.get("value");
    }
    const auto back =
        forms::decode_form_submission(form, "t=" + form_component(shown)).content.at("t").get<std::string>();
    int by, bmo, bd, bh, bmi, bs;
    REQUIRE(std::sscanf(back.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &by, &bmo, &bd, &bh, &bmi, &bs) == 6);
    CHECK(back.size() == 20);
    CHECK(epoch(by, bmo, bd, bh, bmi, bs) == epoch(y, mo, d, h, mi, s) - off * 60LL);
  }
}

TEST_CASE("decode: integers and numbers, bad ones kept with an error", "[html_form][decode]") {
  const auto form = form_of(kEveryKind);
  auto s = forms::decode_form_submission(form, "age=42&ratio=0.75");
  CHECK(s.content == json{{"age", 42}, {"ratio", 0.75}});
  CHECK(s.content["age"].is_number_integer());
  s = forms::decode_form_submission(form, "age=+42+&ratio=1e3");  // spaces around are dropped
  CHECK(s.content == json{{"age", 42}, {"ratio", 1000.0}});
  s = forms::decode_form_submission(form, "age=12.0&ratio=-3");
  CHECK(s.content == json{{"age", 12}, {"ratio", -3}});
  CHECK(s.content["age"].is_number_integer());
  for (const char* bad_int : {"12x", "12.5", "0x10", "1e400", "99999999999999999999", "-", "inf", "NaN", "1%2C000"}) {
    INFO(bad_int);
    s = forms::decode_form_submission(form, std::string("action=accept&age=") + bad_int);
    REQUIRE(s.errors.errors.size() == 1);
    CHECK(s.errors.errors[0] == ValidationError{"/age", "type", "must be an integer"});
    CHECK(s.content["age"] == *http::form_urldecode_component(bad_int));  // kept for re-display
  }
  for (const char* bad_number : {"1,5", ".", "1.", "1e", "--1", "Infinity", "nan"}) {
    INFO(bad_number);
    s = forms::decode_form_submission(form, std::string("ratio=") + form_component(bad_number));
    REQUIRE(s.errors.errors.size() == 1);
    CHECK(s.errors.errors[0] == ValidationError{"/ratio", "type", "must be a number"});
  }
  // The error is reported once, before validate_content's checks of the other fields.
  s = forms::decode_form_submission(form, "name=&age=12x&ratio=0.1");
  const auto errors = forms::validate_submission(form, s);
  REQUIRE(errors.errors.size() == 6);
  CHECK(errors.errors[0].pointer == "/name");
  CHECK(errors.errors[1] == ValidationError{"/age", "type", "must be an integer"});
  CHECK(errors.errors[2] == ValidationError{"/ratio", "minimum", "must be >= 0.5"});
  CHECK(errors.errors[3].pointer == "/agree");
  // Shown again with the value as typed, next to its error.
  forms::FormPage page{form};
  page.values = s.content;
  page.errors = errors;
  const auto html = forms::render_form_page(page);
  // As text: a number input would empty it (HTML value sanitization).
  CHECK(html.find("name=\"age\" type=\"text\" value=\"12x\" inputmode=\"numeric\"") != std::string::npos);
  CHECK(html.find("<div class=\"error\" id=\"f6-error\"><p>must be an integer</p></div>") != std::string::npos);
}

TEST_CASE("decode: booleans from the checkbox and the yes/no radios", "[html_form][decode]") {
  const auto form = form_of(kEveryKind);
  CHECK(forms::decode_form_submission(form, "subscribe=false").content["subscribe"] == false);  // unticked
  CHECK(forms::decode_form_submission(form, "subscribe=false&subscribe=true").content["subscribe"] == true);  // ticked
  CHECK_FALSE(forms::decode_form_submission(form, "name=x").content.contains("subscribe"));  // not on the page
  CHECK(forms::decode_form_submission(form, "agree=false").content["agree"] == false);
  CHECK(forms::decode_form_submission(form, "agree=true").content["agree"] == true);
  const auto s = forms::decode_form_submission(form, "agree=on");
  CHECK(s.errors.errors.at(0) == ValidationError{"/agree", "type", "must be true or false"});
  CHECK(s.content["agree"] == "on");
}

TEST_CASE("decode: single- and multi-selects", "[html_form][decode]") {
  const auto form = form_of(kEveryKind);
  auto s = forms::decode_form_submission(form, "size=l&month=jul&tags=c&tags=a");
  CHECK(s.content == json{{"size", "l"}, {"month", "jul"}, {"tags", {"c", "a"}}});
  s = forms::decode_form_submission(form, "tags=a&tags=b&tags=c&size=xl");
  CHECK(s.content["tags"] == json{"a", "b", "c"});
  const auto errors = forms::validate_submission(form, s);
  std::set<std::string> keywords;
  for (const auto& e : errors.errors) keywords.insert(e.pointer + " " + e.keyword);
  CHECK(keywords.count("/tags maxItems"));
  CHECK(keywords.count("/size enum"));
  CHECK_FALSE(forms::decode_form_submission(form, "name=x").content.contains("tags"));  // nothing ticked: omitted
  CHECK(
      forms::validate_submission(form, forms::decode_form_submission(form, "name=x&agree=true&size=s&month=jan")).ok());
}

TEST_CASE("decode: malformed bodies, repeated and colliding control names", "[html_form][decode]") {
  const auto form = form_of(kEveryKind);
  for (const char* bad : {"name=%", "name=%4", "name=%zz", "%g1=x"}) {
    INFO(bad);
    const auto s = forms::decode_form_submission(form, bad);
    REQUIRE(s.errors.errors.size() == 1);
    CHECK(s.errors.errors[0].pointer.empty());
    CHECK(s.content.empty());
    CHECK(forms::validate_submission(form, s).errors == s.errors.errors);  // no "required" for what was unreadable
  }
  CHECK(forms::decode_form_submission(form, "").content.empty());
  CHECK(forms::decode_form_submission(form, "&&action=decline&&").action == "decline");
  CHECK(forms::decode_form_submission(form, "action=cancel&action=accept").action == "cancel");  // the first button
  // A form whose properties are named like the controls: the controls move aside, on both sides.
  const auto clash = form_of(R"({"type":"object","properties":{"action":{"type":"string"},"csrf":{"type":"string"},
                                "_csrf":{"type":"string"}}})");
  const auto names = forms::form_page_control_names(clash);
  CHECK(names.action == "_action");
  CHECK(names.csrf == "__csrf");
  forms::FormPage page{clash};
  page.values = {{"action", "run"}, {"csrf", "c"}, {"_csrf", "u"}};
  page.csrf_token = "tok";
  const auto s = forms::decode_form_submission(clash, browser_submit(forms::render_form_page(page), "decline"));
  CHECK(s.action == "decline");
  CHECK(s.csrf == "tok");
  CHECK(s.content == page.values);
}

TEST_CASE("http::form_urldecode keeps every pair in order, repeated names too", "[html_form][decode]") {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(http::form_urldecode("a=1+2&b&&a=%C3%A9%2b&=v") ==
        Pairs{{"a", "1 2"}, {"b", ""}, {"a", "\xC3\xA9+"}, {"", "v"}});
  CHECK(http::form_urldecode("") == Pairs{});
  CHECK_FALSE(http::form_urldecode("a=%"));
  CHECK_FALSE(http::form_urldecode("a=%2"));
  CHECK_FALSE(http::form_urldecode("a=%2g"));
  CHECK(http::form_urldecode_component("%41%62+c") == "Ab c");
}

TEST_CASE("looks_secret: the generator's words, in any spelling", "[html_form]") {
  for (const char* yes : {"password", "apiKey", "API key", "api_key", "X-Access-Key", "creditCardNumber", "CVV",
                          "refresh_token", "clientSecret"}) {
    INFO(yes);
    CHECK(looks_secret(yes));
  }
  for (const char* no : {"name", "email", "api", "key", "passenger", "tokyo"}) {
    INFO(no);
    CHECK_FALSE(looks_secret(no));
  }
  Field f;
  f.name = "k";
  f.title = "Your password";
  CHECK(looks_secret(f));
}

TEST_CASE("a value an input would empty is shown in a text input", "[html_form]") {
  const auto form = form_of(R"({"type":"object","properties":{"d":{"type":"string","format":"date"},
                               "n":{"type":"number","minimum":1}}})");
  forms::FormPage page{form};
  page.values = {{"d", "2024-02-30"}, {"n", "1,5"}};
  auto html = forms::render_form_page(page);
  CHECK(html.find("name=\"d\" type=\"text\" value=\"2024-02-30\"") != std::string::npos);
  CHECK(html.find("name=\"n\" type=\"text\" value=\"1,5\" inputmode=\"decimal\"") != std::string::npos);
  page.values = {{"d", "2024-02-29"}, {"n", 1.5}};
  html = forms::render_form_page(page);
  CHECK(html.find("name=\"d\" type=\"date\" value=\"2024-02-29\"") != std::string::npos);
  CHECK(html.find("name=\"n\" type=\"number\" value=\"1.5\" min=\"1\" step=\"any\"") != std::string::npos);
}

TEST_CASE("a secret is masked and never written back into the page", "[html_form]") {
  const auto form =
      form_of(R"({"type":"object","properties":{"apiKey":{"type":"string","title":"API key","minLength":20},
                               "service":{"type":"string"}}, "required":["apiKey"]})");
  forms::FormPage page{form};
  page.values = {{"apiKey", "sk-very-secret-value"}, {"service", "github"}};
  const auto html = forms::render_form_page(page);
  CHECK(html.find("sk-very-secret-value") == std::string::npos);
  CHECK(html.find("name=\"apiKey\" type=\"password\" minlength=\"20\" autocomplete=\"off\" required") !=
        std::string::npos);
  CHECK(html.find("value=\"github\"") != std::string::npos);
}

TEST_CASE("patterns become HTML pattern attributes only where the v flag reads them alike", "[html_form]") {
  const auto pattern_attr = [](const std::string& p) {
    ordered_json schema = {{"type", "object"}, {"properties", {{"s", {{"type", "string"}, {"pattern", p}}}}}};
    auto parsed = parse_requested_schema(schema);
    REQUIRE(parsed.ok());
    for (const auto& t : tags(forms::render_form_page(forms::FormPage{parsed.form}))) {
      if (t.get("name") == "s") return t.has("pattern") ? std::optional<std::string>(t.get("pattern")) : std::nullopt;
    }
    FAIL("no input");
    return std::optional<std::string>();
  };
  CHECK(pattern_attr("^[0-9]{5}(-[0-9]{4})?$") == "^[0-9]{5}(-[0-9]{4})?$");  // anchored: as is
  CHECK(pattern_attr("[a-z]+") == ".*(?:[a-z]+).*");                          // a search: wrapped
  CHECK(pattern_attr("a|b") == ".*(?:a|b).*");
  CHECK(pattern_attr("^a|b$") == ".*(?:^a|b$).*");  // anchors inside an alternation: wrapped
  CHECK(pattern_attr("^\\d+\\$$") == "^\\d+\\$$");
  CHECK_FALSE(pattern_attr("[-a]"));  // a lone '-' in a class: an error with v
  CHECK_FALSE(pattern_attr("[a-]"));
  CHECK_FALSE(pattern_attr("[(]"));  // ( ) [ { } / | in a class are reserved with v
  CHECK_FALSE(pattern_attr("[a|b]"));
  CHECK_FALSE(pattern_attr("[a&&b]"));                // && is set intersection with v
  CHECK(pattern_attr("[\\-a]") == ".*(?:[\\-a]).*");  // escaped: fine
  // Number inputs carry bounds and steps instead.
  const auto form = form_of(R"({"type":"object","properties":{"i":{"type":"integer","minimum":0.5,"maximum":9.5}}})");
  const auto html = forms::render_form_page(forms::FormPage{form});
  CHECK(html.find("type=\"number\" min=\"1\" max=\"9\" step=\"1\" inputmode=\"numeric\"") != std::string::npos);
}

TEST_CASE("round trip: a page submitted as a browser would decodes to the values shown", "[html_form][roundtrip]") {
  const auto form = form_of(kEveryKind);
  const json content = {{"name", "Ada & <Lovelace>"},
                        {"email", "ada@example.com"},
                        {"site", "https://example.com/a?b=c&d=e"},
                        {"born", "1815-12-10"},
                        {"meeting", "2024-06-01T12:30:15Z"},
                        {"code", "ABC"},
                        {"age", 36},
                        {"ratio", 0.75},
                        {"subscribe", true},
                        {"agree", false},
                        {"size", "l"},
                        {"month", "jul"},
                        {"tags", {"a", "c"}}};
  REQUIRE(validate_content(form, content).ok());
  forms::FormPage page{form};
  page.values = content;
  page.csrf_token = "t0k+/=";
  const auto html = forms::render_form_page(page);
  const auto body = browser_submit(html, "accept");
  const auto s = forms::decode_form_submission(form, body);
  CHECK(s.action == "accept");
  CHECK(s.csrf == "t0k+/=");
  CHECK(s.errors.ok());
  CHECK(s.content == content);
  CHECK(forms::validate_submission(form, s).ok());
  // Declining sends the same fields; the server ignores them.
  CHECK(forms::decode_form_submission(form, browser_submit(html, "decline")).action == "decline");
}

TEST_CASE("round trip: every sample schema's defaults come back from the browser", "[html_form][roundtrip]") {
  for (const auto& [name, form] : sample_forms()) {
    INFO(name);
    forms::FormPage page{form};
    page.values = form_defaults(form);
    const auto s = forms::decode_form_submission(form, browser_submit(forms::render_form_page(page), "accept"));
    CHECK(s.action == "accept");
    CHECK(s.errors.ok());
    // What a browser sends on top of the defaults: an unticked optional checkbox is false, and a
    // <select> without a placeholder sends its first option.
    json expected = page.values;
    for (const auto& f : form.fields) {
      if (f.kind == FieldKind::boolean && !f.required && !expected.contains(f.name)) expected[f.name] = false;
    }
    CHECK(s.content == expected);
    // Where every required field has a default, the page accepted as shown is valid.
    const bool complete = std::all_of(form.fields.begin(), form.fields.end(),
                                      [](const Field& f) { return !f.required || f.default_value; });
    if (complete) CHECK(forms::validate_submission(form, s).ok());
  }
}

}  // namespace html_form_test
