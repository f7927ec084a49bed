// A nesting limit for JSON read from peers and from schema files. RFC 8259 section 9 lets a parser
// limit the depth of nesting; nlohmann parses iteratively but copies and serialises recursively,
// so a deep enough value (100,000 nested arrays fit in 200 KB) would exhaust the stack later.
#pragma once

#include <cstddef>
#include <string_view>

namespace elicit {

/// The deepest nesting of arrays and objects accepted in messages and schema files. MCP messages
/// and requestedSchemas need a handful of levels; tool arguments rarely more than a few dozen.
inline constexpr std::size_t kMaxJsonDepth = 1000;

/// Byte offset (0-based) of the first `[` or `{` that opens level `max_depth + 1`, or
/// std::string_view::npos when `text` nests no deeper than `max_depth`. Brackets inside strings
/// do not count (escapes are honoured). `text` need not be valid JSON: this only bounds depth,
/// the parser still checks everything else.
std::size_t find_too_deep(std::string_view text, std::size_t max_depth = kMaxJsonDepth) noexcept;

}  // namespace elicit
