#!/usr/bin/env bash
# Benchmarks against the peers, printed as one table with ratios (bench/node/report.mjs). Not part
# of the pass/fail tests. Takes about 4 minutes, most of it quicktype's 200 invocations, plus about
# 5 minutes for sections 5 and 6, 4 for section 8 and 2 for section 9 (Streamable HTTP, loopback
# only, every run bounded).
#   1. decode + validate of one accepted response: elicitgen vs nlohmann floors, hand-written
#      extraction and ajv + ajv-formats;
#   2. generator throughput on 200 schemas, one invocation and 200, vs quicktype (C++ target);
#   3. compile time at -O2: a generated .cpp vs a TU that includes nlohmann/json.hpp and parses one
#      value (target: at most 0.5x), and a generated header + tiny main vs quicktype's output
#      (target: at most 0.1x), all in one run, interleaved;
#   4. form elicitations per second over the in-memory transport; heap per pending elicitation;
#   5. N users waiting in a form over Streamable HTTP (bench/http_load.cpp, one client thread):
#      server RSS and threads per waiting user, a new client's initialize + ping p50/p99 meanwhile,
#      every answer completing; elicitgen (the sample server, and the same with an asynchronous
#      tool: bench/http_bench_server.cpp) vs the TypeScript SDK's server-everything (bench/ts-server);
#   6. form elicitation round trips per second over Streamable HTTP, 1, 64 and 1,024 in flight;
#   7. requestState (MCP 2026-07-28): ns per seal and per open of a ~500-byte payload
#      (bench/request_state_bench.cpp; libsodium XChaCha20-Poly1305);
#   8. modern round trips over stateless HTTP (MCP 2026-07-28: tools/call -> input_required ->
#      retry with inputResponses and requestState -> result; `elicit_http_load modern`) with 1, 64
#      and 256 in flight: the sample server's github_username vs the TypeScript SDK 2.x
#      (bench/ts-server-2: @modelcontextprotocol/server, the same tool through inputRequired(),
#      plain and with its HMAC requestState codec), each run BENCH_MODERN_REPEATS times, interleaved;
#      with the machine's floor at 1 in flight: a bare loopback TCP ping-pong of two 700-byte
#      exchanges per round trip, no work (bench/loopback_floor.cpp), with blocking I/O and with the
#      server side on an Asio reactor;
#   9. N tasks (io.modelcontextprotocol/tasks, SEP-2663) waiting in input_required over stateless
#      HTTP (`elicit_http_load tasks`, 64 keep-alive connections from one client thread): N tools/call
#      of the sample server's confirm_delete with the extension declared, each task polled
#      (tasks/get) until input_required; meanwhile the server's RSS per waiting task (target: at most
#      4 KiB) and threads, and tasks/get p50/p99 over 1,000 gets spread over the tasks; then every
#      task answered (tasks/update) and polled until completed, each result checked (all N must
#      complete, else the report says FAILED and the script exits non-zero). Run twice: a burst (made
#      as fast as the server answers) and paced (at most 64 tasks working at once); and, without HTTP, the
#      heap per waiting task in InMemoryTaskStore by member and the ns of its operations
#      (bench/task_store_memory.cpp), and the heap per task whose run waits for a worker while every
#      worker is held (bench/task_queue_memory.cpp: a run waiting to begin is its task id, not its
#      connection and request).
# Environment: BUILD_DIR (default build-bench), BENCH_QUICKTYPE_RUNS (default 200),
# BENCH_HTTP_USERS (default "1000 10000"), BENCH_HTTP_SAMPLES (new-client samples, default 100),
# BENCH_HTTP_SECONDS (per round-trip run, default 3), BENCH_MODERN_REPEATS and BENCH_MODERN_SECONDS
# (section 8: runs of each server and K, default 3, and seconds measured per run after 2 of warm-up, default 5),
# BENCH_TASKS (section 9: tasks, default 10000), BENCH_TASK_GETS (section 9: tasks/get samples, default 1000),
# BENCH_ONLY (a list of section numbers, e.g. "7 8": run only those, building and installing only
# what they need; the report shows what ran).
# Sections 5 and 6 need about 10,200 file descriptors per process for 10,000 users (section 9: about 130):
# elicit_http_load raises the soft limit to the hard one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
build=${BUILD_DIR:-build-bench}
quicktype_runs=${BENCH_QUICKTYPE_RUNS:-200}
http_users=${BENCH_HTTP_USERS:-1000 10000}
http_samples=${BENCH_HTTP_SAMPLES:-100}
http_seconds=${BENCH_HTTP_SECONDS:-3}
modern_repeats=${BENCH_MODERN_REPEATS:-3}
modern_seconds=${BENCH_MODERN_SECONDS:-5}
bench_tasks=${BENCH_TASKS:-10000}
task_gets=${BENCH_TASK_GETS:-1000}
only=${BENCH_ONLY:-}
want() { [[ -z $only || " $only " == *" $1 "* ]]; }
# Only the targets the chosen sections run.
targets=()
want 1 && targets+=(elicit_decode_bench)
{ want 2 || want 3; } && targets+=(elicitgen)
want 4 && targets+=(elicit_roundtrip_bench)
{ want 5 || want 6; } && targets+=(elicit_http_load elicitgen_http_server elicit_bench_http_server)
want 7 && targets+=(elicit_request_state_bench)
want 8 && targets+=(elicit_http_load elicitgen_http_server elicit_loopback_floor)
want 9 && targets+=(elicit_http_load elicitgen_http_server elicit_task_store_memory elicit_task_queue_memory)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DELICITGEN_BUILD_TESTS=OFF -DELICITGEN_BUILD_SAMPLES=ON >/dev/null
((${#targets[@]})) && cmake --build "$build" --target $(printf '%s\n' "${targets[@]}" | sort -u) >/dev/null

# ajv, ajv-formats, quicktype and node 22 (quicktype needs node >= 20.19), pinned in package-lock.json;
# sections 4, 7 and 9 alone need none of them (the report then runs on the machine's node).
if { want 1 || want 2 || want 3 || want 5 || want 6 || want 8; } &&
  [[ ! -x bench/node/node_modules/.bin/node || ! -d bench/node/node_modules/quicktype || ! -d bench/node/node_modules/ajv ]]; then
  (cd bench/node && npm ci --no-audit --no-fund --loglevel=error)
fi
# The TypeScript SDK's server-everything, pinned in bench/ts-server/package-lock.json.
if { want 5 || want 6; } && [[ ! -d bench/ts-server/node_modules/@modelcontextprotocol/server-everything ]]; then
  (cd bench/ts-server && npm ci --no-audit --no-fund --loglevel=error)
fi
# The TypeScript SDK 2.x server (@modelcontextprotocol/server), pinned in bench/ts-server-2/package-lock.json.
if want 8 && [[ ! -d bench/ts-server-2/node_modules/@modelcontextprotocol/server ]]; then
  (cd bench/ts-server-2 && npm ci --no-audit --no-fund --loglevel=error)
fi
node=$PWD/bench/node/node_modules/.bin/node
[[ -x $node ]] || node=$(command -v node)
quicktype=("$node" "$PWD/bench/node/node_modules/quicktype/dist/index.js")
elicitgen=$PWD/$build/generator/elicitgen
out=$PWD/$build/bench-results
rm -rf "$out" && mkdir -p "$out"
timings=$out/timings.txt
: >"$timings"

now_ns() { date +%s%N; }
record() { echo "$1 $2" >>"$timings"; }
# Runs a command, records its wall time in ms under `key`; a failing command stops the script.
timed() {
  local key=$1; shift
  local start; start=$(now_ns)
  "$@" >/dev/null
  record "$key" $((($(now_ns) - start) / 1000000))
}

if want 1; then
echo "1/9 decode + validate (Google Benchmark, ajv)" >&2
"$build/bench/elicit_decode_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json >"$out/decode.json" 2>/dev/null
"$node" bench/node/ajv_decode.mjs bench/schemas/contact_form.json bench/schemas/accepted_response.json >"$out/ajv.json"
fi

if want 2; then
echo "2/9 generator throughput (elicitgen, quicktype x $quicktype_runs)" >&2
"$node" bench/node/make_schemas.mjs "$out/schemas" 200
schemas=("$out"/schemas/*.json)
timed elicitgen_one_invocation_ms "$elicitgen" generate -o "$out/elicitgen-one" "${schemas[@]}"
generate_each() { for f in "${schemas[@]}"; do "$elicitgen" generate -o "$out/elicitgen-each" "$f"; done; }
timed elicitgen_200_invocations_ms generate_each
mkdir -p "$out/quicktype-one"
timed quicktype_one_invocation_ms "${quicktype[@]}" --lang c++ --src-lang schema --namespace bench \
  -o "$out/quicktype-one/all.hpp" "${schemas[@]}"
quicktype_each() {
  mkdir -p "$out/quicktype-each"
  for f in "${schemas[@]:0:$quicktype_runs}"; do
    "${quicktype[@]}" --lang c++ --src-lang schema --namespace bench -o "$out/quicktype-each/$(basename "$f" .json).hpp" "$f"
  done
}
timed quicktype_invocations_ms quicktype_each
record quicktype_invocations "$quicktype_runs"
record schema_files "${#schemas[@]}"
fi

if want 3; then
echo "3/9 compile time (g++ -O2, 3 runs each)" >&2
compile_dir=$out/compile
mkdir -p "$compile_dir"
"$elicitgen" generate -o "$compile_dir" --namespace bench bench/schemas/contact_form.json
"$node" -e 'const fs=require("fs");fs.writeFileSync(process.argv[2],JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1])).requestedSchema))' \
  bench/schemas/contact_form.json "$compile_dir/contact_form.schema.json"
"${quicktype[@]}" --lang c++ --src-lang schema --namespace bench --top-level ContactForm \
  -o "$compile_dir/contact_form_quicktype.hpp" "$compile_dir/contact_form.schema.json"
cxx=(g++ -std=c++17 -O2 -c -o /dev/null -I "$compile_dir" -I runtime/include -I /usr/include/nlohmann)
for run in 1 2 3; do
  timed "compile_elicitgen_main_ms_$run" "${cxx[@]}" bench/compile/main_elicitgen.cpp
  timed "compile_elicitgen_source_ms_$run" "${cxx[@]}" "$compile_dir/contact_form.cpp"
  timed "compile_quicktype_main_ms_$run" "${cxx[@]}" bench/compile/main_quicktype.cpp
  timed "compile_json_baseline_ms_$run" "${cxx[@]}" bench/compile/json_baseline.cpp
done
fi

if want 4; then
echo "4/9 runtime (in-memory transport)" >&2
"$build/bench/elicit_roundtrip_bench" --benchmark_format=json >"$out/roundtrip.json" 2>/dev/null
fi

# Sections 5 and 6: elicit_http_load starts each server itself and stops it (SIGTERM) at the end.
load=$PWD/$build/bench/elicit_http_load
sample_server=$PWD/$build/samples/elicitgen_http_server
bench_server=$PWD/$build/bench/elicit_bench_http_server
ts_server=("$node" --max-old-space-size=8192 "$PWD/bench/ts-server/node_modules/@modelcontextprotocol/server-everything/dist/index.js" streamableHttp)
nproc >"$out/nproc.txt"
# The servers' output goes to /dev/null (server-everything logs a line per request).

if want 5; then
echo "5/9 users waiting in a form over Streamable HTTP (N = $http_users)" >&2
# The sample's github_username is a blocking handler: only the pool's workers (4) reach the form;
# the rest queue, so the run stops waiting after 5 s without progress (then all are answered).
"$load" wait --users 1000 --samples "$http_samples" --quiet 5 --tool github_username -- "$sample_server" \
  >"$out/wait-sample-1000.json"
for n in $http_users; do
  "$load" wait --users "$n" --samples "$http_samples" --tool github_username_async -- "$bench_server" \
    >"$out/wait-elicitgen-$n.json"
  "$load" wait --users "$n" --samples "$http_samples" --tool trigger-elicitation-request --port-env PORT \
    -- "${ts_server[@]}" >"$out/wait-ts-$n.json"
done
# Where a session's memory goes: the same at the largest N with only the asynchronous tool per session.
"$load" wait --users "$n" --samples "$http_samples" --tool github_username_async -- "$bench_server" --minimal \
  >"$out/wait-minimal-$n.json"
fi

if want 6; then
echo "6/9 form elicitation round trips over Streamable HTTP (${http_seconds} s each)" >&2
for k in 1 64 1024; do
  sessions=$((k < 16 ? k : 16))
  common=(roundtrip --in-flight "$k" --sessions "$sessions" --seconds "$http_seconds")
  "$load" "${common[@]}" --tool github_username_async -- "$bench_server" >"$out/rt-elicitgen-$k.json"
  "$load" "${common[@]}" --tool github_username -- "$sample_server" >"$out/rt-sample-$k.json"
  "$load" "${common[@]}" --tool trigger-elicitation-request --port-env PORT \
    -- "${ts_server[@]}" >"$out/rt-ts-$k.json"
done
fi

if want 7; then
echo "7/9 requestState seal / open (Google Benchmark)" >&2
"$build/bench/elicit_request_state_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json >"$out/request_state.json" 2>/dev/null
fi

if want 8; then
# The same tool, github_username, asked for through each SDK's own multi-round-trip API; one client
# thread drives both. Repeats interleave the servers, so a burst of load elsewhere on the machine
# falls on all of them; the report takes medians.
echo "8/9 modern round trips over stateless HTTP (2 + ${modern_seconds} s each, x $modern_repeats)" >&2
ts2_server=("$node" "$PWD/bench/ts-server-2/server.mjs")
cut -d' ' -f1-3 /proc/loadavg >"$out/modern-loadavg-before.txt"
for rep in $(seq "$modern_repeats"); do
  for k in 1 64 256; do
    common=(modern --in-flight "$k" --warmup 2 --seconds "$modern_seconds" --tool github_username)
    "$load" "${common[@]}" -- "$sample_server" >"$out/modern-elicitgen-$k-$rep.json"
    "$load" "${common[@]}" -- "${ts2_server[@]}" >"$out/modern-ts-$k-$rep.json"
    "$load" "${common[@]}" -- "${ts2_server[@]}" --state >"$out/modern-ts-state-$k-$rep.json"
  done
  # What 1 in flight costs with no work at all on this machine (bench/loopback_floor.cpp): blocking
  # I/O, and the server side on an Asio reactor as the runtime's (its epoll_wait and wake-ups).
  "$build/bench/elicit_loopback_floor" 20000 700 >"$out/modern-floor-$rep.json"
  "$build/bench/elicit_loopback_floor" 20000 700 asio >"$out/modern-floor-asio-$rep.json"
done
cut -d' ' -f1-3 /proc/loadavg >"$out/modern-loadavg-after.txt"
fi

if want 9; then
# One client thread, 64 keep-alive connections; the sample server keeps its tasks in its own memory
# (InMemoryTaskStore). Two runs: a burst (tasks made as fast as the server answers; their runs queue
# for its 4 workers) and paced (a connection makes its next task once its last one asks: at most 64
# working at once). Each bounded (each phase 300 s, --deadline 900 s).
echo "9/9 $bench_tasks tasks waiting in input_required over stateless HTTP (tasks extension), burst and paced" >&2
for pacing in burst paced; do
  "$load" tasks --tasks "$bench_tasks" --gets "$task_gets" --paced "$([[ $pacing == paced ]] && echo 1 || echo 0)" \
    --deadline 900 -- "$sample_server" >"$out/tasks-$pacing-$bench_tasks.json"
done
# Where a waiting task's bytes go in the store, and the store's costs (bench/task_store_memory.cpp).
"$build/bench/elicit_task_store_memory" "$bench_tasks" >"$out/task-store-memory.json"
# What a task costs while its run waits for a worker (bench/task_queue_memory.cpp).
"$build/bench/elicit_task_queue_memory" "$bench_tasks" 4 >"$out/task-queue-memory.json" || true
fi

# Exits non-zero when a section's correctness check failed (section 9: not every task completed).
"$node" bench/node/report.mjs "$out"
