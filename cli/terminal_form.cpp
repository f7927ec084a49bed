// The terminal form (terminal_form.hpp). Every rule a value must meet is the runtime's
// (elicit::validate_value, elicit::validate_content): this file only turns typed lines into JSON
// values and shows what the schema says; it never decides validity itself.
#include "terminal_form.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <vector>

#include <elicit/content/checks.hpp>
#include <elicit/content/formats.hpp>
#include <elicit/messages/catalog.hpp>

#include "display_width.hpp"

namespace elicitgen {
namespace {

using elicit::messages::Argument;

// The form's own words in `language` (runtime/messages: terminal.*).
std::string say(const std::string& language, std::string_view id,
                std::initializer_list<std::pair<std::string_view, Argument>> args = {}) {
  return elicit::messages::text(language, id, args);
}

// Whether `typed` (lower case) is one of the words of `id` ("y|yes|true"), in English or `language`.
bool is_word(const std::string& language, std::string_view id, const std::string& typed) {
  for (const auto& l : {std::string("en"), language}) {
    const auto words = say(l, id) + "|";
    std::size_t start = 0;
    for (auto bar = words.find('|'); bar != std::string::npos; start = bar + 1, bar = words.find('|', start)) {
      if (words.compare(start, bar - start, typed) == 0) return true;
    }
  }
  return false;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF): what a JSON string
// must hold. A terminal in another encoding could send other bytes; they are refused here rather
// than replaced on the wire behind the user's back.
bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

std::string label(const elicit::Field& f) { return terminal_safe(f.title ? *f.title : f.name); }

std::string option_label(const elicit::EnumChoice& c) {
  return c.title ? terminal_safe(*c.title) + " [" + terminal_safe(c.value) + "]" : terminal_safe(c.value);
}

bool is_select(const elicit::Field& f) {
  return f.kind == elicit::FieldKind::single_select || f.kind == elicit::FieldKind::multi_select;
}

// A value as the user reads it: an option's title, yes/no, JSON otherwise (strings quoted, so an
// empty or blank string is visible).
std::string show_value(const std::string& language, const elicit::Field& f, const nlohmann::json& v) {
  const auto dump = [](const nlohmann::json& j) {
    return terminal_safe(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  };
  if (f.kind == elicit::FieldKind::boolean && v.is_boolean())
    return say(language, v.get<bool>() ? "terminal.value.yes" : "terminal.value.no");
  const auto one = [&](const nlohmann::json& x) {
    if (x.is_string()) {
      for (const auto& o : f.options) {
        if (o.value == x.get_ref<const std::string&>()) return terminal_safe(o.title ? *o.title : o.value);
      }
    }
    return dump(x);
  };
  if (is_select(f) && v.is_array()) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + one(x);
    return s.empty() ? say(language, "terminal.value.none") : s;
  }
  return is_select(f) ? one(v) : dump(v);
}

// What the field takes, in one line: kind, format, lengths, bounds, item counts.
std::string hint(const std::string& language, const elicit::Field& f) {
  const auto sep = say(language, "terminal.hint.separator");
  // A range by its bounds: both ("from 2 to 5 characters"), or one ("at least 1 character"); counts
  // are integers (plural forms), number bounds the schema's own text.
  const auto count = [&](const std::optional<std::size_t>& lo, const std::optional<std::size_t>& hi, const char* both,
                         const char* min, const char* max) {
    const auto n = [](std::size_t v) { return Argument(static_cast<std::int64_t>(v)); };
    if (lo && hi) return say(language, both, {{"min", n(*lo)}, {"max", n(*hi)}});
    if (lo) return say(language, min, {{"min", n(*lo)}});
    return say(language, max, {{"max", n(*hi)}});
  };
  std::string s;
  switch (f.kind) {
    case elicit::FieldKind::string:
      s = say(language, "terminal.hint.text");
      switch (f.format) {
        case elicit::StringFormat::email:
          s += sep + say(language, "terminal.hint.email");
          break;
        case elicit::StringFormat::uri:
          s += sep + say(language, "terminal.hint.uri");
          break;
        case elicit::StringFormat::date:
          s += sep + say(language, "terminal.hint.date");
          break;
        case elicit::StringFormat::date_time:
          s += sep + say(language, "terminal.hint.date_time");
          break;
        case elicit::StringFormat::none:
          break;
      }
      if (f.min_length || f.max_length)
        s += sep + count(f.min_length, f.max_length, "terminal.hint.length_range", "terminal.hint.length_min",
                         "terminal.hint.length_max");
      if (f.pattern) s += sep + say(language, "terminal.hint.pattern", {{"pattern", terminal_safe(*f.pattern)}});
      break;
    case elicit::FieldKind::number:
    case elicit::FieldKind::integer:
      s = say(language, f.kind == elicit::FieldKind::integer ? "terminal.hint.integer" : "terminal.hint.number");
      if (f.minimum && f.maximum) {
        s += sep + say(language, "terminal.hint.range", {{"min", f.minimum->text}, {"max", f.maximum->text}});
      } else if (f.minimum) {
        s += sep + say(language, "terminal.hint.min", {{"min", f.minimum->text}});
      } else if (f.maximum) {
        s += sep + say(language, "terminal.hint.max", {{"max", f.maximum->text}});
      }
      break;
    case elicit::FieldKind::boolean:
      s = say(language, "terminal.hint.boolean");
      break;
    case elicit::FieldKind::single_select:
      s = say(language, "terminal.hint.single_select");
      break;
    case elicit::FieldKind::multi_select:
      s = say(language, "terminal.hint.multi_select");
      if (f.min_items || f.max_items)
        s += say(language, "terminal.hint.items_separator") +
             count(f.min_items, f.max_items, "terminal.hint.items_range", "terminal.hint.items_min",
                   "terminal.hint.items_max");
      break;
  }
  return s;
}

// One option by its number (1-based) or its wire value; nullopt when the text is neither.
std::optional<std::string> pick(const elicit::Field& f, const std::string& text) {
  if (!text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos) {
    const auto n = std::stoul(text);
    if (n >= 1 && n <= f.options.size()) return f.options[n - 1].value;
  }
  for (const auto& o : f.options) {
    if (o.value == text) return o.value;
  }
  return std::nullopt;
}

// The typed text as the field's JSON value, or the reason it is not one (the value's constraints
// are left to validate_value).
std::optional<nlohmann::json> read_value(const std::string& language, const elicit::Field& f, const std::string& typed,
                                         std::string& why) {
  const auto t = trim(typed);
  switch (f.kind) {
    case elicit::FieldKind::string:
      if (!is_utf8(typed)) {
        why = say(language, "terminal.read.utf8");
        return std::nullopt;
      }
      return nlohmann::json(typed);
    case elicit::FieldKind::number:
    case elicit::FieldKind::integer: {
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(t, nullptr, false);
      } catch (const nlohmann::json::exception&) {  // e.g. out_of_range.406 for 1e400
        j = nlohmann::json::value_t::discarded;
      }
      if (j.is_discarded() || !j.is_number()) {
        why = say(language, f.kind == elicit::FieldKind::integer ? "terminal.read.integer" : "terminal.read.number");
        return std::nullopt;
      }
      return j;
    }
    case elicit::FieldKind::boolean: {
      const auto l = lower(t);
      if (is_word(language, "terminal.answer.yes_words", l)) return nlohmann::json(true);
      if (is_word(language, "terminal.answer.no_words", l)) return nlohmann::json(false);
      why = say(language, "terminal.read.boolean");
      return std::nullopt;
    }
    case elicit::FieldKind::single_select:
      if (const auto v = pick(f, t)) return nlohmann::json(*v);
      why = say(language, "terminal.read.single_select", {{"count", static_cast<std::int64_t>(f.options.size())}});
      return std::nullopt;
    case elicit::FieldKind::multi_select: {
      nlohmann::json out = nlohmann::json::array();
      std::string token;
      const auto flush = [&]() {
        if (token.empty()) return true;
        const auto v = pick(f, token);
        if (!v) {
          why = say(
              language, "terminal.read.not_an_option",
              {{"token", "\"" + terminal_safe(token) + "\""}, {"count", static_cast<std::int64_t>(f.options.size())}});
          return false;
        }
        // A multi-select is a set (a repeated option is invalid content): "1,3,3" is refused, not
        // folded into "1,3", since which was meant (a slip for 1,3,4?) is the user's to say.
        if (std::find(out.begin(), out.end(), *v) != out.end()) {
          const auto o = std::find_if(f.options.begin(), f.options.end(),
                                      [&](const elicit::EnumChoice& c) { return c.value == *v; });
          why = say(language, "terminal.read.chosen_twice",
                    {{"number", static_cast<std::int64_t>(o - f.options.begin() + 1)}, {"option", option_label(*o)}});
          return false;
        }
        out.push_back(*v);
        token.clear();
        return true;
      };
      for (char c : t) {
        if (c == ',' || c == ' ' || c == '\t') {
          if (!flush()) return std::nullopt;
        } else {
          token += c;
        }
      }
      if (!flush()) return std::nullopt;
      return out;
    }
  }
  why = "unknown field kind";  // a Form never has one: no catalog message
  return std::nullopt;
}

}  // namespace

