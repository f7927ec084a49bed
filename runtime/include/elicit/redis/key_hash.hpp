// How the Redis stores name an id's keys: by a hash of the id, so that Redis never holds the id
// itself (a page's URL, a task's id): the Redis stores, and the stores built on elicit::redis (the
// browser forms wing's RedisPageStore).
#pragma once

#include <string>
#include <string_view>

namespace elicit::redis {

/// The hex BLAKE2b-128 of `id` (32 hex digits): what names an id's keys in Redis, which so never
/// holds the id itself (a page's URL, a task's id).
std::string id_hash(std::string_view id);

}  // namespace elicit::redis
