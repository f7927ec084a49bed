// jsonrpc::Connection behaviour against a hand-driven client: out-of-order, duplicated, late and unknown
// responses, malformed input, cancellation both ways, and closing with requests pending.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <set>
#include <thread>

#include <elicit/jsonrpc/connection.hpp>
#include <elicit/jsonrpc/memory_transport.hpp>

#include "../support/collector.hpp"
#include "../support/fake_client.hpp"
#include "../support/patience.hpp"

namespace connection_test {

using namespace elicit;
using namespace std::chrono_literals;
using nlohmann::json;
using test_support::Collector;

namespace {

struct Fixture {
  explicit Fixture(std::size_t max_pending_requests = jsonrpc::ConnectionOptions{}.max_pending_requests,
                   bool keep_message_text = false)
      : ends(MemoryTransport::pair()), client(std::move(ends.second)) {
    jsonrpc::ConnectionOptions o;
    o.log = [this](std::string_view line) {
      std::lock_guard<std::mutex> lock(log_mutex);
      log.emplace_back(line);
    };
    o.max_pending_requests = max_pending_requests;
    o.keep_message_text = keep_message_text;
    session = std::make_unique<jsonrpc::Connection>(*ends.first, o);
  }
  ~Fixture() { session.reset(); }

  std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> ends;
  FakeClient client;
  std::unique_ptr<jsonrpc::Connection> session;
  std::mutex log_mutex;
  std::vector<std::string> log;
};

}  // namespace

TEST_CASE("responses that arrive out of order reach their own requests", "[session]") {
  Fixture f;
  f.session->start();
  Collector c;
  std::vector<json> ids;
  for (int i = 0; i < 3; ++i) {
    f.session->send_request("test/echo", {{"n", i}}, c.handler(i));
    auto m = f.client.next();
    REQUIRE(m);
    CHECK((*m)["method"] == "test/echo");
    ids.push_back((*m)["id"]);
  }
  CHECK(f.session->pending_requests() == 3);
  f.client.respond(ids[2], {{"v", 2}});
  f.client.respond(ids[0], {{"v", 0}});
  f.client.respond(ids[1], {{"v", 1}});
  REQUIRE(c.wait_for(3));
  for (int i = 0; i < 3; ++i) {
    REQUIRE(c.got[i].size() == 1);
    CHECK((*c.got[i][0].result)["v"] == i);
  }
  CHECK(f.session->pending_requests() == 0);
}

TEST_CASE("keep_message_text: the text of the peer's requests and responses, only when asked", "[session]") {
  for (const bool keep : {false, true}) {
    INFO("keep_message_text " << keep);
    Fixture f(jsonrpc::ConnectionOptions{}.max_pending_requests, keep);
    std::promise<std::shared_ptr<const std::string>> request_text;
    f.session->on_request("test/ask", [&](const Request& r, Responder out) {
      request_text.set_value(r.text);
      out.result(json::object());
    });
    f.session->start();
    // Members out of sorted order: what the text keeps and the parsed params do not.
    const std::string request = R"({"jsonrpc":"2.0","id":7,"method":"test/ask","params":{"z":1,"a":2}})";
    f.client.send_text(request);
    auto got = request_text.get_future();
    REQUIRE(got.wait_for(test_support::kPatience) == std::future_status::ready);
    const auto text = got.get();
    REQUIRE(f.client.next());  // the answer to test/ask
    Collector c;
    f.session->send_request("test/x", json::object(), c.handler(0));
    const auto id = (*f.client.next())["id"];
    const std::string response = R"({"jsonrpc":"2.0","id":)" + id.dump() + R"(,"result":{"z":1,"a":2}})";
    f.client.send_text(response);
    REQUIRE(c.wait_for(1));
    const auto& outcome = c.got[0][0];
    REQUIRE(outcome.result);
    CHECK(*outcome.result == json{{"a", 2}, {"z", 1}});
    if (keep) {
      REQUIRE(text);
      CHECK(*text == request);
      REQUIRE(outcome.text);
      CHECK(*outcome.text == response);
    } else {
      CHECK_FALSE(text);
      CHECK_FALSE(outcome.text);
    }
  }
}

TEST_CASE("a duplicated response completes the request once", "[session]") {
  Fixture f;
  f.session->start();
  Collector c;
  f.session->send_request("test/x", json::object(), c.handler(0));
  const auto id = (*f.client.next())["id"];
  f.client.respond(id, {{"first", true}});
  f.client.respond(id, {{"second", true}});
  f.client.request(99, "ping");  // a marker: once it is answered, both responses were processed
  REQUIRE(f.client.next());
  REQUIRE(c.wait_for(1));
  CHECK(c.got[0].size() == 1);
  CHECK(c.got[0][0].result->contains("first"));
  CHECK(f.session->pending_requests() == 0);
}

TEST_CASE("a timeout completes the request, cancels it on the wire, and ignores the late answer",
          "[session][timeout]") {
  Fixture f;
  f.session->start();
  Collector c;
  CallOptions o;
  o.timeout = 50ms;
  f.session->send_request("test/slow", json::object(), c.handler(0), o);
  const auto id = (*f.client.next())["id"];
  REQUIRE(c.wait_for(1));
  CHECK(c.got[0][0].failure == RequestFailure::timed_out);
  const auto cancelled = f.client.next();
  REQUIRE(cancelled);
  CHECK((*cancelled)["method"] == "notifications/cancelled");
  CHECK((*cancelled)["params"]["requestId"] == id);
  CHECK((*cancelled)["params"]["reason"] == "timed out");
  f.client.respond(id, {{"late", true}});
  f.client.request(1, "ping");
  REQUIRE(f.client.next());  // -32601 for ping on a bare session: proves the late answer was read
  CHECK(c.got[0].size() == 1);
  CHECK(f.session->pending_requests() == 0);
}

TEST_CASE("no timeout means no limit", "[session][timeout]") {
  Fixture f;
  f.session->start();
  Collector c;
  f.session->send_request("test/x", json::object(), c.handler(0));  // no timeout given
  const auto id = (*f.client.next())["id"];
  CHECK_FALSE(c.wait_for(1, 300ms));
  CHECK(f.session->pending_requests() == 1);
  f.client.respond(id, json::object());
  CHECK(c.wait_for(1));
}

TEST_CASE("responses for unknown ids or with the wrong id type are ignored", "[session]") {
  Fixture f;
  f.session->start();
  Collector c;
  f.session->send_request("test/x", json::object(), c.handler(0));
  const auto id = (*f.client.next())["id"];
  f.client.respond(12345, json::object());
  f.client.respond(std::to_string(id.get<int>()), json::object());  // "1" is not 1
  f.client.send_text(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})");
  f.client.request(1, "ping");
  REQUIRE(f.client.next());
  CHECK(c.got.empty());
  CHECK(f.session->pending_requests() == 1);
  f.client.respond(id, json::object());
  CHECK(c.wait_for(1));
}

