// application/x-www-form-urlencoded (WHATWG URL, "application/x-www-form-urlencoded parsing"): what a
// browser sends when a form is submitted, and what OAuth endpoints read and write. Here in the
// HTTP layer, below both wings that decode it: the browser forms wing's page submissions
// (elicit/forms/html_form.hpp) and the authorization wing's OAuth responses.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::http {

/// One name or value of a form body decoded: '+' is a space, %XX a byte (either case of hex).
/// nullopt when a '%' is not followed by two hex digits. The bytes are returned as sent (no UTF-8
/// check: a validator says what is wrong with them). Never throws but std::bad_alloc.
std::optional<std::string> form_urldecode_component(std::string_view text);

/// Every name=value pair of a form body or query string, in order, repeated names kept (a
/// multi-select sends one pair per chosen option). Empty pieces ("a=1&&b=2") are skipped; a piece
/// without '=' is a name with an empty value. nullopt when any percent escape is malformed.
std::optional<std::vector<std::pair<std::string, std::string>>> form_urldecode(std::string_view body);

}  // namespace elicit::http
