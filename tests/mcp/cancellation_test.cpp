// Cancellation reaches the form: a cancelled tools/call, or a closed session, cancels every
// elicitation made for it, frees the worker at once, and lets no new one out.
#include <catch2/catch.hpp>

#include <future>

#include <elicit/server_session.hpp>

#include "../support/server_fixture.hpp"
#include "contact_information.hpp"

namespace cancellation_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;
using samples::ContactInformation;
using test_support::kPatience;
using test_support::Recorder;
using test_support::ServerFixture;

namespace {

const json kForm = {{"elicitation", json::object()}};
const json kAnn = {{"action", "accept"}, {"content", {{"name", "Ann"}, {"email", "ann@example.com"}}}};

std::string describe(const Outcome<ContactInformation>& o) {
  return o ? "hello " + o.value->name : "no: " + std::string(to_string(o.status));
}

Tool blocking_tool(Recorder<ElicitStatus>& seen) {
  return Tool{"ask",
              "",
              {{"type", "object"}},
              std::nullopt,
              [&seen](RequestContext& call) {
                auto o = call.elicit<ContactInformation>();
                seen.add(o.status);
                return ToolResult::text(describe(o));
              },
              nullptr};
}

Tool async_tool(Recorder<ElicitStatus>& seen) {
  return Tool{"ask", "", {{"type", "object"}}, std::nullopt, nullptr, [&seen](std::shared_ptr<RequestContext> call) {
                call->elicit_async<ContactInformation>([&seen, call](Outcome<ContactInformation> o) {
                  seen.add(o.status);
                  call->reply(ToolResult::text(describe(o)));
                });
              }};
}

// Eight calls, each cancelled by the client while its form is open, then a ninth that completes.
void run_cascade(ServerFixture& f, Recorder<ElicitStatus>& seen) {
  f.server->start();
  f.client.initialize(kForm);
  constexpr int kCancelled = 8;
  for (int i = 0; i < kCancelled; ++i) {
    f.client.request(100 + i, "tools/call", {{"name", "ask"}});
    const auto e = f.client.next();  // with one worker, this also shows the previous one is free
    REQUIRE(e);
    REQUIRE((*e)["method"] == "elicitation/create");
    f.client.notify("notifications/cancelled", {{"requestId", 100 + i}, {"reason", "user gave up"}});
    const auto c = f.client.next();
    REQUIRE(c);
    CHECK((*c)["method"] == "notifications/cancelled");
    CHECK((*c)["params"]["requestId"] == (*e)["id"]);
  }
  f.client.request(200, "tools/call", {{"name", "ask"}});
  const auto e = f.client.next();
  REQUIRE(e);
  REQUIRE((*e)["method"] == "elicitation/create");
  f.client.respond((*e)["id"], kAnn);
  const auto r = f.client.next();  // no answer for any cancelled call came before it
  REQUIRE(r);
  CHECK((*r)["id"] == 200);
  CHECK((*r)["result"]["content"][0]["text"] == "hello Ann");
  REQUIRE(seen.wait(kCancelled + 1));
  const auto statuses = seen.values();
  for (int i = 0; i < kCancelled; ++i) CHECK(statuses[i] == ElicitStatus::aborted);
  CHECK(statuses[kCancelled] == ElicitStatus::accepted);
  CHECK(f.server->state().rpc().pending_requests() == 0);
}

}  // namespace

TEST_CASE("cascade: eight cancelled blocking calls on a pool of one, then a ninth completes",
          "[cancel][cascade][server]") {
  ServerFixture f(ServerFixture::workers(1));
  Recorder<ElicitStatus> seen;
  f.server->add_tool(blocking_tool(seen));
  run_cascade(f, seen);
}

TEST_CASE("cascade: eight cancelled asynchronous calls, then a ninth completes", "[cancel][cascade][async]") {
  ServerFixture f(ServerFixture::workers(1));
  Recorder<ElicitStatus> seen;
  f.server->add_tool(async_tool(seen));
  run_cascade(f, seen);
}

