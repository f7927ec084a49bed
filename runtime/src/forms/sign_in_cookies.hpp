// The cookies of the browser form pages' sign-in (RFC 6265bis): reading one from a request's
// Cookie field, and writing the Set-Cookie value of a `__Host-` cookie. Internal to elicit::forms.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace elicit::forms {

/// The value of the first cookie named `name` in a Cookie field ("a=1; b=2"), or nullopt.
std::optional<std::string_view> cookie_value(std::string_view cookie_field, std::string_view name);

/// A Set-Cookie value: `name`=`value`; Path=/; Max-Age (whole seconds of `max_age`, 0 deletes it);
/// Secure; HttpOnly; SameSite=Lax. What a `__Host-` name requires (Secure, Path=/, no Domain).
/// `name` and `value` must be cookie tokens already (base64url and '.', as sealed values are).
std::string set_cookie(std::string_view name, std::string_view value, std::chrono::milliseconds max_age);

}  // namespace elicit::forms
