#include "elicit/forms/html_form.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <sodium.h>
#include <kainjow/mustache.hpp>

#include "elicit/content/formats.hpp"
#include "elicit/content/sensitive.hpp"
#include "elicit/http/form_urlencoded.hpp"
#include "elicit/messages/catalog.hpp"

namespace elicit::forms {

namespace detail {
// Defined in the file CMake generates from form_page.* (cmake/EmbedFiles.cmake).
extern const char kFormPageTemplate[];
extern const char kFormPageStyle[];
}  // namespace detail

namespace {

using mdata = kainjow::mustache::data;

// Single-selects with at most this many options are radio buttons (all visible, one keystroke
// each); more become a <select>, which stays one line on a phone.
constexpr std::size_t kMaxRadios = 5;

const std::string& effective_style(const HtmlTemplates& t, std::string& storage) {
  if (!t.style.empty()) return t.style;
  storage = detail::kFormPageStyle;
  return storage;
}

// The property a content pointer is about: its first reference token, unescaped (RFC 6901);
// nullopt for "" and for text that is no pointer.
std::optional<std::string> first_token(const std::string& pointer) {
  if (pointer.size() < 2 || pointer[0] != '/') return std::nullopt;
  const auto end = pointer.find('/', 1);
  const auto raw = pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
      out += raw[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::string pointer_of(const std::string& name) {
  std::string out = "/";
  for (const char c : name) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// --- dates -------------------------------------------------------------------------------------

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

int digits(std::string_view s, std::size_t at, std::size_t n) {
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

// An RFC 3339 date-time as the value of a datetime-local input: the same instant in UTC,
// "YYYY-MM-DDThh:mm:ss" plus up to three fraction digits (what the input keeps). The page has no
// script, so it cannot know the browser's zone: it shows and reads UTC, and says so. nullopt for
// text that is no RFC 3339 date-time, or a leap second (no datetime-local value): the page then
// shows it in a text input as is.
std::optional<std::string> to_datetime_local(std::string_view s) {
  if (!is_date_time(s)) return std::nullopt;
  std::int64_t year = digits(s, 0, 4);
  unsigned month = static_cast<unsigned>(digits(s, 5, 2)), day = static_cast<unsigned>(digits(s, 8, 2));
  const int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
  if (second == 60) return std::nullopt;
  std::size_t i = 19;
  std::string fraction;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (fraction.size() < 3) fraction += s[i];
      ++i;
    }
  }
  int offset = 0;  // minutes east of UTC
  if (s[i] == '+' || s[i] == '-') {
    offset = (digits(s, i + 1, 2) * 60 + digits(s, i + 4, 2)) * (s[i] == '-' ? -1 : 1);
  }
  std::int64_t t = (days_from_civil(year, month, day) * 24 + hour) * 60 + minute - offset;
  std::int64_t days = t >= 0 ? t / 1440 : -((-t + 1439) / 1440);
  const auto minutes = static_cast<int>(t - days * 1440);
  civil_from_days(days, year, month, day);
  if (year < 0 || year > 9999) return std::nullopt;
  // Sized for any int and unsigned, not just the ranges checked above: GCC's -Wformat-truncation
  // (Release builds) cannot see those ranges through civil_from_days.
  char buf[72];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d", static_cast<int>(year), month, day, minutes / 60,
                minutes % 60, second);
  std::string out = buf;
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

// A datetime-local value ("YYYY-MM-DDThh:mm", optional ":ss" and ".fff") as RFC 3339 in UTC; other
// text as is (validation then reports the format).
std::string from_datetime_local(const std::string& v) {
  const auto is_digit_at = [&](std::size_t i) { return i < v.size() && v[i] >= '0' && v[i] <= '9'; };
  const auto digits_at = [&](std::size_t at, std::size_t n) {
    for (std::size_t i = at; i < at + n; ++i) {
      if (!is_digit_at(i)) return false;
    }
    return true;
  };
  if (v.size() < 16 || !digits_at(0, 4) || v[4] != '-' || !digits_at(5, 2) || v[7] != '-' || !digits_at(8, 2) ||
      (v[10] != 'T' && v[10] != ' ') || !digits_at(11, 2) || v[13] != ':' || !digits_at(14, 2)) {
    return v;
  }
  std::string out = v.substr(0, 10) + "T" + v.substr(11, 5);
  std::size_t i = 16;
  if (i == v.size()) return out + ":00Z";
  if (v[i] != ':' || !digits_at(i + 1, 2)) return v;
  out += v.substr(i, 3);
  i += 3;
  if (i < v.size() && v[i] == '.') {
    const auto start = i++;
    while (is_digit_at(i)) ++i;
    if (i == start + 1) return v;
    out += v.substr(start, i - start);
  }
  if (i != v.size()) return v;  // a zone already, or anything else: as sent
  return out + "Z";
}

// --- patterns ----------------------------------------------------------------------------------

// Whether an ECMA-262 `pattern` (already known to compile with Unicode semantics, the `u` flag) can
// be given to the browser as the HTML pattern attribute, which compiles it with the `v` flag. `v`
// reserves more syntax inside character classes: ( ) [ ] { } / | and a lone '-' must be escaped,
// and doubled punctuators (&& !! ## ...) are set operations. A pattern outside that safe subset is
// left to the server's validation: a hint the browser would read differently, or refuse, is worse
// than none. Outside classes `u` and `v` read a pattern alike.
bool safe_for_v_flag(std::string_view p) {
  bool in_class = false;
  std::size_t class_start = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (in_class && i + 1 < p.size() && (p[i + 1] == 'q' || p[i + 1] == 'p' || p[i + 1] == 'P')) return false;
      ++i;  // the escaped character, whatever it is
      continue;
    }
    if (!in_class) {
      if (c == '[') {
        in_class = true;
        class_start = i + 1;
        if (class_start < p.size() && p[class_start] == '^') ++class_start;
      }
      continue;
    }
    if (c == ']') {
      in_class = false;
      continue;
    }
    if (c == '(' || c == ')' || c == '[' || c == '{' || c == '}' || c == '/' || c == '|') return false;
    if (c == '-') {
      // A range "a-z" is the same in both; a '-' first, last, or next to another is not.
      if (i == class_start || i + 1 >= p.size() || p[i + 1] == ']' || p[i + 1] == '-' || p[i - 1] == '-') return false;
      continue;
    }
    static constexpr std::string_view kDoubled = "&!#$%*+,.:;<=>?@^`~";
    if (kDoubled.find(c) != std::string_view::npos && i + 1 < p.size() && p[i + 1] == c) return false;
  }
  return !in_class;
}

// The HTML pattern attribute for a JSON Schema pattern: HTML anchors the whole value
// (^(?:pattern)$), JSON Schema searches, so a pattern gets ".*" on both sides (the inputs it
// applies to hold one line, where '.' matches every character); wrapping is always right, and
// skipped only where it changes nothing, to keep the attribute readable.
std::optional<std::string> html_pattern(const Field& f) {
  if (!f.pattern || !safe_for_v_flag(*f.pattern)) return std::nullopt;
  const std::string& p = *f.pattern;
  // "^...$" without '|' anchors the whole value already and reads the same either way; with a '|'
  // the anchors may belong to one alternative ("^a|b$"), so it is wrapped like any other.
  const bool anchored = p.size() >= 2 && p.front() == '^' && p.back() == '$' && p[p.size() - 2] != '\\' &&
                        p.find('|') == std::string::npos;
  return anchored ? p : ".*(?:" + p + ").*";
}

// --- values ------------------------------------------------------------------------------------

std::string json_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return {};
  return v.dump();
}

std::string bound_text(const NumberBound& b, FieldKind kind, bool lower) {
  // An integer input steps from its min: a fractional bound would offer fractions, so it is
  // rounded inwards (minimum 0.5 -> 1).
  if (kind != FieldKind::integer || std::floor(b.value) == b.value) return b.text;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.0f", lower ? std::ceil(b.value) : std::floor(b.value));
  return buf;
}

std::string label_of(const Field& f) { return f.title && !f.title->empty() ? *f.title : f.name; }

std::string items_hint(const Field& f, const std::string& language) {
  const auto n = [](std::size_t v) { return messages::Argument(static_cast<std::int64_t>(v)); };
  if (f.min_items && f.max_items) {
    if (*f.min_items == *f.max_items) {
      return messages::text(language, "page.hint.items_exactly", {{"count", n(*f.min_items)}});
    }
    return messages::text(language, "page.hint.items_range", {{"min", n(*f.min_items)}, {"max", n(*f.max_items)}});
  }
  if (f.min_items && *f.min_items > 0) {
    return messages::text(language, "page.hint.items_min", {{"min", n(*f.min_items)}});
  }
  if (f.max_items) return messages::text(language, "page.hint.items_max", {{"max", n(*f.max_items)}});
  return {};
}

mdata string_list(const std::vector<std::string>& items) {  // for {{#list}}{{.}}{{/list}}
  mdata list{mdata::type::list};
  for (const auto& s : items) list << mdata(s);
  return list;
}

mdata attribute(const std::string& name, const std::string& value) {
  mdata a;
  a.set("attribute", name);
  a.set("value", value);
  return a;
}

// `errors`: the field's error texts, already in `language`.
mdata field_view(const Field& f, std::size_t index, const nlohmann::json& values,
                 const std::vector<std::string>& errors, const std::string& language) {
  const std::string id = "f" + std::to_string(index);
  mdata v;
  v.set("id", id);
  v.set("name", f.name);
  v.set("label", label_of(f));
  v.set("required", f.required);
  const bool has_description = f.description && !f.description->empty();
  v.set("has_description", has_description);
  if (has_description) v.set("description", *f.description);
  v.set("invalid", !errors.empty());
  v.set("errors", string_list(errors));
  std::string hint;  // what the input's own attributes do not say (item counts, the time zone)

  const auto it = values.is_object() ? values.find(f.name) : values.end();
  const nlohmann::json* value = it != values.end() ? &*it : nullptr;

  v.set("is_input", false);
  v.set("is_checkbox", false);
  v.set("is_group", false);
  v.set("is_select", false);
  // A choice of a select or a group: its input id, wire value, text and state.
  auto choices = [&](const std::vector<std::pair<std::string, std::string>>& options,
                     const std::function<bool(const std::string&)>& chosen) {
    mdata list{mdata::type::list};
    for (std::size_t i = 0; i < options.size(); ++i) {
      mdata c;
      c.set("choice_id", id + "-" + std::to_string(i));
      c.set("value", options[i].first);
      c.set("text", options[i].second);
      c.set("checked", chosen(options[i].first));
      list << c;
    }
    return list;
  };
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& o : f.options) options.emplace_back(o.value, o.title && !o.title->empty() ? *o.title : o.value);
  std::string focus = id;