TEST_CASE("malformed and invalid messages get JSON-RPC errors and the session keeps serving", "[session][errors]") {
  Fixture f;
  f.session->on_request("ping", [](const Request&, Responder r) { r.result(json::object()); });
  f.session->start();
  f.client.send_text("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
  auto m = f.client.next();
  REQUIRE(m);
  CHECK((*m)["error"]["code"] == error_code::parse_error);
  CHECK((*m)["id"].is_null());
  f.client.send_text(R"({"jsonrpc":"2.0","id":2.5,"method":"ping"})");
  CHECK((*f.client.next())["error"]["code"] == error_code::invalid_request);
  f.client.send_text(R"([1,2,3])");
  CHECK((*f.client.next())["error"]["code"] == error_code::invalid_request);
  f.client.send_text(std::string("\xff\xfe garbage"));
  CHECK((*f.client.next())["error"]["code"] == error_code::parse_error);
  f.client.request("m", "no/such/method");
  m = f.client.next();
  CHECK((*m)["error"]["code"] == error_code::method_not_found);
  CHECK((*m)["id"] == "m");
  f.client.request(7, "ping");
  m = f.client.next();
  CHECK((*m)["id"] == 7);
  CHECK((*m)["result"] == json::object());
}

TEST_CASE("messages nested deeper than the limit are parse errors, and the session keeps serving",
          "[session][errors][hostile]") {
  Fixture f;
  f.session->on_request("ping", [](const Request&, Responder r) { r.result(json::object()); });
  f.session->start();
  // nlohmann copies and prints values recursively: 100,000 levels in an error object, an id, params
  // or a result used to overflow the stack when the session logged or copied them.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const auto& text :
       {R"({"jsonrpc":"2.0","id":5,"error":)" + deep + "}", R"({"jsonrpc":"2.0","id":)" + deep + R"(,"method":"ping"})",
        R"({"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":)" + deep + "}}",
        R"({"jsonrpc":"2.0","id":7,"result":)" + deep + "}"}) {
    f.client.send_text(text);
    const auto m = f.client.next();
    REQUIRE(m);
    CHECK((*m)["error"]["code"] == error_code::parse_error);
    CHECK_THAT((*m)["error"]["message"].get<std::string>(), Catch::Contains("nesting deeper than 1000 levels"));
  }
  // Exactly at the limit is fine: 998 arrays inside the message object and params.
  f.client.send_text(R"({"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":)" + std::string(998, '[') +
                     std::string(998, ']') + "}}");
  const auto ok = f.client.next();
  REQUIRE(ok);
  CHECK((*ok)["id"] == 8);
  CHECK((*ok)["result"] == json::object());
}

