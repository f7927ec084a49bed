// `elicitgen client --url ... --park` and `resume` across restarts of the sample HTTP server (issue
// 47): a parked input-required call resumed while the server is down (exit 5, the file kept), then
// after it started again on the same port with the same --state-keys (completed); and a task
// waiting in input_required, kept in Redis, answered after the process that made it was killed,
// through the next one.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "../redis/redis_server.hpp"
#include "../support/run_command.hpp"
#include "../support/sample_http_server.hpp"
#include "client_command.hpp"
#include "client_output.hpp"
#include "output_schema.hpp"
#include "park_scratch.hpp"
#include "test_paths.hpp"

namespace park_http_test {

using nlohmann::json;
using test_support::SampleHttpServer;

namespace {

using Scratch = test_support::ParkScratch;
using Output = test_support::ParkOutput;

Output run(const Scratch& s, const std::string& args) { return test_support::run_elicitgen_split(s, args); }

std::string first_key(const std::string& out) {
  INFO(out);
  return json::parse(out)["questions"][0]["key"].get<std::string>();
}

std::string text_of(const std::string& out) {
  INFO(out);
  return json::parse(out)["content"][0]["text"].get<std::string>();
}

}  // namespace

TEST_CASE("park over HTTP: resumed after the server restarted with the same keys", "[client][cli][park][http]") {
  Scratch s("park-http");
  const auto file = s.path("github.json");
  std::optional<SampleHttpServer> server(std::in_place, std::vector<std::string>{"--state-keys", s.path("keys")});
  const auto url = server->url;
  const auto port = std::to_string(server->port());
  const auto parked = run(s, "client --url '" + url + "' call github_username --park " + file);
  INFO(parked.err);
  REQUIRE(parked.exit_code == elicitgen::kClientParked);
  CHECK(json::parse(test_support::read_file(file))["server"] == json{{"transport", "http"}, {"url", url}});
  const auto key = first_key(parked.out);
  server.reset();  // stopped: nothing listens on its port
  const auto down = run(s, "client resume " + file + " --answer '" + key + "={\"name\":\"octocat\"}'");
  CHECK(down.exit_code == elicitgen::kClientUnreachable);
  CHECK_THAT(down.err, Catch::Contains("cannot connect") && Catch::Contains(file + " is kept"));
  REQUIRE(std::filesystem::exists(file));
  // Another process on the same port with the same keys opens the requestState the first sealed.
  server.emplace(std::vector<std::string>{"--port", port, "--state-keys", s.path("keys")});
  REQUIRE(server->url == url);
  const auto done = run(s, "client resume " + file + " --answer '" + key + "={\"name\":\"octocat\"}'");
  INFO(done.err);
  CHECK(done.exit_code == 0);
  CHECK(text_of(done.out) == R"(accept: {"name":"octocat"})");
  CHECK_FALSE(std::filesystem::exists(file));
}

TEST_CASE("park over HTTP: a task in input_required, in Redis, answered after its process died",
          "[client][cli][park][http][redis]") {
  Scratch s("park-http");
  test_support::RedisServer redis;
  const auto file = s.path("task.json");
  const std::vector<std::string> args{"--state-keys",     s.path("keys"),    "--redis", std::to_string(redis.port()),
                                      "--tasks-in-redis", "--task-lease-ms", "500"};
  std::optional<SampleHttpServer> server(std::in_place, args);
  const auto url = server->url;
  const auto parked =
      run(s, "client --url '" + url + "' call confirm_delete '{\"filename\":\"notes.txt\"}' --park " + file);
  INFO(parked.err);
  REQUIRE(parked.exit_code == elicitgen::kClientParked);
  const auto out = json::parse(parked.out);
  test_support::check_schema("client-output.schema.json", out);
  CHECK(out["kind"] == "task");
  CHECK(out["questions"][0]["message"] == "Delete notes.txt?");
  const auto f = json::parse(test_support::read_file(file));
  test_support::check_schema("parked-call.schema.json", f);
  CHECK(f["pending"]["kind"] == "task");
  CHECK(f["pending"]["taskId"] == out["task_id"]);
  const auto key = first_key(parked.out);
  auto restarted = args;
  restarted.insert(restarted.begin(), {"--port", std::to_string(server->port())});
  server.reset();  // the process that made the task and waits in its handler is gone
  server.emplace(restarted);
  const auto done = run(s, "client resume " + file + " --answer '" + key + "={\"confirm\":true}'");
  INFO(done.err);
  CHECK(done.exit_code == 0);
  CHECK(text_of(done.out) == "deleted notes.txt");
  CHECK_FALSE(std::filesystem::exists(file));
}

}  // namespace park_http_test