  switch (f.kind) {
    case FieldKind::boolean:
      if (f.required) {
        // A required boolean is a yes/no question: a checkbox could not tell "no" from "not
        // answered", and an unticked box would answer "no" for the user.
        v.set("is_group", true);
        v.set("group_type", "radio");
        const bool has = value && value->is_boolean();
        const bool yes = has && value->get<bool>();
        v.set("choices",
              choices({{"true", messages::text(language, "page.yes")}, {"false", messages::text(language, "page.no")}},
                      [&](const std::string& w) { return has && (w == "true") == yes; }));
        focus = id + "-0";
      } else {
        v.set("is_checkbox", true);
        v.set("checked", value && value->is_boolean() && value->get<bool>());
      }
      break;
    case FieldKind::single_select: {
      const std::string current = value ? json_text(*value) : std::string();
      const auto chosen = [&](const std::string& w) { return value != nullptr && w == current; };
      if (options.size() <= kMaxRadios) {
        v.set("is_group", true);
        v.set("group_type", "radio");
        v.set("choices", choices(options, chosen));
        focus = id + "-0";
      } else {
        v.set("is_select", true);
        v.set("choices", choices(options, chosen));
        bool any = false;
        for (const auto& o : options) any = any || chosen(o.first);
        // No option preselected unless one is the value: a first option shown as chosen would be
        // sent without the user picking it.
        v.set("placeholder", !any || !f.required);
      }
      break;
    }
    case FieldKind::multi_select: {
      std::set<std::string> current;
      if (value && value->is_array()) {
        for (const auto& x : *value) current.insert(json_text(x));
      }
      v.set("is_group", true);
      v.set("group_type", "checkbox");
      // One checkbox can be left unticked by the browser's own check only one at a time: a
      // required attribute on a checkbox group would require every box, so the item counts are
      // text and the server checks them.
      v.set("required", false);
      v.set("show_required", f.required);
      v.set("choices", choices(options, [&](const std::string& w) { return current.count(w) > 0; }));
      hint = items_hint(f, language);
      focus = id + "-0";
      break;
    }
    case FieldKind::integer:
    case FieldKind::number: {
      v.set("is_input", true);
      // A value that is no number (what the user typed, "12x") would be emptied by a number input
      // (HTML value sanitization): a text input shows it to be corrected.
      const bool shown_as_number = value == nullptr || value->is_number();
      v.set("type", shown_as_number ? "number" : "text");
      mdata attrs{mdata::type::list};
      if (shown_as_number) {  // a text input has no bounds or steps
        if (f.minimum) attrs << attribute("min", bound_text(*f.minimum, f.kind, true));
        if (f.maximum) attrs << attribute("max", bound_text(*f.maximum, f.kind, false));
        attrs << attribute("step", f.kind == FieldKind::integer ? "1" : "any");
      }
      // Phones show a numeric keypad; a number input alone gives some of them a text keyboard.
      attrs << attribute("inputmode", f.kind == FieldKind::integer ? "numeric" : "decimal");
      v.set("attributes", attrs);
      v.set("has_value", value != nullptr);
      if (value) v.set("value", json_text(*value));
      break;
    }
    case FieldKind::string: {
      v.set("is_input", true);
      const bool secret = looks_secret(f);
      std::string type = "text";
      std::string shown = value ? json_text(*value) : std::string();
      if (secret) {
        type = "password";
      } else if (f.format == StringFormat::email) {
        type = "email";
      } else if (f.format == StringFormat::uri) {
        type = "url";
      } else if (f.format == StringFormat::date) {
        // A date input empties a value that is no date: text keeps what the user typed.
        type = value && !is_date(shown) ? "text" : "date";
      } else if (f.format == StringFormat::date_time) {
        const auto local = value ? to_datetime_local(shown) : std::optional<std::string>(std::string());
        // A value the input cannot hold (no RFC 3339 date-time: what the user sent) is shown as
        // typed in a text input, so that it can be corrected rather than vanish.
        if (local) {
          type = "datetime-local";
          shown = *local;
        }
        hint = messages::text(language, "page.hint.date_time");
      }
      v.set("type", type);
      mdata attrs{mdata::type::list};
      if (f.min_length && *f.min_length > 0) attrs << attribute("minlength", std::to_string(*f.min_length));
      if (f.max_length) attrs << attribute("maxlength", std::to_string(*f.max_length));
      if (type == "text" || type == "email" || type == "url" || type == "password") {
        if (auto p = html_pattern(f)) attrs << attribute("pattern", *p);
      }
      if (type == "datetime-local") attrs << attribute("step", "1");  // seconds kept
      if (secret) {
        attrs << attribute("autocomplete", "off");
      } else if (type == "email") {
        attrs << attribute("autocomplete", "email");
      }
      v.set("attributes", attrs);
      // A secret is never written back into the page (it would sit in the HTML sent to the
      // browser, in its history and any proxy): the user types it again.
      v.set("has_value", value != nullptr && !secret);
      if (value && !secret) v.set("value", shown);
      break;
    }
  }
  if (f.kind != FieldKind::multi_select) v.set("show_required", f.required);
  v.set("has_hint", !hint.empty());
  if (!hint.empty()) v.set("hint", hint);
  std::string describedby;
  const auto add = [&](const std::string& s) { describedby += (describedby.empty() ? "" : " ") + s; };
  if (has_description) add(id + "-desc");
  if (!hint.empty()) add(id + "-hint");
  if (!errors.empty()) add(id + "-error");
  if (!describedby.empty()) v.set("describedby", describedby);
  v.set("focus_id", focus);
  return v;
}

