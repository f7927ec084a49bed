// review_url and punycode_encode (url_safety.hpp).
#include "elicit/url_safety.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

namespace elicit {
namespace {

constexpr std::size_t kMaxUrlBytes = 8192;

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The code points of a UTF-8 string; nullopt when it is not valid UTF-8.
std::optional<std::vector<std::uint32_t>> code_points(std::string_view s) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return std::nullopt;
    std::uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c >> 6) != 2) return std::nullopt;
      cp = (cp << 6) | (c & 0x3F);
    }
    // Overlong forms, surrogates and values beyond U+10FFFF are not UTF-8.
    static constexpr std::array<std::uint32_t, 5> kMin{0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    out.push_back(cp);
    i += n;
  }
  return out;
}

// RFC 3492, 6.1.
std::uint32_t adapt(std::uint32_t delta, std::uint32_t points, bool first) {
  constexpr std::uint32_t base = 36, tmin = 1, tmax = 26, skew = 38, damp = 700;
  delta = first ? delta / damp : delta / 2;
  delta += delta / points;
  std::uint32_t k = 0;
  while (delta > ((base - tmin) * tmax) / 2) {
    delta /= base - tmin;
    k += base;
  }
  return k + (((base - tmin + 1) * delta) / (delta + skew));
}

char digit(std::uint32_t d) { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); }

struct Ipv4Class {
  bool loopback, private_range, link_local, unspecified;
};

Ipv4Class classify_v4(std::uint32_t a) {
  return {(a >> 24) == 127,
          (a >> 24) == 10 || (a >> 20) == ((172u << 4) | 1) || (a >> 16) == ((192u << 8) | 168) ||
              (a >> 22) == ((100u << 2) | 1),  // 100.64.0.0/10, shared address space (RFC 6598)
          (a >> 16) == ((169u << 8) | 254), (a >> 24) == 0};
}

// WHATWG URL's IPv4 parser, which browsers use: a host whose last label is a number is an IPv4
// address, in up to four parts, each decimal, octal (leading 0) or hex (0x). So "2130706433",
// "0177.1" and "0x7f.0.0.1" all mean 127.0.0.1 and must be judged as such.
std::optional<std::uint32_t> parse_ipv4(const std::string& host, bool& looks_numeric) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = host.find('.', start);
    parts.push_back(host.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
  const auto number = [](const std::string& p, std::uint64_t& v) {
    if (p.empty()) return false;
    int radix = 10;
    std::size_t i = 0;
    if (p.size() > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      radix = 16;
      i = 2;
    } else if (p.size() > 1 && p[0] == '0') {
      radix = 8;
      i = 1;
    }
    v = 0;
    for (; i < p.size(); ++i) {
      const char c = p[i];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : 99;
      if (d >= radix) return false;
      v = v * radix + static_cast<std::uint64_t>(d);
      if (v > 0xFFFFFFFFull) return false;
    }
    return true;
  };
  std::uint64_t last = 0;
  looks_numeric = number(parts.back(), last) || (parts.back().size() > 1 && parts.back()[0] == '0');
  if (!looks_numeric) return std::nullopt;
  if (parts.size() > 4) return std::nullopt;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    std::uint64_t v = 0;
    if (!number(parts[i], v) || v > 255) return std::nullopt;
    value = (value << 8) | v;
  }
  std::uint64_t v = 0;
  if (!number(parts.back(), v)) return std::nullopt;
  const auto rest_bits = 8 * (5 - parts.size());
  if (rest_bits < 64 && v >= (1ull << rest_bits)) return std::nullopt;
  return static_cast<std::uint32_t>((value << rest_bits) | v);
}

std::string dotted(std::uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." + std::to_string((a >> 8) & 255) + "." +
         std::to_string(a & 255);
}

UrlReview refuse(UrlReview r, std::string why) {
  r.allowed = false;
  r.refusal = std::move(why);
  return r;
}

}  // namespace

