// The short pages a browser form's URL answers with when it shows no form (thanks, expired, not
// yours...): one template, every text HTML-escaped. Internal to elicit::runtime.
#pragma once

#include <string>
#include <string_view>

namespace elicit::detail {

/// A complete HTML5 page (UTF-8): `title` as its <title> and heading, `text` as one paragraph.
/// `style` is put in the page's one <style> element as is: the form page's CSS, whose hash the
/// Content-Security-Policy of every page allows (form_page_csp), so these pages need no other.
std::string browser_form_status_page(std::string_view title, std::string_view text, std::string_view style);

}  // namespace elicit::detail