TEST_CASE("a handler that throws answers -32603", "[session][errors]") {
  Fixture f;
  f.session->on_request("boom", [](const Request&, Responder) { throw std::runtime_error("kaput"); });
  f.session->start();
  f.client.request(1, "boom");
  const auto m = f.client.next();
  CHECK((*m)["error"]["code"] == error_code::internal_error);
  CHECK((*m)["error"]["message"] == "Internal error: kaput");
}

TEST_CASE("cancel() sends notifications/cancelled and completes the request once", "[session][cancel]") {
  Fixture f;
  f.session->start();
  Collector c;
  const auto id = f.session->send_request("test/x", json::object(), c.handler(0));
  const auto wire_id = (*f.client.next())["id"];
  CHECK(f.session->cancel(id, "user went away"));
  CHECK_FALSE(f.session->cancel(id));
  REQUIRE(c.wait_for(1));
  CHECK(c.got[0][0].failure == RequestFailure::cancelled);
  const auto n = f.client.next();
  CHECK((*n)["method"] == "notifications/cancelled");
  CHECK((*n)["params"]["requestId"] == wire_id);
  CHECK((*n)["params"]["reason"] == "user went away");
  f.client.respond(wire_id, json::object());
  CHECK(f.session->pending_requests() == 0);
  CHECK_FALSE(f.session->cancel(RequestId{"never sent"}));
}

TEST_CASE("a request the peer cancels is not answered", "[session][cancel]") {
  Fixture f;
  std::promise<Responder> held;
  f.session->on_request("slow", [&](const Request&, Responder r) { held.set_value(r); });
  f.session->start();
  f.client.request("s1", "slow");
  auto responder = held.get_future().get();
  std::atomic<bool> told{false};
  responder.on_cancel([&] { told = true; });
  f.client.notify("notifications/cancelled", {{"requestId", "s1"}, {"reason", "bored"}});
  f.client.notify("notifications/cancelled", {{"requestId", "unknown"}});  // ignored
  f.client.notify("notifications/cancelled", {{"nothing", true}});         // ignored
  f.client.request(2, "no/such");
  CHECK((*f.client.next())["id"] == 2);  // the only answer
  CHECK(told);
  CHECK(responder.cancelled());
  responder.result({{"too", "late"}});
  f.client.request(3, "no/such");
  CHECK((*f.client.next())["id"] == 3);
}