// --- submission --------------------------------------------------------------------------------

std::string trim_spaces(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n\f\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\n\f\r");
  return s.substr(b, e - b + 1);
}

// HTML's "valid floating-point number": -?digits(.digits)?([eE][+-]?digits)? or -?.digits... The
// browser sends nothing else from a number input; a looser reading (hex, "inf", "nan", spaces
// inside) would accept what no user typed.
bool html_float_syntax(const std::string& s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++frac_digits;
    if (frac_digits == 0) return false;
  }
  if (int_digits + frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

std::optional<std::int64_t> parse_int64(const std::string& s) {
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<double> parse_double(const std::string& s) {
  if (!html_float_syntax(s)) return std::nullopt;
  double v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

std::string_view default_form_page_template() noexcept { return detail::kFormPageTemplate; }
std::string_view default_form_page_style() noexcept { return detail::kFormPageStyle; }

FormControlNames form_page_control_names(const Form& form) {
  const auto free_name = [&](std::string name) {
    for (;;) {
      bool taken = false;
      for (const auto& f : form.fields) taken = taken || f.name == name;
      if (!taken) return name;
      name.insert(name.begin(), '_');
    }
  };
  return {free_name("action"), free_name("csrf")};
}

std::string render_form_page(const FormPage& page, const HtmlTemplates& templates) {
  std::string style_storage;
  const std::string& style = effective_style(templates, style_storage);
  const std::string template_text = templates.page.empty() ? std::string(detail::kFormPageTemplate) : templates.page;
  kainjow::mustache::mustache tmpl(template_text);
  if (!tmpl.is_valid()) throw std::invalid_argument("form page template: " + tmpl.error_message());

  const std::string language = messages::resolve(page.language);
  const auto say = [&](std::string_view id) { return messages::text(language, id); };
  // Errors by property; the rest (the object itself, unknown properties) go to the summary only.
  std::map<std::string, std::vector<std::string>> by_field;
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < page.form.fields.size(); ++i) index_of.emplace(page.form.fields[i].name, i);
  for (const auto& e : page.errors.errors) {
    const auto name = first_token(e.pointer);
    if (name && index_of.count(*name)) by_field[*name].push_back(e.in(language));
  }

  const auto names = form_page_control_names(page.form);
  mdata view;
  view.set("lang", language);
  view.set("title", page.title.empty() ? say("page.title") : page.title);
  view.set("has_message", !page.message.empty());
  view.set("message", page.message);
  view.set("style", style);
  view.set("action_url", page.action);
  view.set("action_name", names.action);
  view.set("csrf_name", names.csrf);
  view.set("csrf_token", page.csrf_token);
  bool has_required = false;
  mdata fields{mdata::type::list};
  std::vector<std::string> focus_ids;
  static const std::vector<std::string> kNone;
  for (std::size_t i = 0; i < page.form.fields.size(); ++i) {
    const auto& f = page.form.fields[i];
    has_required = has_required || f.required;
    const auto errs = by_field.find(f.name);
    auto fv = field_view(f, i, page.values, errs == by_field.end() ? kNone : errs->second, language);
    focus_ids.push_back(fv.get("focus_id")->string_value());
    fields << fv;
  }
  view.set("fields", fields);
  view.set("has_required", has_required);
  // The note names the asterisk as the fields show it: the sentence is the catalog's (where the
  // mark goes is the language's), escaped, with the marked-up asterisk put in its place.
  static const std::string kMark = "\xEE\x80\x80";  // U+E000, private use: no catalog text holds it
  std::string note = kainjow::mustache::html_escape(messages::text(language, "page.required_note", {{"mark", kMark}}));
  if (const auto at = note.find(kMark); at != std::string::npos) {
    note.replace(at, kMark.size(), "<span class=\"req\">*</span>");
  }
  view.set("text_required_note", note);
  view.set("text_required", say("page.required"));
  view.set("text_choose_one", say("page.choose_one"));
  view.set("text_accept", say("page.accept"));
  view.set("text_decline", say("page.decline"));
  view.set("text_cancel", say("page.cancel"));

  mdata summary{mdata::type::list};
  for (const auto& e : page.errors.errors) {
    mdata item;
    const auto message = e.in(language);
    item.set("message", message);
    const auto name = first_token(e.pointer);
    if (name && index_of.count(*name)) {
      const auto& f = page.form.fields[index_of.at(*name)];
      item.set("href", focus_ids[index_of.at(*name)]);
      item.set("label", label_of(f));
      item.set("text", messages::text(language, "page.error_item", {{"field", label_of(f)}, {"message", message}}));
    } else if (!e.pointer.empty()) {
      item.set("message", e.pointer + ": " + message);
    }
    summary << item;
  }
  const auto n = page.errors.errors.size();
  view.set("has_errors", n > 0);
  view.set("summary", summary);
  view.set("error_count_text", messages::text(language, "page.error_count", {{"count", static_cast<std::int64_t>(n)}}));

  std::string out = tmpl.render(view);
  if (!tmpl.is_valid()) throw std::invalid_argument("form page template: " + tmpl.error_message());
  return out;
}

std::string form_page_style_hash(const HtmlTemplates& templates) {
  std::string storage;
  const std::string& style = effective_style(templates, storage);
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(style.data()), style.size());
  char b64[sodium_base64_ENCODED_LEN(crypto_hash_sha256_BYTES, sodium_base64_VARIANT_ORIGINAL)];
  sodium_bin2base64(b64, sizeof b64, digest, sizeof digest, sodium_base64_VARIANT_ORIGINAL);
  return std::string("sha256-") + b64;
}

std::string form_page_csp(const HtmlTemplates& templates) {
  return "default-src 'none'; style-src '" + form_page_style_hash(templates) +
         "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
}

FormSubmission decode_form_submission(const Form& form, std::string_view body) {
  FormSubmission out;
  const auto pairs = http::form_urldecode(body);
  if (!pairs) {
    out.errors.add("", "type", messages::Message{"page.error.not_form", {}});
    return out;
  }
  const auto names = form_page_control_names(form);
  std::map<std::string, std::vector<std::string>> sent;
  for (const auto& [name, value] : *pairs) {
    if (name == names.action) {
      if (out.action.empty()) out.action = value;  // the button pressed; a browser sends one
    } else if (name == names.csrf) {
      if (out.csrf.empty()) out.csrf = value;
    } else {
      sent[name].push_back(value);
    }
  }
  for (const auto& f : form.fields) {
    const auto it = sent.find(f.name);
    if (it == sent.end()) continue;
    const auto& vals = it->second;
    const std::string pointer = pointer_of(f.name);
    switch (f.kind) {
      case FieldKind::multi_select: {
        auto arr = nlohmann::json::array();
        for (const auto& x : vals) {
          if (!x.empty()) arr.push_back(x);
        }
        if (!arr.empty()) out.content[f.name] = std::move(arr);
        break;
      }
      case FieldKind::boolean: {
        // The checkbox sends the hidden "false" and, when ticked, "true" after it: the last counts.
        const std::string& last = vals.back();
        if (last == "true") {
          out.content[f.name] = true;
        } else if (last == "false") {
          out.content[f.name] = false;
        } else if (!last.empty()) {
          out.content[f.name] = last;
          out.errors.add(pointer, "type", messages::Message{"page.error.boolean", {}});
        }
        break;
      }
      case FieldKind::integer:
      case FieldKind::number: {
        const std::string text = trim_spaces(vals.back());
        if (text.empty()) break;
        if (const auto i = parse_int64(text)) {
          out.content[f.name] = *i;
          break;
        }
        const auto d = parse_double(text);
        if (f.kind == FieldKind::number && d) {
          out.content[f.name] = *d;
        } else if (f.kind == FieldKind::integer && d && std::floor(*d) == *d && std::fabs(*d) < 9.2e18) {
          out.content[f.name] = static_cast<std::int64_t>(*d);
        } else {
          out.content[f.name] = vals.back();  // as sent, to show again
          out.errors.add(pointer, "type",
                         messages::Message{
                             f.kind == FieldKind::integer ? "validation.type.integer" : "validation.type.number", {}});
        }
        break;
      }
      case FieldKind::single_select:
      case FieldKind::string: {
        const std::string& v = vals.back();
        if (v.empty()) break;
        out.content[f.name] = f.format == StringFormat::date_time ? from_datetime_local(v) : v;
        break;
      }
    }
  }
  return out;
}

ValidationResult validate_submission(const Form& form, const FormSubmission& submission) {
  // A body that could not be read has no content to check: "is required" for every field would
  // only hide the one error that matters.
  for (const auto& e : submission.errors.errors) {
    if (e.pointer.empty()) return submission.errors;
  }
  const auto checked = validate_content(form, submission.content);
  std::set<std::string> unconverted;
  for (const auto& e : submission.errors.errors) {
    if (const auto name = first_token(e.pointer)) unconverted.insert(*name);
  }
  // Schema order, as validate_content reports: per field, its conversion error or its checks;
  // then whatever is about no field (the body, extra properties).
  ValidationResult out;
  std::set<std::string> fields;
  for (const auto& f : form.fields) {
    fields.insert(f.name);
    const auto& source = unconverted.count(f.name) ? submission.errors.errors : checked.errors;
    for (const auto& e : source) {
      if (first_token(e.pointer) == f.name) out.errors.push_back(e);
    }
  }
  for (const auto* list : {&submission.errors.errors, &checked.errors}) {
    for (const auto& e : *list) {
      const auto name = first_token(e.pointer);
      if (!name || !fields.count(*name)) out.errors.push_back(e);
    }
  }
  return out;
}

}  // namespace elicit::forms
