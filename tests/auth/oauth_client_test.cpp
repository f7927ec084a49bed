// OAuthClient's authorization request against a stand-in authorization server on loopback
// (jwt_test::DocumentServer serving the metadata documents): what the user agent is sent to.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <elicit/auth/oauth_client.hpp>

#include "../support/jwt_issuer.hpp"

namespace oauth_client_test {

using namespace elicit::http;
using namespace elicit::auth;

namespace {

// Keeps nothing; records the authorization URL and then gives up, as a user closing the browser.
struct RecordingProvider : OAuthClientProvider {
  std::string redirect_uri() override { return "http://127.0.0.1:1/callback"; }
  std::optional<OAuthClientInformation> client_information(const std::string&) override {
    OAuthClientInformation info;
    info.client_id = "pre-registered";
    return info;
  }
  void save_client_information(const std::string&, const OAuthClientInformation&) override {}
  std::optional<OAuthTokens> tokens(const std::string&, const std::string&) override { return std::nullopt; }
  void save_tokens(const std::string&, const std::string&, const OAuthTokens&) override {}
  void discard_tokens(const std::string&, const std::string&) override {}
  std::string authorize(const std::string& url) override {
    asked = url;
    throw std::runtime_error("the user closed the browser");
  }
  std::string asked;
};

}  // namespace

TEST_CASE("offline_access is asked for with prompt=consent, which OIDC servers require to honor it",
          "[oauth][client]") {
  jwt_test::DocumentServer as;
  const auto resource = as.origin() + "/mcp";
  as.set("/.well-known/oauth-protected-resource/mcp",
         nlohmann::json{{"resource", resource}, {"authorization_servers", {as.origin()}}, {"scopes_supported", {"mcp"}}}
             .dump());
  nlohmann::json metadata{{"issuer", as.origin()},
                          {"authorization_endpoint", as.origin() + "/auth"},
                          {"token_endpoint", as.origin() + "/token"},
                          {"code_challenge_methods_supported", {"S256"}}};
  const bool offline = GENERATE(true, false);
  metadata["scopes_supported"] = offline ? nlohmann::json{"openid", "offline_access", "mcp"} : nlohmann::json{"mcp"};
  as.set("/.well-known/oauth-authorization-server", metadata.dump());

  auto provider = std::make_shared<RecordingProvider>();
  OAuthClient client(resource, provider);
  REQUIRE_THROWS_WITH(client.unauthorized("", "Bearer resource_metadata=\"" + as.origin() +
                                                  "/.well-known/oauth-protected-resource/mcp\""),
                      Catch::Contains("closed the browser"));
  INFO(provider->asked);
  REQUIRE(provider->asked.rfind(as.origin() + "/auth?", 0) == 0);
  if (offline) {
    CHECK(provider->asked.find("scope=mcp%20offline_access") != std::string::npos);
    CHECK(provider->asked.find("&prompt=consent") != std::string::npos);
  } else {
    CHECK(provider->asked.find("scope=mcp&") != std::string::npos);
    CHECK(provider->asked.find("prompt=") == std::string::npos);  // no consent forced when it buys nothing
  }
}

}  // namespace oauth_client_test
