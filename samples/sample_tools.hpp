// The sample tools of both sample servers.
#pragma once

#include <elicit/server.hpp>

/// Adds every sample tool to `server`, and add_mrtr_fixtures().
void add_sample_tools(elicit::Server& server);
/// Adds the conformance suite's 2026-07-28 fixtures (input-required results, stateless server).
void add_mrtr_fixtures(elicit::Server& server);