std::string punycode_encode(std::string_view utf8_label) {
  const auto input = code_points(utf8_label);
  if (!input) return {};
  constexpr std::uint32_t base = 36, tmin = 1, tmax = 26;
  std::string out;
  for (const auto c : *input) {
    if (c < 0x80) out += static_cast<char>(c);
  }
  const auto b = static_cast<std::uint32_t>(out.size());
  std::uint32_t h = b;
  if (b > 0) out += '-';
  std::uint32_t n = 0x80, delta = 0, bias = 72;
  const auto length = static_cast<std::uint32_t>(input->size());
  while (h < length) {
    std::uint32_t m = 0x10FFFF + 1;
    for (const auto c : *input) {
      if (c >= n && c < m) m = c;
    }
    // A label is at most 63 bytes in DNS, so none of this can overflow for a host; bound anyway.
    if (static_cast<std::uint64_t>(m - n) * (h + 1) + delta > 0xFFFFFFFFull) return {};
    delta += (m - n) * (h + 1);
    n = m;
    for (const auto c : *input) {
      if (c < n) ++delta;
      if (c != n) continue;
      std::uint32_t q = delta;
      for (std::uint32_t k = base;; k += base) {
        const std::uint32_t t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias);
        if (q < t) break;
        out += digit(t + (q - t) % (base - t));
        q = (q - t) / (base - t);
      }
      out += digit(q);
      bias = adapt(delta, h + 1, h == b);
      delta = 0;
      ++h;
    }
    ++delta;
    ++n;
  }
  return out;
}

