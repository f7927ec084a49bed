// docs/http.md and docs/deploying.md: the same Server over Streamable HTTP, both revisions on one
// endpoint. Usage: [ROOMS_ISSUER=https://auth.example.com [ROOMS_FORMS_SECRET=...]] docs_http_server [PORT]
// (8080 by default)
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include <elicit/auth/jwt_verifier.hpp>
#include <elicit/elicit.hpp>
#include <elicit/forms/elicit_in_browser.hpp>
#include <elicit/forms/page_routes.hpp>
#include <elicit/http/server.hpp>
#include <elicit/uri_template.hpp>
#ifdef EXAMPLE_REDIS
#include <elicit/redis/completion_store.hpp>
#endif
#include "door_key.hpp"  // app::DoorKey, a browser form (mode "url")
#include "room_booking.hpp"

namespace {

// requestState keys shared by every process behind the load balancer: base64, comma-separated, the
// first sealing (elicit::RequestStateSealer::generate_key() and key_to_base64() make one).
elicit::RequestStateOptions shared_keys() {
  elicit::RequestStateOptions state;
  const char* env = std::getenv("ROOMS_STATE_KEYS");
  std::string keys = env ? env : "";
  for (std::size_t start = 0; start < keys.size();) {
    const std::size_t end = std::min(keys.find(',', start), keys.size());
    if (auto key = elicit::RequestStateSealer::key_from_base64(keys.substr(start, end - start))) {
      state.keys.push_back(*key);
    }
    start = end + 1;
  }
  return state;  // no keys: a random key of this process
}

// Every request needs a JWT access token from the authorization server `issuer` (docs/deploying.md).
elicit::http::ResourceServerOptions oauth(const char* issuer) {
  elicit::auth::JwtVerifierOptions jwt;
  jwt.issuer = issuer;                             // the `iss` of its tokens, and where its metadata is
  jwt.audience = "https://rooms.example.com/mcp";  // this server: the `aud` its tokens must name
  elicit::http::ResourceServerOptions a;
  a.resource = jwt.audience;
  a.authorization_servers = {jwt.issuer};
  a.scopes_supported = a.required_scopes = {"rooms"};
  a.verify = elicit::auth::jwt_verifier(jwt);
  return a;  // for elicit::http::HttpServerOptions::authorization
}

// Scopes per operation: besides "rooms", booking needs "rooms:book", and the calendar of a room
// "rooms:calendar:<room>", which a token granting "rooms:calendar" has for every room.
void scopes_per_operation(elicit::http::ResourceServerOptions& a) {
  a.tool_scopes = {{"book_room", {"rooms:book"}}};
  // What a map cannot say: a scope per URI of a resource template (I/O thread: quick, no blocking).
  a.operation_scopes = [calendar = elicit::UriTemplate("rooms://{room}/calendar")](const elicit::Request& r) {
    std::vector<std::string> scopes;
    const auto uri = r.params.find("uri");  // params are not validated yet: null, or any type
    if (r.method != "resources/read" || uri == r.params.end() || !uri->is_string()) return scopes;
    if (const auto v = calendar.match(uri->get<std::string>())) scopes.push_back("rooms:calendar:" + v->at("room"));
    return scopes;
  };
  // A scope implies those it prefixes, up to a ':'.
  a.scope_implies = [](std::string_view granted, std::string_view needed) {
    return needed.size() > granted.size() && needed.substr(0, granted.size()) == granted &&
           needed[granted.size()] == ':';
  };
}

// The browser form pages sign the browser in themselves at the authorization server
// (docs/browser-forms.md, "Signing the browser in"), instead of trusting a proxy's header.
void sign_in_pages(elicit::forms::PageRoutes& pages, const std::string& secret, const std::string& key) {
  elicit::forms::SignIn sign_in;
  sign_in.client_id = "mcp-form-pages";  // registered with redirect URI <origin>/forms/sign-in
  sign_in.client_secret = secret;        // "" for a public client (PKCE alone)
  sign_in.cookie_keys = {key};           // 32 bytes each, the same in every process
  pages.sign_in = sign_in;               // issuer: the only one of options.authorization
}

}  // namespace

int main(int argc, char** argv) {
  auto server = std::make_shared<elicit::Server>(elicit::ServerInfo{"rooms", "1.0.0"}, shared_keys());
  server->add_tool(elicit::Tool::blocking("book_room", [](elicit::RequestContext& ctx) {
    auto answer = ctx.elicit<app::RoomBooking>();
    return elicit::ToolResult::text(answer ? "booked" : std::string(elicit::to_string(answer.status)));
  }));
  // A secret asked in the browser: the key goes from the page to this server, never through the client.
  server->add_tool(elicit::Tool::blocking("connect_doors", [](elicit::RequestContext& ctx) {
    auto answer = elicit::forms::elicit_in_browser<app::DoorKey>(ctx);
    if (!answer) return elicit::ToolResult::text(std::string(elicit::to_string(answer.status)));
    return elicit::ToolResult::text("connected " + std::string(elicit::to_string(answer.value->vendor)));
  }));
#ifdef EXAMPLE_REDIS
  // URL mode finished out of band: the page at the URL calls store->complete(id, ttl) when the user
  // has signed in; any process sharing the Redis server sees it on the client's retry.
  auto store = std::make_shared<elicit::RedisCompletionStore>(elicit::RedisOptions{});
  server->add_tool(elicit::Tool::blocking("sign_in", [store](elicit::RequestContext& ctx) {
    const std::string id = ctx.interaction_id();
    auto outcome =
        ctx.elicit_url_completed("Sign in to book rooms", "https://rooms.example.com/sign-in?id=" + id, id, *store);
    return elicit::ToolResult::text(std::string(elicit::to_string(outcome.status)));
  }));
#endif

  elicit::http::HttpServerOptions options;
  options.port = argc > 1 ? std::atoi(argv[1]) : 8080;   // on 127.0.0.1, path /mcp
  options.allowed_hosts = {"rooms.example.com"};         // the Host a reverse proxy forwards
  options.principal = [](const auto& header) {           // who is asking, per 2026-07-28 request
    return std::string(header("x-authenticated-user"));  // set by the proxy that authenticated them
  };
  // Pages of browser forms (elicit_in_browser) at https://rooms.example.com/forms/<id>; the proxy
  // authenticates the browser too, so a page answers only the user who asked.
  elicit::forms::PageRoutes pages;
  pages.prefix = "/forms/";
  pages.public_origin = "https://rooms.example.com";
  pages.principal = [](const auto& header) { return std::string(header("x-authenticated-user")); };
  if (const char* issuer = std::getenv("ROOMS_ISSUER")) {
    options.authorization = oauth(issuer);
    scopes_per_operation(*options.authorization);
    if (const char* secret = std::getenv("ROOMS_FORMS_SECRET")) {
      pages.principal = nullptr;  // one way to know the browser: its own sign-in
      sign_in_pages(pages, secret, elicit::RequestStateSealer::generate_key());
    }
  }
  options.routes.push_back(elicit::forms::routes(std::move(pages)));
  elicit::http::StreamableHttpServer http(server, options);
  std::cerr << "serving http://127.0.0.1:" << options.port << "/mcp\n";
  http.run();  // starts, then blocks until stop(), SIGINT or SIGTERM
}
