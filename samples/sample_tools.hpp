// The sample tools of both sample servers.
#pragma once

#include <memory>

#include <elicit/completion_store.hpp>
#include <elicit/server_session.hpp>

/// Adds every sample tool to `server`, and add_mrtr_fixtures(); URL-mode completions (the sign_in
/// tool) go to an InMemoryCompletionStore of this server's own.
void add_sample_tools(elicit::Server& server);
/// The same, with URL-mode completions in `completions`: shared by every server process that uses
/// the same store (e.g. a RedisCompletionStore); null: an InMemoryCompletionStore.
void add_sample_tools(elicit::Server& server, std::shared_ptr<elicit::CompletionStore> completions);
/// Adds the tools the conformance suite's scenarios call by name: content kinds, a tool error, log
/// messages, progress, sampling.
void add_conformance_fixtures(elicit::Server& server);
/// Adds the conformance suite's 2026-07-28 fixtures (input-required results, stateless server).
void add_mrtr_fixtures(elicit::Server& server);
/// Adds the fixtures of the conformance suite's tasks-* scenarios (the io.modelcontextprotocol/tasks
/// extension): greet, slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input,
/// test_tool_with_task.
void add_task_fixtures(elicit::Server& server);
