// libFuzzer: any bytes as a stream of JSON-RPC lines from a client -> a ServerSession whose tool elicits.
// Every line is delivered synchronously on the fuzzer's thread. Must never crash; every request
// must get at most one answer. The lines go to two servers: one that may be initialized (2025-11-25
// session), and one that never sees `initialize`, so MCP 2026-07-28 requests (input-required
// results, inputResponses, requestState) stay 2026-07-28 for the whole run. Each line is also read
// by the runtime's fast JSON path, which must agree with nlohmann exactly (document, types, and
// bytes written back).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <cstring>

#include <elicit/server_session.hpp>

#include "json_fast.hpp"

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

elicit::ServerSessionOptions quiet_options() {
  elicit::ServerSessionOptions o;
  o.worker_threads = 1;
  o.session.log = [](std::string_view) {};
  return o;
}

// One server for the whole run: state (capabilities, pending elicitations) carries across inputs.
struct Fixture {
  DirectTransport transport;
  elicit::ServerSession server{transport, {"fuzz", "1"}, quiet_options()};
  Fixture() {
    server.add_tool({"ask",
                     "asks a username",
                     {{"type", "object"}},
                     std::nullopt,
                     nullptr,
                     [](std::shared_ptr<elicit::RequestContext> call) {
                       elicit::elicit_async<samples::GithubUsername>(
                           call->state(), "Your GitHub username?",
                           [call](elicit::Outcome<samples::GithubUsername> o) {
                             call->reply(elicit::ToolResult::text(o ? o.value->name : "none"));
                           },
                           call->elicit_options());
                     }});
    // Both eras through RequestContext: replays in the 2026-07-28 era.
    server.add_tool({"ask_typed",
                     "asks a username, then a second one",
                     {{"type", "object"}},
                     std::nullopt,
                     nullptr,
                     [](std::shared_ptr<elicit::RequestContext> call) {
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

// Equal values of equal types, all the way down (nlohmann's == says 1 == 1u == 1.0).
bool same(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
      if (x.key() != y.key() || !same(x.value(), y.value())) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_number_float()) {
    const double x = a.get<double>();
    const double y = b.get<double>();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return a == b;
}

// The JSON-RPC members the fast path read must be the document's.
void check_fast_envelope(std::string_view text) {
  elicit::jsonrpc::detail::PlainEnvelope e;
  if (!elicit::jsonrpc::detail::parse_plain_envelope(text, e)) return;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception&) {
    __builtin_trap();
  }
  if (!j.is_object()) __builtin_trap();
  auto agrees = [&](const char* key, bool has, const nlohmann::json& value) {
    const auto it = j.find(key);
    return has == (it != j.end()) && (!has || same(value, *it));
  };
  const auto v = j.find("jsonrpc");
  if (e.jsonrpc_2_0 != (v != j.end() && v->is_string() && *v == "2.0")) __builtin_trap();
  const auto m = j.find("method");
  if (e.has_method != (m != j.end())) __builtin_trap();
  if (e.has_method && (e.method_is_string != m->is_string() || (e.method_is_string && e.method != *m)))
    __builtin_trap();
  if (!agrees("id", e.has_id, e.id) || !agrees("params", e.has_params, e.params) ||
      !agrees("result", e.has_result, e.result) || !agrees("error", e.has_error, e.error))
    __builtin_trap();
}

// What the fast path reads it must read as nlohmann does; what it writes must be nlohmann's bytes.
void check_fast_json(std::string_view text) {
  check_fast_envelope(text);
  nlohmann::json fast;
  if (!elicit::jsonrpc::detail::parse_plain_json(text, fast)) return;
  nlohmann::json reference;
  try {
    reference = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception&) {
    __builtin_trap();  // the fast path accepted what nlohmann rejects
  }
  if (!same(fast, reference)) __builtin_trap();
  std::string written;
  elicit::jsonrpc::detail::append_dump(written, reference);
  if (written != reference.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Never destroyed: at exit, the generated types' static schemas may be gone before a fixture whose
  // closing session would fail pending elicitations into callbacks that use them.
  static Fixture& f = *new Fixture;
  static Fixture& stateless = *new Fixture;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const std::string line(rest.substr(0, nl));
    check_fast_json(line);
    f.transport.deliver(line);
    if (line.find("initialize") == std::string::npos) stateless.transport.deliver(line);
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  return 0;
}