TEST_CASE("an elicitation started after the call was cancelled is not sent and ends aborted at once",
          "[cancel][server]") {
  ServerFixture f(ServerFixture::workers(1));
  Recorder<ElicitStatus> seen;
  Recorder<bool> cancel_seen;
  f.server->add_tool(Tool{"ask_twice",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [&](RequestContext& call) {
                            call.on_cancel([&] { cancel_seen.add(true); });
                            seen.add(call.elicit<ContactInformation>().status);  // cancelled while open
                            seen.add(call.elicit<ContactInformation>().status);  // after: never sent
                            seen.add(call.elicit_url("Connect", "https://example.com/connect").status);
                            bool at_once = false;
                            call.on_cancel([&] { at_once = true; });  // already cancelled: runs now
                            cancel_seen.add(at_once);
                            return ToolResult::text("done");
                          },
                          nullptr});
  f.server->start();
  f.client.initialize({{"elicitation", {{"form", json::object()}, {"url", json::object()}}}});
  f.client.request("t", "tools/call", {{"name", "ask_twice"}});
  const auto e = f.client.next();
  REQUIRE(e);
  f.client.notify("notifications/cancelled", {{"requestId", "t"}});
  CHECK((*f.client.next())["method"] == "notifications/cancelled");
  REQUIRE(seen.wait(3));
  CHECK(seen.values() ==
        std::vector<ElicitStatus>{ElicitStatus::aborted, ElicitStatus::aborted, ElicitStatus::aborted});
  REQUIRE(cancel_seen.wait(2));
  CHECK(cancel_seen.values() == std::vector<bool>{true, true});
  f.client.request(9, "ping");
  const auto r = f.client.next();  // nothing else was sent: no second form, no tool result
  REQUIRE(r);
  CHECK((*r)["id"] == 9);
  CHECK(f.server->state().rpc().pending_requests() == 0);
}

TEST_CASE("an asynchronous tool's elicitation after cancellation is not sent", "[cancel][async]") {
  ServerFixture f;
  Recorder<ElicitStatus> seen;
  f.server->add_tool(
      Tool{"ask", "", {{"type", "object"}}, std::nullopt, nullptr, [&](std::shared_ptr<RequestContext> call) {
             call->on_cancel([&seen, call] {
               call->elicit_async<ContactInformation>([&seen](Outcome<ContactInformation> o) { seen.add(o.status); });
             });
             call->elicit_async<ContactInformation>([&seen](Outcome<ContactInformation> o) { seen.add(o.status); });
           }});
  f.server->start();
  f.client.initialize(kForm);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  REQUIRE(f.client.next());
  f.client.notify("notifications/cancelled", {{"requestId", 1}});
  CHECK((*f.client.next())["method"] == "notifications/cancelled");
  REQUIRE(seen.wait(2));
  CHECK(seen.values() == std::vector<ElicitStatus>{ElicitStatus::aborted, ElicitStatus::aborted});
  f.client.request(2, "ping");
  CHECK((*f.client.next())["id"] == 2);
}

TEST_CASE("a closed session ends open elicitations transport_closed and frees the shared pool's worker",
          "[cancel][close][server]") {
  auto pool = std::make_shared<WorkerPool>(1);
  ServerSessionOptions o;
  o.workers = pool;
  ServerFixture f(o);
  Recorder<ElicitStatus> seen;
  Recorder<bool> cancelled;
  f.server->add_tool(Tool{"ask",
                          "",
                          {{"type", "object"}},
                          std::nullopt,
                          [&](RequestContext& call) {
                            call.on_cancel([&] { cancelled.add(true); });
                            seen.add(call.elicit<ContactInformation>().status);
                            return ToolResult::text("late");
                          },
                          nullptr});
  f.server->start();
  f.client.initialize(kForm);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  REQUIRE(f.client.next());
  f.client.transport().close();
  REQUIRE(seen.wait(1));
  CHECK(seen.values()[0] == ElicitStatus::transport_closed);
  CHECK(cancelled.wait(1));
  // The pool's only thread is free while the server still exists.
  std::promise<void> ran;
  REQUIRE(pool->post([&] { ran.set_value(); }));
  CHECK(ran.get_future().wait_for(kPatience) == std::future_status::ready);
}

