// `elicitgen client call TOOL ... --park FILE` and `elicitgen client resume FILE`: a 2026-07-28 tool
// call that stops at the first question nobody here can answer, written to a park file
// (parked_call.hpp), and goes on later, from another process, once the answers are known; for
// scripts and agents that read a form before they answer it. No daemon: everything needed is in
// the file and in the server's requestState (or its task).
#pragma once

#include <nlohmann/json.hpp>

#include "client_command.hpp"
#include "client_connect.hpp"
#include "client_output.hpp"

namespace elicitgen {

/// `call ... --park FILE`: runs the call, answering what --answers or --defaults can (never the
/// terminal), and at the first round they cannot answer writes FILE (refused when it exists,
/// before connecting), prints the parked outcome on stdout (one JSON object: outcome "parked",
/// park_file, kind, round, protocol_version, questions) and the questions on stderr, and returns
/// kClientParked (75). A call that completes prints its result as a plain call does (0, 1 or 2).
/// A server of the 2025-11-25 era cannot park a question (its session holds it): 2, before the
/// tool is called.
int call_and_park(const ClientCommand& command, const ServerTarget& target, const nlohmann::json& arguments,
                  ClientOutput& out);

/// `resume FILE`: reads and locks FILE, answers its questions from --answer KEY=JSON, --answers,
/// --defaults or the terminal (every one must be answered, else 2 and FILE untouched), connects
/// to the server the file names with the revision it names, and goes on with the call. Completed:
/// the result on stdout, FILE removed, 0 or 1. Another round nobody here answers: FILE rewritten
/// (round + 1), 75. The server no longer honours the call (-32602: requestState expired or sealed
/// with other keys, the task gone): 6, FILE kept. Any other failure: 2, FILE kept.
int run_resume(const ClientCommand& command);

}  // namespace elicitgen
