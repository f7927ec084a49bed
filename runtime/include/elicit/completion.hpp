// Argument autocompletion (MCP 2025-11-25, Server, Utilities, "Completion"; unchanged in
// 2026-07-28): `completion/complete` asks for the values a prompt argument or a resource template
// variable may take, given what the user typed so far.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace elicit {

/// What the client asked to complete.
struct CompletionRequest {
  std::string argument;  ///< the prompt argument's or template variable's name
  std::string value;     ///< what the user has typed so far (may be empty)
  /// Arguments already resolved (`context.arguments`), for completions that depend on them.
  std::map<std::string, std::string> context;
};

/// The answer: at most 100 values are sent (the spec's limit); with more, the server sends the
/// first 100 with `hasMore: true` and `total` set to the count given here or values.size().
struct Completion {
  std::vector<std::string> values;
  std::optional<std::size_t> total = std::nullopt;  ///< all matches, when known and more than sent
  bool has_more = false;
};

/// Completes one argument. Runs on the transport's thread (an event thread), so it must not block;
/// an exception becomes JSON-RPC -32603 with a generic message (the text goes to the server log).
using Completer = std::function<Completion(const CompletionRequest&)>;

/// A completer over a fixed list: the options that start with the typed value (ASCII letters
/// compared case-insensitively), in the order given.
Completer complete_from(std::vector<std::string> options);

}  // namespace elicit
