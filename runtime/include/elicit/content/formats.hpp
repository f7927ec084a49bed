// String formats of the MCP 2025-11-25 StringSchema: email, uri, date, date-time.
#pragma once

#include <cstddef>
#include <string_view>

#include "elicit/content/form_table.hpp"  // StringFormat

namespace elicit {

/// Length in Unicode code points of UTF-8 text (what minLength/maxLength count, per JSON Schema).
/// Bytes that are not UTF-8 lead bytes are not counted; invalid UTF-8 is counted byte-wise for lead
/// bytes only and never throws.
std::size_t code_point_length(std::string_view utf8) noexcept;

/// RFC 5321 Mailbox: a dot-string or quoted-string local part (<= 64 octets), '@', and a domain of
/// LDH labels (each 1..63 octets, <= 255 in all) or an address literal ([IPv4] or [IPv6:...]).
/// The whole address is at most 254 octets. ASCII only (internationalised addresses are
/// "idn-email", not "email").
bool is_email(std::string_view s) noexcept;

/// RFC 3986 "URI": an absolute URI with scheme, optional authority, path, query and fragment,
/// percent-encodings well formed, IP literals checked. A relative reference is not a URI.
bool is_uri(std::string_view s) noexcept;

/// RFC 3339 full-date "YYYY-MM-DD" with the real number of days in the month (leap years).
bool is_date(std::string_view s) noexcept;

/// RFC 3339 date-time: full-date "T" hh:mm:ss[.frac] and "Z" or a +hh:mm/-hh:mm offset ("T" and
/// "Z" in either case). Second 60 is accepted only as a leap second, at 23:59:60 UTC.
bool is_date_time(std::string_view s) noexcept;

/// Dispatches to the checks above; StringFormat::none accepts everything.
bool matches_format(std::string_view s, StringFormat f) noexcept;

/// The JSON Schema spelling of a format ("email", "uri", "date", "date-time"; "" for none).
std::string_view format_name(StringFormat f) noexcept;

}  // namespace elicit