TEST_CASE("a server destroyed with calls still queued on a shared pool leaves them harmless",
          "[cancel][close][server]") {
  auto pool = std::make_shared<WorkerPool>(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  REQUIRE(pool->post([released] { released.wait(); }));  // hold the only thread
  {
    ServerSessionOptions o;
    o.workers = pool;
    ServerFixture f(o);
    f.server->add_tool(Tool{"never",
                            "",
                            {{"type", "object"}},
                            std::nullopt,
                            [](RequestContext&) -> ToolResult { throw std::logic_error("must not run"); },
                            nullptr});
    f.server->start();
    f.client.initialize(kForm);
    for (int i = 0; i < 3; ++i) f.client.request(i, "tools/call", {{"name", "never"}});
    f.client.request(9, "ping");
    CHECK((*f.client.next())["id"] == 9);  // the calls are queued behind the held thread
  }
  release.set_value();
  std::promise<void> ran;
  REQUIRE(pool->post([&] { ran.set_value(); }));  // the queued jobs ran (as no-ops) before this one
  CHECK(ran.get_future().wait_for(kPatience) == std::future_status::ready);
}

TEST_CASE("default_elicitation_timeout applies when a call passes none", "[cancel][timeout][server]") {
  ServerSessionOptions o = ServerFixture::workers(1);
  o.default_elicitation_timeout = 1ms;
  ServerFixture f(o);
  Recorder<ElicitStatus> seen;
  f.server->add_tool(blocking_tool(seen));
  f.server->start();
  f.client.initialize(kForm);
  f.client.request(1, "tools/call", {{"name", "ask"}});
  const auto e = f.client.next();
  REQUIRE(e);
  const auto c = f.client.next();
  REQUIRE(c);
  CHECK((*c)["method"] == "notifications/cancelled");
  CHECK((*c)["params"]["requestId"] == (*e)["id"]);
  CHECK((*c)["params"]["reason"] == "timed out");
  const auto r = f.client.next();
  REQUIRE(r);
  CHECK((*r)["result"]["content"][0]["text"] == "no: timed_out");
  CHECK(seen.values() == std::vector<ElicitStatus>{ElicitStatus::timed_out});
}

TEST_CASE("a cancel scope forgets each elicitation once it completes", "[cancel][scope]") {
  auto ends = MemoryTransport::pair();
  FakeClient client(std::move(ends.second));
  jsonrpc::Connection session(*ends.first, jsonrpc::ConnectionOptions{[](std::string_view) {}});
  SessionState mcp(session);
  session.start();
  mcp.set_client_capabilities(ClientCapabilities::from_json(kForm));
  ElicitOptions options;
  options.cancel_scope = std::make_shared<CancelScope>();
  Recorder<ElicitStatus> seen;
  for (int i = 0; i < 50; ++i) {
    elicit_async<ContactInformation>(
        mcp, "m", [&](Outcome<ContactInformation> o) { seen.add(o.status); }, options);
    const auto e = client.next();
    REQUIRE(e);
    client.respond((*e)["id"], {{"action", "decline"}});
  }
  REQUIRE(seen.wait(50));
  CHECK(options.cancel_scope->size() == 0);
  CHECK_FALSE(options.cancel_scope->cancelled());
  // Cancelling the scope while one is open cancels it on the wire.
  elicit_async<ContactInformation>(
      mcp, "m", [&](Outcome<ContactInformation> o) { seen.add(o.status); }, options);
  const auto e = client.next();
  REQUIRE(e);
  CHECK(options.cancel_scope->cancel());
  const auto c = client.next();
  REQUIRE(c);
  CHECK((*c)["method"] == "notifications/cancelled");
  CHECK((*c)["params"]["requestId"] == (*e)["id"]);
  REQUIRE(seen.wait(51));
  CHECK(seen.values().back() == ElicitStatus::aborted);
  CHECK_FALSE(options.cancel_scope->cancel());
}

namespace {

// Forwards to a MemoryTransport, cancelling `scope` just before the first elicitation/create goes
// out: the cancellation lands between the scope check and the send.
class CancellingTransport final : public Transport {
 public:
  CancellingTransport(Transport& inner, std::shared_ptr<CancelScope> scope) : inner_(inner), scope_(std::move(scope)) {}
  void start(MessageHandler on_message, CloseHandler on_close) override {
    inner_.start(std::move(on_message), std::move(on_close));
  }
  bool send(std::string message, const SendContext& context) override {
    if (message.find("elicitation/create") != std::string::npos) scope_->cancel();
    return inner_.send(std::move(message), context);
  }
  void close() override { inner_.close(); }

 private:
  Transport& inner_;
  std::shared_ptr<CancelScope> scope_;
};

}  // namespace

TEST_CASE("a cancellation between the scope check and the send still cancels the elicitation", "[cancel][scope]") {
  auto ends = MemoryTransport::pair();
  FakeClient client(std::move(ends.second));
  ElicitOptions options;
  options.cancel_scope = std::make_shared<CancelScope>();
  CancellingTransport transport(*ends.first, options.cancel_scope);
  jsonrpc::Connection session(transport, jsonrpc::ConnectionOptions{[](std::string_view) {}});
  SessionState mcp(session);
  session.start();
  mcp.set_client_capabilities(ClientCapabilities::from_json(kForm));
  Recorder<ElicitStatus> seen;
  const auto id = elicit_async<ContactInformation>(
      mcp, "m", [&](Outcome<ContactInformation> o) { seen.add(o.status); }, options);
  REQUIRE(id);
  const auto e = client.next();
  REQUIRE(e);
  CHECK((*e)["method"] == "elicitation/create");
  const auto c = client.next();  // right after the request, never before it
  REQUIRE(c);
  CHECK((*c)["method"] == "notifications/cancelled");
  CHECK((*c)["params"]["requestId"] == (*e)["id"]);
  REQUIRE(seen.wait(1));
  CHECK(seen.values()[0] == ElicitStatus::aborted);
  CHECK(session.pending_requests() == 0);
  CHECK(options.cancel_scope->size() == 0);
}

TEST_CASE("a cancelled tools/call cancels its request_inputs requests and frees the worker", "[cancel][server]") {
  Recorder<std::string> seen;  // outlives the server: the second call's handler records at its end
  ServerFixture f(ServerFixture::workers(1));
  f.server->add_tool(
      Tool{"sample",
           "",
           {{"type", "object"}},
           std::nullopt,
           [&seen](RequestContext& call) {
             const auto o =
                 call.request_input({"sampling/createMessage", {{"messages", json::array()}, {"maxTokens", 1}}, ""});
             seen.add(o.failure ? std::string(o.failure == RequestFailure::cancelled ? "cancelled" : "other failure")
                                : "answered");
             return ToolResult::text("done");
           },
           nullptr});
  f.server->start();
  f.client.initialize({{"sampling", json::object()}});
  f.client.request(1, "tools/call", {{"name", "sample"}});
  const auto s = f.client.next();
  REQUIRE(s);
  REQUIRE((*s)["method"] == "sampling/createMessage");
  f.client.notify("notifications/cancelled", {{"requestId", 1}});
  const auto c = f.client.next();
  REQUIRE(c);
  CHECK((*c)["method"] == "notifications/cancelled");
  CHECK((*c)["params"]["requestId"] == (*s)["id"]);
  REQUIRE(seen.wait(1));
  CHECK(seen.values().front() == "cancelled");
  // The one worker is free: the next call runs.
  f.client.request(2, "tools/call", {{"name", "sample"}});
  const auto again = f.client.next();
  REQUIRE(again);
  CHECK((*again)["method"] == "sampling/createMessage");
}

}  // namespace cancellation_test