namespace {

// What Responder::on_answered reported, from whichever thread.
struct Ends {
  std::mutex mutex;
  std::vector<jsonrpc::Answered> seen;
  std::vector<int> codes;  // the error's code while the callback ran, 0 without one
  std::function<void(const jsonrpc::Answered&)> observer() {
    return [this](const jsonrpc::Answered& a) {
      std::lock_guard<std::mutex> lock(mutex);
      seen.push_back(a);
      codes.push_back(a.error ? a.error->code : 0);
    };
  }
  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex);
    return seen.size();
  }
};

}  // namespace

TEST_CASE("on_answered reports how each request ended, once", "[session][observe]") {
  Fixture f;
  Ends ends;
  std::promise<Responder> held;
  f.session->on_request("answer", [&](const Request& r, Responder out) {
    out.on_answered(ends.observer());
    const auto how = r.params.value("how", std::string());
    if (how == "result") out.result({{"resultType", "complete"}});
    if (how == "input_required") out.result({{"resultType", "input_required"}, {"inputRequests", json::object()}});
    if (how == "text") out.result_text(R"({"resultType":"input_required"})", true, true);
    if (how == "ordered") out.result_ordered({{"resultType", "input_required"}});
    if (how == "error") out.error({error_code::invalid_params, "no", std::nullopt});
    if (how == "abandon") out.abandon();
    if (how == "twice") {
      out.result(json::object());
      out.error({error_code::internal_error, "late", std::nullopt});  // ignored, and not reported
    }
    if (how == "hold") held.set_value(out);
  });
  f.session->start();
  for (const auto* how : {"result", "input_required", "text", "ordered", "error", "abandon", "twice"}) {
    f.client.request(how, "answer", {{"how", how}});
    if (std::string(how) != "abandon") REQUIRE(f.client.next());
  }
  // The observer runs just after the answer is sent: the client may read the last one first.
  REQUIRE(test_support::eventually([&] { return ends.count() == 7; }));
  using Kind = jsonrpc::Answered::Kind;
  CHECK(ends.seen[0].kind == Kind::result);
  CHECK_FALSE(ends.seen[0].input_required);
  CHECK(ends.seen[1].input_required);  // read from the result's resultType
  CHECK(ends.seen[2].input_required);  // as the sender of the text said
  CHECK(ends.seen[3].input_required);
  CHECK(ends.seen[4].kind == Kind::error);
  CHECK(ends.codes[4] == error_code::invalid_params);
  CHECK(ends.seen[5].kind == Kind::abandoned);
  CHECK(ends.seen[6].kind == Kind::result);
  CHECK(ends.codes[6] == 0);

  SECTION("a request the peer cancels ends cancelled, and the handler's late answer is not reported") {
    f.client.request("c", "answer", {{"how", "hold"}});
    auto out = held.get_future().get();
    f.client.notify("notifications/cancelled", {{"requestId", "c"}});
    REQUIRE(test_support::eventually([&] { return ends.count() == 8; }));
    out.result(json::object());
    CHECK(ends.count() == 8);
    CHECK(ends.seen[7].kind == Kind::cancelled);
    // An observer set after the end hears of it at once.
    Ends late;
    out.on_answered(late.observer());
    REQUIRE(late.count() == 1);
    CHECK(late.seen[0].kind == Kind::cancelled);
  }
  SECTION("a request whose session ends unanswered ends cancelled") {
    f.client.request("d", "answer", {{"how", "hold"}});
    auto out = held.get_future().get();
    f.client.transport().close();
    f.session->wait_closed();
    REQUIRE(test_support::eventually([&] { return ends.count() == 8; }));
    CHECK(ends.seen[7].kind == Kind::cancelled);
  }
}