std::string terminal_safe(std::string_view text, bool keep_newlines) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' && keep_newlines) {
      out += '\n';
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      // C1 controls (U+0080..U+009F) in UTF-8: some terminals obey them (0x9B is CSI).
      const auto d = static_cast<unsigned char>(text[++i]);
      out += "\\u{";
      out += hex[d >> 4];
      out += hex[d & 0xF];
      out += '}';
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

TerminalForm::TerminalForm(std::istream& in, std::ostream& out, bool ansi, std::string language, std::size_t columns)
    : in_(in), out_(out), ansi_(ansi), language_(elicit::messages::resolve(language)), columns_(columns) {}

std::string TerminalForm::highlight(std::string_view text) const {
  if (!ansi_) return std::string(text);
  return "\x1b[1;7m" + std::string(text) + "\x1b[0m";
}

std::string TerminalForm::say(
    std::string_view id, std::initializer_list<std::pair<std::string_view, elicit::messages::Argument>> args) const {
  return elicit::messages::text(language_, id, args);
}

void TerminalForm::error(std::string_view pointer, std::string_view message) {
  out_ << "  "
       << wrap(say("terminal.error", {{"pointer", std::string(pointer)}, {"message", std::string(message)}}), columns_,
               "    ")
       << "\n";
}

bool TerminalForm::read_line(std::string& line) {
  out_.flush();
  if (!std::getline(in_, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void TerminalForm::show_options(const elicit::Field& f) {
  // Aligned by display width (a Hangul title takes two columns a syllable): the numbers to the
  // right, the wire values of titled options in one column.
  const auto digits = std::to_string(f.options.size()).size();
  std::size_t title_width = 0;
  for (const auto& o : f.options) {
    if (o.title) title_width = std::max(title_width, display_width(terminal_safe(*o.title)));
  }
  for (std::size_t i = 0; i < f.options.size(); ++i) {
    const auto& o = f.options[i];
    const auto n = std::to_string(i + 1);
    out_ << "    " << std::string(digits - n.size(), ' ') << n << ") ";
    if (o.title) {
      out_ << pad_to(terminal_safe(*o.title), title_width) << " [" << terminal_safe(o.value) << "]";
    } else {
      out_ << terminal_safe(o.value);
    }
    out_ << "\n";
  }
}

TerminalForm::Entry TerminalForm::ask_field(const elicit::Field& f, std::size_t index, std::size_t count,
                                            const std::optional<nlohmann::json>& current) {
  const auto pointer = elicit::check::child_pointer("", f.name);
  out_ << "\n[" << index + 1 << "/" << count << "] " << (ansi_ ? "\x1b[1m" + label(f) + "\x1b[0m" : label(f)) << "  "
       << say(f.required ? "terminal.field.required" : "terminal.field.optional") << "\n";
  if (f.description) out_ << "  " << wrap(terminal_safe(*f.description), columns_, "  ") << "\n";
  out_ << "  " << wrap(hint(language_, f), columns_, "  ") << "\n";
  show_options(f);
  // What Enter gives: the value entered before (when the form is filled in again), else the default.
  const std::optional<nlohmann::json> keep = current           ? current
                                             : f.default_value ? std::optional<nlohmann::json>(*f.default_value)
                                                               : std::nullopt;
  if (keep)
    out_ << "  "
         << say(current ? "terminal.value.current" : "terminal.value.default",
                {{"value", show_value(language_, f, *keep)}})
         << "\n";
  while (true) {
    out_ << "> ";
    std::string line;
    if (!read_line(line)) {
      out_ << "\n" << say("terminal.end_of_input") << "\n";
      return {Step::cancel, nullptr};
    }
    const auto t = trim(line);
    std::optional<nlohmann::json> value;
    if (t == ":decline") return {Step::decline, nullptr};
    if (t == ":cancel") return {Step::cancel, nullptr};
    if (t == ":skip") {
      if (!f.required) return {Step::skipped, nullptr};
      error(pointer, say("terminal.error.cannot_skip"));
      continue;
    }
    if (t == ":none" && f.kind == elicit::FieldKind::multi_select) {
      value = nlohmann::json::array();
    } else if (t.empty()) {
      if (keep) {
        value = *keep;
      } else if (!f.required) {
        return {Step::skipped, nullptr};
      } else {
        error(pointer, say("terminal.error.enter_value"));
        continue;
      }
    } else if (t[0] == ':' && (t.size() < 2 || t[1] != ':')) {
      out_ << "  "
           << say("terminal.error.plain",
                  {{"message", say("terminal.error.unknown_command", {{"command", terminal_safe(t)}})}})
           << "\n";
      continue;
    } else {
      // "::x" is the value ":x"; the rest is taken as typed.
      std::string typed = line;
      if (t[0] == ':') typed.erase(typed.find(':'), 1);
      std::string why;
      value = read_value(language_, f, typed, why);
      if (!value) {
        error(pointer, why);
        continue;
      }
    }
    const auto result = elicit::validate_value(f, *value, pointer);
    if (result.ok()) return {Step::value, std::move(*value)};
    for (const auto& e : result.errors) error(e.pointer, terminal_safe(e.in(language_)));
  }
}

elicit::Answer TerminalForm::ask_form(std::string_view message, const elicit::Form& form) {
  in_.clear();  // a Ctrl-D that cancelled an earlier form does not cancel this one
  out_ << "\n" << say("terminal.form.title") << "\n";
  if (!message.empty()) out_ << wrap(terminal_safe(message, true), columns_) << "\n";
  out_ << wrap(say("terminal.form.commands"), columns_) << "\n";
  const auto n = form.fields.size();
  std::vector<std::optional<nlohmann::json>> values(n);
  std::vector<bool> todo(n, true);
  bool again = false;
  while (true) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!todo[i]) continue;
      auto entry = ask_field(form.fields[i], i, n, again ? values[i] : std::nullopt);
      if (entry.step == Step::decline) {
        out_ << say("terminal.declined") << "\n";
        return elicit::Answer::decline();
      }
      if (entry.step == Step::cancel) {
        out_ << say("terminal.cancelled") << "\n";
        return elicit::Answer::cancel();
      }
      values[i] = entry.step == Step::value ? std::optional<nlohmann::json>(std::move(entry.value)) : std::nullopt;
    }
    nlohmann::json content = nlohmann::json::object();
    for (std::size_t i = 0; i < n; ++i) {
      if (values[i]) content[form.fields[i].name] = *values[i];
    }
    again = true;
    // Each value passed validate_value; the whole is checked too, so the content sent is exactly
    // what the runtime accepts (e.g. a required field skipped by a bug here would show up).
    const auto whole = elicit::validate_content(form, content);
    if (!whole.ok()) {
      std::fill(todo.begin(), todo.end(), false);
      bool any = false;
      for (const auto& e : whole.errors) {
        error(e.pointer, terminal_safe(e.in(language_)));
        for (std::size_t i = 0; i < n; ++i) {
          const auto p = elicit::check::child_pointer("", form.fields[i].name);
          if (e.pointer == p || e.pointer.rfind(p + "/", 0) == 0) todo[i] = any = true;
        }
      }
      if (!any) {
        out_ << say("terminal.cannot_be_valid") << "\n";
        return elicit::Answer::cancel();
      }
      continue;
    }
    // The review table: labels and their colons, then the values in one column (display width).
    out_ << "\n" << say("terminal.review.title") << "\n";
    std::size_t label_width = 0;
    for (const auto& f : form.fields) label_width = std::max(label_width, display_width(label(f)) + 1);
    for (std::size_t i = 0; i < n; ++i) {
      out_ << "  " << pad_to(label(form.fields[i]) + ":", label_width) << " "
           << (values[i] ? show_value(language_, form.fields[i], *values[i]) : say("terminal.value.left_out")) << "\n";
    }
    while (true) {
      out_ << say("terminal.review.send");
      std::string line;
      if (!read_line(line)) {
        out_ << "\n" << say("terminal.end_of_input") << "\n";
        return elicit::Answer::cancel();
      }
      const auto t = lower(trim(line));
      if (t.empty() || is_word(language_, "terminal.answer.yes_words", t))
        return elicit::Answer::accept(std::move(content));
      if (t == ":decline") {
        out_ << say("terminal.declined") << "\n";
        return elicit::Answer::decline();
      }
      if (t == ":cancel") {
        out_ << say("terminal.cancelled") << "\n";
        return elicit::Answer::cancel();
      }
      if (is_word(language_, "terminal.answer.no_words", t)) break;
      out_ << "  " << say("terminal.read.boolean") << "\n";
    }
    std::fill(todo.begin(), todo.end(), true);
  }
}

