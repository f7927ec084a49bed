// Text laid out on a terminal by the columns it takes (libunistring, UAX #11 East Asian Width and
// UAX #14 line breaking): a Hangul syllable takes two columns, a combining mark none. For the
// terminal form's aligned columns (option lists, the review table) and wrapped paragraphs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace elicitgen {

/// The columns `utf8` takes on a terminal (wide characters 2, combining marks and controls 0).
/// Bytes that are not UTF-8 count one column each.
std::size_t display_width(std::string_view utf8);

/// `utf8` followed by spaces up to `columns` display columns (nothing added when it is as wide or
/// wider).
std::string pad_to(std::string_view utf8, std::size_t columns);

/// `utf8` wrapped to lines of at most `columns` display columns where the text allows a break (UAX
/// #14: at spaces, and between ideographs and Hangul syllables, never inside a syllable or a word
/// of Latin letters), every line after the first starting with `indent` (whose width counts);
/// existing newlines are kept. A word wider than a line stays whole. `columns` 0: unchanged.
std::string wrap(std::string_view utf8, std::size_t columns, std::string_view indent = "");

/// The width of the terminal on stderr (TIOCGWINSZ; else `COLUMNS`), 0 when stderr is not a
/// terminal and COLUMNS is unset.
std::size_t stderr_columns();

}  // namespace elicitgen
