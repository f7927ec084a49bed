// A Server speaking the userInteraction dialect (user_interaction.hpp) over the in-memory transport
// or the stdio transport (over pipes), with one tool per way a handler reaches the user, driven by a
// hand-written client (FakeClient). Shared by user_interaction_test.cpp and
// interaction_notify_test.cpp, whose cases run over both (GENERATE(kWires)).
#pragma once

#include <unistd.h>

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

#include <elicit/jsonrpc/memory_transport.hpp>
#include <elicit/jsonrpc/stdio_transport.hpp>

#include <elicit/protocol/user_interaction.hpp>
#include <elicit/server_session.hpp>

#include "contact_information.hpp"
#include "fake_client.hpp"
#include "interaction_tools.hpp"

namespace interaction_test {

using nlohmann::json;

/// A client declaring both interaction types and progress.
inline const json kBothTypes = {{"userInteraction", {{"types", {"ua", "prompt"}}, {"progress", true}}}};

/// What carries the messages: MemoryTransport, or StdioTransport on both ends of two pipes.
enum class Wire { memory, stdio };
inline std::ostream& operator<<(std::ostream& out, Wire w) { return out << (w == Wire::memory ? "memory" : "stdio"); }

/// The pipes of a stdio connection, closed once both transports are gone (StdioTransport does not
/// own its descriptors), and the two ends of the connection.
class Wiring {
 public:
  explicit Wiring(Wire wire) : wire_(wire) {
    if (wire == Wire::stdio && (pipe(to_server_) != 0 || pipe(to_client_) != 0)) throw std::runtime_error("pipe");
  }
  ~Wiring() {
    for (int fd : {to_server_[0], to_server_[1], to_client_[0], to_client_[1]})
      if (fd >= 0) close(fd);
  }
  Wiring(const Wiring&) = delete;
  Wiring& operator=(const Wiring&) = delete;
  /// {server end, client end}.
  std::pair<std::unique_ptr<elicit::Transport>, std::unique_ptr<elicit::Transport>> ends() const {
    if (wire_ == Wire::memory) return elicit::MemoryTransport::pair();
    return {std::make_unique<elicit::StdioTransport>(elicit::StdioOptions{to_server_[0], to_client_[1]}),
            std::make_unique<elicit::StdioTransport>(elicit::StdioOptions{to_client_[0], to_server_[1]})};
  }

 private:
  Wire wire_;
  int to_server_[2] = {-1, -1};
  int to_client_[2] = {-1, -1};
};

/// Tools: ask, call.elicit<ContactInformation>("Who are you?"), answers "hello NAME" or
/// "no: STATUS PROBLEM"; and interaction_tools.hpp's.
struct Fixture {
  explicit Fixture(Wire wire, bool enabled = true, bool progress = true)
      : wiring(wire), ends(wiring.ends()), client(std::move(ends.second)) {
    using elicit::RequestContext;
    using elicit::Tool;
    using elicit::ToolResult;
    elicit::ServerSessionOptions o;
    o.worker_threads = 2;
    o.session.log = [](std::string_view) {};
    o.user_interaction.enabled = enabled;
    o.user_interaction.progress = progress;
    server = std::make_unique<elicit::ServerSession>(*ends.first, elicit::ServerInfo{"ui-server", "1"}, o);
    const json open_args{{"type", "object"}};
    server->add_tool(Tool{"ask", "", open_args, std::nullopt,
                          [](RequestContext& call) {
                            auto o = call.elicit<samples::ContactInformation>("Who are you?");
                            if (!o)
                              return ToolResult::text("no: " + std::string(to_string(o.status)) + " " + o.problem);
                            return ToolResult::text("hello " + o.value->name);
                          },
                          nullptr});
    interaction_test::add_tools(*server->server());
    server->start();
  }
  ~Fixture() { server.reset(); }

  /// Calls tool `name` as request `id` and returns the next message (the interaction/create it makes).
  json call_and_take_request(const json& id, const std::string& name, const json& arguments = json::object()) {
    client.request(id, "tools/call", {{"name", name}, {"arguments", arguments}});
    return next();
  }
  /// The next tools/call result's text (or the whole message when it is not a result).
  std::string result_text() {
    const auto r = next();
    return r.contains("result") ? r["result"]["content"][0]["text"].get<std::string>() : r.dump();
  }
  void notify_request(const json& id, const json& params) { client.request(id, "interaction/notify", params); }
  /// True when the next message answers the ping sent now, i.e. nothing came before it.
  bool nothing_before_ping(int ping_id = 900) {
    client.request(ping_id, "ping");
    const auto m = next();
    return m.value("id", json()) == ping_id && m.contains("result");
  }
  json next() { return client.next().value_or(json()); }

  Wiring wiring;
  std::pair<std::unique_ptr<elicit::Transport>, std::unique_ptr<elicit::Transport>> ends;
  FakeClient client;
  std::unique_ptr<elicit::ServerSession> server;
};

/// interaction/notify params naming interaction `id` with `token`.
inline json notify_params(const std::string& id, const json& token = "tok") {
  return {{"id", id}, {"_meta", {{"progressToken", token}}}};
}

}  // namespace interaction_test