elicit::Answer TerminalForm::ask_url(const elicit::ElicitationRequest& r) {
  in_.clear();
  const auto& review = r.url_review;
  out_ << "\n" << say("terminal.url.title") << "\n";
  if (!r.message.empty()) out_ << wrap(terminal_safe(r.message, true), columns_) << "\n";
  // review_url refused control characters, so the URL prints as sent. The host is marked where it
  // is written in the URL (carets, and reverse video on a terminal); it is also shown on its own
  // as the review read it (lower case, Punycode), which is the name that decides where it goes.
  // The two labels share one column, whatever their language's width.
  const auto url_label = say("terminal.url.url");
  const auto host_label = say("terminal.url.host");
  const auto column = std::max(display_width(url_label), display_width(host_label));
  const std::string url = terminal_safe(r.url);
  const auto authority = url.find("://");
  const auto at = authority == std::string::npos ? std::string::npos : lower(url).find(review.host, authority + 3);
  const bool ascii = std::all_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (at != std::string::npos && ascii) {
    out_ << "  " << pad_to(url_label, column) << " " << url.substr(0, at)
         << highlight(url.substr(at, review.host.size())) << url.substr(at + review.host.size()) << "\n";
    out_ << "  " << std::string(column + 1, ' ') << std::string(at, ' ') << std::string(review.host.size(), '^')
         << "\n";
  } else {
    out_ << "  " << pad_to(url_label, column) << " " << url << "\n";
  }
  out_ << "  " << pad_to(host_label, column) << " " << highlight(review.host) << "\n";
  for (const auto& w : review.warnings)
    out_ << "  " << wrap(say("terminal.url.warning", {{"warning", terminal_safe(w)}}), columns_, "    ") << "\n";
  out_ << wrap(say("terminal.url.note"), columns_) << "\n";
  while (true) {
    out_ << say("terminal.url.ask");
    std::string line;
    if (!read_line(line)) {
      out_ << "\n" << say("terminal.end_of_input") << "\n";
      return elicit::Answer::cancel();
    }
    const auto t = lower(trim(line));
    if (is_word(language_, "terminal.answer.yes_words", t) && t != "true") {
      out_ << say("terminal.url.open_yourself", {{"url", url}}) << "\n";
      return elicit::Answer::accept();
    }
    if (t.empty() || (is_word(language_, "terminal.answer.no_words", t) && t != "false") || t == ":decline") {
      out_ << say("terminal.declined") << "\n";
      return elicit::Answer::decline();
    }
    if (t == ":cancel") {
      out_ << say("terminal.cancelled") << "\n";
      return elicit::Answer::cancel();
    }
    out_ << "  " << say("terminal.read.boolean") << "\n";
  }
}

elicit::Answer TerminalForm::ask(const elicit::ElicitationRequest& r) {
  if (r.url_mode) {
    if (r.url_review.allowed) return ask_url(r);
    // Never offered (Safe URL Handling); declined, as elicit::Client does before any handler runs.
    out_ << "\n" << say("terminal.url.unsafe", {{"reason", terminal_safe(r.url_review.refusal)}}) << "\n";
    return elicit::Answer::decline();
  }
  if (!r.form) {
    out_ << "\n" << say("terminal.schema.outside");
    for (const auto& d : r.schema_problems) {
      if (d.severity == elicit::Diagnostic::Severity::error)
        out_ << "\n  " << terminal_safe(d.pointer) << ": " << terminal_safe(d.message);
    }
    out_ << "\n" << say("terminal.cancelled") << "\n";
    return elicit::Answer::cancel();
  }
  return ask_form(r.message, *r.form);
}

bool stderr_shows_ansi() {
  const char* term = std::getenv("TERM");
  return isatty(2) && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
}

}  // namespace elicitgen
