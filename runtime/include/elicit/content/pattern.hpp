// `pattern` support: ECMA-262 regular expressions run on RE2 (linear time, no backtracking).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace elicit {

/// Thrown when a pattern is not valid ECMA-262 or uses a feature that a linear-time engine cannot
/// run (backreferences, lookahead, lookbehind). what() says which and where (0-based offset).
class PatternError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Rewrites an ECMA-262 pattern (JSON Schema `pattern`, evaluated with Unicode semantics) into RE2
/// syntax: `.` excludes all four ECMA line terminators, `\s`/`\S` use ECMA's whitespace set,
/// `\uXXXX` / `\u{X}` / `\xHH` / `\cX` become code points, `[]` and `[^]` keep their ECMA meaning,
/// `(?<name>` becomes `(?P<name>`. Throws PatternError for backreferences and lookaround.
std::string translate_ecma_pattern(std::string_view ecma);

/// A compiled `pattern`. Matching is an unanchored search, as JSON Schema requires ("^...$" to
/// anchor). Compile once and reuse: copies share the compiled program, and `search` is
/// thread-safe. Matching time is linear in the input length.
class Pattern {
 public:
  /// Compiles an ECMA-262 pattern. Throws PatternError if it cannot be translated or compiled.
  explicit Pattern(std::string_view ecma_source);

  /// True when the pattern matches somewhere in `text` (UTF-8).
  bool search(std::string_view text) const;

  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace elicit
