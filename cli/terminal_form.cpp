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

namespace elicitgen {
namespace {

constexpr const char* kCommands =
    "Enter keeps the default (or leaves an optional field out); :skip leaves an optional field out.\n"
    ":decline declines the form; :cancel or Ctrl-D cancels it; ::x types a value starting with ':'.";

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
std::string show_value(const elicit::Field& f, const nlohmann::json& v) {
  const auto dump = [](const nlohmann::json& j) {
    return terminal_safe(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  };
  if (f.kind == elicit::FieldKind::boolean && v.is_boolean()) return v.get<bool>() ? "yes" : "no";
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
    return s.empty() ? "(none)" : s;
  }
  return is_select(f) ? one(v) : dump(v);
}

// What the field takes, in one line: kind, format, lengths, bounds, item counts.
std::string hint(const elicit::Field& f) {
  std::string s;
  // `unit` is plural (" characters"); a single bound of 1 reads "at least 1 character".
  const auto range = [](const std::string& lo, const std::string& hi, const std::string& unit) {
    if (!lo.empty() && !hi.empty()) return "from " + lo + " to " + hi + unit;
    const auto& n = lo.empty() ? hi : lo;
    const auto u = n == "1" && !unit.empty() ? unit.substr(0, unit.size() - 1) : unit;
    return (lo.empty() ? "at most " : "at least ") + n + u;
  };
  switch (f.kind) {
    case elicit::FieldKind::string:
      s = "text";
      switch (f.format) {
        case elicit::StringFormat::email:
          s += ", an email address (name@example.com)";
          break;
        case elicit::StringFormat::uri:
          s += ", a URI (https://example.com/page)";
          break;
        case elicit::StringFormat::date:
          s += ", a date (YYYY-MM-DD)";
          break;
        case elicit::StringFormat::date_time:
          s += ", a date and time (2026-07-28T09:30:00Z)";
          break;
        case elicit::StringFormat::none:
          break;
      }
      if (f.min_length || f.max_length)
        s += ", " + range(f.min_length ? std::to_string(*f.min_length) : "",
                          f.max_length ? std::to_string(*f.max_length) : "", " characters");
      if (f.pattern) s += ", matching /" + terminal_safe(*f.pattern) + "/";
      break;
    case elicit::FieldKind::number:
    case elicit::FieldKind::integer:
      s = f.kind == elicit::FieldKind::integer ? "a whole number" : "a number";
      if (f.minimum || f.maximum)
        s += ", " + range(f.minimum ? f.minimum->text : "", f.maximum ? f.maximum->text : "", "");
      break;
    case elicit::FieldKind::boolean:
      s = "y or n";
      break;
    case elicit::FieldKind::single_select:
      s = "one option: its number or its value";
      break;
    case elicit::FieldKind::multi_select:
      s = "any options, each once: numbers or values separated by commas (e.g. 1,3); :none for none";
      if (f.min_items || f.max_items)
        s += "; " + range(f.min_items ? std::to_string(*f.min_items) : "",
                          f.max_items ? std::to_string(*f.max_items) : "", " options");
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
std::optional<nlohmann::json> read_value(const elicit::Field& f, const std::string& typed, std::string& why) {
  const auto t = trim(typed);
  switch (f.kind) {
    case elicit::FieldKind::string:
      if (!is_utf8(typed)) {
        why = "the text is not valid UTF-8";
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
        why = f.kind == elicit::FieldKind::integer ? "enter a whole number, e.g. 42" : "enter a number, e.g. 42 or 3.5";
        return std::nullopt;
      }
      return j;
    }
    case elicit::FieldKind::boolean: {
      const auto l = lower(t);
      if (l == "y" || l == "yes" || l == "true") return nlohmann::json(true);
      if (l == "n" || l == "no" || l == "false") return nlohmann::json(false);
      why = "answer y or n";
      return std::nullopt;
    }
    case elicit::FieldKind::single_select:
      if (const auto v = pick(f, t)) return nlohmann::json(*v);
      why = "choose a number from 1 to " + std::to_string(f.options.size()) + " or one of the values";
      return std::nullopt;
    case elicit::FieldKind::multi_select: {
      nlohmann::json out = nlohmann::json::array();
      std::string token;
      const auto flush = [&]() {
        if (token.empty()) return true;
        const auto v = pick(f, token);
        if (!v) {
          why = "\"" + terminal_safe(token) + "\" is not an option: use numbers from 1 to " +
                std::to_string(f.options.size()) + " or the values";
          return false;
        }
        // A multi-select is a set (a repeated option is invalid content): "1,3,3" is refused, not
        // folded into "1,3", since which was meant (a slip for 1,3,4?) is the user's to say.
        if (std::find(out.begin(), out.end(), *v) != out.end()) {
          const auto o = std::find_if(f.options.begin(), f.options.end(),
                                      [&](const elicit::EnumChoice& c) { return c.value == *v; });
          why = "option " + std::to_string(o - f.options.begin() + 1) + " (" + option_label(*o) +
                ") is chosen twice: name each option once";
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
  why = "unknown field kind";
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

TerminalForm::TerminalForm(std::istream& in, std::ostream& out, bool ansi) : in_(in), out_(out), ansi_(ansi) {}

std::string TerminalForm::highlight(std::string_view text) const {
  if (!ansi_) return std::string(text);
  return "\x1b[1;7m" + std::string(text) + "\x1b[0m";
}

bool TerminalForm::read_line(std::string& line) {
  out_.flush();
  if (!std::getline(in_, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

TerminalForm::Entry TerminalForm::ask_field(const elicit::Field& f, std::size_t index, std::size_t count,
                                            const std::optional<nlohmann::json>& current) {
  const auto pointer = elicit::check::child_pointer("", f.name);
  out_ << "\n[" << index + 1 << "/" << count << "] " << (ansi_ ? "\x1b[1m" + label(f) + "\x1b[0m" : label(f))
       << (f.required ? "  (required)" : "  (optional)") << "\n";
  if (f.description) out_ << "  " << terminal_safe(*f.description) << "\n";
  out_ << "  " << hint(f) << "\n";
  for (std::size_t i = 0; i < f.options.size(); ++i)
    out_ << "    " << i + 1 << ") " << option_label(f.options[i]) << "\n";
  // What Enter gives: the value entered before (when the form is filled in again), else the default.
  const std::optional<nlohmann::json> keep = current           ? current
                                             : f.default_value ? std::optional<nlohmann::json>(*f.default_value)
                                                               : std::nullopt;
  if (keep) out_ << "  " << (current ? "current: " : "default: ") << show_value(f, *keep) << "\n";
  while (true) {
    out_ << "> ";
    std::string line;
    if (!read_line(line)) {
      out_ << "\n(end of input: cancel)\n";
      return {Step::cancel, nullptr};
    }
    const auto t = trim(line);
    std::optional<nlohmann::json> value;
    if (t == ":decline") return {Step::decline, nullptr};
    if (t == ":cancel") return {Step::cancel, nullptr};
    if (t == ":skip") {
      if (!f.required) return {Step::skipped, nullptr};
      out_ << "  error: " << pointer << ": required: it cannot be left out\n";
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
        out_ << "  error: " << pointer << ": required: enter a value\n";
        continue;
      }
    } else if (t[0] == ':' && (t.size() < 2 || t[1] != ':')) {
      out_ << "  error: unknown command " << terminal_safe(t)
           << " (:decline, :cancel, :skip, :none; ::x for a value starting with ':')\n";
      continue;
    } else {
      // "::x" is the value ":x"; the rest is taken as typed.
      std::string typed = line;
      if (t[0] == ':') typed.erase(typed.find(':'), 1);
      std::string why;
      value = read_value(f, typed, why);
      if (!value) {
        out_ << "  error: " << pointer << ": " << why << "\n";
        continue;
      }
    }
    const auto result = elicit::validate_value(f, *value, pointer);
    if (result.ok()) return {Step::value, std::move(*value)};
    for (const auto& e : result.errors) out_ << "  error: " << e.pointer << ": " << terminal_safe(e.message) << "\n";
  }
}

elicit::Answer TerminalForm::ask_form(std::string_view message, const elicit::Form& form) {
  in_.clear();  // a Ctrl-D that cancelled an earlier form does not cancel this one
  out_ << "\n== The server asks for information ==\n";
  if (!message.empty()) out_ << terminal_safe(message, true) << "\n";
  out_ << kCommands << "\n";
  const auto n = form.fields.size();
  std::vector<std::optional<nlohmann::json>> values(n);
  std::vector<bool> todo(n, true);
  bool again = false;
  while (true) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!todo[i]) continue;
      auto entry = ask_field(form.fields[i], i, n, again ? values[i] : std::nullopt);
      if (entry.step == Step::decline) {
        out_ << "(declined)\n";
        return elicit::Answer::decline();
      }
      if (entry.step == Step::cancel) {
        out_ << "(cancelled)\n";
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
        out_ << "  error: " << e.pointer << ": " << terminal_safe(e.message) << "\n";
        for (std::size_t i = 0; i < n; ++i) {
          const auto p = elicit::check::child_pointer("", form.fields[i].name);
          if (e.pointer == p || e.pointer.rfind(p + "/", 0) == 0) todo[i] = any = true;
        }
      }
      if (!any) {
        out_ << "(the content cannot be made valid here: cancelled)\n";
        return elicit::Answer::cancel();
      }
      continue;
    }
    out_ << "\nReview:\n";
    for (std::size_t i = 0; i < n; ++i) {
      out_ << "  " << label(form.fields[i]) << ": "
           << (values[i] ? show_value(form.fields[i], *values[i]) : std::string("(left out)")) << "\n";
    }
    while (true) {
      out_ << "Send this? [Y/n] (n: fill in again) > ";
      std::string line;
      if (!read_line(line)) {
        out_ << "\n(end of input: cancel)\n";
        return elicit::Answer::cancel();
      }
      const auto t = lower(trim(line));
      if (t.empty() || t == "y" || t == "yes") return elicit::Answer::accept(std::move(content));
      if (t == ":decline") {
        out_ << "(declined)\n";
        return elicit::Answer::decline();
      }
      if (t == ":cancel") {
        out_ << "(cancelled)\n";
        return elicit::Answer::cancel();
      }
      if (t == "n" || t == "no") break;
      out_ << "  answer y or n\n";
    }
    std::fill(todo.begin(), todo.end(), true);
  }
}

elicit::Answer TerminalForm::ask_url(const elicit::ElicitationRequest& r) {
  in_.clear();
  const auto& review = r.url_review;
  out_ << "\n== The server asks you to open a page ==\n";
  if (!r.message.empty()) out_ << terminal_safe(r.message, true) << "\n";
  // review_url refused control characters, so the URL prints as sent. The host is marked where it
  // is written in the URL (carets, and reverse video on a terminal); it is also shown on its own
  // as the review read it (lower case, Punycode), which is the name that decides where it goes.
  const std::string url = terminal_safe(r.url);
  const auto authority = url.find("://");
  const auto at = authority == std::string::npos ? std::string::npos : lower(url).find(review.host, authority + 3);
  const bool ascii = std::all_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (at != std::string::npos && ascii) {
    out_ << "  URL:  " << url.substr(0, at) << highlight(url.substr(at, review.host.size()))
         << url.substr(at + review.host.size()) << "\n";
    out_ << "        " << std::string(at, ' ') << std::string(review.host.size(), '^') << "\n";
  } else {
    out_ << "  URL:  " << url << "\n";
  }
  out_ << "  Host: " << highlight(review.host) << "\n";
  for (const auto& w : review.warnings) out_ << "  warning: " << terminal_safe(w) << "\n";
  out_ << "elicitgen does not open or fetch it. :cancel or Ctrl-D cancels.\n";
  while (true) {
    out_ << "Open this page? [y/N] > ";
    std::string line;
    if (!read_line(line)) {
      out_ << "\n(end of input: cancel)\n";
      return elicit::Answer::cancel();
    }
    const auto t = lower(trim(line));
    if (t == "y" || t == "yes") {
      out_ << "Open it yourself: " << url << "\n";
      return elicit::Answer::accept();
    }
    if (t.empty() || t == "n" || t == "no" || t == ":decline") {
      out_ << "(declined)\n";
      return elicit::Answer::decline();
    }
    if (t == ":cancel") {
      out_ << "(cancelled)\n";
      return elicit::Answer::cancel();
    }
    out_ << "  answer y or n\n";
  }
}

elicit::Answer TerminalForm::ask(const elicit::ElicitationRequest& r) {
  if (r.url_mode) {
    if (r.url_review.allowed) return ask_url(r);
    // Never offered (Safe URL Handling); declined, as elicit::Client does before any handler runs.
    out_ << "\nThe server sent a URL that is not safe to offer (" << terminal_safe(r.url_review.refusal)
         << "): declined\n";
    return elicit::Answer::decline();
  }
  if (!r.form) {
    out_ << "\nThe server sent a form outside the spec's subset:";
    for (const auto& d : r.schema_problems) {
      if (d.severity == elicit::Diagnostic::Severity::error)
        out_ << "\n  " << terminal_safe(d.pointer) << ": " << terminal_safe(d.message);
    }
    out_ << "\n(cancelled)\n";
    return elicit::Answer::cancel();
  }
  return ask_form(r.message, *r.form);
}

bool stderr_shows_ansi() {
  const char* term = std::getenv("TERM");
  return isatty(2) && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
}

}  // namespace elicitgen
