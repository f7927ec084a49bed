// The umbrella header of elicit::runtime: everything a server or a host (client) of MCP elicitation
// needs, with the layers below it. Streamable HTTP (<elicit/http/...>, elicit::http) and the Redis
// completion store (<elicit/redis/...>, elicit::redis) are libraries of their own, included apart.
#pragma once

#include "elicit/client.hpp"
#include "elicit/completion.hpp"
#include "elicit/completion_store.hpp"
#include "elicit/content_blocks.hpp"
#include "elicit/elicitation.hpp"
#include "elicit/jsonrpc/memory_transport.hpp"
#include "elicit/jsonrpc/stdio_transport.hpp"
#include "elicit/logging.hpp"
#include "elicit/server_session.hpp"
#include "elicit/typed_tool.hpp"
#include "elicit/user_interaction.hpp"
