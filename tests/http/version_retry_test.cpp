// elicit::Client over HttpClientTransport against a scripted loopback HTTP server: a 2026-07-28
// request refused with -32022 (UnsupportedProtocolVersionError) is retried once with a version both
// sides speak (Versioning, "Protocol Version Negotiation"), under a new id, its MCP-Protocol-Version
// header equal to its _meta version; a server that lists no 2026-07-28 version is an error, not a loop.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include <elicit/client.hpp>
#include <elicit/http/client_transport.hpp>

using namespace elicit;
using nlohmann::json;

namespace {

struct Seen {
  std::string version_header;
  json body;
};

// Serves exactly `answers.size()` POSTs, one connection each, in order: answer i is the status and
// JSON body of the i-th (its "id" set to the request's). Bounded: a fixed number of accepts, each
// read ends at the declared length or EOF.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<std::pair<int, json>> answers) : answers_(std::move(answers)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    socklen_t n = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &n);
    url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/mcp";
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedServer() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  std::string url;
  std::vector<Seen> seen;  // read after the client is done

 private:
  void serve() {
    for (auto& [status, answer] : answers_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string in;
      char buf[4096];
      std::size_t body_at = std::string::npos, length = 0;
      while (body_at == std::string::npos || in.size() < body_at + length) {
        const auto r = ::read(c, buf, sizeof buf);
        if (r <= 0) break;
        in.append(buf, static_cast<std::size_t>(r));
        if (body_at == std::string::npos && (body_at = in.find("\r\n\r\n")) != std::string::npos) {
          body_at += 4;
          std::string head = in.substr(0, body_at);
          for (auto& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          const auto cl = head.find("content-length: ");
          length = cl == std::string::npos ? 0 : std::stoul(head.substr(cl + 16));
          const auto v = head.find("mcp-protocol-version: ");
          seen.push_back({v == std::string::npos ? "" : head.substr(v + 22, head.find("\r\n", v) - v - 22), {}});
        }
      }
      if (body_at != std::string::npos) seen.back().body = json::parse(in.substr(body_at), nullptr, false);
      answer["jsonrpc"] = "2.0";
      if (!seen.empty() && seen.back().body.is_object()) answer["id"] = seen.back().body.value("id", json());
      const auto text = answer.dump();
      const auto out =
          "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Bad Request") +
          "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + std::to_string(text.size()) +
          "\r\n\r\n" + text;
      (void)!::write(c, out.data(), out.size());
      ::close(c);
    }
  }
  std::vector<std::pair<int, json>> answers_;
  int fd_ = -1;
  std::thread thread_;
};

json unsupported(json supported) {
  return {{"error",
           {{"code", -32022},
            {"message", "Unsupported protocol version"},
            {"data", {{"supported", std::move(supported)}, {"requested", "2026-07-28"}}}}}};
}

std::unique_ptr<Client> client_for(const std::string& url) {
  http::HttpClientOptions t;
  t.url = url;
  ClientOptions o;
  o.session.log = [](std::string_view) {};
  return std::make_unique<Client>(std::make_unique<http::HttpClientTransport>(t), o);
}

const char* const version_key = "io.modelcontextprotocol/protocolVersion";

}  // namespace

TEST_CASE("client: -32022 is retried once with a version both speak", "[client][http]") {
  ScriptedServer server({{400, unsupported({"2025-11-25", "2026-07-28"})},
                         {200, {{"result", {{"supportedVersions", {"2026-07-28"}}, {"capabilities", json::object()}}}}},
                         {200, {{"result", {{"tools", json::array()}}}}}});
  {
    auto client = client_for(server.url);
    client->connect();
    CHECK(client->list_tools().empty());
  }
  REQUIRE(server.seen.size() == 3);
  CHECK(server.seen[0].body["method"] == "server/discover");
  CHECK(server.seen[1].body["method"] == "server/discover");
  CHECK(server.seen[1].body["id"] != server.seen[0].body["id"]);  // a retry is a new request
  for (const auto& s : server.seen) {
    INFO(s.body.dump());
    CHECK(s.version_header == "2026-07-28");
    CHECK(s.body["params"]["_meta"][version_key] == s.version_header);
  }
}

TEST_CASE("client: -32022 listing no 2026-07-28 version ends the request with that error", "[client][http]") {
  // Only a 2025-11-25 version listed (an initialize-based server): nothing to retry with.
  ScriptedServer server(std::vector<std::pair<int, json>>{{400, unsupported({"2025-11-25"})}});
  auto client = client_for(server.url);
  try {
    client->connect();
    FAIL("connect succeeded");
  } catch (const ClientError& e) {
    CHECK(e.code() == -32022);
    CHECK(e.data()["supported"] == json::array({"2025-11-25"}));
  }
  client.reset();
  CHECK(server.seen.size() == 1);
}

TEST_CASE("client: a second -32022 for the same request is not retried again", "[client][http]") {
  ScriptedServer server(
      std::vector<std::pair<int, json>>{{400, unsupported({"2026-07-28"})}, {400, unsupported({"2026-07-28"})}});
  auto client = client_for(server.url);
  CHECK_THROWS_AS(client->connect(), ClientError);
  client.reset();
  CHECK(server.seen.size() == 2);
}
