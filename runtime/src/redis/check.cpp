#include "elicit/redis/check.hpp"

#include "connection_pool.hpp"

namespace elicit {

std::optional<std::string> check_redis(const RedisOptions& options) {
  redis_detail::check_options(options, "check_redis");
  const redis_detail::SigpipeBlock block;
  std::string why;
  const auto c = redis_detail::connect(options, &why);
  if (!c) return why;
  const auto address = options.host + ":" + std::to_string(options.port);
  const redis_detail::Reply reply(static_cast<redisReply*>(redisCommand(c.get(), "PING")));
  if (!reply) return "no answer to PING from " + address + ": " + c->errstr;
  const std::string text = reply->str ? std::string(reply->str, reply->len) : std::string();
  if (reply->type == REDIS_REPLY_STATUS && text == "PONG") return std::nullopt;
  return "PING to " + address + " answered: " + (text.empty() ? "(no text)" : text);
}

}  // namespace elicit
