// check_redis (elicit/redis/check.hpp): the start-up check that says why a Redis cannot be used,
// against a real redis-server on a free loopback port.
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>

#include <elicit/redis/check.hpp>

#include "redis_server.hpp"

namespace redis_check_test {

using elicit::check_redis;
using elicit::RedisOptions;
using test_support::RedisServer;
using namespace std::chrono_literals;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check_redis: a running Redis answers PING", "[redis][check]") {
  RedisServer server;
  RedisOptions options;
  options.port = server.port();
  CHECK(check_redis(options) == std::nullopt);
}

TEST_CASE("check_redis: nothing listening says where and why", "[redis][check]") {
  RedisOptions options;
  options.port = test_support::free_loopback_port();
  REQUIRE(options.port != 0);
  const auto why = check_redis(options);
  REQUIRE(why);
  CHECK(contains(*why, "cannot connect to 127.0.0.1:" + std::to_string(options.port)));
  CHECK(contains(*why, "refused"));

  RedisServer server;  // and after it stops, the same
  options.port = server.port();
  REQUIRE_FALSE(check_redis(options));
  server.stop();
  const auto after = check_redis(options);
  REQUIRE(after);
  CHECK(contains(*after, "cannot connect"));
}

TEST_CASE("check_redis: a password Redis needs, or one it refuses", "[redis][check]") {
  RedisServer server(std::string("s3cret pass"));
  RedisOptions options;
  options.port = server.port();
  const auto missing = check_redis(options);  // no AUTH: PING answers NOAUTH
  REQUIRE(missing);
  CHECK(contains(*missing, "PING to 127.0.0.1:" + std::to_string(server.port()) + " answered: NOAUTH"));
  options.password = "wrong";
  const auto wrong = check_redis(options);
  REQUIRE(wrong);
  CHECK(contains(*wrong, "AUTH refused by 127.0.0.1:" + std::to_string(server.port())));
  options.password = "s3cret pass";
  CHECK(check_redis(options) == std::nullopt);
}

TEST_CASE("check_redis: bad options throw as the stores do", "[redis][check]") {
  RedisOptions options;
  options.port = 0;
  CHECK_THROWS_AS(check_redis(options), std::invalid_argument);
  options.port = 6379;
  options.connect_timeout = 0ms;
  CHECK_THROWS_AS(check_redis(options), std::invalid_argument);
}

}  // namespace redis_check_test
