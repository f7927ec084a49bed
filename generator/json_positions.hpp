// Where things are written in a JSON text: the line and column of a JSON Pointer's value, so that
// errors can say FILE:LINE:COLUMN (GCC style) for editors and CI problem matchers. nlohmann/json
// 3.11.2 (Debian 12) keeps no source positions, so the text is indexed once here, after nlohmann
// has parsed it.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace elicitgen {

/// A place in a text: 1-based line, and 1-based column counted in bytes (as GCC counts by default:
/// a tab is one column, "é" two). {0, 0} when unknown.
struct TextPosition {
  std::size_t line = 0;
  std::size_t column = 0;
  bool known() const { return line != 0; }
};

/// The position of the byte at 0-based `offset` of `text` (lines end at '\n'); an offset past the
/// end is the position just after the last byte.
TextPosition position_at(std::string_view text, std::size_t offset);

/// Every value of one JSON text and where it is written, for locating JSON Pointers (RFC 6901).
/// Built in one pass; never throws on malformed text (it indexes what it can read) and bounds its
/// recursion, so any bytes are safe. Object member names are compared decoded (escapes such as
/// \u00e9 and \/ resolved); of duplicate names, the last one counts, as nlohmann keeps the last.
class JsonPositions {
 public:
  explicit JsonPositions(std::string text);

  /// Where `pointer` is written: for an object member, the opening quote of its name (where an
  /// editor should put the cursor for "/properties/age/minimum"); for an array item or the whole
  /// document (""), the first byte of the value. When the pointer names something absent (a
  /// missing member, an index past the end, a token that is no index), the place of its nearest
  /// present ancestor. Line 1, column 1 for a text without a value.
  TextPosition locate(std::string_view pointer) const;

 private:
  struct Node {
    std::size_t name_at;   ///< offset of the member name's opening quote; npos for items and the root
    std::size_t value_at;  ///< offset of the value's first byte
    std::map<std::string, std::size_t> members;  ///< object: decoded name -> node index
    std::vector<std::size_t> items;              ///< array: node indices in order
  };
  std::size_t parse_value(std::size_t& at, std::size_t name_at, int depth);
  void skip_ws(std::size_t& at) const;
  bool read_string(std::size_t& at, std::string* decoded) const;
  void skip_scalar(std::size_t& at) const;

  std::string text_;
  std::vector<Node> nodes_;  ///< nodes_[0] is the root, when the text has a value
  std::vector<std::size_t> line_starts_;
};

}  // namespace elicitgen
