// The message catalog: every word elicitgen says to the person filling in a form (validation
// messages, the terminal form's and the browser page's own text), in each language it has, English
// first. Library elicit::messages (ICU: resource bundles and MessageFormat; docs/languages.md).
//
// The catalog is compiled into the library (runtime/messages/<language>.txt, ICU resource bundle
// text, built with genrb and pkgdata): nothing to install, nothing read from disk. English is its
// root: a message a language lacks is said in English, and an id the catalog does not have is
// returned as it is, so text() never returns an empty string for a non-empty id.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace elicit::messages {

/// A value of a named argument: counts and limits as integers (they choose plural forms), numbers,
/// and text (put in as it is, never read as a pattern).
using Argument = std::variant<std::int64_t, double, std::string>;

/// A message for a person: its id in the catalog (`validation.min_length`) and its named
/// arguments (`limit` = 20), in any order. Plain data; equal when both are.
struct Message {
  std::string id;
  std::vector<std::pair<std::string, Argument>> args;

  friend bool operator==(const Message& a, const Message& b) { return a.id == b.id && a.args == b.args; }
  friend bool operator!=(const Message& a, const Message& b) { return !(a == b); }
};

/// The languages the catalog has, as BCP 47 language tags ("en", "ko"), English first.
const std::vector<std::string>& languages();

/// Which of languages() says `language` (a BCP 47 tag such as "ko-KR", or a POSIX locale name's
/// language part such as "ko_KR"): the tag itself, or the longest prefix of it (RFC 4647 lookup:
/// "ko-Kore-KR" is "ko"), compared case-insensitively; "en" for "" and for a language the catalog
/// does not have.
std::string resolve(std::string_view language);

/// `message` said in `language` (resolved as resolve() does), its arguments formatted by that
/// language's rules (plural forms, digits grouped). A message that language lacks: English. An id
/// the catalog does not have: the id; an argument the pattern names but `message` lacks: left as
/// `{name}`. Thread-safe (each pattern is parsed once per language and kept).
std::string text(std::string_view language, const Message& message);
/// The same with the message given inline: text("ko", "validation.min_length", {{"limit", 20}}).
std::string text(std::string_view language, std::string_view id,
                 std::initializer_list<std::pair<std::string_view, Argument>> args = {});

/// Every message id of the catalog (English has them all), sorted.
std::vector<std::string> ids();
/// The pattern of `id` in `language` itself (not English), or "" when that language lacks it. For
/// tests of the catalog and for translators.
std::string pattern(std::string_view language, std::string_view id);

}  // namespace elicit::messages
