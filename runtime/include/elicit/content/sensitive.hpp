// Which fields look like they ask for a secret. MCP 2025-11-25 (client/elicitation.md, "Security
// Considerations"): servers MUST NOT request passwords, API keys, tokens or payment details through
// form mode. The generator warns about such fields, and the URL-mode page (html_form.hpp) shows them
// as password inputs: one heuristic, here, so that both agree.
#pragma once

#include <string_view>

namespace elicit {

struct Field;

/// True when `text` (a property name or title, any spelling: "apiKey", "API key", "api_key") names
/// a secret: after lower-casing ASCII letters and dropping every byte that is not an ASCII letter
/// or digit, it contains one of password, passwd, passphrase, secret, token, apikey, accesskey,
/// privatekey, creditcard, cardnumber, cvv, cvc, ssn. A heuristic: false positives are cheap (a
/// warning, a masked input), so it errs on that side. Thread-safe; throws only std::bad_alloc.
bool looks_secret(std::string_view text);

/// looks_secret() of the field's property name or of its title.
bool looks_secret(const Field& field);

}  // namespace elicit