UrlReview review_url(std::string_view url, const UrlSafetyOptions& options) {
  UrlReview r;
  if (url.size() > kMaxUrlBytes) return refuse(r, "the URL is longer than 8,192 bytes");
  for (const char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F) return refuse(r, "the URL contains spaces or control characters");
    if (c == '\\') return refuse(r, "the URL contains a backslash (browsers read it as '/')");
  }
  const auto colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return refuse(r, "the URL has no scheme");
  r.scheme = lower_ascii(url.substr(0, colon));
  if (r.scheme != "https" && r.scheme != "http")
    return refuse(r, "only https (and http for loopback) URLs can be opened, not \"" + r.scheme + ":\"");
  if (url.substr(colon + 1, 2) != "//") return refuse(r, "the URL has no host (expected \"" + r.scheme + "://\")");
  const auto authority_start = colon + 3;
  const auto authority_end = url.find_first_of("/?#", authority_start);
  const auto authority =
      url.substr(authority_start,
                 authority_end == std::string_view::npos ? std::string_view::npos : authority_end - authority_start);
  if (authority.find('@') != std::string_view::npos)
    return refuse(r, "the URL carries credentials (user@host); the host is what follows the '@'");
  std::string_view host_port = authority;
  std::string_view host;
  if (!host_port.empty() && host_port[0] == '[') {
    const auto close = host_port.find(']');
    if (close == std::string_view::npos) return refuse(r, "the IPv6 address in the URL is not closed with ']'");
    host = host_port.substr(1, close - 1);
    const auto rest = host_port.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return refuse(r, "unexpected text after the IPv6 address");
      r.port = std::string(rest.substr(1));
    }
  } else {
    const auto c = host_port.rfind(':');
    host = host_port.substr(0, c);
    if (c != std::string_view::npos) r.port = std::string(host_port.substr(c + 1));
  }
  if (host.empty()) return refuse(r, "the URL has no host");
  if (host.find('%') != std::string_view::npos) return refuse(r, "the host is percent-encoded");
  if (!r.port.empty()) {
    if (r.port.size() > 5 || !std::all_of(r.port.begin(), r.port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoul(r.port) > 65535)
      return refuse(r, "the port \"" + r.port + "\" is not a number from 0 to 65535");
  }

  bool loopback = false;
  const bool ipv6 = !host_port.empty() && host_port[0] == '[';
  if (ipv6) {
    std::array<unsigned char, 16> a{};
    const std::string literal(host);
    if (inet_pton(AF_INET6, literal.c_str(), a.data()) != 1) return refuse(r, "the IPv6 address is malformed");
    r.host = lower_ascii(host);
    const bool mapped = std::all_of(a.begin(), a.begin() + 10, [](unsigned char x) { return x == 0; }) &&
                        a[10] == 0xFF && a[11] == 0xFF;
    std::string range;
    if (mapped) {
      const auto v4 = classify_v4((std::uint32_t(a[12]) << 24) | (std::uint32_t(a[13]) << 16) |
                                  (std::uint32_t(a[14]) << 8) | a[15]);
      loopback = v4.loopback;
      range = v4.loopback        ? "loopback"
              : v4.private_range ? "private"
              : v4.link_local    ? "link-local"
              : v4.unspecified   ? "unspecified"
                                 : "";
    } else {
      const bool zero15 = std::all_of(a.begin(), a.begin() + 15, [](unsigned char x) { return x == 0; });
      loopback = zero15 && a[15] == 1;
      const bool unspecified = zero15 && a[15] == 0;
      const bool link_local = a[0] == 0xFE && (a[1] & 0xC0) == 0x80;
      const bool unique_local = (a[0] & 0xFE) == 0xFC;
      range = loopback       ? "loopback"
              : unique_local ? "private"
              : link_local   ? "link-local"
              : unspecified  ? "unspecified"
                             : "";
    }
    if (!(loopback && options.server_on_loopback))
      r.warnings.push_back("the host is an IP address, not a name" +
                           (range.empty() ? std::string() : " (" + range + ")"));
  } else {
    // Labels: ASCII lower-cased; a label with other characters becomes its Punycode form.
    std::string shown;
    bool idn = false;
    std::size_t start = 0;
    while (true) {
      const auto dot = host.find('.', start);
      const auto label = host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (std::any_of(label.begin(), label.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
        const auto encoded = punycode_encode(label);
        if (encoded.empty()) return refuse(r, "the host is not valid UTF-8");
        shown += "xn--" + encoded;
        idn = true;
      } else {
        shown += lower_ascii(label);
      }
      if (dot == std::string_view::npos) break;
      shown += '.';
      start = dot + 1;
    }
    r.host = shown;
    for (const char c : r.host) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'))
        return refuse(r, "the host contains '" + std::string(1, c) + "', which no host name has");
    }
    bool numeric = false;
    if (const auto v4 = parse_ipv4(r.host, numeric)) {
      const auto c = classify_v4(*v4);
      loopback = c.loopback;
      const std::string range = c.loopback        ? "loopback"
                                : c.private_range ? "private"
                                : c.link_local    ? "link-local"
                                : c.unspecified   ? "unspecified"
                                                  : "";
      const auto as_dotted = dotted(*v4);
      if (!(loopback && options.server_on_loopback))
        r.warnings.push_back("the host is an IP address, not a name" +
                             (as_dotted != r.host ? " (" + as_dotted + ")" : std::string()) +
                             (range.empty() ? std::string() : " (" + range + ")"));
    } else if (numeric) {
      return refuse(r, "the host looks like an IP address but is not a valid one");
    } else {
      loopback = r.host == "localhost" || r.host == "localhost." ||
                 (r.host.size() > 10 && r.host.compare(r.host.size() - 10, 10, ".localhost") == 0);
      if (idn || r.host.find("xn--") != std::string::npos)
        r.warnings.push_back(
            "the host is an internationalised name, shown in Punycode: check it is the site you expect");
    }
  }
  if (r.scheme == "http" && !loopback && !options.allow_plain_http)
    return refuse(r, "plain http is only allowed to this machine (loopback); the URL must use https");
  if (!r.port.empty() && !(loopback && options.server_on_loopback))
    r.warnings.push_back("the URL names port " + r.port);
  r.loopback = loopback;
  r.allowed = true;
  return r;
}

}  // namespace elicit
