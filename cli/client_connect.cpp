// Reaching a server from `elicitgen client` (client_connect.hpp).
#include "client_connect.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <elicit/url_safety.hpp>
#ifdef ELICITGEN_HAS_HTTP
#include <elicit/http/client_authorization.hpp>
#include <elicit/http/client_transport.hpp>

#include "oauth_provider.hpp"
#endif

#include "terminal_form.hpp"

namespace elicitgen {

elicit::ClientOptions client_options(const ClientCommand& command, const ServerTarget& target,
                                     const std::string& protocol, bool url_mode) {
  elicit::ClientOptions options;
  options.protocol_version = protocol.empty() ? "2026-07-28" : protocol;
  if (!protocol.empty()) options.fallback_protocol_version = std::nullopt;  // forced
  options.client_info = {{"name", "elicitgen-client"}, {"version", "1"}};
  options.url_elicitation = url_mode;
  // A server started here (stdio) or on loopback serves its browser forms on loopback: its own page
  // is consented to without an address and a port warning every time.
  options.url_safety.server_on_loopback = target.argv.has_value() || elicit::review_url(target.url).loopback;
  options.user_interaction = command.user_interaction;
  options.task_notifications = command.task_notifications;
  options.session.log = [](std::string_view line) { std::cerr << "elicitgen client: " << line << "\n"; };
  // A tools/call the server runs as a task: one status line per change while it waits.
  options.on_task_status = [](const nlohmann::json& task) {
    std::string line =
        "elicitgen client: task " + task.value("taskId", std::string()) + ": " + task.value("status", std::string());
    if (const auto m = task.value("statusMessage", std::string()); !m.empty()) line += " (" + m + ")";
    std::cerr << terminal_safe(line) << "\n";
  };
  return options;
}

bool read_credentials(const ClientCommand& command, ServerTarget& target, std::string& error) {
  if (command.bearer_token_file.empty() && command.header_args.empty()) return true;
  if (target.argv) {
    error = "--bearer-token and --header go with a Streamable HTTP server (--url)";
    return false;
  }
  // OAuth 2.1 section 1.5 for the token; a gateway's key is as secret.
  if (!elicit::review_url(target.url).allowed) {
    error = "--bearer-token and --header travel over https only (or plain http to this machine): " + target.url;
    return false;
  }
  if (!command.bearer_token_file.empty()) {
    std::string line;
    if (command.bearer_token_file == "-") {
      std::getline(std::cin, line);
    } else {
      std::ifstream in(command.bearer_token_file);
      if (!in) {
        error = "--bearer-token " + command.bearer_token_file + ": cannot read the file";
        return false;
      }
      std::getline(in, line);
    }
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos) {
      error = "--bearer-token " + command.bearer_token_file + ": the first line holds no token";
      return false;
    }
    target.bearer_token = line.substr(start);
  }
  for (const auto& h : command.header_args) {
    const auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0) {
      error = "--header " + h + ": must be NAME:VALUE";
      return false;
    }
    auto value = h.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    value = first == std::string::npos ? std::string() : value.substr(first);
    target.headers.emplace_back(h.substr(0, colon), std::move(value));
  }
  return true;
}

std::unique_ptr<elicit::Client> open_client(const ClientCommand& command, const ServerTarget& target,
                                            elicit::ClientOptions options) {
  if (target.argv) return elicit::Client::spawn(*target.argv, std::move(options));
#ifdef ELICITGEN_HAS_HTTP
  elicit::http::HttpClientOptions http;
  http.url = target.url;
  http.ca_file = target.ca_file;
  http.protocol_version = options.protocol_version;
  http.headers = target.headers;
  // A token the caller holds is sent as it is, never renewed: no sign-in.
  if (!target.bearer_token.empty()) {
    http.authorization = std::make_shared<elicit::http::BearerToken>(target.bearer_token);
  } else if (elicit::review_url(target.url).allowed) {
    // MCP authorization, when the server asks for it: tokens travel over https, or plain http to
    // this machine only (review_url says which), so other http URLs get none.
    CliAuthorizationOptions sign_in;
    sign_in.store = command.no_store ? std::filesystem::path() : default_oauth_store();
    sign_in.client_id = target.client_id;
    if (const char* secret = std::getenv("ELICITGEN_CLIENT_SECRET"); secret && !target.client_id.empty())
      sign_in.client_secret = secret;
    elicit::auth::OAuthClientOptions flows;
    flows.ca_file = target.ca_file;  // the authorization server is trusted as the MCP server is
    http.authorization = std::make_shared<elicit::auth::OAuthClient>(
        target.url, std::make_shared<CliAuthorization>(std::move(sign_in), std::cerr), std::move(flows));
  }
  return std::make_unique<elicit::Client>(std::make_unique<elicit::http::HttpClientTransport>(http),
                                          std::move(options));
#else
  (void)command;
  throw std::runtime_error("--url: this elicitgen was built without Streamable HTTP (Boost)");
#endif
}

}  // namespace elicitgen
