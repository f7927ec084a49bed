// review_url: every rule of the URL review a client makes before it offers a URL-mode
// elicitation's page (MCP 2025-11-25, Elicitation, "Safe URL Handling"; the userInteraction
// draft's SSRF section), and punycode_encode against RFC 3492's and well-known examples.
#include <catch2/catch.hpp>

#include <elicit/url_safety.hpp>

namespace url_safety_test {

using namespace elicit;

namespace {

std::string warnings(const UrlReview& r) {
  std::string out;
  for (const auto& w : r.warnings) out += w + "\n";
  return out;
}

}  // namespace

TEST_CASE("punycode_encode gives RFC 3492's encodings", "[url]") {
  CHECK(punycode_encode("bücher") == "bcher-kva");
  CHECK(punycode_encode("münchen") == "mnchen-3ya");
  CHECK(punycode_encode("café") == "caf-dma");
  CHECK(punycode_encode("ドメイン名例") == "eckwd4c7cu47r2wf");
  // RFC 3492 7.1 (L), Japanese: 3<nen>B<gumi><kinpachi><sensei>
  CHECK(punycode_encode("3年B組金八先生") == "3B-ww4c5e180e575a65lsy2b");
  CHECK(punycode_encode("\xff") == "");  // not UTF-8
}

TEST_CASE("https URLs are allowed and their host shown as it must be read", "[url]") {
  const auto r = review_url("https://Example.COM/path?q=1#f");
  CHECK(r.allowed);
  CHECK(r.scheme == "https");
  CHECK(r.host == "example.com");
  CHECK(r.warnings.empty());
  const auto idn = review_url("https://bücher.example/x");
  CHECK(idn.allowed);
  CHECK(idn.host == "xn--bcher-kva.example");
  CHECK_THAT(warnings(idn), Catch::Contains("Punycode"));
  CHECK_THAT(warnings(review_url("https://xn--pple-43d.com/")), Catch::Contains("Punycode"));  // already encoded
  const auto port = review_url("https://example.com:8443/");
  CHECK(port.allowed);
  CHECK(port.port == "8443");
  CHECK_THAT(warnings(port), Catch::Contains("port 8443"));
}

TEST_CASE("refused: other schemes, credentials, plain http beyond loopback, malformed hosts", "[url]") {
  for (const char* url : {"javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "ftp://example.com/",
                          "mailto:a@b.c", "https:example.com", "//example.com/", "example.com"}) {
    INFO(url);
    CHECK_FALSE(review_url(url).allowed);
  }
  const auto creds = review_url("https://bank.example.com@evil.example/login");
  CHECK_FALSE(creds.allowed);
  CHECK_THAT(creds.refusal, Catch::Contains("credentials"));
  CHECK_FALSE(review_url("https://user:pass@example.com/").allowed);
  const auto plain = review_url("http://example.com/");
  CHECK_FALSE(plain.allowed);
  CHECK_THAT(plain.refusal, Catch::Contains("https"));
  UrlSafetyOptions dev;
  dev.allow_plain_http = true;
  CHECK(review_url("http://example.com/", dev).allowed);
  for (const char* url :
       {"http://localhost:3000/cb", "http://127.0.0.1/", "http://[::1]:8080/", "http://app.localhost/"}) {
    INFO(url);
    CHECK(review_url(url).allowed);
  }
  for (const char* url :
       {"https://exa mple.com/", "https://example.com/\n", "https://example.com\\@evil.com/", "https:///path",
        "https://%65xample.com/", "https://example.com:99999/", "https://example.com:8o/", "https://[::1/",
        "https://[zz::1]/", "https://exa<mple.com/", "https://1.2.3.999/", "https://0x1g.0.0.1/"}) {
    INFO(url);
    CHECK_FALSE(review_url(url).allowed);
  }
  CHECK_FALSE(review_url(std::string("https://example.com/") + std::string(9000, 'a')).allowed);
}

TEST_CASE("IP address hosts are flagged with their range, in every form a browser reads", "[url]") {
  const auto check = [](const char* url, const char* expected) {
    INFO(url);
    const auto r = review_url(url);
    REQUIRE(r.allowed);
    CHECK_THAT(warnings(r), Catch::Contains("IP address") && Catch::Contains(expected));
  };
  check("https://10.1.2.3/", "(private)");
  check("https://172.16.0.1/", "(private)");
  check("https://192.168.1.1/", "(private)");
  check("https://100.64.0.1/", "(private)");
  check("https://169.254.169.254/latest/meta-data", "(link-local)");
  check("https://127.0.0.1/", "(loopback)");
  check("https://0.0.0.0/", "(unspecified)");
  check("https://[fe80::1]/", "(link-local)");
  check("https://[fd00::1]/", "(private)");
  check("https://[::ffff:192.168.0.1]/", "(private)");
  check("https://[::1]/", "(loopback)");
  check("https://8.8.8.8/", "IP address");
  // Numbers browsers read as IPv4 (WHATWG URL): decimal, octal and hex forms.
  check("https://2130706433/", "(127.0.0.1) (loopback)");
  check("https://0177.0.0.1/", "(127.0.0.1) (loopback)");
  check("https://0x7f.1/", "(127.0.0.1) (loopback)");
  check("https://0xa9fea9fe/", "(169.254.169.254) (link-local)");
  CHECK(review_url("http://2130706433/").allowed);  // loopback: plain http allowed
  CHECK_FALSE(review_url("http://0xa9fea9fe/").allowed);
  CHECK(review_url("https://1password.com/").warnings.empty());  // a name starting with a digit
}

TEST_CASE("a server on this machine has its loopback pages consented to without warnings", "[url]") {
  UrlSafetyOptions local;
  local.server_on_loopback = true;
  for (const char* url : {"http://127.0.0.1:8123/forms/f/abc", "http://[::1]:8123/f", "http://localhost:8123/f",
                          "http://2130706433:80/f"}) {
    INFO(url);
    const auto r = review_url(url, local);
    REQUIRE(r.allowed);
    CHECK(r.loopback);
    CHECK(r.warnings.empty());
    CHECK_FALSE(review_url(url).warnings.empty());  // a remote server's loopback URL is still flagged
  }
  // Only loopback pages: another address or a name keeps its warnings.
  CHECK_THAT(warnings(review_url("https://10.1.2.3:8443/", local)),
             Catch::Contains("(private)") && Catch::Contains("port 8443"));
  CHECK_THAT(warnings(review_url("https://example.com:8443/", local)), Catch::Contains("port 8443"));
  CHECK_FALSE(review_url("https://example.com/", local).loopback);
}

}  // namespace url_safety_test
