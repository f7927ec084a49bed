#include <catch2/catch.hpp>

#include <elicit/jsonrpc/message.hpp>

namespace jsonrpc_test {

using namespace elicit;

TEST_CASE("requests, notifications and responses parse, with string or integer ids", "[jsonrpc]") {
  auto r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  REQUIRE(r.message);
  const auto& req = std::get<Request>(*r.message);
  CHECK(std::get<std::int64_t>(req.id) == 7);
  CHECK(req.method == "ping");
  CHECK(req.params.is_null());

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"x"}})");
  CHECK(std::get<std::string>(std::get<Request>(*r.message).id) == "abc");

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  CHECK(std::get<Notification>(*r.message).method == "notifications/initialized");

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":3,"result":{"action":"accept"}})");
  CHECK((*std::get<Response>(*r.message).result)["action"] == "accept");

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no","data":{"x":1}}})");
  const auto& err = *std::get<Response>(*r.message).error;
  CHECK(err.code == -32602);
  CHECK(err.message == "no");
  CHECK((*err.data)["x"] == 1);
}

TEST_CASE("bad messages get the standard error codes and never throw", "[jsonrpc][errors]") {
  auto r = jsonrpc::parse_message("{not json");
  REQUIRE(r.error);
  CHECK(r.error->code == error_code::parse_error);
  CHECK_FALSE(r.error_id);

  r = jsonrpc::parse_message(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  CHECK(r.error->code == error_code::invalid_request);

  r = jsonrpc::parse_message(R"("just a string")");
  CHECK(r.error->code == error_code::invalid_request);

  r = jsonrpc::parse_message(R"({"jsonrpc":"1.0","id":5,"method":"ping"})");
  CHECK(r.error->code == error_code::invalid_request);
  CHECK(std::get<std::int64_t>(*r.error_id) == 5);

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})");
  CHECK(r.error->code == error_code::invalid_request);
  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  CHECK(r.error->code == error_code::invalid_request);
  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":true,"method":"ping"})");
  CHECK(r.error->code == error_code::invalid_request);
  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":1,"method":42})");
  CHECK(r.error->code == error_code::invalid_request);
  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":1,"method":"x","params":"str"})");
  CHECK(r.error->code == error_code::invalid_request);

  // Responses that cannot be matched get no answer (answering would start a ping-pong).
  CHECK(jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})").ignore);
  CHECK(jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":1})").ignore);
  CHECK(jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{}})").ignore);

  r = jsonrpc::parse_message(R"({"jsonrpc":"2.0","id":2,"error":"oops"})");
  CHECK(std::get<Response>(*r.message).error->message.find("malformed error object") == 0);
  CHECK(jsonrpc::parse_message(std::string(1, '\0')).error->code == error_code::parse_error);
  CHECK(jsonrpc::parse_message("").error->code == error_code::parse_error);
}

TEST_CASE("serialisation is the JSON-RPC 2.0 wire form", "[jsonrpc]") {
  CHECK(jsonrpc::serialize(Request{RequestId{std::int64_t{1}}, "ping", nullptr}) ==
        R"({"id":1,"jsonrpc":"2.0","method":"ping"})");
  CHECK(jsonrpc::serialize(Notification{"n", {{"a", 1}}}) == R"({"jsonrpc":"2.0","method":"n","params":{"a":1}})");
  CHECK(jsonrpc::serialize(Response{RequestId{"x"}, nlohmann::json::object(), std::nullopt}) ==
        R"({"id":"x","jsonrpc":"2.0","result":{}})");
  CHECK(
      jsonrpc::serialize(Response{RequestId{std::int64_t{2}}, std::nullopt, RpcError{-32601, "nope", std::nullopt}}) ==
      R"({"error":{"code":-32601,"message":"nope"},"id":2,"jsonrpc":"2.0"})");
  CHECK(jsonrpc::serialize_error_without_id(RpcError{-32700, "bad", std::nullopt}) ==
        R"({"error":{"code":-32700,"message":"bad"},"id":null,"jsonrpc":"2.0"})");
  CHECK(to_string(RequestId{"1"}) != to_string(RequestId{std::int64_t{1}}));
}

}  // namespace jsonrpc_test
