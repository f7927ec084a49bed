// Answers that come from files and flags (answer_sources.hpp).
#include "answer_sources.hpp"

#include <fstream>
#include <iostream>

#include <elicit/content/form_defaults.hpp>

#include "terminal_form.hpp"

namespace elicitgen {
namespace {

// What makes two requests one question; "" when nothing does (a 2025-11-25 form).
std::string identity_of(const elicit::ElicitationRequest& r) {
  if (r.url_mode && !r.elicitation_id.empty()) return "elicitationId\n" + r.elicitation_id;
  // 2026-07-28 URL mode has no elicitationId, and a page not finished yet is asked again with a
  // note added to the message: the key and the URL name it.
  if (r.url_mode && !r.key.empty()) return "url\n" + r.key + "\n" + r.url;
  if (!r.key.empty()) return "key\n" + r.key + "\n" + r.params.dump();
  return "";
}

}  // namespace

std::optional<elicit::Answer> read_elicit_result(const nlohmann::json& j, std::string& why) {
  if (!j.is_object()) {
    why = "must be an ElicitResult object, e.g. {\"action\":\"accept\",\"content\":{...}}";
    return std::nullopt;
  }
  const auto action = j.value("action", nlohmann::json());
  if (action == "accept") {
    auto a = elicit::Answer::accept(j.value("content", nlohmann::json::object()));
    if (!a.content.is_object()) {
      why = "/content must be an object";
      return std::nullopt;
    }
    return a;
  }
  if (action == "decline") return elicit::Answer::decline();
  if (action == "cancel") return elicit::Answer::cancel();
  why = "/action must be \"accept\", \"decline\" or \"cancel\"";
  return std::nullopt;
}

bool AnswerQueue::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << path << ": error: cannot read the answers file\n";
    return false;
  }
  path_ = path;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    const auto where = path + ":" + std::to_string(n) + ": error: ";
    std::string why;
    auto a = j.is_discarded() ? std::nullopt : read_elicit_result(j, why);
    if (!a) {
      std::cerr << where
                << (j.is_discarded() || !j.is_object()
                        ? "each line must be one ElicitResult object, e.g. {\"action\":\"accept\",\"content\":{...}}"
                        : why)
                << "\n";
      return false;
    }
    answers_.push_back({std::move(*a), n});
  }
  return true;
}

std::optional<FileAnswer> AnswerQueue::next(const elicit::ElicitationRequest& r, bool may_stop) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto identity = identity_of(r);
  if (!identity.empty()) {
    if (const auto given = given_.find(identity); given != given_.end()) return given->second;
  }
  if (answers_.empty()) {
    if (may_stop) return std::nullopt;
    exhausted_ = true;
    std::cerr << "elicitgen client: " << path_ << " has no answer left for the " << (r.url_mode ? "URL-mode " : "form ")
              << "elicitation " << (r.key.empty() ? std::string() : "under key \"" + terminal_safe(r.key) + "\" ")
              << "\"" << terminal_safe(r.message) << "\": cancel\n";
    return FileAnswer{elicit::Answer::cancel(), 0};
  }
  auto a = std::move(answers_.front());
  answers_.pop_front();
  if (!identity.empty()) given_.emplace(identity, a);
  return a;
}

bool AnswerQueue::exhausted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return exhausted_;
}

void report_invalid(const std::string& path, const FileAnswer& a, const elicit::ElicitationRequest& r) {
  if (a.line == 0 || a.answer.action != elicit::ElicitAction::accept || r.url_mode || !r.form) return;
  const auto check = elicit::validate_content(*r.form, a.answer.content);
  if (check.ok()) return;
  std::string text;  // one write: 2025-11-25 answers on two threads
  for (const auto& e : check.errors) {
    text += path + ":" + std::to_string(a.line) + ": error: /content" + terminal_safe(e.pointer) + ": " +
            terminal_safe(e.message) + "\n";
  }
  std::cerr << text << "elicitgen client: the content of " << path << ":" << a.line
            << " does not fit the form; sent as is, the server decides\n";
}

// Accepting a form its defaults cannot fill in would send content the server must refuse (under
// 2026-07-28 it asks again, round after round, until ClientOptions::max_rounds ends the call), and
// only a person or --answers can fill it in.
std::optional<elicit::Answer> with_defaults(const elicit::ElicitationRequest& r, std::atomic<bool>& failed,
                                            bool may_stop) {
  if (r.url_mode) return elicit::Answer::decline();
  if (!r.form) {
    std::cerr << "elicitgen client: the form is outside the spec's subset (" +
                     (r.schema_problems.empty() ? std::string("?")
                                                : r.schema_problems[0].pointer + ": " + r.schema_problems[0].message) +
                     "): cancel\n";
    return elicit::Answer::cancel();
  }
  std::string missing;
  std::size_t count = 0;
  for (const auto& f : r.form->fields) {
    if (!f.required || f.default_value) continue;
    missing += (count++ ? ", " : "") + terminal_safe(f.name);
  }
  // That is the only way the defaults can fail: a form (r.form) exists only when every default
  // satisfies its own property (parse_requested_schema), and the other rules are per property.
  if (count == 0) return elicit::Answer::accept(elicit::form_defaults(*r.form));
  const std::string why =
      "--defaults cannot fill in the form \"" + terminal_safe(r.message) +
      "\": " + (count == 1 ? "required field without a default: " : "required fields without a default: ") + missing;
  if (may_stop) {
    std::cerr << "elicitgen client: " << why << ": left for later\n";
    return std::nullopt;
  }
  failed = true;
  std::cerr << "elicitgen client: " << why << ": decline (answer it with --answers FILE or on a terminal)\n";
  return elicit::Answer::decline();
}

bool KeyedAnswers::add(const std::string& pair, std::string& error) {
  const auto eq = pair.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--answer " + pair + ": must be KEY=JSON (the question's key, then its answer)";
    return false;
  }
  const auto key = pair.substr(0, eq);
  if (answers_.count(key)) {
    error = "--answer: the key \"" + key + "\" is given twice";
    return false;
  }
  const auto j = nlohmann::json::parse(pair.substr(eq + 1), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "--answer " + key +
            ": the answer must be a JSON object: an ElicitResult ({\"action\":\"decline\"}) or "
            "the content of an accept ({\"field\":\"value\"})";
    return false;
  }
  // An ElicitResult has an "action" string and at most "content" besides; anything else is content.
  bool result = j.contains("action") && j["action"].is_string();
  for (const auto& [member, value] : j.items()) result = result && (member == "action" || member == "content");
  std::optional<elicit::Answer> a;
  if (result) {
    std::string why;
    a = read_elicit_result(j, why);
    if (!a) {
      error = "--answer " + key + ": " + why;
      return false;
    }
  } else {
    a = elicit::Answer::accept(j);
  }
  answers_.emplace(key, std::move(*a));
  used_[key] = false;
  return true;
}

std::optional<elicit::Answer> KeyedAnswers::take(const std::string& key) {
  const auto it = answers_.find(key);
  if (it == answers_.end() || used_[key]) return std::nullopt;
  used_[key] = true;
  return it->second;
}

std::vector<std::string> KeyedAnswers::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, answer] : answers_) out.push_back(key);
  return out;
}

}  // namespace elicitgen