TEST_CASE("cancel_pending cancels every request still pending, each on the wire once", "[session][cancel]") {
  Fixture f;
  f.session->start();
  Collector c;
  for (int i = 0; i < 3; ++i) f.session->send_request("test/x", json::object(), c.handler(i));
  std::vector<json> ids;
  for (int i = 0; i < 3; ++i) ids.push_back((*f.client.next())["id"]);
  f.client.respond(ids[1], json::object());  // answered before: not cancelled
  REQUIRE(c.wait_for(1));
  CHECK(f.session->cancel_pending("shutting down") == 2);
  REQUIRE(c.wait_for(3));
  CHECK(c.got[0][0].failure == RequestFailure::cancelled);
  CHECK(c.got[1][0].result);
  CHECK(c.got[2][0].failure == RequestFailure::cancelled);
  std::set<json> told;  // in no particular order
  for (int i = 0; i < 2; ++i) {
    const auto n = f.client.next();
    REQUIRE(n);
    CHECK((*n)["method"] == "notifications/cancelled");
    CHECK((*n)["params"]["reason"] == "shutting down");
    told.insert((*n)["params"]["requestId"]);
  }
  CHECK(told == std::set<json>{ids[0], ids[2]});
  CHECK(f.session->pending_requests() == 0);
  CHECK(f.session->cancel_pending("again") == 0);
}

TEST_CASE("closing fails every pending request with transport_closed", "[session][close]") {
  Fixture f;
  f.session->start();
  Collector c;
  for (int i = 0; i < 5; ++i) f.session->send_request("test/x", json::object(), c.handler(i));
  for (int i = 0; i < 5; ++i) REQUIRE(f.client.next());
  f.client.transport().close();  // the client goes away
  REQUIRE(c.wait_for(5));
  for (int i = 0; i < 5; ++i) CHECK(c.got[i][0].failure == RequestFailure::transport_closed);
  CHECK(f.session->pending_requests() == 0);
  f.session->wait_closed();
  CHECK(f.session->closed());
  f.session->send_request("test/after", json::object(), c.handler(9));
  REQUIRE(c.wait_for(6));
  CHECK(c.got[9][0].failure == RequestFailure::transport_closed);
  CHECK(f.session->pending_requests() == 0);
}

TEST_CASE("thousands of requests in flight at once, answered in reverse order", "[session][load]") {
  constexpr int kCount = 10000;
  Fixture f(kCount);  // above the default limit of requests pending at once
  f.session->start();
  std::atomic<int> done{0};
  std::atomic<int> right{0};
  for (int i = 0; i < kCount; ++i) {
    f.session->send_request("test/n", {{"n", i}}, [&, i](RequestOutcome o) {
      if (o.result && (*o.result)["n"] == i) ++right;
      ++done;
    });
  }
  std::vector<json> requests;
  for (int i = 0; i < kCount; ++i) {
    auto request = f.client.next();
    REQUIRE(request);
    requests.push_back(std::move(*request));
  }
  CHECK(f.session->pending_requests() == kCount);
  for (auto it = requests.rbegin(); it != requests.rend(); ++it) f.client.respond((*it)["id"], (*it)["params"]);
  for (int i = 0; i < 6000 && done < kCount; ++i) std::this_thread::sleep_for(10ms);  // kPatience
  CHECK(done == kCount);
  CHECK(right == kCount);
  CHECK(f.session->pending_requests() == 0);
}

TEST_CASE("blocking call() from another thread", "[session]") {
  Fixture f;
  f.session->start();
  auto result = std::async(std::launch::async, [&] { return f.session->call("test/x", {{"a", 1}}); });
  const auto m = f.client.next();
  f.client.respond((*m)["id"], {{"b", 2}});
  CHECK((*result.get().result)["b"] == 2);
}

}  // namespace connection_test
