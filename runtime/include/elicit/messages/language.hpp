// Which language a person asked for: from an HTTP request's Accept-Language (the browser page) or
// from the POSIX locale environment (the terminal form). Library elicit::messages.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace elicit::messages {

/// The language of languages() an `Accept-Language` header value asks for (RFC 9110 section 12.5.4):
/// its language ranges in order of quality (q=0 excluded; ties keep their order), each matched by
/// RFC 4647 lookup (section 3.4: the range, then each shorter prefix of it) against the catalog's
/// languages; `*` matches English. "en" when none matches, for an empty header, and for one that
/// does not parse or is longer than 4,096 bytes (a header is what any client sends).
std::string from_accept_language(std::string_view header);

/// The language of a POSIX locale name (`ko_KR.UTF-8`, `ko_KR@euro`, `ko`): its language and
/// territory, resolved as resolve() does; `C`, `POSIX`, `C.UTF-8` and "" are English.
std::string from_locale_name(std::string_view name);

/// The language the locale environment asks for, in the POSIX order: the first of `LC_ALL`,
/// `LC_MESSAGES` and `LANG` that is set and not empty (from_locale_name of it); "en" when none is.
/// Reads the environment (getenv): call it before starting threads that may change it.
std::string from_environment();

}  // namespace elicit::messages
