#include "oauth_wire.hpp"

#include <algorithm>
#include <cctype>

#include <openssl/evp.h>
#include <sodium.h>

#include "base64url.hpp"
#include "elicit/content_blocks.hpp"
#include "elicit/http/form_urlencoded.hpp"
#include "http_client.hpp"
#include "token_claims.hpp"

namespace elicit::auth {

namespace {

bool is_token_char(char c) {
  // RFC 9110 section 5.6.2 tchar.
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

}  // namespace

std::string form_component(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

std::string basic_authorization(std::string_view client_id, std::string_view client_secret) {
  return "Basic " + base64_encode(form_component(client_id) + ":" + form_component(client_secret));
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [name, value] : pairs) {
    if (!out.empty()) out += '&';
    out += form_component(name) + "=" + form_component(value);
  }
  return out;
}

std::optional<std::map<std::string, std::string>> form_decode(std::string_view text) {
  // The content layer decodes (the URL-mode page reads browser forms with it too); OAuth wants a
  // map in which a name given twice keeps its first value.
  auto pairs = http::form_urldecode(text);
  if (!pairs) return std::nullopt;
  std::map<std::string, std::string> out;
  for (auto& [name, value] : *pairs) out.emplace(std::move(name), std::move(value));
  return out;
}

std::optional<std::map<std::string, std::string>> query_parameters(const std::string& url) {
  const auto q = url.find('?');
  if (q == std::string::npos) return std::map<std::string, std::string>{};
  const auto hash = url.find('#', q);
  return form_decode(std::string_view(url).substr(q + 1, hash == std::string::npos ? std::string::npos : hash - q - 1));
}

std::vector<AuthChallenge> parse_www_authenticate(std::string_view h) {
  std::vector<AuthChallenge> out;
  std::size_t i = 0;
  const auto skip_blanks = [&] {
    while (i < h.size() && (h[i] == ' ' || h[i] == '\t')) ++i;
  };
  const auto token = [&] {
    const auto start = i;
    while (i < h.size() && is_token_char(h[i])) ++i;
    return std::string(h.substr(start, i - start));
  };
  while (i < h.size()) {
    skip_blanks();
    while (i < h.size() && (h[i] == ',' || h[i] == ' ' || h[i] == '\t')) ++i;
    auto scheme = token();
    if (scheme.empty()) break;
    AuthChallenge c;
    c.scheme = ascii_lower(scheme);
    // auth-params: name = token / quoted-string, separated by commas. A name not followed by '='
    // starts the next challenge (its scheme).
    for (;;) {
      skip_blanks();
      const auto mark = i;
      auto name = token();
      skip_blanks();
      if (name.empty() || i >= h.size() || h[i] != '=') {
        i = mark;
        break;
      }
      ++i;
      skip_blanks();
      std::string value;
      if (i < h.size() && h[i] == '"') {
        ++i;
        while (i < h.size() && h[i] != '"') {
          if (h[i] == '\\' && i + 1 < h.size()) ++i;
          value += h[i++];
        }
        if (i >= h.size()) break;  // unterminated: this parameter is dropped
        ++i;
      } else {
        // token68 or token; '=' padding of a token68 kept.
        const auto start = i;
        while (i < h.size() && h[i] != ',' && h[i] != ' ' && h[i] != '\t') ++i;
        value = std::string(h.substr(start, i - start));
      }
      c.params.emplace(ascii_lower(name), std::move(value));
      skip_blanks();
      if (i < h.size() && h[i] == ',') ++i;
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<std::map<std::string, std::string>> bearer_challenge(std::string_view header) {
  for (auto& c : parse_www_authenticate(header)) {
    if (c.scheme == "bearer") return std::move(c.params);
  }
  return std::nullopt;
}

std::string random_urlsafe(std::size_t bytes) {
  std::string raw(bytes, '\0');
  randombytes_buf(raw.data(), raw.size());
  return base64url_encode(raw);
}

std::string pkce_s256(const std::string& verifier) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(verifier.data(), verifier.size(), digest, &length, EVP_sha256(), nullptr);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string scope_union(std::string_view a, std::string_view b) {
  std::vector<std::string> all = split_scope(a);
  for (auto& s : split_scope(b)) {
    if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(std::move(s));
  }
  std::string out;
  for (const auto& s : all) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace elicit::auth
