// elicit_modern_driver: N MCP 2026-07-28 round trips against a running server, one after the other on
// one keep-alive connection, for profiling the server (e.g. under callgrind) rather than timing it.
//
//   elicit_modern_driver URL N [--tool NAME] [--print]
//
// Each round trip is what `elicit_http_load modern` does: POST tools/call (no session; the
// 2026-07-28 _meta and headers), expect resultType "input_required" with one elicitation/create,
// POST the retry with inputResponses under that key and the requestState echoed, expect a complete
// result naming the user. --print writes both responses of the first round trip to stdout (to
// compare the bytes on the wire before and after a change). Exits non-zero at the first failure.
//
// Callgrind: start the server with `valgrind --tool=callgrind --instr-atstart=no`, run a few round
// trips to warm it up, `callgrind_control -i on`, run N, `callgrind_control -d`; then the
// profile holds N round trips and nothing else.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace {

using json = nlohmann::json;

struct Url {
  std::string host;
  int port = 0;
  std::string path;
};

Url parse_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) throw std::runtime_error("not an http:// URL: " + url);
  const auto rest = url.substr(scheme.size());
  const auto slash = rest.find('/');
  const auto hostport = rest.substr(0, slash);
  const auto colon = hostport.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("no port in " + url);
  return {hostport.substr(0, colon), std::atoi(hostport.c_str() + colon + 1),
          slash == std::string::npos ? "/" : rest.substr(slash)};
}

class Connection {
 public:
  explicit Connection(const Url& url) : url_(url) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<unsigned short>(url.port));
    if (inet_pton(AF_INET, url.host.c_str(), &a.sin_addr) != 1) throw std::runtime_error("bad host " + url.host);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw std::runtime_error("connect failed");
    int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Connection() { ::close(fd_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // POSTs `body` and returns the response body (Content-Length or chunked; JSON or SSE).
  std::string post(const std::string& body, const std::string& tool) {
    std::string req = "POST " + url_.path + " HTTP/1.1\r\nHost: " + url_.host + ":" + std::to_string(url_.port) +
                      "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
                      "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " +
                      tool + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    for (std::size_t sent = 0; sent < req.size();) {
      const auto n = ::send(fd_, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("send failed");
      sent += static_cast<std::size_t>(n);
    }
    const auto head_end = read_until("\r\n\r\n");
    const std::string head = buffer_.substr(0, head_end);
    buffer_.erase(0, head_end + 4);
    if (head.compare(0, 12, "HTTP/1.1 200") != 0) throw std::runtime_error("not 200: " + head);
    std::string lower = head;
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (const auto cl = lower.find("\r\ncontent-length:"); cl != std::string::npos) {
      const auto length = static_cast<std::size_t>(std::atol(head.c_str() + cl + 17));
      while (buffer_.size() < length) fill();
      std::string out = buffer_.substr(0, length);
      buffer_.erase(0, length);
      return out;
    }
    if (lower.find("transfer-encoding: chunked") == std::string::npos) throw std::runtime_error("no length: " + head);
    std::string out;
    for (;;) {
      const auto line_end = read_until("\r\n");
      const auto size = std::strtoul(buffer_.substr(0, line_end).c_str(), nullptr, 16);
      buffer_.erase(0, line_end + 2);
      while (buffer_.size() < size + 2) fill();
      out += buffer_.substr(0, size);
      buffer_.erase(0, size + 2);
      if (size == 0) return out;
    }
  }

 private:
  void fill() {
    char chunk[16384];
    const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) throw std::runtime_error("connection closed");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  std::size_t read_until(const char* delimiter) {
    for (;;) {
      if (const auto at = buffer_.find(delimiter); at != std::string::npos) return at;
      fill();
    }
  }

  Url url_;
  int fd_ = -1;
  std::string buffer_;
};

// The JSON-RPC message of a response body: the body itself, or an SSE stream's one `data:` line.
json message_of(const std::string& body) {
  if (!body.empty() && body.front() == '{') return json::parse(body);
  const auto data = body.find("data: ");
  if (data == std::string::npos) throw std::runtime_error("no message in " + body);
  return json::parse(body.substr(data + 6, body.find('\n', data) - data - 6));
}

std::string call(int id, const std::string& tool, const std::string& extra) {
  static const std::string meta =
      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientInfo":{"name":"elicit_modern_driver","version":"1"},)"
      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}})";
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":)" +
         json(tool).dump() + R"(,"arguments":{})" + extra + "," + meta + "}}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: elicit_modern_driver URL N [--tool NAME] [--print]\n";
    return 2;
  }
  std::string tool = "github_username";
  bool print = false;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tool") == 0 && i + 1 < argc) {
      tool = argv[++i];
    } else if (std::strcmp(argv[i], "--print") == 0) {
      print = true;
    }
  }
  try {
    Connection c(parse_url(argv[1]));
    const int n = std::atoi(argv[2]);
    int id = 0;
    for (int i = 0; i < n; ++i) {
      const std::string user = "user" + std::to_string(i);
      const auto first_body = c.post(call(++id, tool, ""), tool);
      const auto first = message_of(first_body);
      const auto& result = first.at("result");
      if (result.value("resultType", "") != "input_required") throw std::runtime_error("first: " + first_body);
      const auto& requests = result.at("inputRequests");
      if (requests.size() != 1) throw std::runtime_error("not one inputRequest: " + first_body);
      std::string extra = R"(,"inputResponses":{)" + json(requests.begin().key()).dump() +
                          R"(:{"action":"accept","content":{"name":")" + user + R"("}}})";
      if (const auto s = result.find("requestState"); s != result.end()) extra += R"(,"requestState":)" + s->dump();
      const auto second_body = c.post(call(++id, tool, extra), tool);
      const auto second = message_of(second_body);
      if (second.at("result").value("resultType", "") != "complete" || second_body.find(user) == std::string::npos)
        throw std::runtime_error("retry: " + second_body);
      if (print && i == 0) std::cout << first_body << "\n" << second_body << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "elicit_modern_driver: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
