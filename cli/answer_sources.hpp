// Where `elicitgen client` gets its answers when no person types them: a file of ElicitResults
// (--answers), the forms' defaults (--defaults), and on resume answers given by key (--answer
// KEY=JSON). Each may run out: then a plain call cancels (and fails), a parking call stops.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <elicit/client.hpp>

namespace elicitgen {

/// Reads an ElicitResult ({"action": "accept"|"decline"|"cancel"[, "content": {...}]}); nullopt with
/// `why` ("/action must be ...", "/content must be an object") otherwise.
std::optional<elicit::Answer> read_elicit_result(const nlohmann::json& j, std::string& why);

/// One answer of --answers and the line it came from (0: none was left, a cancel).
struct FileAnswer {
  elicit::Answer answer;
  int line = 0;
};

/// The answers of --answers, handed out in order to the elicitations as they come. A question asked
/// again is answered by the line it had: the same elicitationId (URL mode, 2025-11-25), or the same
/// inputRequests key with the same params (2026-07-28: a URL page not finished yet is asked again
/// every round); a question asked again after an invalid answer says why in its message, so it is
/// a new question and takes the next line. Thread-safe (2025-11-25 answers on two threads).
class AnswerQueue {
 public:
  /// Reads FILE; false (after saying where and why on stderr) when a line is not an ElicitResult.
  bool load(const std::string& path);
  /// The answer to `r`: the line it was given before, else the next one. Once they are used up:
  /// with `may_stop`, nullopt (the call parks); else cancel, saying on stderr which question found
  /// none (exhausted() is then true).
  std::optional<FileAnswer> next(const elicit::ElicitationRequest& r, bool may_stop = false);
  bool exhausted() const;
  bool loaded() const noexcept { return !path_.empty(); }
  const std::string& path() const noexcept { return path_; }

 private:
  mutable std::mutex mutex_;
  std::string path_;
  std::deque<FileAnswer> answers_;
  std::map<std::string, FileAnswer> given_;
  bool exhausted_ = false;
};

/// An accepted answer from the file that the form's rules refuse, said on stderr where it came from
/// (FILE:LINE: /content/pointer: message); it is still sent as is, so that a server's handling of
/// invalid content can be tried.
void report_invalid(const std::string& path, const FileAnswer& a, const elicit::ElicitationRequest& r);

/// --defaults: accepts a form with its defaults; a URL request is declined (consent needs a
/// person). A form its defaults cannot fill in (a required field without a default): with
/// `may_stop`, nullopt (the call parks; the fields named on stderr); else declined, naming what is
/// missing, and `failed` set.
std::optional<elicit::Answer> with_defaults(const elicit::ElicitationRequest& r, std::atomic<bool>& failed,
                                            bool may_stop = false);

/// --answer KEY=JSON (resume): answers by inputRequests key, each used once. JSON is an
/// ElicitResult when it is an object whose only members are "action" (a string) and "content";
/// any other object is the content of an accept.
class KeyedAnswers {
 public:
  /// Adds one KEY=JSON; false with `error` set when it has no '=', an empty key, a key given
  /// twice, or JSON that is not an object or not a valid ElicitResult.
  bool add(const std::string& pair, std::string& error);
  /// The answer for `key`, taken (a second call for the same key finds none).
  std::optional<elicit::Answer> take(const std::string& key);
  bool empty() const noexcept { return answers_.empty(); }
  /// The keys given, in order.
  std::vector<std::string> keys() const;

 private:
  std::map<std::string, elicit::Answer> answers_;
  std::map<std::string, bool> used_;
};

}  // namespace elicitgen
