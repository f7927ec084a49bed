#include "oauth_provider.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace elicitgen {

namespace {

std::string token_key(const std::string& resource, const std::string& issuer) { return resource + " " + issuer; }

}  // namespace

std::filesystem::path default_oauth_store() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
    return std::filesystem::path(state) / "elicitgen" / "oauth.json";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".local" / "state" / "elicitgen" / "oauth.json";
  return {};
}

CliAuthorization::CliAuthorization(CliAuthorizationOptions options, std::ostream& messages)
    : options_(std::move(options)), messages_(messages), store_(nlohmann::json::object()) {
  if (options_.store.empty()) return;
  std::ifstream in(options_.store);
  if (!in) return;  // none yet
  struct stat st {};
  if (::stat(options_.store.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    messages_ << "elicitgen client: warning: " << options_.store.string()
              << " can be read by other users; it holds access tokens (it is rewritten 0600 on the next save)\n";
  }
  std::stringstream text;
  text << in.rdbuf();
  auto j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    messages_ << "elicitgen client: warning: " << options_.store.string()
              << " is not a JSON object; starting without saved sign-ins\n";
    return;
  }
  store_ = std::move(j);
}

std::string CliAuthorization::redirect_uri() {
  if (!listener_) listener_ = std::make_unique<elicit::auth::LoopbackRedirect>("/callback");
  return listener_->redirect_uri();
}

nlohmann::json CliAuthorization::client_metadata() {
  return {{"client_name", "elicitgen client"}, {"application_type", "native"}};
}

std::optional<elicit::auth::OAuthClientInformation> CliAuthorization::client_information(const std::string& issuer) {
  const auto clients = store_.find("clients");
  if (clients != store_.end() && clients->is_object() && clients->contains(issuer)) {
    auto info = elicit::auth::OAuthClientInformation::from_json((*clients)[issuer]);
    if (!info.client_id.empty()) return info;
  }
  if (!options_.client_id.empty()) {
    elicit::auth::OAuthClientInformation info;
    info.client_id = options_.client_id;
    info.client_secret = options_.client_secret;
    return info;
  }
  return std::nullopt;
}

void CliAuthorization::save_client_information(const std::string& issuer,
                                               const elicit::auth::OAuthClientInformation& info) {
  store_["clients"][issuer] = info.to_json();
  save();
}

std::optional<elicit::auth::OAuthTokens> CliAuthorization::tokens(const std::string& resource,
                                                                  const std::string& issuer) {
  const auto tokens = store_.find("tokens");
  if (tokens == store_.end() || !tokens->is_object()) return std::nullopt;
  const auto it = tokens->find(token_key(resource, issuer));
  if (it == tokens->end()) return std::nullopt;
  try {
    return elicit::auth::OAuthTokens::from_json(*it);
  } catch (const elicit::auth::OAuthError&) {
    return std::nullopt;
  }
}

void CliAuthorization::save_tokens(const std::string& resource, const std::string& issuer,
                                   const elicit::auth::OAuthTokens& tokens) {
  store_["tokens"][token_key(resource, issuer)] = tokens.to_json();
  save();
}

void CliAuthorization::discard_tokens(const std::string& resource, const std::string& issuer) {
  if (store_.contains("tokens") && store_["tokens"].is_object()) store_["tokens"].erase(token_key(resource, issuer));
  save();
}

std::string CliAuthorization::authorize(const std::string& authorization_url) {
  redirect_uri();  // the listener exists (the flow asked for the URI first)
  const auto minutes = options_.sign_in_timeout.count() / 60000;
  messages_ << "elicitgen client: the server needs you to sign in. Open this URL in a browser:\n\n  "
            << authorization_url << "\n\nelicitgen client: waiting for the sign-in (up to "
            << (minutes > 0 ? std::to_string(minutes) + " minutes"
                            : std::to_string(options_.sign_in_timeout.count()) + " ms")
            << ") at " << listener_->redirect_uri() << std::endl;
  auto answer = listener_->wait(options_.sign_in_timeout);
  messages_ << "elicitgen client: sign-in received" << std::endl;
  return answer;
}

void CliAuthorization::save() {
  if (options_.store.empty()) return;
  const auto folder = options_.store.parent_path();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::exists(folder, ec)) {
    std::filesystem::create_directories(folder, ec);
    if (!ec) std::filesystem::permissions(folder, std::filesystem::perms::owner_all, ec);
  }
  const auto temporary = options_.store.string() + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    messages_ << "elicitgen client: warning: cannot save sign-ins to " << options_.store.string() << "\n";
    return;
  }
  ::fchmod(fd, 0600);  // also when the file was left by an earlier run with another mode
  const auto text = store_.dump(2) + "\n";
  bool written = true;
  for (std::size_t done = 0; done < text.size();) {
    const auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      written = false;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  written = ::fsync(fd) == 0 && written;
  ::close(fd);
  if (!written || std::rename(temporary.c_str(), options_.store.c_str()) != 0) {
    ::unlink(temporary.c_str());
    messages_ << "elicitgen client: warning: cannot save sign-ins to " << options_.store.string() << "\n";
  }
}

}  // namespace elicitgen
