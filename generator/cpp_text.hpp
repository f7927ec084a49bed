// Schema strings made safe for C++ source: literals that keep every byte, comments that cannot
// end early or swallow the next line. A schema is input and may be hostile.
#pragma once

#include <string>
#include <string_view>

namespace elicitgen {

/// A narrow string literal with every byte preserved: printable ASCII as is (with \" \\ \?
/// escaped), anything else as a 3-digit octal escape, so NUL, newlines, "*/" and non-UTF-8 bytes
/// all round-trip. Long text becomes adjacent literals on separate lines.
std::string string_literal(std::string_view bytes);

/// `std::string_view{"...", N}`: exact even when the text holds NUL bytes.
std::string string_view_expr(std::string_view bytes);

/// Text for a `//` comment: control characters become spaces, runs of space collapse, a trailing
/// backslash (a line splice) is removed, a trigraph's second '?' is escaped ("??/" becomes "?\?/",
/// which no compiler mode reads as a backslash), and at most `max_chars` bytes are kept (cut at a
/// UTF-8 boundary, with "..." appended).
std::string comment_text(std::string_view text, std::size_t max_chars = 200);

/// A C++ double literal that reads back to exactly `value` ("18.0", "95.5", "1e+300").
std::string double_literal(double value);

}  // namespace elicitgen
