// libFuzzer: any bytes as a stream of JSON-RPC lines from a client -> a Server whose tool elicits.
// Every line is delivered synchronously on the fuzzer's thread. Must never crash; every request
// must get at most one answer. The lines go to two servers: one that may be initialized (legacy
// session), and one that never sees `initialize`, so MCP 2026-07-28 requests (input-required
// results, inputResponses, requestState) stay modern for the whole run.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <elicit/server.hpp>

#include "github_username.hpp"

namespace {

// Delivers on the caller's thread; what the server sends is discarded.
class DirectTransport final : public elicit::Transport {
 public:
  void start(MessageHandler on_message, CloseHandler on_close) override {
    on_message_ = std::move(on_message);
    on_close_ = std::move(on_close);
  }
  bool send(std::string message, const elicit::SendContext&) override {
    if (message.empty()) __builtin_trap();
    return true;
  }
  void close() override {
    if (on_close_) std::exchange(on_close_, nullptr)();
  }
  void deliver(std::string line) { on_message_(std::move(line)); }

 private:
  MessageHandler on_message_;
  CloseHandler on_close_;
};

elicit::ServerOptions quiet_options() {
  elicit::ServerOptions o;
  o.worker_threads = 1;
  o.session.log = [](std::string_view) {};
  return o;
}

// One server for the whole run: state (capabilities, pending elicitations) carries across inputs.
struct Fixture {
  DirectTransport transport;
  elicit::Server server{transport, {"fuzz", "1"}, quiet_options()};
  Fixture() {
    server.add_tool({"ask",
                     "asks a username",
                     {{"type", "object"}},
                     std::nullopt,
                     nullptr,
                     [](std::shared_ptr<elicit::ToolCall> call) {
                       elicit::elicit_async<samples::GithubUsername>(
                           call->session(), "Your GitHub username?",
                           [call](elicit::Outcome<samples::GithubUsername> o) {
                             call->reply(elicit::ToolResult::text(o ? o.value->name : "none"));
                           },
                           call->elicit_options());
                     }});
    // Both eras through ToolCall: replays in the modern era.
    server.add_tool({"ask_typed",
                     "asks a username, then a second one",
                     {{"type", "object"}},
                     std::nullopt,
                     nullptr,
                     [](std::shared_ptr<elicit::ToolCall> call) {
                       call->elicit_async<samples::GithubUsername>(
                           "Your GitHub username?", [call](elicit::Outcome<samples::GithubUsername> first) {
                             if (!first) {
                               call->reply(elicit::ToolResult::text("none"));
                               return;
                             }
                             call->elicit_async<samples::GithubUsername>(
                                 "And your friend's?", [call, first](elicit::Outcome<samples::GithubUsername> second) {
                                   call->reply(elicit::ToolResult::text(first && second ? second.value->name : "none"));
                                 });
                           });
                     }});
    server.start();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Never destroyed: at exit, the generated types' static schemas may be gone before a fixture whose
  // closing session would fail pending elicitations into callbacks that use them.
  static Fixture& f = *new Fixture;
  static Fixture& modern = *new Fixture;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const std::string line(rest.substr(0, nl));
    f.transport.deliver(line);
    if (line.find("initialize") == std::string::npos) modern.transport.deliver(line);
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  return 0;
}
