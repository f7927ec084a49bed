// Whether a Redis server can be used with given RedisOptions: for a start-up check. The stores of
// elicit::redis connect lazily and never fail to construct for an unreachable Redis (they recover by
// themselves once it is back), so a wrong address or password would otherwise show only at the
// first request that needs Redis. Library elicit::redis (hiredis).
#pragma once

#include <optional>
#include <string>

#include "elicit/redis/completion_store.hpp"

namespace elicit {

/// Connects once to `options`' Redis (`host`, `port`, `connect_timeout`, `command_timeout`, AUTH
/// with `password` when set) and sends PING. Returns nullopt when Redis answers PONG, else why it
/// cannot be used, e.g. "cannot connect to 127.0.0.1:6390: Connection refused", "AUTH refused by
/// 127.0.0.1:6379: WRONGPASS ...", "PING to 127.0.0.1:6379 answered: NOAUTH Authentication
/// required." Never throws for what Redis does; throws std::invalid_argument for a port outside
/// 1..65535 or a timeout that is not positive (as the stores do). Blocks the calling thread up to
/// connect_timeout + 2 x command_timeout (ms). Thread-safe; SIGPIPE is handled as by the stores.
std::optional<std::string> check_redis(const RedisOptions& options);

}  // namespace elicit
