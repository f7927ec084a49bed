// URI templates of MCP resource templates (MCP 2025-11-25, Server, Resources, "Resource
// Templates"; RFC 6570): which concrete URIs a template covers, and the values of its variables.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace elicit {

/// A parsed RFC 6570 URI template, matched against URIs (the reverse of expansion). Supported:
/// literal text, simple string expansion `{var}` (level 1: one variable, matches one or more
/// characters other than '/', '?' and '#') and reserved expansion `{+var}` (level 2: matches one or
/// more of any character, '/' included). The matched text of each variable is percent-decoded
/// (invalid or incomplete %-escapes stay as written). Immutable, so thread-safe; copies share the
/// compiled matcher.
class UriTemplate {
 public:
  /// Throws std::invalid_argument saying where (0-based byte offset) and why for an unclosed or
  /// empty expression, a variable name that is not RFC 6570 varname, a variable named twice, or an
  /// operator or modifier this class does not match (`{#x}`, `{/x}`, `{?x}`, `{x*}`, `{x:3}`,
  /// `{x,y}`, ...).
  explicit UriTemplate(std::string text);

  const std::string& text() const noexcept { return text_; }
  /// The variable names in the order they appear.
  const std::vector<std::string>& variables() const noexcept { return variables_; }
  /// The variables' values when `uri` is one of this template's URIs (the whole URI), else nullopt.
  std::optional<std::map<std::string, std::string>> match(std::string_view uri) const;

 private:
  std::string text_;
  std::vector<std::string> variables_;
  std::shared_ptr<const re2::RE2> regex_;
};

}  // namespace elicit
