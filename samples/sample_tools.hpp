// The sample tools of both sample servers.
#pragma once

#include <elicit/server.hpp>

/// Adds every sample tool to `server`.
void add_sample_tools(elicit::Server& server);
